/// One RSA signing key of a JWKS: its id and public components (RFC 7518 §6.3.1).
public struct JSONWebKey: Hashable, Sendable {
    /// `kid`: the id a JWT header names.
    public let id: String
    /// `alg`, when the key states it (`RS256`).
    public let algorithm: String?
    /// `use`, when the key states it (`sig`).
    public let use: String?
    /// `n`: the modulus, unsigned big-endian.
    public let modulus: [UInt8]
    /// `e`: the public exponent, unsigned big-endian.
    public let exponent: [UInt8]

    public init(id: String, algorithm: String?, use: String?, modulus: [UInt8], exponent: [UInt8]) {
        self.id = id
        self.algorithm = algorithm
        self.use = use
        self.modulus = modulus
        self.exponent = exponent
    }
}
