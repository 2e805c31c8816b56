import Foundation

/// A value handed to `identify(deepLinkValue:)`, read as the code or install token it carries.
///
/// Accepted: a bare code as shown or typed (`" abcd 2345 "` → `ABCD2345`: spaces removed, upper-cased), or a link
/// carrying one — the return link `myapp://handoff?code=…`, a tracker link or deep link with `deep_link_sub1`,
/// `af_sub1`, `user_id` or `adj_label`, Adjust's nested `deep_link`, a Play referrer `referrer=…`. Anything else
/// (`handoff`, the word AppsFlyer puts in `deep_link_value`) carries no code and is not sent to the server.
struct DeepLinkValue: Sendable, Equatable {
    /// 8 characters of the code alphabet.
    let token: String
    let method: IdentifyMethod

    /// The code alphabet: digits 2–9 and the letters without I and O.
    static let alphabet = Set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    static let installTokenNames = ["deep_link_sub1", "af_sub1", "user_id", "adj_label", "referrer"]

    static func parse(_ raw: String) -> DeepLinkValue? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("=") { return fromLink(trimmed, depth: 0) }
        return normalized(trimmed).map { DeepLinkValue(token: $0, method: .code) }
    }

    /// Trimmed, inner white space removed, upper-cased; nil unless that is a well-formed code.
    static func normalized(_ value: String) -> String? {
        let code = String(value.filter { !$0.isWhitespace }).uppercased()
        return code.count == 8 && code.allSatisfy { alphabet.contains($0) } ? code : nil
    }

    private static func fromLink(_ link: String, depth: Int) -> DeepLinkValue? {
        let text = link.contains("://") ? link : "handoff://handoff?" + link.drop { $0 == "?" }
        guard depth < 2, let items = URLComponents(string: text)?.queryItems else { return nil }
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value.flatMap(normalized) }
        if let code = value("code") { return DeepLinkValue(token: code, method: .code) }
        for name in installTokenNames {
            if let token = value(name) { return DeepLinkValue(token: token, method: .installToken) }
        }
        if let inner = items.first(where: { $0.name == "deep_link" })?.value {
            return fromLink(inner, depth: depth + 1)
        }
        return nil
    }
}
