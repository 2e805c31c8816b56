import Crypto
import Testing

struct Base64URLTests {
    @Test func randomBytesOfEveryLengthUpTo64RoundTrip() {
        for length in 0...64 {
            let bytes = SecureRandom.bytes(length)
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
            #expect(!text.contains("="), "length \(length)")
            #expect(text.utf8.count == (length * 4 + 2) / 3, "length \(length)")
        }
    }

    @Test func encodingUsesDashAndUnderscoreInsteadOfPlusAndSlash() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.encode([0xFF, 0xFF]) == "__8")
    }

    @Test func encodingMatchesTheRFC4648Examples() {
        let examples = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE",
                        "foobar": "Zm9vYmFy"]
        for (plain, encoded) in examples {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func decodingAcceptsCorrectPadding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
    }

    @Test func decodingRefusesCharactersOutsideTheURLAlphabet() {
        #expect(Base64URL.decode("+/+/") == nil)
        #expect(Base64URL.decode("Zm9v YmFy") == nil)
        #expect(Base64URL.decode("Zm9v\n") == nil)
        #expect(Base64URL.decode("Zm9v!") == nil)
        #expect(Base64URL.decode("Zm9vé") == nil)
    }

    @Test func decodingRefusesImpossibleLengthsWrongPaddingAndStrayBits() {
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Zm9vY") == nil)
        #expect(Base64URL.decode("Zg=") == nil)
        #expect(Base64URL.decode("Z===") == nil)
        #expect(Base64URL.decode("Zm=9") == nil)
        #expect(Base64URL.decode("Zh") == nil)
    }
}
