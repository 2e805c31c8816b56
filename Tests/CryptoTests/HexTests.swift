import Crypto
import Testing

struct HexTests {
    @Test func bytesRoundTripThroughLowercaseHex() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(Hex.encode(bytes) == "00017f80abff")
        #expect(Hex.decode("00017f80abff") == bytes)
        let random = SecureRandom.bytes(64)
        #expect(Hex.decode(Hex.encode(random)) == random)
        #expect(Hex.decode("") == [])
    }

    @Test func decodingAcceptsUppercase() {
        #expect(Hex.decode("ABCDEF") == [0xAB, 0xCD, 0xEF])
    }

    @Test func decodingRefusesOddLengthsAndNonHexCharacters() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0x12") == nil)
        #expect(Hex.decode(" 12") == nil)
        #expect(Hex.decode("１２") == nil)
    }
}
