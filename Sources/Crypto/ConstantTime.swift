import COpenSSL

/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes (`CRYPTO_memcmp`); false when their lengths differ.
    ///
    /// The lengths themselves are not secret: only the contents are compared in constant time.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
