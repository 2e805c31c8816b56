@testable import Domain
import Testing

struct SecretKeyTests {
    static let key = SecretKey(randomBytes: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func base32MatchesRFC4648InLowercaseWithoutPadding() {
        #expect(Base32.encode(Array("foobar".utf8)) == "mzxw6ytboi")
        #expect(Base32.decode(Array("mzxw6ytboi".utf8)) == Array("foobar".utf8))
        #expect(Base32.decode(Array("mzxw6ytboj".utf8)) == nil)
        #expect(Base32.decode(Array("MZXW6YTBOI".utf8)) == nil)
    }

    @Test func aKeyIsSkLive67CharactersLongAndParsesBackToItself() throws {
        #expect(Self.key.text.hasPrefix("sk_live_"))
        #expect(Self.key.text.count == 67)
        #expect(try SecretKey.parse(Self.key.text).get() == Self.key)
    }

    @Test func differentRandomBytesMakeDifferentKeys() {
        #expect(SecretKey(randomBytes: [UInt8](repeating: 1, count: 32)) != Self.key)
    }

    @Test func theVisiblePrefixIsTheFirst16CharactersAndTheDescriptionHidesTheRest() {
        #expect(Self.key.visiblePrefix == String(Self.key.text.prefix(16)))
        #expect(Self.key.description == Self.key.visiblePrefix + "…")
    }

    @Test func theLookupMaterialIsTheKeysUTF8Text() {
        #expect(Self.key.lookupMaterial == Array(Self.key.text.utf8))
    }

    @Test func everySingleCharacterChangeIsRefused() {
        let characters = Array(Self.key.text)
        let replacements = Array("abcdefghijklmnopqrstuvwxyz234567ABZ019_-")
        for position in characters.indices {
            for replacement in replacements where replacement != characters[position] {
                var typo = characters
                typo[position] = replacement
                #expect((try? SecretKey.parse(String(typo)).get()) == nil, "position \(position) → \(replacement)")
            }
        }
    }

    @Test func everySwapOfNeighboursIsRefused() {
        let characters = Array(Self.key.text)
        for position in characters.indices.dropLast() where characters[position] != characters[position + 1] {
            var typo = characters
            typo.swapAt(position, position + 1)
            #expect((try? SecretKey.parse(String(typo)).get()) == nil, "swap at \(position)")
        }
    }

    @Test func aChangedBodyCharacterIsAChecksumMismatch() {
        var characters = Array(Self.key.text)
        characters[20] = characters[20] == "a" ? "b" : "a"
        #expect(SecretKey.parse(String(characters)) == .failure(.checksumMismatch))
    }

    @Test func aWrongPrefixIsRefused() {
        #expect(SecretKey.parse("sk_test_" + Self.key.text.dropFirst(8)) == .failure(.wrongPrefix))
        #expect(SecretKey.parse(Self.key.text.uppercased()) == .failure(.wrongPrefix))
        #expect(SecretKey.parse("") == .failure(.wrongPrefix))
    }

    @Test func aWrongLengthIsRefused() {
        #expect(SecretKey.parse(String(Self.key.text.dropLast())) == .failure(.wrongLength))
        #expect(SecretKey.parse(Self.key.text + "a") == .failure(.wrongLength))
        #expect(SecretKey.parse("sk_live_") == .failure(.wrongLength))
        #expect(SecretKey.parse(Self.key.text + " ") == .failure(.wrongLength))
    }

    @Test func charactersOutsideLowercaseBase32AreRefused() {
        var characters = Array(Self.key.text)
        characters[10] = "1"
        #expect(SecretKey.parse(String(characters)) == .failure(.badCharacter))
    }

    @Test func aVisiblePrefixParsesAndAnythingElseIsRefusedNamingTheField() {
        #expect(SecretKey.parseVisiblePrefix(Self.key.visiblePrefix) == .success(Self.key.visiblePrefix))
        let refusal = FieldRefusal(field: "prefix", code: .keyPrefixFormat,
                                   rule: "be the first 16 characters of a key (sk_live_…)")
        #expect(SecretKey.parseVisiblePrefix("sk_live_") == .failure(refusal))
        #expect(SecretKey.parseVisiblePrefix(Self.key.text) == .failure(refusal))
        #expect(SecretKey.parseVisiblePrefix("sk_test_abcdefgh") == .failure(refusal))
        #expect(SecretKey.parseVisiblePrefix("sk_live_ABCDEFGH") == .failure(refusal))
    }
}
