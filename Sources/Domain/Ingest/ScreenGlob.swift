/// A `screens.exclude` pattern: `*` matches any run of characters (also none), every other character itself.
public struct ScreenGlob: Sendable, Equatable {
    public let pattern: String

    public init(_ pattern: String) { self.pattern = pattern }

    /// Whether `name` matches the whole pattern.
    public func matches(_ name: String) -> Bool {
        let pattern = Array(pattern.unicodeScalars)
        let name = Array(name.unicodeScalars)
        var p = 0, n = 0
        var star = -1, mark = 0
        while n < name.count {
            if p < pattern.count, pattern[p] != "*", pattern[p] == name[n] {
                p += 1
                n += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = n
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                n = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
