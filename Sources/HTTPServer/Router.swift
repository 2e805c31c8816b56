/// Maps (method, path) to a route value: routes are data, and the caller switches over them.
///
/// Patterns are literal segments and `{name}` parameters: `"/v1/store/apple/{token}"`. A parameter matches
/// one whole, non-empty segment of the decoded path. When several patterns match, the one with a literal
/// segment where the others have a parameter wins (left to right); among equals, the first added.
/// HEAD is answered by the GET route unless a HEAD route is added.
public struct Router<Route: Sendable>: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Entry: Sendable {
        let method: Method
        let pattern: String
        let segments: [Segment]
        let make: @Sendable ([String: String]) -> Route
    }

    private var entries: [Entry] = []

    /// Makes an empty router.
    public init() {}

    /// Adds a route: when `method` and `pattern` match, `make` turns the path parameters into the route value.
    public mutating func add(
        _ method: Method,
        _ pattern: String,
        _ make: @escaping @Sendable ([String: String]) -> Route
    ) {
        let segments = Self.split(pattern).map { piece -> Segment in
            if piece.hasPrefix("{") && piece.hasSuffix("}") && piece.count > 2 {
                return .parameter(String(piece.dropFirst().dropLast()))
            }
            return .literal(piece)
        }
        entries.append(Entry(method: method, pattern: pattern, segments: segments, make: make))
    }

    /// Every pattern added, once each, in the order first added (for metric labels).
    public var patterns: [String] {
        var seen: Set<String> = []
        return entries.map(\.pattern).filter { seen.insert($0).inserted }
    }

    /// Finds the route for a request; `path` is the decoded path without the query.
    public func match(_ method: Method, _ path: String) -> RouteMatch<Route> {
        let pieces = Self.split(path)
        var candidates: [(entry: Entry, parameters: [String: String])] = []
        for entry in entries {
            if let parameters = Self.parameters(of: entry.segments, in: pieces) {
                candidates.append((entry, parameters))
            }
        }
        guard !candidates.isEmpty else { return .notFound }
        let forMethod = candidates.filter { $0.entry.method == method }
        let chosen = forMethod.isEmpty && method == .head ? candidates.filter { $0.entry.method == .get } : forMethod
        if let best = chosen.min(by: { Self.isMoreSpecific($0.entry.segments, than: $1.entry.segments) }) {
            return .found(best.entry.make(best.parameters), pattern: best.entry.pattern)
        }
        var allowed: [Method] = []
        for candidate in candidates where !allowed.contains(candidate.entry.method) {
            allowed.append(candidate.entry.method)
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed: allowed)
    }

    private static func split(_ path: String) -> [String] {
        let trimmed = path.hasPrefix("/") ? path.dropFirst() : path[...]
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    private static func parameters(of segments: [Segment], in pieces: [String]) -> [String: String]? {
        guard segments.count == pieces.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, piece) in zip(segments, pieces) {
            switch segment {
            case .literal(let literal):
                guard literal == piece else { return nil }
            case .parameter(let name):
                guard !piece.isEmpty else { return nil }
                parameters[name] = piece
            }
        }
        return parameters
    }

    /// Literal beats parameter at the first segment where two patterns differ in kind.
    private static func isMoreSpecific(_ lhs: [Segment], than rhs: [Segment]) -> Bool {
        for (left, right) in zip(lhs, rhs) {
            switch (left, right) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
