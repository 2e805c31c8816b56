/// An app's ingest settings as its tenant reads them (the `ingest` member of `GET /s2s/v1/apps/{appId}`): the
/// AppConfig revision and the settings in the AppConfig shape, plus `signupIsLead`, which the SDK is not told.
public struct AppIngestState: Sendable, Equatable, Encodable {
    /// The AppConfig revision (`org_seq` of the latest change).
    public var rev: Int
    public var settings: IngestSettings

    public init(rev: Int, settings: IngestSettings) {
        self.rev = rev
        self.settings = settings
    }

    /// `{"rev", the AppConfig settings members, "signupIsLead"}`, every member written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IngestSettings.WireKey.self)
        try container.encode(rev, forKey: .init("rev"))
        try settings.encodeWireMembers(into: &container)
        try container.encode(settings.signupIsLead ?? false, forKey: .init("signupIsLead"))
    }
}
