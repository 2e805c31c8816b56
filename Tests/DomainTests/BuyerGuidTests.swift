import Domain
import Foundation
import Testing

/// `BuyerGuid` (issue 12 §7): an opaque id of 1–64 characters of `A–Z a–z 0–9 . _ : -`, kept exactly as given.
struct BuyerGuidTests {
    static let rule = "be 1–64 characters from A-Z a-z 0-9 . _ : -"
    static let unsetRule = "not be an unset device id (only zeros, the max UUID, null, nil or undefined)"
    static let dotRule = "not be . or .. (a URL path cannot carry them)"

    static func refused(_ rule: String, field: String = "guid") -> Result<BuyerGuid, FieldRefusal> {
        .failure(FieldRefusal(field: field, code: .guidFormat, rule: rule))
    }

    @Test(arguments: [
        "abc123def456", "9f3c6a2b1d4e5f60", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B",
        "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b", "device-123", "usr_42", "tenant:buyer:7", "v1.2",
    ])
    func theSeedsExampleDeviceIDsAndUUIDsAreKeptExactlyAsGiven(text: String) throws {
        #expect(try BuyerGuid.parse(text).get().description == text)
    }

    @Test(arguments: ["a", "Z", "7", "-", "_", ":"])
    func oneCharacterIsAGuid(text: String) throws {
        #expect(try BuyerGuid.parse(text).get().description == text)
    }

    @Test func sixtyFourCharactersIsAGuidAndSixtyFiveIsRefused() throws {
        let longest = String(repeating: "aB3.", count: 16)
        #expect(try BuyerGuid.parse(longest).get().description == longest)
        #expect(BuyerGuid.parse(longest + "x") == Self.refused(Self.rule))
    }

    @Test(arguments: ["a.b", "a_b", "a:b", "a-b", ".a", "a.", "...", "-_:.", "a..b"])
    func eachAllowedPunctuationIsKept(text: String) throws {
        #expect(try BuyerGuid.parse(text).get().description == text)
    }

    @Test(arguments: [
        "", " ", "a b", " abc", "abc ", "a/b", "a\\b", "a+b", "a%2Fb", "a?b", "a#b", "a@b", "a,b", "a\"b",
        "a\nb", "a\tb", "a\u{0}b", "é", "abcé", "ａbc", "日本", "a\u{200B}b", "🙂", "a<b", "a>b", "a'b", "a&b",
        "a;b", "a=b", "a*b", "a~b",
    ])
    func anythingOutsideTheAlphabetIsRefusedNamingTheFieldAndTheRule(text: String) {
        #expect(BuyerGuid.parse(text) == Self.refused(Self.rule))
    }

    @Test func caseMattersSoABCAndAbcAreTwoGuids() throws {
        let upper = try BuyerGuid.parse("ABC").get()
        let lower = try BuyerGuid.parse("abc").get()
        #expect(upper != lower)
        #expect(upper.description == "ABC" && lower.description == "abc")
        let uuid = "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"
        #expect(try BuyerGuid.parse(uuid).get() != BuyerGuid.parse(uuid.lowercased()).get())
    }

    @Test(arguments: [
        "00000000-0000-0000-0000-000000000000", "0000000000000000", "0", "00", "0.0", "0000-0000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        "null", "NULL", "Null", "nil", "NIL", "undefined", "Undefined",
    ])
    func unsetDeviceIDsAreRefusedSoTheyDoNotMergeEveryDeviceIntoOneBuyer(text: String) {
        #expect(BuyerGuid.parse(text) == Self.refused(Self.unsetRule))
    }

    @Test(arguments: [
        "00000000-0000-0000-0000-000000000001", "0000000000000001", "10", "0a", "ffffffffffffffff",
        "ffffffff-ffff-ffff-ffff-fffffffffffe", "nullable", "nil0", "undefined1", "none",
    ])
    func nearMissesOfUnsetDeviceIDsAreGuids(text: String) throws {
        #expect(try BuyerGuid.parse(text).get().description == text)
    }

    @Test(arguments: [".", ".."])
    func dotSegmentsAreRefused(text: String) {
        #expect(BuyerGuid.parse(text) == Self.refused(Self.dotRule))
    }

    @Test func aRefusalNamesTheFieldItWasGiven() {
        #expect(BuyerGuid.parse("a b", field: "id") == Self.refused(Self.rule, field: "id"))
        guard case .failure(let refusal) = BuyerGuid.parse("a b", field: "id") else {
            Issue.record("'a b' parsed")
            return
        }
        #expect(refusal.message == "field 'id' must be 1–64 characters from A-Z a-z 0-9 . _ : -")
    }

    @Test func mintedGuidsStayLowercaseVersion4UUIDs() throws {
        let minted = BuyerGuid(randomBytes: [UInt8](repeating: 0xFF, count: 16))
        #expect(minted.description == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(try BuyerGuid.parse(minted.description).get() == minted)
        let zeros = BuyerGuid(randomBytes: [UInt8](repeating: 0, count: 16))
        #expect(zeros.description == "00000000-0000-4000-8000-000000000000")
    }

    @Test func noGuidCanNameTheKeyOfAnAddress() {
        // Personal data of a recovery request is sealed under `email:<64 hex>` (70 characters: the address's lookup
        // reference, or its lookup hash in version 1); a guid of at most 64 characters can never name that subject and
        // open or erase the address.
        let subject = RecoveryStreams.emailSubject(emailRef: String(repeating: "ab", count: 32))
        #expect(subject.count == 70)
        #expect(BuyerGuid.parse(subject) == Self.refused(Self.rule))
        #expect(BuyerGuid.parse(String(subject.prefix(64))) != Self.refused(Self.rule))
    }
}
