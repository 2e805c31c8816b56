/// CRC-32 as in zlib, PNG and Ethernet (ISO-HDLC: polynomial 0xEDB88320 reflected, initial and final XOR 0xFFFFFFFF).
///
/// A checksum against typing mistakes, not an integrity check against an attacker: it detects every change
/// confined to 32 consecutive bits, so every single-character change and every swap of neighbours in ASCII text.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of `bytes` (`CRC32.checksum("123456789".utf8) == 0xCBF43926`).
    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
