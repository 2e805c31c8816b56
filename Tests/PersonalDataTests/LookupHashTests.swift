import Crypto
@testable import EventStore
import Foundation
import Testing

@Suite struct LookupHashTests {
    let pepper = SecureRandom.bytes(32)

    @Test func oneAddressInAnyCaseOrSurroundingWhitespaceHashesTheSame() {
        let reference = LookupHash.email("buyer@example.com", pepper: pepper)
        for spelling in ["Buyer@Example.COM", "  buyer@example.com\n", "\tBUYER@EXAMPLE.COM "] {
            #expect(LookupHash.email(spelling, pepper: pepper) == reference, "\(spelling)")
        }
        #expect(LookupHash.email("buyer2@example.com", pepper: pepper) != reference)
        // Canonically equivalent Unicode (é precomposed vs e + combining acute) hashes the same.
        #expect(LookupHash.email("jos\u{E9}@example.com", pepper: pepper)
            == LookupHash.email("JOSE\u{301}@example.com", pepper: pepper))
    }

    @Test func anotherPepperGivesAnotherHash() {
        #expect(LookupHash.email("buyer@example.com", pepper: pepper)
            != LookupHash.email("buyer@example.com", pepper: SecureRandom.bytes(32)))
    }

    @Test func theHashIsHMACSHA256AsHexAndNeverContainsTheAddress() {
        let hash = LookupHash.email(" Buyer@Example.com", pepper: pepper)
        #expect(hash == Hex.encode(HMAC.sha256(key: pepper, message: Array("email\u{0}buyer@example.com".utf8))))
        #expect(hash.count == 64)
        #expect(!hash.contains("buyer"))
        #expect(!hash.contains("example"))
    }

    @Test func everySpellingOfOneIPAddressHashesTheSame() throws {
        let v4 = try #require(LookupHash.ipAddress("203.0.113.7", pepper: pepper))
        #expect(LookupHash.ipAddress(" 203.0.113.7 ", pepper: pepper) == v4)
        #expect(LookupHash.ipAddress("::ffff:203.0.113.7", pepper: pepper) == v4)
        #expect(LookupHash.ipAddress("203.0.113.8", pepper: pepper) != v4)
        let v6 = try #require(LookupHash.ipAddress("2001:db8::1", pepper: pepper))
        #expect(LookupHash.ipAddress("2001:0DB8:0:0:0:0:0:0001", pepper: pepper) == v6)
        #expect(LookupHash.ipAddress("203.0.113.7", pepper: SecureRandom.bytes(32)) != v4)
        // The keyed hash of the address's 4 bytes under the `ip` label: nothing of the text is in it. (This used to
        // check that the hex held no "203", which a random pepper's hash does about once in 66 runs.)
        #expect(v4 == Hex.encode(HMAC.sha256(key: pepper, message: Array("ip".utf8) + [0, 203, 0, 113, 7])))
        #expect(LookupHash.ipAddress("not-an-ip", pepper: pepper) == nil)
        #expect(LookupHash.ipAddress("256.1.1.1", pepper: pepper) == nil)
    }

    @Test(arguments: ["\t203.0.113.7", "203.0.113.7\n", "\r\n203.0.113.7 \u{0B}", "\u{00A0}203.0.113.7",
                      "203.0.113.7\u{2028}", "\u{3000}203.0.113.7\u{85}"])
    func whiteSpaceAroundAnAddressIsTrimmedWhateverItIs(spelling: String) throws {
        #expect(LookupHash.trimmed(spelling) == spelling.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(LookupHash.ipAddress(spelling, pepper: pepper) == LookupHash.ipAddress("203.0.113.7", pepper: pepper))
    }

    @Test func textWithoutWhiteSpaceAtItsEdgesIsNotChanged() {
        for text in ["203.0.113.7", "::1", "a b", "x\u{00A0}y", "", "é", "~"] {
            #expect(LookupHash.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text)")
        }
    }

    @Test func kindsAreKeptApart() {
        #expect(LookupHash.of(Array("x".utf8), kind: "email", pepper: pepper)
            != LookupHash.of(Array("x".utf8), kind: "ip", pepper: pepper))
    }
}
