import Foundation

/// The forwarding secrets of a surface as they are kept: the current one, and after a rotation the one before it with
/// the instant its grace period ends. Generic over how a secret is held (sealed in storage, opened at intake).
public struct SurfaceSecrets<Secret: Sendable & Equatable>: Sendable, Equatable {
    /// The secret the last creation or rotation made.
    public var current: Secret
    /// The secret the last rotation replaced, while the projection keeps it (nil before any rotation).
    public var previous: Secret?
    /// Until when (exclusive) `previous` still verifies; nil exactly when `previous` is.
    public var previousValidUntil: Date?

    public init(current: Secret, previous: Secret? = nil, previousValidUntil: Date? = nil) {
        self.current = current
        self.previous = previous
        self.previousValidUntil = previousValidUntil
    }

    /// The secrets a signature may be made with at `now`: the current one, then the previous one while its grace
    /// period lasts (`now` before `previousValidUntil`). Only the last rotation's previous secret has a grace period:
    /// rotating again ends the one before at once.
    public func verifying(at now: Date) -> [Secret] {
        guard let previous, let until = previousValidUntil, now < until else { return [current] }
        return [current, previous]
    }
}
