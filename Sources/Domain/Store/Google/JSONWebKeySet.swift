import Foundation

/// A JSON Web Key Set (RFC 7517 §5) reduced to its RS256 signing keys, e.g. Google's OIDC keys
/// (`https://www.googleapis.com/oauth2/v3/certs`).
///
/// Keys of other types (`kty` other than `RSA`), other uses (`use` other than `sig`) or other algorithms (`alg`
/// other than `RS256`) are skipped. A kept key must have a `kid` unique in the set and canonical base64url `n` and
/// `e`; whether they make a usable RSA key is for `Crypto` to say.
public struct JSONWebKeySet: Hashable, Sendable {
    /// The largest document accepted, in bytes.
    public static let maxBytes = 1 << 20
    /// The most keys accepted.
    public static let maxKeys = 64

    /// The RS256 signing keys, in document order.
    public let keys: [JSONWebKey]

    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The key whose `kid` is `id`, if any.
    public func key(id: String) -> JSONWebKey? {
        keys.first { $0.id == id }
    }

    /// The key set in `bytes`, or a refusal naming the field; a set without any RS256 signing key is refused too.
    public static func parse(_ bytes: [UInt8]) -> Result<JSONWebKeySet, JSONWebKeySetError> {
        guard bytes.count <= maxBytes else { return .failure(JSONWebKeySetError("larger than \(maxBytes) bytes")) }
        switch GoogleJSON.decode(KeySetWire.self, from: bytes, prefix: "") {
        case .failure(.malformed(let message)):
            return .failure(JSONWebKeySetError(message.replacingOccurrences(of: "the body", with: "the key set")))
        case .failure(.unauthorized):
            return .failure(JSONWebKeySetError("not a key set"))
        case .success(let wire):
            let keys = wire.keys.compactMap { $0 }
            guard !keys.isEmpty else { return .failure(JSONWebKeySetError("it holds no RS256 signing key")) }
            guard Set(keys.map(\.id)).count == keys.count else {
                return .failure(JSONWebKeySetError("two keys have the same kid"))
            }
            return .success(JSONWebKeySet(keys: keys))
        }
    }
}

/// Why a JWKS document was refused, for the operator (it never reaches a client).
public struct JSONWebKeySetError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// `{"keys":[…]}`; each element is a kept key or nil (skipped).
private struct KeySetWire: Decodable {
    let keys: [JSONWebKey?]

    enum CodingKeys: String, CodingKey { case keys }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var list = try container.nestedUnkeyedContainer(forKey: .keys)
        var keys: [JSONWebKey?] = []
        while !list.isAtEnd {
            try container.googleCheck(keys.count < JSONWebKeySet.maxKeys, .keys,
                                      "hold at most \(JSONWebKeySet.maxKeys) keys")
            keys.append(try list.decode(KeyWire.self).key)
        }
        self.keys = keys
    }
}

/// One JWK; `key` is nil when it is not an RS256 signing key.
private struct KeyWire: Decodable {
    let key: JSONWebKey?

    enum CodingKeys: String, CodingKey { case kty, kid, alg, use, n, e }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .kty)
        let algorithm = try container.decodeIfPresent(String.self, forKey: .alg)
        let use = try container.decodeIfPresent(String.self, forKey: .use)
        guard type == "RSA", (algorithm ?? "RS256") == "RS256", (use ?? "sig") == "sig" else {
            key = nil
            return
        }
        let id = try container.decode(String.self, forKey: .kid)
        try container.googleCheck(!id.isEmpty && id.utf8.count <= 256, .kid, "be 1 to 256 bytes")
        let modulus = Base64URLText.decode(Substring(try container.decode(String.self, forKey: .n)))
        try container.googleCheck(modulus != nil, .n, "be unpadded base64url")
        let exponent = Base64URLText.decode(Substring(try container.decode(String.self, forKey: .e)))
        try container.googleCheck(exponent != nil, .e, "be unpadded base64url")
        key = JSONWebKey(id: id, algorithm: algorithm, use: use, modulus: modulus ?? [], exponent: exponent ?? [])
    }
}
