@testable import HTTPServer
import Testing

/// `RouteTable.lookup` against a plain reference written from its documented rules, for thousands of generated
/// paths: segments cut at every `/` byte, literals compared byte for byte, a parameter takes any non-empty segment,
/// a literal pattern beats every parameter pattern, among parameter patterns the one with a literal where the other
/// has a parameter at the first such segment wins (the first added among equals), HEAD falls back to GET, and a path
/// that some pattern matches under another method is "method not allowed" with those methods.
@Suite struct RouteTableReferenceTests {
    static let patterns: [(Method, String)] = [
        (.get, "/healthz"), (.get, "/v1/items"), (.post, "/v1/items"), (.get, "/v1/items/{id}"),
        (.delete, "/v1/items/{id}"), (.get, "/v1/items/latest"), (.get, "/v1/{kind}/latest"),
        (.get, "/v1/{kind}/{id}"), (.put, "/v1/{kind}/{id}"), (.get, "/s2s/v1/users/{guid}/entitlements"),
        (.get, "/s2s/v1/users/{guid}/events"), (.post, "/s2s/v1/users/{guid}/erase"), (.get, "/s2s/v1/{a}/{b}/{c}"),
        (.get, "/{a}/v1/users/{b}/events"), (.get, "/é/{x}"), (.post, "/v1/m/store/apple/{token}"),
        (.get, "/v1/m/store/{store}/{token}"), (.get, "/v1/items/{id}"),
    ]

    static let vocabulary = ["", "v1", "s2s", "users", "items", "latest", "events", "entitlements", "erase", "m",
                             "store", "apple", "abc123def456", "é", "e\u{301}", "%2F", "healthz", "x y", "V1"]

    let table: RouteTable = {
        var table = RouteTable()
        for (method, pattern) in RouteTableReferenceTests.patterns { _ = table.add(method, pattern) }
        return table
    }()

    /// The reference: every pattern checked in the order added, nothing indexed.
    static func reference(_ method: Method, _ path: String) -> RouteTable.Lookup {
        let pieces = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Array($0) }
        func segments(_ pattern: String) -> [[UInt8]?] {
            pattern.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                let text = String(decoding: $0, as: UTF8.self)
                return text.hasPrefix("{") && text.hasSuffix("}") && text.count > 2 ? nil : Array($0)
            }
        }
        func matches(_ index: Int) -> Bool {
            let wanted = segments(patterns[index].1)
            guard wanted.count == pieces.count else { return false }
            return zip(wanted, pieces).allSatisfy { literal, piece in literal.map { $0 == piece } ?? !piece.isEmpty }
        }
        func isLiteral(_ index: Int) -> Bool { segments(patterns[index].1).allSatisfy { $0 != nil } }
        func beats(_ lhs: Int, _ rhs: Int) -> Bool {
            for (left, right) in zip(segments(patterns[lhs].1), segments(patterns[rhs].1)) {
                if left != nil && right == nil { return true }
                if left == nil && right != nil { return false }
            }
            return false
        }
        func best(_ method: Method) -> Int? {
            let candidates = patterns.indices.filter { patterns[$0].0 == method && matches($0) }
            if let literal = candidates.first(where: isLiteral) { return literal }
            var winner: Int?
            for index in candidates where winner.map({ beats(index, $0) }) ?? true { winner = index }
            return winner
        }
        func parameters(_ index: Int) -> [String: String] {
            var values: [String: String] = [:]
            for (segment, piece) in zip(patterns[index].1.utf8.dropFirst().split(
                separator: UInt8(ascii: "/"), omittingEmptySubsequences: false), pieces) {
                let name = String(decoding: segment, as: UTF8.self)
                if name.hasPrefix("{") && name.hasSuffix("}") && name.count > 2 {
                    values[String(name.dropFirst().dropLast())] = String(decoding: piece, as: UTF8.self)
                }
            }
            return values
        }
        if let index = best(method) ?? (method == .head ? best(.get) : nil) {
            return .found(index: index, parameters: isLiteral(index) ? [:] : parameters(index))
        }
        let matching = patterns.indices.filter(matches)
        guard !matching.isEmpty else { return .notFound }
        var allowed: [Method] = []
        // Literal patterns first, then parameter patterns, each in the order added.
        for index in matching.filter(isLiteral) + matching.filter({ !isLiteral($0) })
        where !allowed.contains(patterns[index].0) {
            allowed.append(patterns[index].0)
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }

    @Test func everyGeneratedPathIsAnsweredAsTheReferenceAnswersIt() {
        var generator = SplitMix(seed: 0x5EED)
        var checked = 0
        for _ in 0..<6_000 {
            let count = Int(generator.next() % 7)
            let segments = (0..<count).map { _ in
                Self.vocabulary[Int(generator.next() % UInt64(Self.vocabulary.count))]
            }
            let path = "/" + segments.joined(separator: "/")
            for method in [Method.get, .head, .post, .delete, .put] {
                let expected = Self.reference(method, path)
                #expect(table.lookup(method, path) == expected, "\(method) \(path)")
                checked += 1
            }
        }
        #expect(checked == 30_000)
    }

    @Test func theRealRoutesShapesAreFoundWithTheirParameters() {
        #expect(table.lookup(.get, "/s2s/v1/users/abc123def456/entitlements")
            == .found(index: 9, parameters: ["guid": "abc123def456"]))
        #expect(table.lookup(.get, "/v1/items/latest") == .found(index: 5, parameters: [:]))
        #expect(table.lookup(.get, "/v1/things/latest") == .found(index: 6, parameters: ["kind": "things"]))
        #expect(table.lookup(.get, "/é/e\u{301}") == .found(index: 14, parameters: ["x": "e\u{301}"]))
        #expect(table.lookup(.get, "/e\u{301}/x") == .notFound)   // canonically equal, not the same bytes
        #expect(table.lookup(.patch, "/v1/items") == .methodNotAllowed([.get, .post, .head]))
    }

    /// A small deterministic generator, so a failure names a path that fails again.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
