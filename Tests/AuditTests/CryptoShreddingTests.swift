import Crypto
import Domain
import EventStore
import Foundation
import Postgres
import Testing

@Suite struct CryptoShreddingTests {
    @Test func afterABuyersKeyIsDestroyedTheirEmailReadsAsErasedAndTheChainStillVerifies() throws {
        let fixture = try AuditFixture.migrated()
        let keys = SubjectKeys(masterKey: SecureRandom.bytes(32))
        let store = fixture.store()
        let (org, buyer, neighbour) = (UUID(), "guid-buyer-1", "guid-buyer-2")
        for (subject, email) in [(buyer, "ana@example.com"), (neighbour, "bo@example.com")] {
            try store.transact(in: .org(org)) { transaction in
                let sealed = try #require(try keys.seal(email, field: .email, org: org, subject: subject,
                                                        on: transaction.connection))
                try transaction.append(org: org, stream: "buyer-\(subject)", expectedVersion: .noStream, events: [
                    NewEvent(type: "BuyerCreated", data: .object(["guid": .string(subject),
                                                                  "email": .string(sealed.text)])),
                ], metadata: auditMetadata)
            }
        }
        func email(_ subject: String) throws -> (Reveal, String) {
            let event = try #require(try store.readStream(org: org, stream: "buyer-\(subject)").first)
            let text = try #require(event.data["email"]?.stringValue)
            #expect(!text.contains("@"))
            let sealed = try #require(SealedValue(text))
            // Opened as the service does: the application role, in the org's scope.
            let revealed = try store.read(in: .org(org)) {
                try keys.reveal(sealed, field: .email, org: org, subject: subject, on: $0)
            }
            return (revealed, text)
        }
        let (before, ciphertext) = try email(buyer)
        #expect(before == .value("ana@example.com"))
        let hashesBefore = try store.readHistory(org: org).map(\.hash)

        // Destroying a key is the owner's (the application role has neither UPDATE nor DELETE on subject_keys).
        let owner = try fixture.ownerConnection()
        try keys.destroy(org: org, subject: buyer, on: owner)

        let (after, ciphertextAfter) = try email(buyer)
        #expect(after == .erased)
        #expect(ciphertextAfter == ciphertext)
        #expect(try email(neighbour).0 == .value("bo@example.com"))
        #expect(try store.readHistory(org: org).map(\.hash) == hashesBefore)
        #expect(try AuditVerifier.verify(org: org, on: owner) == [])
        #expect(try AuditVerifier.verify(on: owner) == [])
    }
}
