@testable import Domain
import Domain
import Foundation
import Testing

/// A keyed toy hash standing in for HMAC-SHA256: 32 bytes, each a 64-bit FNV-1a over key ‖ index ‖ message.
func toyMAC(key: String, message: [UInt8]) -> [UInt8] {
    (0..<32).map { index in
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in Array(key.utf8) + [UInt8(index)] + message {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return UInt8(truncatingIfNeeded: hash >> 24)
    }
}

struct PassTests {
    static let guid = BuyerGuid(randomBytes: [UInt8](repeating: 7, count: 16))
    static let project = ProjectID(randomBytes: [UInt8](repeating: 9, count: 16))
    static let issued = Date(timeIntervalSince1970: 1_700_000_000.75)
    static let keys = PassKeys(currentKeyID: "k1") { keyID, message in
        toyMAC(key: "secret-\(keyID)", message: message)
    }
    static let pass = Pass.issue(guid: guid, projectID: project, now: issued, keys: keys)
    static let claims = PassClaims(guid: guid, projectID: project,
                                   expiresAt: Date(timeIntervalSince1970: 1_700_086_400))

    @Test func aFreshPassVerifiesWithItsClaimsAndA24HourExpiryToTheSecond() {
        #expect(Pass.verify(Self.pass, now: Self.issued, keys: Self.keys) == .valid(Self.claims))
    }

    @Test func aPassIsV1PayloadKeyIDAndSignatureInURLSafeCharacters() {
        let fields = Self.pass.split(separator: ".")
        #expect(fields.count == 4 && fields[0] == "v1" && fields[2] == "k1")
        #expect(fields[1].count == 54 && fields[3].count == 43)
        #expect(Self.pass.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
    }

    @Test func aPassIsValidUpToOneSecondBeforeItsExpiryAndExpiredFromIt() {
        let expiry = Self.claims.expiresAt
        #expect(Pass.verify(Self.pass, now: expiry - 1, keys: Self.keys) == .valid(Self.claims))
        #expect(Pass.verify(Self.pass, now: expiry, keys: Self.keys) == .invalid(.expired))
        #expect(Pass.verify(Self.pass, now: expiry + 86_400, keys: Self.keys) == .invalid(.expired))
    }

    @Test func everyChangedCharacterOfAPassIsRefused() {
        let characters = Array(Self.pass)
        for position in characters.indices {
            var changed = characters
            changed[position] = characters[position] == "A" ? "B" : "A"
            let result = Pass.verify(String(changed), now: Self.issued, keys: Self.keys)
            #expect(result != .valid(Self.claims), "position \(position)")
            guard case .invalid = result else { Issue.record("position \(position) verified"); continue }
        }
    }

    @Test func aPassWithAnotherGuidInAValidPayloadIsTampered() {
        let other = Pass.issue(guid: BuyerGuid(randomBytes: [UInt8](repeating: 8, count: 16)), projectID: Self.project,
                               now: Self.issued, keys: Self.keys)
        let fields = Self.pass.split(separator: ".")
        let spliced = [fields[0], other.split(separator: ".")[1], fields[2], fields[3]].joined(separator: ".")
        #expect(Pass.verify(spliced, now: Self.issued, keys: Self.keys) == .invalid(.tampered))
    }

    @Test func aPassSignedWithAnotherKeyUnderTheSameIDIsTampered() {
        let forger = PassKeys(currentKeyID: "k1") { _, message in toyMAC(key: "guess", message: message) }
        let forged = Pass.issue(guid: Self.guid, projectID: Self.project, now: Self.issued, keys: forger)
        #expect(Pass.verify(forged, now: Self.issued, keys: Self.keys) == .invalid(.tampered))
    }

    @Test func aPassSignedByThePreviousKeyStillVerifiesAfterRotation() {
        let rotated = PassKeys(currentKeyID: "k2", previousKeyIDs: ["k1"]) { keyID, message in
            toyMAC(key: "secret-\(keyID)", message: message)
        }
        #expect(Pass.verify(Self.pass, now: Self.issued, keys: rotated) == .valid(Self.claims))
        let fresh = Pass.issue(guid: Self.guid, projectID: Self.project, now: Self.issued, keys: rotated)
        #expect(fresh.split(separator: ".")[2] == "k2")
        #expect(Pass.verify(fresh, now: Self.issued, keys: rotated) == .valid(Self.claims))
    }

    @Test func aPassOfAKeyThatIsNoLongerKeptIsAnUnknownKey() {
        let dropped = PassKeys(currentKeyID: "k3", previousKeyIDs: ["k2"]) { keyID, message in
            toyMAC(key: "secret-\(keyID)", message: message)
        }
        #expect(Pass.verify(Self.pass, now: Self.issued, keys: dropped) == .invalid(.unknownKey))
    }

    @Test func aPassWithItsKeyIDRenamedToAnotherKnownKeyIsTampered() {
        let both = PassKeys(currentKeyID: "k2", previousKeyIDs: ["k1"]) { keyID, message in
            toyMAC(key: "secret-\(keyID)", message: message)
        }
        let renamed = Self.pass.replacingOccurrences(of: ".k1.", with: ".k2.")
        #expect(Pass.verify(renamed, now: Self.issued, keys: both) == .invalid(.tampered))
    }

    @Test(arguments: ["", "v1", "v1...", "v2.AAAA.k1.AAAA", "v1.AAAA.k1.AAAA", "v1.@@@@.k1.AAAA",
                      "v1.a.b.c.d", "v1.%s.k1.", "v1.%s.k!.AAAA", "v1.%s.k1.AA=A", "v1.%s.k1.AAAA "])
    func passesOfTheWrongShapeAreMalformed(template: String) {
        let payload = String(Self.pass.split(separator: ".")[1])
        let text = template.replacingOccurrences(of: "%s", with: payload)
        #expect(Pass.verify(text, now: Self.issued, keys: Self.keys) == .invalid(.malformed))
    }

    @Test func claimsTruncateTheirExpiryToWholeSeconds() {
        #expect(PassClaims(guid: Self.guid, projectID: Self.project, expiresAt: Date(timeIntervalSince1970: 5.9))
            .expiresAt == Date(timeIntervalSince1970: 5))
    }
}
