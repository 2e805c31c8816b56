import Foundation
import Synchronization

/// Application-level group commit for `EventLog.append`: concurrent appends in this process that fall in the same
/// lane are run by one leader as one batch (one statement, one commit, one WAL flush), while the others wait.
///
/// A lane is an org (`lanes` 0) or one of `lanes` buckets of orgs (by a hash of the org id): every org is always
/// in the same lane, so one org's appends never race each other in two batches. The first caller in a lane leads:
/// it takes its own command and whatever is queued in the lane (up to `maxBatch` commands), runs them with
/// `execute`, hands each waiter its own result, and passes the lead to the oldest command that queued meanwhile (so
/// no caller runs other callers' batches for long). A command refused for its expected version fails alone; an
/// error of the whole batch is `execute`'s to split (see `EventLog`). Different lanes never wait for each other.
final class GroupCommit: Sendable {
    /// One waiting command: its result or the lead arrives through `semaphore`.
    private final class Waiter: @unchecked Sendable {
        let command: AppendCommand
        let semaphore = DispatchSemaphore(value: 0)
        /// Set before `semaphore` is signalled (which orders the write before the waiter's read); nil = lead.
        var result: Result<[RecordedEvent], any Error>?

        init(_ command: AppendCommand) { self.command = command }
    }

    /// Per lane: commands waiting for the next batch; a lane is in the map while a leader is at work for it.
    private let queues = Mutex<[String: [Waiter]]>([:])
    /// The most commands in one batch.
    let maxBatch: Int
    /// How many lanes orgs share; 0 = one lane per org.
    let lanes: Int

    init(maxBatch: Int = 64, lanes: Int = 0) {
        self.maxBatch = max(1, maxBatch)
        self.lanes = max(0, lanes)
    }

    /// The lane of `org`: the org itself, or a bucket by the org id's first bytes.
    func lane(of org: UUID) -> String {
        guard lanes > 0 else { return org.uuidString }
        let bytes = org.uuid
        let number = (UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3))
        return "lane-" + String(number % UInt32(lanes))
    }

    /// Runs `command`, alone or in a batch with concurrent ones of its lane; `execute` gets every batch and must
    /// answer one result per command, in order.
    func append(
        _ command: AppendCommand, execute: ([AppendCommand]) -> [Result<[RecordedEvent], any Error>]
    ) throws -> [RecordedEvent] {
        let key = lane(of: command.org)
        let me = Waiter(command)
        let leads = queues.withLock { queues -> Bool in
            if queues[key] != nil {
                queues[key]!.append(me)
                return false
            }
            queues[key] = []
            return true
        }
        if !leads {
            me.semaphore.wait()
            if let result = me.result { return try result.get() }
        }
        let batch = queues.withLock { queues -> [Waiter] in
            let taken = Array(queues[key, default: []].prefix(maxBatch - 1))
            queues[key]?.removeFirst(taken.count)
            return [me] + taken
        }
        var results = execute(batch.map(\.command))
        if results.count != batch.count {
            let error = EventStoreError.malformedRow("a batch of \(batch.count) appends got \(results.count) results")
            results = batch.map { _ in .failure(error) }
        }
        let next = queues.withLock { queues -> Waiter? in
            guard let first = queues[key]?.first else {
                queues[key] = nil
                return nil
            }
            queues[key]!.removeFirst()
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
