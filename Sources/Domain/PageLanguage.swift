import Foundation

/// The language of the post-payment page, chosen from the browser's `Accept-Language`.
public enum PageLanguage: String, Hashable, Sendable, CaseIterable {
    case en
    case ru

    /// The supported language with the highest q-value in `header` (RFC 9110 §12.5.4): `ru-RU;q=0.9, en;q=0.8` →
    /// ru. Ranges match by primary subtag; `q=0` excludes; `*` stands for English; on equal q the earlier entry
    /// wins. English when the header is absent, malformed or names nothing supported.
    public static func choose(acceptLanguage header: String?) -> PageLanguage {
        guard let header else { return .en }
        var best: (language: PageLanguage, q: Double)?
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first, !range.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pair.count == 2, pair[0].lowercased() == "q" { q = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0 }
            }
            guard q > 0 else { continue }
            let language: PageLanguage?
            if range == "*" {
                language = .en
            } else {
                language = PageLanguage(rawValue: FingerprintFields.primaryLanguage(range))
            }
            guard let language else { continue }
            if best == nil || q > best!.q { best = (language, q) }
        }
        return best?.language ?? .en
    }
}
