import Domain
import Foundation
import Synchronization
import Telemetry

/// Application-level group commit: concurrent calls in this process that fall in the same lane are run by one leader
/// as one batch (one transaction, one commit, one WAL flush), while the others wait. `EventLog.append` batches
/// `AppendCommand`s (one statement for the whole batch), `EventLog.transact` batches whole commands (a savepoint
/// each, `CommandBatch`).
///
/// A lane is a string the caller chooses (an org, or a bucket of orgs): every org is always in the same lane, so one
/// org's calls never race each other in two batches. The first caller in a lane leads: it takes its own item and
/// whatever is queued in the lane (up to `maxBatch` items), runs them with `execute`, hands each waiter its own
/// result, and passes the lead to the oldest item that queued meanwhile (so no caller runs other callers' batches
/// for long). An error of the whole batch is `execute`'s to split. Different lanes never wait for each other.
final class GroupCommit<Item, Output>: Sendable {
    /// One waiting item: its result or the lead arrives through `semaphore`.
    private final class Waiter: @unchecked Sendable {
        let item: Item
        let semaphore = DispatchSemaphore(value: 0)
        /// When the item entered its lane (`StageTimings.now()`).
        let queuedAt = StageTimings.now()
        /// Set before `semaphore` is signalled (which orders the write before the waiter's read); nil = lead.
        var result: Result<Output, any Error>?

        init(_ item: Item) { self.item = item }
    }

    /// Per lane: items waiting for the next batch; a lane is in the map while a leader is at work for it.
    private let queues = Mutex<[String: [Waiter]]>([:])
    /// The most items in one batch.
    let maxBatch: Int

    init(maxBatch: Int = 64) {
        self.maxBatch = max(1, maxBatch)
    }

    /// Runs `item`, alone or in a batch with concurrent ones of `lane`; `execute` gets every batch and must answer
    /// one result per item, in order.
    func run(
        _ item: Item, lane: String, execute: ([Item]) -> [Result<Output, any Error>]
    ) throws -> Output {
        let me = Waiter(item)
        let leads = queues.withLock { queues -> Bool in
            if queues[lane] != nil {
                queues[lane]!.append(me)
                return false
            }
            queues[lane] = []
            return true
        }
        if !leads {
            me.semaphore.wait()
            if let result = me.result { return try result.get() }
        }
        let batch = queues.withLock { queues -> [Waiter] in
            let taken = Array(queues[lane, default: []].prefix(maxBatch - 1))
            queues[lane]?.removeFirst(taken.count)
            return [me] + taken
        }
        let started = StageTimings.now()
        for waiter in batch { StageTimings.shared.record(.commitQueue, seconds: started - waiter.queuedAt) }
        var results = execute(batch.map(\.item))
        let ran = StageTimings.now() - started
        for _ in batch { StageTimings.shared.record(.commitBatch, seconds: ran) }
        if results.count != batch.count {
            let error = EventStoreError.malformedRow("a batch of \(batch.count) items got \(results.count) results")
            results = batch.map { _ in .failure(error) }
        }
        let next = queues.withLock { queues -> Waiter? in
            guard let first = queues[lane]?.first else {
                queues[lane] = nil
                return nil
            }
            queues[lane]!.removeFirst()
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

/// Lanes of orgs for group commit: the org itself (`count` 0), or one of `count` buckets by the org id's first bytes.
struct OrgLanes: Sendable {
    /// How many lanes orgs share; 0 = one lane per org.
    let count: Int

    init(_ count: Int) { self.count = max(0, count) }

    /// The lane of `org`.
    func lane(of org: UUID) -> String {
        guard count > 0 else { return org.lowercasedText }
        let bytes = org.uuid
        let number = (UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3))
        return "lane-" + String(number % UInt32(count))
    }
}
