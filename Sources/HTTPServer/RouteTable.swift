/// The non-generic core of `Router`: finds which added pattern answers a (method, path), by index.
///
/// Patterns without parameters are found with one dictionary lookup of the whole path; patterns with
/// parameters are compared segment by segment, only against paths with their number of segments.
/// Being concrete (not generic over the route type) keeps the hot path free of generic metadata lookups.
@usableFromInline
struct RouteTable: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    @usableFromInline
    struct Entry: Sendable {
        let method: Method
        @usableFromInline let pattern: String
        let segments: [Segment]
        let hasParameters: Bool
    }

    /// The answer: an entry index with its parameters, the methods the path takes, or nothing.
    @usableFromInline
    enum Lookup: Equatable {
        case found(index: Int, parameters: [String: String])
        case methodNotAllowed([Method])
        case notFound
    }

    @usableFromInline private(set) var entries: [Entry] = []
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
    ///
    /// A literal pattern beats any parameter pattern for the same path; among parameter patterns the most specific
    /// wins (`isMoreSpecific`), the first added among equals. Only the winner's parameters are built.
    @usableFromInline
    func lookup(_ method: Method, _ path: String) -> Lookup {
        let normalized = path.utf8.first == UInt8(ascii: "/") ? path : "/" + path
        let literalHits = literalPaths[normalized] ?? []
        if let index = literalHits.first(where: { entries[$0].method == method }) {
            return .found(index: index, parameters: [:])
        }
        let pieces = parameterized.isEmpty ? [] : Self.pieces(of: normalized)
        let matching = (parameterized[pieces.count] ?? []).filter { Self.matches(entries[$0].segments, pieces) }
        if let index = mostSpecific(matching, method: method) {
            return .found(index: index, parameters: Self.parameters(of: entries[index].segments, in: pieces))
        }
        if method == .head {
            if let index = literalHits.first(where: { entries[$0].method == .get }) {
                return .found(index: index, parameters: [:])
            }
            if let index = mostSpecific(matching, method: .get) {
                return .found(index: index, parameters: Self.parameters(of: entries[index].segments, in: pieces))
            }
        }
        guard !literalHits.isEmpty || !matching.isEmpty else { return .notFound }
        var allowed: [Method] = []
        for index in literalHits + matching where !allowed.contains(entries[index].method) {
            allowed.append(entries[index].method)
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }

    /// The most specific of the `candidates` (entry indices, in the order added) that take `method`.
    private func mostSpecific(_ candidates: [Int], method: Method) -> Int? {
        var best: Int?
        for index in candidates where entries[index].method == method {
            if let current = best, !isMoreSpecific(entries[index].segments, than: entries[current].segments) {
                continue
            }
            best = index
        }
        return best
    }

    /// The segments of `path` without its leading `/`, cut at every `/` byte: not at grapheme clusters, where a `/`
    /// followed by a combining mark would not end a segment.
    static func split(_ path: String) -> [String] {
        pieces(of: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The segments of `path` as `split` cuts them, as byte views of the path (no copies).
    private static func pieces(of path: String) -> [Substring.UTF8View] {
        var bytes = Substring(path).utf8
        if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    }

    /// Whether a pattern's segments match the path's: literals byte for byte, parameters any non-empty segment.
    private static func matches(_ segments: [Segment], _ pieces: [Substring.UTF8View]) -> Bool {
        for index in segments.indices {
            switch segments[index] {
            case .literal(let literal):
                guard literal.utf8.elementsEqual(pieces[index]) else { return false }
            case .parameter:
                guard !pieces[index].isEmpty else { return false }
            }
        }
        return true
    }

    /// The parameters of a pattern whose segments `matches` the path's.
    private static func parameters(of segments: [Segment], in pieces: [Substring.UTF8View]) -> [String: String] {
        var parameters: [String: String] = [:]
        for index in segments.indices {
            if case .parameter(let name) = segments[index] {
                parameters[name] = String(decoding: pieces[index], as: UTF8.self)
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
