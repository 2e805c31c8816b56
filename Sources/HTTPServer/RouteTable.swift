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
        /// Per segment: a literal's UTF-8 bytes, nil for a parameter (what `matches` compares).
        let literalBytes: [[UInt8]?]
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
        let literalBytes = segments.map { segment -> [UInt8]? in
            if case .literal(let text) = segment { return Array(text.utf8) } else { return nil }
        }
        entries.append(Entry(method: method, pattern: pattern, segments: segments, literalBytes: literalBytes,
                             hasParameters: hasParameters))
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
        let bytes = parameterized.isEmpty ? [] : Array(normalized.utf8)
        let pieces = parameterized.isEmpty ? [] : Self.pieces(of: bytes)
        let matching = (parameterized[pieces.count] ?? []).filter {
            Self.matches(entries[$0].literalBytes, pieces, in: bytes)
        }
        if let index = mostSpecific(matching, method: method) {
            return .found(index: index, parameters: Self.parameters(of: entries[index].segments, pieces, in: bytes))
        }
        if method == .head {
            if let index = literalHits.first(where: { entries[$0].method == .get }) {
                return .found(index: index, parameters: [:])
            }
            if let index = mostSpecific(matching, method: .get) {
                return .found(index: index, parameters: Self.parameters(of: entries[index].segments, pieces, in: bytes))
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
        let bytes = Array(path.utf8)
        return pieces(of: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The segments of a path's UTF-8 `bytes` as `split` cuts them, as ranges of `bytes` (no copies).
    private static func pieces(of bytes: [UInt8]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        pieces.reserveCapacity(8)
        var start = bytes.first == UInt8(ascii: "/") ? 1 : 0
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") {
                pieces.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        pieces.append(start..<bytes.count)
        return pieces
    }

    /// Whether a pattern's segments (`literalBytes`) match the path's: literals byte for byte, parameters any
    /// non-empty segment.
    private static func matches(_ literalBytes: [[UInt8]?], _ pieces: [Range<Int>], in bytes: [UInt8]) -> Bool {
        for index in literalBytes.indices {
            let piece = pieces[index]
            guard let literal = literalBytes[index] else {
                guard !piece.isEmpty else { return false }
                continue
            }
            guard literal.count == piece.count else { return false }
            var offset = 0
            while offset < literal.count {
                guard literal[offset] == bytes[piece.lowerBound + offset] else { return false }
                offset += 1
            }
        }
        return true
    }

    /// The parameters of a pattern whose segments `matches` the path's.
    private static func parameters(
        of segments: [Segment], _ pieces: [Range<Int>], in bytes: [UInt8]
    ) -> [String: String] {
        var parameters: [String: String] = [:]
        for index in segments.indices {
            if case .parameter(let name) = segments[index] {
                parameters[name] = String(decoding: bytes[pieces[index]], as: UTF8.self)
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
