import Foundation

/// The stream of an organization's audit settings; it lives in the organization's own log.
public enum AuditStreams {
    /// `AuditorURLSet` events.
    public static let auditor = "auditor"
}

/// An organization named where each of its new signed chain heads is also delivered (issue 16 §1), or stopped that:
/// `url` is null once cleared. Set by an operator (`handoff admin org set-auditor-url`).
public struct AuditorURLSet: EventPayload, Equatable {
    public static let eventType = "AuditorURLSet"
    public static let schemaVersion = 1
    /// The auditor's URL (checked like a forward URL: http(s), a public host); nil: no auditor URL any more.
    public var url: String?

    public init(url: String?) {
        self.url = url
    }

    private enum CodingKeys: String, CodingKey { case url }

    /// Writes `"url":null` when cleared, so the event says so rather than leaving the member out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
    }
}
