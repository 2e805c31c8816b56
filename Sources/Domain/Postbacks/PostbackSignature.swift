/// What verifying a postback's signature with Apple's published keys found.
public enum PostbackSignature: String, Sendable, Codable, CaseIterable {
    /// Signed with Apple's production key: counted.
    case verified
    /// An AdAttributionKit postback signed with one of Apple's development keys (test flows, developer settings):
    /// stored and shown apart, never counted with production postbacks.
    case development
    /// Not signed by any of Apple's keys (forged, altered, or signed over other fields): stored, capped, never
    /// counted.
    case failed
}
