/// The domains an organization registers for a proxy key: 1–20 host names in lowercase (letters, digits, `-`,
/// dot-separated, at most 253 characters each), kept in the order given without repeats.
public enum ProxyDomains {
    /// The most domains one key may carry.
    public static let maxCount = 20
    static let label = ASCIISet("a-z0-9-")

    /// Parses `domains`; refuses with `VALIDATION_PROXY_DOMAIN_FORMAT` naming `field`.
    public static func parse(_ domains: [String], field: String = "domains") -> Result<[String], FieldRefusal> {
        var kept: [String] = []
        for raw in domains {
            let domain = raw.lowercased()
            let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...253).contains(domain.utf8.count), labels.count >= 2,
                  labels.allSatisfy({ (1...63).contains($0.utf8.count) && label.containsAll($0)
                                      && !$0.hasPrefix("-") && !$0.hasSuffix("-") })
            else {
                return .failure(FieldRefusal(field: field, code: .proxyDomainFormat,
                                             rule: "hold host names like links.example.com"))
            }
            if !kept.contains(domain) { kept.append(domain) }
        }
        guard (1...maxCount).contains(kept.count) else {
            return .failure(FieldRefusal(field: field, code: .proxyDomainFormat,
                                         rule: "hold 1 to \(maxCount) host names"))
        }
        return .success(kept)
    }
}
