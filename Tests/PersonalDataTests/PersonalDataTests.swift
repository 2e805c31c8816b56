import Crypto
import Domain
@testable import EventStore
import Foundation
import Testing

@Suite struct PersonalDataTests {
    let keys = SubjectKeys(masterKey: SecureRandom.bytes(32))

    @Test func sealingThenOpeningGivesTheValueBackAndAfterDestroyItReadsAsErased() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        let sealed = try #require(
            try keys.seal("buyer@example.com", field: .email, org: org, subject: "buyer-1", on: connection))
        #expect(sealed.text.hasPrefix("pd1."))
        #expect(!sealed.text.contains("buyer"))
        #expect(try keys.reveal(sealed, field: .email, org: org, subject: "buyer-1", on: connection)
            == .value("buyer@example.com"))

        try keys.destroy(org: org, subject: "buyer-1", on: connection)
        #expect(try keys.reveal(sealed, field: .email, org: org, subject: "buyer-1", on: connection) == .erased)
        // The stored text is unchanged (it is what the event hash covers); only the key is gone.
        #expect(SealedValue(sealed.text) == sealed)
    }

    @Test func aValueMovedToAnotherSubjectFieldOrOrgIsInvalid() throws {
        let connection = try PersonalDataFixture.connection()
        let org = UUID()
        let sealed = try #require(
            try keys.seal("buyer@example.com", field: .email, org: org, subject: "buyer-1", on: connection))
        let ownKey = try keys.keyFor(org: org, subject: "buyer-1", on: connection)
        _ = try keys.keyFor(org: org, subject: "buyer-2", on: connection)

        #expect(try keys.reveal(sealed, field: .email, org: org, subject: "buyer-2", on: connection) == .invalid)
        #expect(try keys.reveal(sealed, field: .ipAddress, org: org, subject: "buyer-1", on: connection) == .invalid)
        // Even with the right key bytes, another subject, field or org bound in the associated data refuses it.
        #expect(PersonalData.open(sealed, field: .email, org: org, subject: "buyer-2", key: ownKey) == .invalid)
        #expect(PersonalData.open(sealed, field: .ipAddress, org: org, subject: "buyer-1", key: ownKey) == .invalid)
        #expect(PersonalData.open(sealed, field: .email, org: UUID(), subject: "buyer-1", key: ownKey) == .invalid)
        // A subject that never had a key cannot have sealed anything.
        #expect(try keys.reveal(sealed, field: .email, org: org, subject: "nobody", on: connection) == .invalid)
    }

    @Test func subjectAndFieldCannotBeShiftedIntoEachOther() {
        let key = SubjectKey(bytes: SecureRandom.bytes(32))!
        let org = UUID()
        let sealed = PersonalData.seal("x", field: PersonalDataField(rawValue: "bc"), org: org, subject: "a", key: key)
        let shifted = PersonalData.open(sealed, field: PersonalDataField(rawValue: "c"), org: org, subject: "ab",
                                        key: .live(key))
        #expect(shifted == .invalid)
    }

    @Test func theSameInputSealsDifferentlyEachTime() {
        let key = SubjectKey(bytes: SecureRandom.bytes(32))!
        let org = UUID()
        let texts = (0..<20).map { _ in
            PersonalData.seal("buyer@example.com", field: .email, org: org, subject: "buyer-1", key: key).text
        }
        #expect(Set(texts).count == 20)
    }

    @Test func anyChangedCharacterMakesTheValueInvalid() throws {
        let key = SubjectKey(bytes: SecureRandom.bytes(32))!
        let org = UUID()
        let sealed = PersonalData.seal("203.0.113.7", field: .ipAddress, org: org, subject: "b", key: key)
        let characters = Array(sealed.text)
        for index in characters.indices.dropFirst(SealedValue.prefix.count) {
            var changed = characters
            changed[index] = changed[index] == "A" ? "B" : "A"
            // Either it no longer parses (non-zero unused bits) or it parses and does not open.
            if let tampered = SealedValue(String(changed)) {
                #expect(PersonalData.open(tampered, field: .ipAddress, org: org, subject: "b", key: .live(key))
                    == .invalid)
            }
        }
    }

    @Test func aSealedValueIsAJSONStringAndMalformedOnesAreRefused() throws {
        let key = SubjectKey(bytes: SecureRandom.bytes(32))!
        let sealed = PersonalData.seal("a@b.c", field: .email, org: UUID(), subject: "s", key: key)
        let json = try JSONEncoder().encode(["email": sealed])
        #expect(String(decoding: json, as: UTF8.self) == "{\"email\":\"\(sealed.text)\"}")
        #expect(try JSONDecoder().decode([String: SealedValue].self, from: json) == ["email": sealed])
        // 12-byte nonce + 5 bytes + 16-byte tag = 33 bytes = 44 base64url characters.
        #expect(sealed.text.count == 4 + 44)

        for bad in ["a@b.c", "pd2." + sealed.text.dropFirst(4), "pd1.", "pd1.AAAA", "pd1.***", sealed.text + "="] {
            #expect(SealedValue(String(bad)) == nil, "\(bad)")
            #expect(throws: DecodingError.self) {
                _ = try JSONDecoder().decode(SealedValue.self, from: Data("\"\(bad)\"".utf8))
            }
        }
    }

    @Test func keysNeverPrint() {
        let key = SubjectKey(bytes: [UInt8](repeating: 0xAB, count: 32))!
        #expect("\(key)" == "SubjectKey(redacted)")
        #expect("\(SubjectKeyState.live(key))" == "live")
        #expect(!String(reflecting: key).contains("171"))
    }
}
