/// The facts of one postback copy that Handoff keeps, whichever framework sent it: the campaign and the conversion
/// value, never an install or a person (Apple's postbacks carry neither).
public struct PostbackFacts: Sendable, Equatable {
    public var kind: PostbackKind
    /// SKAdNetwork's `version` (`3.0`, `4.0`); nil for AdAttributionKit.
    public var version: String?
    /// SKAdNetwork's `transaction-id` or AdAttributionKit's `postback-identifier`: one per postback; a second copy
    /// with the same one is a duplicate.
    public var transactionId: String
    public var adNetworkId: String
    /// Version 4 and AdAttributionKit: `source-identifier` (2 to 4 digits); version 3: `campaign-id` as text.
    public var sourceIdentifier: String
    /// The advertised app's App Store id (`app-id`, `advertised-item-identifier`).
    public var appStoreId: Int64
    public var didWin: Bool
    /// Version 4 and AdAttributionKit: the conversion window (0, 1, 2); nil for version 3.
    public var sequenceIndex: Int?
    /// The fine conversion value (0–63) when the postback has one.
    public var conversionValue: Int?
    /// `low`, `medium` or `high` when the postback has one.
    public var coarseConversionValue: String?
    /// Only in a version 3 or 4 postback from a well-known source app (privacy tier).
    public var sourceAppId: Int64?
    /// Version 4 web ads.
    public var sourceDomain: String?

    public init(kind: PostbackKind, version: String?, transactionId: String, adNetworkId: String,
                sourceIdentifier: String, appStoreId: Int64, didWin: Bool, sequenceIndex: Int?,
                conversionValue: Int?, coarseConversionValue: String?, sourceAppId: Int64?, sourceDomain: String?) {
        self.kind = kind
        self.version = version
        self.transactionId = transactionId
        self.adNetworkId = adNetworkId
        self.sourceIdentifier = sourceIdentifier
        self.appStoreId = appStoreId
        self.didWin = didWin
        self.sequenceIndex = sequenceIndex
        self.conversionValue = conversionValue
        self.coarseConversionValue = coarseConversionValue
        self.sourceAppId = sourceAppId
        self.sourceDomain = sourceDomain
    }
}
