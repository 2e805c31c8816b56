/// A surface's forwarding secret: the HMAC-SHA256 key of `x-ea-signature` (`POST /v1/app-store/assn/{surfaceId}`),
/// `fwd_` and 43 characters of base64url (32 random bytes, 256 bits).
///
/// The key is the secret's text exactly as shown, as (ASCII) bytes. It is shown once, when it is made (surface
/// creation, rotation); Handoff keeps it only sealed for the surface's app (subject `app:<appId>`, field
/// `forwardingSecret`), because checking a signature needs the key itself.
public struct ForwardingSecret: Hashable, Sendable, CustomStringConvertible {
    /// What every forwarding secret starts with, so it is recognisable where it is pasted (and by secret scanners).
    public static let prefix = "fwd_"
    /// Random bytes behind a secret.
    public static let randomByteCount = 32

    /// The secret's text, prefix included.
    public let text: String

    /// A new secret from `randomByteCount` bytes of a CSPRNG (the caller draws them; the domain has no randomness).
    public init(randomBytes: [UInt8]) {
        precondition(randomBytes.count == Self.randomByteCount, "ForwardingSecret: needs 32 random bytes")
        self.text = Self.prefix + Base64URLText.encode(randomBytes)
    }

    /// The secret itself; print it only where it is meant to be shown (creation, rotation).
    public var description: String { text }

    /// The HMAC key: the text's bytes.
    public var key: [UInt8] { Array(text.utf8) }
}
