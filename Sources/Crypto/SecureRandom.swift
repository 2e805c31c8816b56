import COpenSSL

/// Bytes from OpenSSL's CSPRNG, for tokens, codes and keys.
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
}
