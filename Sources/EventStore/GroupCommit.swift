import Foundation
import Synchronization

/// Application-level group commit for `EventStore.append`: concurrent appends to the same org in this process are
/// run by one leader as one batch (one statement, one commit, one WAL flush), while the others wait.
///
/// The first caller for an org leads: it takes its own command and whatever is queued for that org (up to
/// `maxBatch` commands), runs them with `execute`, hands each waiter its own result, and passes the lead to the
/// oldest command that queued meanwhile (so no caller runs other callers' batches for long). A command refused for
/// its expected version fails alone; an error of the whole batch is `execute`'s to split (see `EventStore`).
/// Different orgs never wait for each other here.
final class GroupCommit: Sendable {
    /// One waiting command: its result or the lead arrives through `semaphore`.
    private final class Waiter: @unchecked Sendable {
        let command: AppendCommand
        let semaphore = DispatchSemaphore(value: 0)
        /// Set before `semaphore` is signalled (which orders the write before the waiter's read); nil = lead.
        var result: Result<[RecordedEvent], any Error>?

        init(_ command: AppendCommand) { self.command = command }
    }

    /// Per org: commands waiting for the next batch; an org is in the map while a leader is at work for it.
    private let queues = Mutex<[UUID: [Waiter]]>([:])
    /// The most commands in one batch.
    let maxBatch: Int

    init(maxBatch: Int = 64) { self.maxBatch = max(1, maxBatch) }

    /// Runs `command` for `org`, alone or in a batch with concurrent ones; `execute` gets every batch and must
    /// answer one result per command, in order.
    func append(
        _ command: AppendCommand, org: UUID,
        execute: ([AppendCommand]) -> [Result<[RecordedEvent], any Error>]
    ) throws -> [RecordedEvent] {
        let me = Waiter(command)
        let leads = queues.withLock { queues -> Bool in
            if queues[org] != nil {
                queues[org]!.append(me)
                return false
            }
            queues[org] = []
            return true
        }
        if !leads {
            me.semaphore.wait()
            if let result = me.result { return try result.get() }
        }
        let batch = queues.withLock { queues -> [Waiter] in
            let taken = Array(queues[org, default: []].prefix(maxBatch - 1))
            queues[org]?.removeFirst(taken.count)
            return [me] + taken
        }
        var results = execute(batch.map(\.command))
        if results.count != batch.count {
            let error = EventStoreError.malformedRow("a batch of \(batch.count) appends got \(results.count) results")
            results = batch.map { _ in .failure(error) }
        }
        let next = queues.withLock { queues -> Waiter? in
            guard let first = queues[org]?.first else {
                queues[org] = nil
                return nil
            }
            queues[org]!.removeFirst()
            return first
        }
        for (waiter, result) in zip(batch.dropFirst(), results.dropFirst()) {
            waiter.result = result
            waiter.semaphore.signal()
        }
        next?.semaphore.signal()
        return try results[0].get()
    }
}
