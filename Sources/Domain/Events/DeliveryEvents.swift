import Foundation

/// The stream names of forward deliveries (issue 14, docs/store-notifications.md "Forwarding").
public enum DeliveryStreams {
    /// The attempts of forwarding one store notification (`StoreNotificationReceived` `notificationEventId`) to one
    /// destination: `forward-<event id>-<destination id>`.
    public static func forward(notificationEventId: UUID, destinationId: String) -> String {
        "forward-\(notificationEventId.lowercasedText)-\(destinationId)"
    }
}

/// One attempt at forwarding a store notification to a destination: what `NotificationForwarded` and
/// `ForwardFailed` carry.
public struct ForwardAttemptFacts: Codable, Sendable, Equatable {
    public var appId: String
    /// The `StoreNotificationReceived` forwarded (its event id, lowercase).
    public var notificationEventId: String
    public var destinationId: String
    /// `x3` or `attribloom`.
    public var scheme: String
    /// The host of the URL the attempt went to (lowercase; empty when the URL did not validate).
    public var urlHost: String
    /// The receiver's HTTP status, when it answered.
    public var status: Int?
    /// Why the attempt did not count: no answer (`address refused`, `connect failed`, `timeout`, `tls`, `invalid url`,
    /// `too large`, `transport`); nil when the receiver answered.
    public var error: String?
    public var durationMs: Int
    /// The first bytes of the answer (`DeliveryAnswer.excerpt`).
    public var answer: String
    /// 1 for the first attempt, counting failed attempts on the job's ladder (an operator's retry starts again at 1).
    public var attempt: Int
    /// The `store-forward` job.
    public var jobId: Int

    public init(appId: String, notificationEventId: String, destinationId: String, scheme: String, urlHost: String,
                status: Int?, error: String?, durationMs: Int, answer: String, attempt: Int, jobId: Int) {
        self.appId = appId
        self.notificationEventId = notificationEventId
        self.destinationId = destinationId
        self.scheme = scheme
        self.urlHost = urlHost
        self.status = status
        self.error = error
        self.durationMs = durationMs
        self.answer = answer
        self.attempt = attempt
        self.jobId = jobId
    }
}

/// A store notification was forwarded to a destination and the receiver answered 2xx.
public struct NotificationForwarded: FlatEventPayload, Equatable {
    public static let eventType = "NotificationForwarded"
    public static let schemaVersion = 1
    public var facts: ForwardAttemptFacts
    public init(_ facts: ForwardAttemptFacts) { self.facts = facts }
}

/// An attempt at forwarding a store notification failed: the receiver answered something other than 2xx, or no
/// answer came. The job retries on its ladder (1 min … 24 h) and is `dead` after the last rung.
public struct ForwardFailed: FlatEventPayload, Equatable {
    public static let eventType = "ForwardFailed"
    public static let schemaVersion = 1
    public var facts: ForwardAttemptFacts
    public init(_ facts: ForwardAttemptFacts) { self.facts = facts }
}
