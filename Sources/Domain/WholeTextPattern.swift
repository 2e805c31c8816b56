import Foundation

/// A regular expression that must match a whole text, compiled once: for grammars too long to check by hand
/// (`PaywallURL`), so that the parser runs the very pattern `/openapi.json` publishes.
///
/// The pattern must keep to what ECMA-262, Python, ICU and Rust read alike (classes, groups, alternation, counted
/// repetition, `^`/`$`). A match must cover the whole text: ICU's `$` would also match before a final line break.
public struct WholeTextPattern: @unchecked Sendable {
    /// The pattern as published.
    public let source: String
    // NSRegularExpression is immutable and documented as safe to use from several threads.
    private let regex: NSRegularExpression

    /// Compiles `source`; traps on an invalid pattern (a programming error the tests catch).
    public init(_ source: String) {
        self.source = source
        do {
            regex = try NSRegularExpression(pattern: source)
        } catch {
            preconditionFailure("WholeTextPattern: invalid pattern \(source): \(error)")
        }
    }

    /// Whether the pattern matches all of `text`.
    public func matches(_ text: String) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return match.range == range
    }
}
