/// The non-generic core of `Router`: finds which added pattern answers a (method, path), by index.
///
/// Patterns without parameters are found with one dictionary lookup of the whole path; patterns with
/// parameters are compared segment by segment, only against paths with their number of segments.
/// Being concrete (not generic over the route type) keeps the hot path free of generic metadata lookups.
struct RouteTable: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct Entry: Sendable {
        let method: Method
        let pattern: String
        let segments: [Segment]
        let hasParameters: Bool
    }

    /// The answer: an entry index with its parameters, the methods the path takes, or nothing.
    enum Lookup: Equatable {
        case found(index: Int, parameters: [String: String])
        case methodNotAllowed([Method])
        case notFound
    }

    private(set) var entries: [Entry] = []
    /// Indices of parameterless entries by their exact path ("/healthz").
    private var literalPaths: [String: [Int]] = [:]
    /// Indices of entries with parameters, by segment count.
    private var parameterized: [Int: [Int]] = [:]

    /// Adds a pattern and returns its index.
    mutating func add(_ method: Method, _ pattern: String) -> Int {
        let segments = Self.split(pattern).map { piece -> Segment in
            if piece.hasPrefix("{") && piece.hasSuffix("}") && piece.count > 2 {
                return .parameter(String(piece.dropFirst().dropLast()))
            }
            return .literal(piece)
        }
        let hasParameters = segments.contains { if case .parameter = $0 { return true } else { return false } }
        let index = entries.count
        entries.append(Entry(method: method, pattern: pattern, segments: segments, hasParameters: hasParameters))
        if hasParameters {
            parameterized[segments.count, default: []].append(index)
        } else {
            literalPaths["/" + segments.map { if case .literal(let text) = $0 { text } else { "" } }
                .joined(separator: "/"), default: []].append(index)
        }
        return index
    }

    /// Finds the entry for `method` and the decoded `path` (without query).
    func lookup(_ method: Method, _ path: String) -> Lookup {
        let normalized = path.utf8.first == UInt8(ascii: "/") ? path : "/" + path
        let literalHits = literalPaths[normalized] ?? []
        if parameterized.isEmpty || literalHits.contains(where: { entries[$0].method == method }) {
            // A literal pattern beats any parameter pattern for the same path.
            if let index = literalHits.first(where: { entries[$0].method == method }) {
                return .found(index: index, parameters: [:])
            }
            if parameterized.isEmpty { return choose(method, literalHits.map { ($0, [:]) }) }
        }
        var candidates: [(Int, [String: String])] = literalHits.map { ($0, [:]) }
        let pieces = Self.split(normalized)
        for index in parameterized[pieces.count] ?? [] {
            if let parameters = Self.parameters(of: entries[index].segments, in: pieces) {
                candidates.append((index, parameters))
            }
        }
        return choose(method, candidates)
    }

    /// Picks among the patterns that match the path: the method's (HEAD falls back to GET), the most specific.
    private func choose(_ method: Method, _ candidates: [(Int, [String: String])]) -> Lookup {
        guard !candidates.isEmpty else { return .notFound }
        var chosen = candidates.filter { entries[$0.0].method == method }
        if chosen.isEmpty && method == .head { chosen = candidates.filter { entries[$0.0].method == .get } }
        if let best = chosen.min(by: { isMoreSpecific(entries[$0.0].segments, than: entries[$1.0].segments) }) {
            return .found(index: best.0, parameters: best.1)
        }
        var allowed: [Method] = []
        for (index, _) in candidates where !allowed.contains(entries[index].method) {
            allowed.append(entries[index].method)
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }

    /// The segments of `path` without its leading `/`, cut at every `/` byte: not at grapheme clusters, where a `/`
    /// followed by a combining mark would not end a segment.
    static func split(_ path: String) -> [String] {
        var bytes = path.utf8[...]
        if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    private static func parameters(of segments: [Segment], in pieces: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for index in segments.indices {
            switch segments[index] {
            case .literal(let literal):
                guard literal == pieces[index] else { return nil }
            case .parameter(let name):
                guard !pieces[index].isEmpty else { return nil }
                parameters[name] = pieces[index]
            }
        }
        return parameters
    }

    /// Literal beats parameter at the first segment where two patterns differ in kind; ties keep the first added.
    private func isMoreSpecific(_ lhs: [Segment], than rhs: [Segment]) -> Bool {
        for index in 0..<min(lhs.count, rhs.count) {
            switch (lhs[index], rhs[index]) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
