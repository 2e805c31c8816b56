extension CompactJWS {
    /// 256 entries: the 6-bit value of each byte in the base64url alphabet (RFC 4648 §5), 0xFF for any other byte.
    private static let base64URLValues: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Decodes one segment of unpadded base64url; nil for anything its encoder would not have written (padding,
    /// `+`, `/`, whitespace, a length of 4n + 1, non-zero unused bits), so each byte string has one spelling.
    ///
    /// Table-driven on bytes: Foundation's string replacement, which `Base64URLText` builds on, cost most of a
    /// notification's verification time on Linux (docs/store-notifications.md, "Throughput").
    static func decodeBase64URL(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
        guard segment.count % 4 != 1 else { return nil }
        let decodedCount = segment.count * 3 / 4
        var valid = true
        let output = [UInt8](unsafeUninitializedCapacity: decodedCount) { buffer, initialized in
            base64URLValues.withUnsafeBufferPointer { values in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                var written = 0
                for character in segment {
                    let value = values[Int(character)]
                    guard value != 0xFF else {
                        valid = false
                        break
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        buffer[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                        accumulator &= (1 << bits) - 1
                    }
                }
                if accumulator != 0 { valid = false }
                initialized = written
            }
        }
        return valid ? output : nil
    }
}
