import COpenSSL
import Foundation

/// Bytes from OpenSSL's CSPRNG, for tokens, codes, keys and ids.
public enum SecureRandom {
    /// Returns `count` random bytes from `RAND_bytes`.
    ///
    /// Traps if the CSPRNG fails (it then has no safe output to give); `count` must not be negative.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: invalid count \(count)")
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        let ok = output.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        guard ok == 1 else { fatalError("RAND_bytes failed: the CSPRNG is not available") }
        return output
    }

    /// A random version-4 UUID (RFC 9562 §5.4): 122 bits from `RAND_bytes`, the version and variant bits set.
    ///
    /// Use this, not Foundation's `UUID()`: on Linux that opens, reads and closes `/dev/urandom` on every call, three
    /// system calls for each id (seen in the profiles of every command that appends an event).
    public static func uuid() -> UUID {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &value) { buffer in
            RAND_bytes(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(buffer.count))
        }
        guard ok == 1 else { fatalError("RAND_bytes failed: the CSPRNG is not available") }
        value.6 = value.6 & 0x0F | 0x40
        value.8 = value.8 & 0x3F | 0x80
        return UUID(uuid: value)
    }
}
