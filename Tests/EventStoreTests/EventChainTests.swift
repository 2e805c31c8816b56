import Crypto
import Domain
import EventStore
import Foundation
import Testing

@Suite struct EventChainTests {
    /// The worked example of docs/event-store.md: change one and change the other.
    static let exampleData = EventJSON.object([
        "guid": .string("g_01HZX4"),
        "external_id": .string("user-42"),
        "note": .string("Zoë said \"hi\"\n\u{1}"),
        "amount_minor": .integer(1999),
        "tags": .array([.string("web"), .bool(true), .null]),
    ])
    static let exampleMetadata = EventMetadata(actor: .key(prefix: "sk_live_ab12"), requestId: "req-1",
                                               correlationId: "req-1", causationId: nil)

    static func exampleCanonicalBytes() -> [UInt8] {
        EventChain.canonicalBytes(
            orgId: UUID(uuidString: "2B5F1C9E-0D3A-4C1E-9F57-3A1D6E8B4C20")!, orgSeq: 1, streamId: "buyer-7f3a",
            streamVersion: 1, eventId: UUID(uuidString: "9d2c1e44-5b6a-4f0e-8c3d-1a2b3c4d5e6f")!,
            eventType: "BuyerCreated", schemaVersion: 1, recordedAt: "2025-03-01T12:34:56.789012Z",
            data: exampleData, metadata: exampleMetadata.json)
    }

    @Test func theDocumentedExampleHasFixedCanonicalBytesAndHash() {
        let canonical = Self.exampleCanonicalBytes()
        let expected = #"{"data":{"amount_minor":1999,"external_id":"user-42","guid":"g_01HZX4","#
            + #""note":"Zoë said \"hi\"\n\u0001","tags":["web",true,null]},"#
            + #""event_id":"9d2c1e44-5b6a-4f0e-8c3d-1a2b3c4d5e6f","event_type":"BuyerCreated","#
            + #""metadata":{"actor":{"id":"sk_live_ab12","kind":"key"},"causation_id":null,"#
            + #""correlation_id":"req-1","request_id":"req-1"},"#
            + #""org_id":"2b5f1c9e-0d3a-4c1e-9f57-3a1d6e8b4c20","org_seq":1,"#
            + #""recorded_at":"2025-03-01T12:34:56.789012Z","schema_version":1,"#
            + #""stream_id":"buyer-7f3a","stream_version":1}"#
        #expect(String(decoding: canonical, as: UTF8.self) == expected)
        let hash = EventChain.hash(previous: EventChain.genesisHash, canonical: canonical)
        #expect(Hex.encode(hash) == Self.exampleHash)
    }

    static let exampleHash = "749d12adcfb00b72ad25473fa6c1e8bc9fb6777ca4aa9b559544d5f51651d9ad"

    /// The template the append statement fills in SQL is the generic canonical serializer's output, also for
    /// stream ids and event types that need escaping.
    @Test(arguments: ["buyer-7f3a", "q\"uote\\back\u{1}\n", "Zoë/😀", String(repeating: "s", count: 300)])
    func theCanonicalTemplateEqualsTheGenericCanonicalObject(streamId: String) {
        let org = UUID(), eventId = UUID()
        let template = EventChain.canonicalTemplate(
            orgId: org, streamId: streamId, eventId: eventId, eventType: "Type \"\(streamId.prefix(3))\"",
            schemaVersion: 12, dataText: Self.exampleData.canonicalText,
            metadataText: Self.exampleMetadata.json.canonicalText)
        let generic = EventJSON.object([
            "data": Self.exampleData, "event_id": .string(eventId.uuidString.lowercased()),
            "event_type": .string("Type \"\(streamId.prefix(3))\""), "metadata": Self.exampleMetadata.json,
            "org_id": .string(org.uuidString.lowercased()), "org_seq": .integer(9_007_199_254_740_993),
            "recorded_at": .string("2025-03-01T12:34:56.000001Z"), "schema_version": .integer(12),
            "stream_id": .string(streamId), "stream_version": .integer(1),
        ]).canonicalBytes
        #expect(template.filled(orgSeq: 9_007_199_254_740_993, recordedAt: "2025-03-01T12:34:56.000001Z",
                                streamVersion: 1) == generic)
    }

    @Test func canonicalBytesDoNotDependOnKeyOrderOrWhitespaceOfTheInput() throws {
        let one = try EventJSON.parse(#"{"b": [1, 2, {"y": null, "x": "\u00e9\/"}], "a": -7, "é": true, "z": false}"#)
        let two = try EventJSON.parse(#"{"z":false,"é":true,"a":-7,"b":[1,2,{"x":"é/","y":null}]}"#)
        #expect(one == two)
        #expect(one.canonicalText == #"{"a":-7,"b":[1,2,{"x":"é/","y":null}],"z":false,"é":true}"#)
    }

    @Test func keysSortByCodePointNotByLocaleOrLength() throws {
        let json = try EventJSON.parse(#"{"b":1,"B":2,"aa":3,"a":4,"\u00e9":5,"\ud83d\ude00":6,"\uffff":7}"#)
        #expect(json.canonicalText == "{\"B\":2,\"a\":4,\"aa\":3,\"b\":1,\"é\":5,\"\u{ffff}\":7,\"😀\":6}")
    }

    @Test func eventJSONRefusesFractionsExponentsDuplicateKeysAndNul() {
        for text in [#"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":1,"a":2}"#, #"{"a":"\u0000"}"#, #"{"a":01}"#,
                     #"{"a":-0}"#, #"{"a":99999999999999999999}"#, #"{"a":"\ud800"}"#, "{\"a\":\"\u{1}\"}", "[1,]"] {
            #expect(throws: EventJSON.ParseError.self, "\(text)") { try EventJSON.parse(text) }
        }
    }

    @Test func aTypedPayloadWithAFractionIsRefusedBeforeAnythingIsWritten() {
        struct Priced: EventPayload {
            static let eventType = "Priced"
            static let schemaVersion = 1
            var price: Double
        }
        #expect(throws: EventStoreError.self) { try NewEvent(Priced(price: 1.5)) }
    }

    @Test func theLockKeyOfASubscriptionIsStable() {
        #expect(Subscription.lockKey(name: "mailer") == Subscription.lockKey(name: "mailer"))
        #expect(Subscription.lockKey(name: "mailer") != Subscription.lockKey(name: "relay"))
    }
}

/// `NewEvent.makeId`: time-ordered event ids (UUID version 7).
@Suite struct EventIdTests {
    @Test func idsCarryVersion7TheVariantAndTheMillisecondsFirst() {
        let now = Date(timeIntervalSince1970: 1_764_547_200.123)  // 2025-12-01T00:00:00.123Z
        let id = NewEvent.makeId(now: now).uuid
        let milliseconds = [id.0, id.1, id.2, id.3, id.4, id.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_764_547_200_123)
        #expect(id.6 >> 4 == 7)
        #expect(id.8 >> 6 == 0b10)
    }

    @Test func laterIdsSortAfterEarlierOnesAndNoneRepeat() {
        let start = Date()
        // Steps of 2 ms: a step of 1 ms can round to the same millisecond, whose ids are in random order.
        let ids = (0..<1000).map { NewEvent.makeId(now: start.addingTimeInterval(Double($0) * 0.002)) }
        let texts = ids.map { $0.uuidString.lowercased() }
        #expect(texts == texts.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(NewEvent(type: "Recorded", data: .object([:])).eventId.uuid.6 >> 4 == 7)
    }
}
