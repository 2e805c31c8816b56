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

    @Test func aPassIsV2PayloadKeyIDAndSignatureInURLSafeCharacters() {
        let fields = Self.pass.split(separator: ".")
        #expect(fields.count == 4 && fields[0] == "v2" && fields[2] == "k1")
        // project id (16) ‖ expiry (8) ‖ the guid's 36 characters = 60 bytes = 80 base64url characters.
        #expect(fields[1].count == 80 && fields[3].count == 43)
        #expect(Self.pass.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
        #expect(Base64URLText.decode(fields[1]).map { Array($0[24...]) } == Array(Self.guid.description.utf8))
    }

    @Test(arguments: ["abc123def456", "9f3c6a2b1d4e5f60", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B", "a", "-_:.",
                      String(repeating: "Zz9.", count: 16)])
    func anOpaqueGuidRoundTripsThroughAPassExactly(text: String) throws {
        let guid = try BuyerGuid.parse(text).get()
        let pass = Pass.issue(guid: guid, projectID: Self.project, now: Self.issued, keys: Self.keys)
        let claims = PassClaims(guid: guid, projectID: Self.project, expiresAt: Self.claims.expiresAt)
        #expect(Pass.verify(pass, now: Self.issued, keys: Self.keys) == .valid(claims))
        #expect(pass.count <= 3 + 118 + 1 + 2 + 1 + 43)
    }

    /// Issued by the build before opaque guids (`v1`: guid (16 bytes) ‖ project id (16) ‖ expiry (8)), same keys.
    static let v1Pass = "v1.BwcHBwcHRweHBwcHBwcHBwkJCQkJCUkJiQkJCQkJCQkAAAAAZVVCgA.k1."
        + "FgzWzULwnbhf3r7KQEeWlwZtn5-VEWlYZJUmuCu5HF8"

    @Test func aPassIssuedInTheV1FormatStillVerifiesAsItsLowercaseUUID() throws {
        let claims = PassClaims(guid: try BuyerGuid.parse("07070707-0707-4707-8707-070707070707").get(),
                                projectID: Self.project, expiresAt: Self.claims.expiresAt)
        #expect(Pass.verify(Self.v1Pass, now: Self.issued, keys: Self.keys) == .valid(claims))
        #expect(Pass.verify(Self.v1Pass, now: Self.claims.expiresAt, keys: Self.keys) == .invalid(.expired))
        let relabelled = "v2" + Self.v1Pass.dropFirst(2)
        #expect(Pass.verify(relabelled, now: Self.issued, keys: Self.keys) != .valid(claims))
        guard case .invalid = Pass.verify(relabelled, now: Self.issued, keys: Self.keys) else {
            Issue.record("a v1 payload read as v2 verified")
            return
        }
    }

    /// A v2 pass over `payload`, signed with `keys` (so only the payload's shape can refuse it).
    static func signedV2(_ payload: [UInt8]) -> String {
        let signed = "v2.\(Base64URLText.encode(payload)).k1"
        return signed + "." + Base64URLText.encode(Self.keys.mac("k1", Array(signed.utf8)))
    }

    @Test(arguments: ["", "a b", "a/b", "é", String(repeating: "a", count: 65)])
    func aSignedV2PassWhoseGuidIsOutsideTheRuleIsMalformed(guid: String) {
        let head = [UInt8](repeating: 9, count: 16) + [0, 0, 0, 0, 0x65, 0x56, 0x94, 0x00]
        #expect(Pass.verify(Self.signedV2(head + Array(guid.utf8)), now: Self.issued, keys: Self.keys)
            == .invalid(.malformed))
        #expect(Pass.verify(Self.signedV2(Array(head.prefix(20))), now: Self.issued, keys: Self.keys)
            == .invalid(.malformed))
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

    @Test(arguments: ["", "v2", "v2...", "v1.AAAA.k1.AAAA", "v2.AAAA.k1.AAAA", "v3.%s.k1.AAAA", "V2.%s.k1.AAAA",
                      "v2.@@@@.k1.AAAA", "v2.a.b.c.d", "v2.%s.k1.", "v2.%s.k!.AAAA", "v2.%s.k1.AA=A",
                      "v2.%s.k1.AAAA "])
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
