import Foundation

/// A campaign's terms, every value checked (`POST /s2s/v1/campaigns`, `handoff admin affiliate campaign create`): a
/// name, the commission rule, the attribution window, the hold period and an optional App Store offer code to hand
/// to referred buyers. A campaign's terms never change once it is created.
public struct CampaignTerms: Hashable, Sendable {
    public var name: String
    public var commission: CommissionRule
    /// Days a click may be bound and a bound referral earns commission (1…365, default 30).
    public var windowDays: Int
    /// Days a credited commission is held before it is payable (0…365, default 30).
    public var holdDays: Int
    /// The App Store offer code bind answers, if any.
    public var offerCode: String?

    /// Terms already checked (`parse` checks them from input).
    public init(name: String, commission: CommissionRule, windowDays: Int = defaultWindowDays,
                holdDays: Int = defaultHoldDays, offerCode: String? = nil) {
        self.name = name
        self.commission = commission
        self.windowDays = windowDays
        self.holdDays = holdDays
        self.offerCode = offerCode
    }

    /// The attribution window in seconds.
    public var window: TimeInterval { TimeInterval(windowDays) * 86_400 }

    public static let windowRange = 1...365
    public static let holdRange = 0...365
    public static let defaultWindowDays = 30
    public static let defaultHoldDays = 30
    /// The characters of an offer code.
    public static let offerCodeCharacters = ASCIISet("A-Za-z0-9_-")
    public static let offerCodeLengths = 1...64

    /// How the caller names each field in refusals (JSON keys or CLI flags).
    public struct FieldNames: Hashable, Sendable {
        public var name, windowDays, holdDays, offerCode: String

        /// The JSON keys of `POST /s2s/v1/campaigns`.
        public static let json = FieldNames(name: "name", windowDays: "windowDays", holdDays: "holdDays",
                                            offerCode: "offerCode")
        /// The flags of `handoff admin affiliate campaign create`.
        public static let flags = FieldNames(name: "--name", windowDays: "--window-days", holdDays: "--hold-days",
                                             offerCode: "--offer-code")
    }

    /// Checks each value (the commission was checked by `CommissionRule.parse`); absent days take their defaults.
    public static func parse(name: String, commission: CommissionRule, windowDays: Int?, holdDays: Int?,
                             offerCode: String?, fields: FieldNames = .json) -> Result<CampaignTerms, FieldRefusal> {
        if case .failure(let refusal) = AffiliateDraft.name(name, field: fields.name) { return .failure(refusal) }
        let window = windowDays ?? defaultWindowDays
        guard windowRange.contains(window) else {
            return .failure(FieldRefusal(field: fields.windowDays, code: .windowDaysFormat,
                                         rule: "be an integer from 1 to 365"))
        }
        let hold = holdDays ?? defaultHoldDays
        guard holdRange.contains(hold) else {
            return .failure(FieldRefusal(field: fields.holdDays, code: .holdDaysFormat,
                                         rule: "be an integer from 0 to 365"))
        }
        if let offerCode, !offerCodeLengths.contains(offerCode.utf8.count)
            || !offerCodeCharacters.containsAll(offerCode) {
            return .failure(FieldRefusal(field: fields.offerCode, code: .offerCodeFormat,
                                         rule: "be 1–64 characters of A-Z a-z 0-9 _ -"))
        }
        return .success(CampaignTerms(name: name, commission: commission, windowDays: window, holdDays: hold,
                                      offerCode: offerCode))
    }
}
