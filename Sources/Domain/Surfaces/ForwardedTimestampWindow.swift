import Foundation

/// How old or how far ahead an `x-ea-timestamp` may be. A forwarding server's retries resend identical bytes with the
/// first attempt's timestamp, so old ones must pass (replays are absorbed by the notification's dedupe, not here);
/// a little clock skew ahead is allowed.
public struct ForwardedTimestampWindow: Sendable, Equatable {
    /// Hours a timestamp may lie in the past (`SURFACE_TIMESTAMP_MAX_AGE_HOURS`, default 72).
    public let maxAgeHours: Int
    /// Seconds a timestamp may lie in the future (300).
    public let maxAheadSeconds: Int

    /// The hours `SURFACE_TIMESTAMP_MAX_AGE_HOURS` may take.
    public static let maxAgeHoursRange = 1...720
    /// 72 hours back, 5 minutes ahead (issue 15).
    public static let standard = ForwardedTimestampWindow(maxAgeHours: 72)

    public init(maxAgeHours: Int, maxAheadSeconds: Int = 300) {
        self.maxAgeHours = maxAgeHours
        self.maxAheadSeconds = maxAheadSeconds
    }

    /// Whether `timestamp` (unix seconds) is inside the window at `now`; both edges are inside.
    public func check(_ timestamp: Int64, now: Date) -> Result<Void, ForwardedRefusal> {
        let current = Int64(now.timeIntervalSince1970.rounded(.down))
        if timestamp < current - Int64(maxAgeHours) * 3600 {
            return .failure(.timestampTooOld(maxAgeHours: maxAgeHours))
        }
        if timestamp > current + Int64(maxAheadSeconds) {
            return .failure(.timestampInFuture(maxAheadSeconds: maxAheadSeconds))
        }
        return .success(())
    }
}
