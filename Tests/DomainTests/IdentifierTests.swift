@testable import Domain
import Domain
import Foundation
import Testing

struct IdentifierTests {
    static let upper = "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"
    static let lower = "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b"

    @Test func orgAndProjectIDsParseCanonicalTextAndRefuseTheRest() throws {
        #expect(try OrgID.parse(Self.upper).get().description == Self.lower)
        #expect(try ProjectID.parse(Self.upper).get().description == Self.lower)
        #expect(OrgID.parse("org_1") == .failure(FieldRefusal(
            field: "orgId", code: .orgIDFormat, rule: "be a UUID in canonical text form")))
        #expect(ProjectID.parse("proj") == .failure(FieldRefusal(
            field: "projectId", code: .projectIDFormat, rule: "be a UUID in canonical text form")))
    }

    @Test func uuidTextPrintsAndParsesAsFoundationDoesForEveryCanonicalSpelling() {
        for _ in 0..<2_000 {
            let uuid = UUID()
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
            #expect(UUID(canonicalText: uuid.uuidString) == uuid)
            #expect(UUID(canonicalText: uuid.uuidString.lowercased()) == uuid)
        }
        #expect(UUID(canonicalText: Self.upper)?.lowercasedText == Self.lower)
        #expect(UUID(canonicalText: "ffffffff-ffff-ffff-ffff-ffffffffffff")?.uuid.15 == 0xFF)
    }

    @Test(arguments: ["", "6f1c2e3a9b4d4e5f8a7b0c1d2e3f4a5b", "{6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b}",
                      "urn:uuid:6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b", " 6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5",
                      "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5g", "6f1c2e3a-9b4d-4e5f-8a7b_0c1d2e3f4a5b",
                      "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b ", "0x1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b",
                      "6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5é"])
    func uuidTextOutsideTheCanonicalFormIsRefused(text: String) {
        #expect(UUID(canonicalText: text) == nil)
        #expect((try? OrgID.parse(text).get()) == nil)
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
