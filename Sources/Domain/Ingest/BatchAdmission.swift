import Foundation

/// The decider of `POST /v1/m/batch` once the batch parsed: is it stored, and if not, why — the answer
/// `{"ok":true,"stored":false,"rev":N,"reason":…}`. Refusals of the request itself (key, app, shape) come before.
public enum BatchAdmission {
    /// Why a well-formed batch is not stored.
    public enum Reason: String, Sendable, Equatable {
        /// The app is paused (its AppConfig says `enabled: false`).
        case paused
        /// The documented bot rule: the `User-Agent` is not one of the SDKs'.
        case bot
        /// Analytics consent is not `g`.
        case consent
        /// The project's daily quota of stored batches is spent.
        case quota
    }

    /// The oldest a batch may be: its earliest time, corrected by `serverNow − at`, at most 7 days ago (else 400
    /// `invalid`, detail `at`).
    public static let maxAge: TimeInterval = 7 * 24 * 3600

    /// Decides storing a batch: paused first, then bot, then consent, then the quota (asked last, so a batch that
    /// would not be stored anyway spends none of it). `quotaLeft` is asked at most once. Nil: store it.
    public static func decide(appEnabled: Bool, userAgent: SDKUserAgent?, consent: IngestConsent,
                              quotaLeft: () -> Bool) -> Reason? {
        guard appEnabled else { return .paused }
        guard userAgent != nil else { return .bot }
        guard consent.storesBatches else { return .consent }
        guard quotaLeft() else { return .quota }
        return nil
    }

    /// How much to add to a device time to get server time: `serverNow − at` (the batch's own send time).
    public static func clockOffset(serverNow: Date, sentAt: Date) -> TimeInterval {
        serverNow.timeIntervalSince(sentAt)
    }

    /// How far past its own `at` a time in a batch may lie.
    public static let maxAhead: TimeInterval = 24 * 3600

    /// Refuses a batch whose earliest corrected time is more than `maxAge` before `serverNow`, or whose latest is more
    /// than `maxAhead` after it (400 `invalid`, detail names `at`): rows land only on days around today, whose
    /// partitions exist.
    public static func checkAge(earliestDeviceTime: Date, latestDeviceTime: Date? = nil, offset: TimeInterval,
                                serverNow: Date) -> Result<Void, IngestRefusal> {
        let corrected = earliestDeviceTime.addingTimeInterval(offset)
        guard serverNow.timeIntervalSince(corrected) <= maxAge else {
            return .failure(.invalid("at: the batch is older than 7 days"))
        }
        if let latest = latestDeviceTime?.addingTimeInterval(offset),
           latest.timeIntervalSince(serverNow) > maxAhead {
            return .failure(.invalid("at: a time of the batch is more than a day after at"))
        }
        return .success(())
    }
}
