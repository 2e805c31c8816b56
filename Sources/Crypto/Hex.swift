/// Base16 text: lowercase on output, either case on input.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes `bytes` as lowercase hexadecimal, two characters per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes hexadecimal text (upper or lower case); nil for an odd length or any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 2 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 2)
        var index = 0
        while index < input.count {
            guard let high = value(input[index]), let low = value(input[index + 1]) else { return nil }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
