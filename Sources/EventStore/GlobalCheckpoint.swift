/// A position in the global log: `(tx_id, global_pos)` of the last processed event.
///
/// Global readers order by `(tx_id, global_pos)` and only read events of transactions older than every running
/// one (`tx_id < pg_snapshot_xmin(pg_current_snapshot())`), so an event that commits after a later-numbered one is
/// never skipped. `global_pos` alone is not a safe checkpoint.
public struct GlobalCheckpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var transactionId: UInt64
    public var globalPosition: Int

    /// Before the first event.
    public static let start = GlobalCheckpoint(transactionId: 0, globalPosition: 0)

    public init(transactionId: UInt64, globalPosition: Int) {
        self.transactionId = transactionId
        self.globalPosition = globalPosition
    }

    public static func < (left: GlobalCheckpoint, right: GlobalCheckpoint) -> Bool {
        (left.transactionId, left.globalPosition) < (right.transactionId, right.globalPosition)
    }

    public var description: String { "(\(transactionId), \(globalPosition))" }
}
