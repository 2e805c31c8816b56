import Domain
import Foundation
import Testing

/// `EventJSONEncoder` against what it replaces: `JSONEncoder` (sorted keys, slashes unescaped) then `EventJSON.parse`.
struct EventJSONEncoderTests {
    private func reference<T: Encodable>(_ value: T) throws -> EventJSON {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try EventJSON.parse(Array(try encoder.encode(value)))
    }

    private func sameAsReference<T: Encodable>(_ value: T) throws {
        #expect(try EventJSONEncoder.encode(value) == reference(value))
    }

    enum Kind: String, Codable { case first, second }

    enum Shape: Codable, Equatable {
        case circle(radius: Int)
        case named(String, Int64)
        case empty
    }

    struct Inner: Codable {
        var name: String
        var count: UInt32
        var tags: [String]
        var missing: String?
        var present: Int?
    }

    struct Outer: Codable {
        var id: String
        var amount: Int64
        var smallest: Int8
        var largest: UInt64
        var flag: Bool
        var kind: Kind
        var shapes: [Shape]
        var inner: Inner
        var inners: [Inner]
        var byName: [String: Int]
        var byNumber: [Int: String]
        var nested: [[String?]]
        var explicitNull: String?

        enum CodingKeys: String, CodingKey {
            case id, amount, smallest, largest, flag, kind, shapes, inner, inners, byName, byNumber, nested
            case explicitNull = "explicit_null"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(amount, forKey: .amount)
            try container.encode(smallest, forKey: .smallest)
            try container.encode(largest, forKey: .largest)
            try container.encode(flag, forKey: .flag)
            try container.encode(kind, forKey: .kind)
            try container.encode(shapes, forKey: .shapes)
            try container.encode(inner, forKey: .inner)
            try container.encode(inners, forKey: .inners)
            try container.encode(byName, forKey: .byName)
            try container.encode(byNumber, forKey: .byNumber)
            try container.encode(nested, forKey: .nested)
            try container.encode(explicitNull, forKey: .explicitNull)
        }
    }

    private let outer = Outer(
        id: "pay_1/\"quoted\"\\ \u{1} \u{1F} é 日本 🎉", amount: Int64.min, smallest: -128, largest: UInt64(Int64.max),
        flag: true, kind: .second, shapes: [.circle(radius: 3), .named("x", -1), .empty],
        inner: Inner(name: "", count: UInt32.max, tags: [], missing: nil, present: 0),
        inners: [Inner(name: "a", count: 1, tags: ["b", "c"], missing: "m", present: nil)],
        byName: ["z": 1, "a": 2, "": 3], byNumber: [2: "two", -1: "minus one"], nested: [[nil, "x"], [], [nil]],
        explicitNull: nil)

    @Test func aValueUsingEveryKindOfContainerEncodesAsJSONEncoderAndTheParserDo() throws {
        try sameAsReference(outer)
        try sameAsReference([outer, outer])
        try sameAsReference(["key": outer])
    }

    @Test func aLargeStringIsKeptAsIt() throws {
        let body = String(repeating: "eyJhbGciOiJFUzI1NiJ9.", count: 700) + "\n\t\"/"
        try sameAsReference(["signedPayload": body])
    }

    @Test func topLevelScalarsEncodeAsTheirJSON() throws {
        try sameAsReference("text")
        try sameAsReference(42)
        try sameAsReference(true)
        try sameAsReference(Int64.max)
    }

    struct Dated: Codable { var at: Date }
    struct Fraction: Codable { var rate: Double }
    struct Blob: Codable { var bytes: Data }
    struct Link: Codable { var url: URL }
    struct Huge: Codable { var value: UInt64 }

    @Test func valuesJSONEncoderWritesByItsOwnRulesAreLeftToIt() {
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(Dated(at: Date())) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(Fraction(rate: 2)) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(Blob(bytes: Data([1]))) }
        #expect(throws: EventJSONEncoder.Unsupported.self) {
            try EventJSONEncoder.encode(Link(url: URL(string: "https://example.com/a")!))
        }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(Huge(value: UInt64.max)) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode([1.5]) }
    }

    @Test func u0000InAStringOrAKeyIsLeftToTheParserWhichRefusesIt() {
        #expect(throws: (any Error).self) { try reference(["id": "a\u{0}b"]) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(["id": "a\u{0}b"]) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(["a\u{0}": 1]) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(["x", "\u{0}"]) }
    }

    /// Nested arrays `depth` deep around one integer.
    struct Deep: Encodable {
        let depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if depth > 1 { try container.encode(Deep(depth: depth - 1)) } else { try container.encode(1) }
        }
    }

    @Test func nestingIsAcceptedExactlyAsDeepAsTheParserAcceptsIt() throws {
        try sameAsReference(Deep(depth: 63))
        #expect(throws: (any Error).self) { try reference(Deep(depth: 64)) }
        #expect(throws: EventJSONEncoder.Unsupported.self) { try EventJSONEncoder.encode(Deep(depth: 64)) }
    }

    /// Records the coding path its encoder reports, as values that build their own errors read it.
    final class PathLog: @unchecked Sendable {
        var paths: [[String]] = []
    }

    struct PathProbe: Encodable {
        let log: PathLog
        func encode(to encoder: any Encoder) throws {
            log.paths.append(encoder.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue })
            var container = encoder.singleValueContainer()
            try container.encode("probe")
        }
    }

    struct Probed: Encodable {
        let log: PathLog
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EventJSONEncoderTests.ProbeKey.self)
            try container.encode(PathProbe(log: log), forKey: .top)
            try container.encode([PathProbe(log: log), PathProbe(log: log)], forKey: .list)
            var nested = container.nestedContainer(keyedBy: EventJSONEncoderTests.ProbeKey.self, forKey: .inner)
            try nested.encode(["deep": PathProbe(log: log)], forKey: .top)
        }
    }

    enum ProbeKey: String, CodingKey { case top, list, inner }

    @Test func valuesSeeTheirWholeCodingPath() throws {
        let fast = PathLog()
        let slow = PathLog()
        _ = try EventJSONEncoder.encode(Probed(log: fast))
        _ = try reference(Probed(log: slow))
        #expect(fast.paths == [["top"], ["list", "#0"], ["list", "#1"], ["inner", "top", "deep"]])
        // JSONEncoder agrees except under a nested keyed container, where it leaves that container's key out.
        #expect(Array(fast.paths.prefix(3)) == Array(slow.paths.prefix(3)))
    }

    struct DatedPayload: EventPayload {
        static let eventType = "TestDated"
        static let schemaVersion = 1
        var at: Date
    }

    struct PlainPayload: EventPayload {
        static let eventType = "TestPlain"
        static let schemaVersion = 1
        var id: String
        var amount: Int
    }

    @Test func aPayloadTheEncoderDoesNotTakeFailsAsItDidThroughJSONEncoder() {
        #expect(throws: EventPayloadError.self) { try DatedPayload(at: Date(timeIntervalSince1970: 1.5)).eventJSON() }
    }

    @Test func aPlainPayloadIsItsFieldsAsAnObject() throws {
        let json = try PlainPayload(id: "a", amount: 7).eventJSON()
        #expect(json.canonicalText == #"{"amount":7,"id":"a"}"#)
    }
}
