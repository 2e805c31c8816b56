/// SHA-1 (FIPS 180-4), only to name Lua scripts the way Redis does (`EVALSHA`); not for security.
enum SHA1 {
    /// The 40 lowercase hex digits of the SHA-1 of `message`.
    static func hexDigest(_ message: [UInt8]) -> String {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }

        var words = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let base = chunk + index * 4
                words[index] = UInt32(padded[base]) << 24 | UInt32(padded[base + 1]) << 16
                    | UInt32(padded[base + 2]) << 8 | UInt32(padded[base + 3])
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = rotateLeft(mixed, 1)
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (mix, constant): (UInt32, UInt32) = switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = rotateLeft(a, 5) &+ mix &+ e &+ constant &+ words[index]
                (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, next)
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        let digits = Array("0123456789abcdef")
        var hex = ""
        hex.reserveCapacity(40)
        for word in state {
            for shift in stride(from: 28, through: 0, by: -4) { hex.append(digits[Int(word >> UInt32(shift) & 0xF)]) }
        }
        return hex
    }

    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
