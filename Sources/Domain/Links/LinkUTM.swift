/// The UTM parameters of a go link (`utm_source`, `utm_medium`, `utm_campaign`, `utm_term`, `utm_content`),
/// added to the Play install referrer and to the fallback URL. Each is 1–100 characters of
/// `A–Z a–z 0–9 . _ ~ + -`, so it needs no escaping anywhere it goes.
public struct LinkUTM: Hashable, Sendable, Codable {
    public var source: String?
    public var medium: String?
    public var campaign: String?
    public var term: String?
    public var content: String?

    /// The most characters of one parameter.
    public static let maxLength = 100
    /// The characters a parameter may have.
    public static let characters = ASCIISet("A-Za-z0-9._~+-")
    /// The members, in the order they are written into URLs.
    public static let members = ["source", "medium", "campaign", "term", "content"]

    public init(source: String? = nil, medium: String? = nil, campaign: String? = nil, term: String? = nil,
                content: String? = nil) {
        self.source = source
        self.medium = medium
        self.campaign = campaign
        self.term = term
        self.content = content
    }

    /// The parameters set, as `(utm_<member>, value)` in `members` order.
    public var pairs: [(String, String)] {
        zip(Self.members, [source, medium, campaign, term, content]).compactMap { name, value in
            value.map { ("utm_\(name)", $0) }
        }
    }

    /// Parses the values given by member name; refuses a bad one with `VALIDATION_UTM_FORMAT` naming
    /// `<field>.<member>`.
    public static func parse(_ values: [String: String], field: String = "utm") -> Result<LinkUTM, FieldRefusal> {
        for member in members {
            guard let value = values[member] else { continue }
            guard (1...maxLength).contains(value.utf8.count), characters.containsAll(value) else {
                return .failure(FieldRefusal(field: "\(field).\(member)", code: .utmFormat,
                                             rule: "be 1–\(maxLength) characters of \(characters.classBody)"))
            }
        }
        return .success(LinkUTM(source: values["source"], medium: values["medium"], campaign: values["campaign"],
                                term: values["term"], content: values["content"]))
    }
}
