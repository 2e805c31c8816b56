@testable import Domain
import Domain
import Foundation
import Testing

struct IdentifierTests {
    static let upper = "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"
    static let lower = "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b"

    static let malformedUUIDs = [
        "", "6f1c2e3a9b4d4e5f8a7b0c1d2e3f4a5b", "{6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b}",
        "urn:uuid:6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b", " 6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b",
        "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b ", "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5g",
        "6f1c2e3a-9b4d-4e5f-8a7b_0c1d2e3f4a5b", "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5", "device-123",
    ]

    @Test func aGuidInEitherCaseParsesAndPrintsLowercase() throws {
        #expect(try BuyerGuid.parse(Self.upper).get().description == Self.lower)
        #expect(try BuyerGuid.parse(Self.lower).get().description == Self.lower)
    }

    @Test(arguments: malformedUUIDs)
    func aGuidNotInCanonicalFormIsRefusedNamingTheField(text: String) {
        #expect(BuyerGuid.parse(text) == .failure(FieldRefusal(
            field: "guid", code: .guidFormat, rule: "be a UUID in canonical text form")))
    }

    @Test(arguments: ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"])
    func theNilAndMaxUUIDsAreRefusedAsGuids(text: String) {
        #expect(BuyerGuid.parse(text) == .failure(FieldRefusal(
            field: "guid", code: .guidFormat, rule: "not be the nil or the max UUID")))
    }

    @Test func aGuidRefusalNamesTheFieldItWasGiven() {
        #expect((try? BuyerGuid.parse("x", field: "id").get()) == nil)
        #expect(BuyerGuid.parse("x", field: "id") == .failure(FieldRefusal(
            field: "id", code: .guidFormat, rule: "be a UUID in canonical text form")))
    }

    @Test func anyUUIDVersionIsAGuid() {
        #expect((try? BuyerGuid.parse("6f1c2e3a-9b4d-1e5f-8a7b-0c1d2e3f4a5b").get()) != nil)
    }

    @Test func randomBytesMakeAVersion4GuidThatRoundTrips() throws {
        let guid = BuyerGuid(randomBytes: [UInt8](repeating: 0xFF, count: 16))
        #expect(guid.description == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        #expect(try BuyerGuid.parse(guid.description).get() == guid)
    }

    @Test func orgAndProjectIDsParseCanonicalTextAndRefuseTheRest() throws {
        #expect(try OrgID.parse(Self.upper).get().description == Self.lower)
        #expect(try ProjectID.parse(Self.upper).get().description == Self.lower)
        #expect(OrgID.parse("org_1") == .failure(FieldRefusal(
            field: "orgId", code: .orgIDFormat, rule: "be a UUID in canonical text form")))
        #expect(ProjectID.parse("proj") == .failure(FieldRefusal(
            field: "projectId", code: .projectIDFormat, rule: "be a UUID in canonical text form")))
    }

    @Test func randomBytesMakeVersion4OrgAndProjectIDs() {
        #expect(OrgID(randomBytes: [UInt8](repeating: 0, count: 16)).description
            == "00000000-0000-4000-8000-000000000000")
        #expect(ProjectID(randomBytes: [UInt8](repeating: 0, count: 16)).description
            == "00000000-0000-4000-8000-000000000000")
    }

    @Test(arguments: ["pi_3Mtw4bLkdIwHu7ix28a3tqPa", "GPA.1234-5678-9012-34567", "txn_01h:x", "1",
                      String(repeating: "a", count: 128)])
    func paymentIDsOfTheSafeSetAreKeptAsGiven(text: String) throws {
        #expect(try PaymentID.parse(text).get().text == text)
    }

    @Test(arguments: ["", String(repeating: "a", count: 129), "a/b", "a b", "a?b", "a#b", "a%20", "é", "a+b"])
    func paymentIDsOutsideTheSafeSetAreRefusedNamingTheField(text: String) {
        #expect(PaymentID.parse(text) == .failure(FieldRefusal(
            field: "paymentId", code: .paymentIDFormat, rule: "be 1–128 characters of A-Z a-z 0-9 . _ : -")))
    }

    @Test func refusalMessagesNameTheField() {
        #expect(FieldRefusal(field: "guid", code: .guidFormat, rule: "be x").message == "field 'guid' must be x")
    }
}
