import Crypto
import Domain
import Foundation

/// Checks the headers of a forwarded App Store notification against a surface's secrets: their shape
/// (`ForwardedSignature`), the timestamp's window, then `x-ea-signature` against HMAC-SHA256(secret, timestamp + "."
/// + body) over the body's bytes exactly as received, compared in constant time, for each secret that verifies now.
public struct ForwardedSignatureCheck: Sendable {
    /// How old or far ahead `x-ea-timestamp` may be.
    public let window: ForwardedTimestampWindow

    /// A check with `window` (72 hours back, 5 minutes ahead by default).
    public init(window: ForwardedTimestampWindow = .standard) { self.window = window }

    /// `.success` when the request is authentic and fresh enough at `now`; otherwise why not (a 401).
    public func verify(timestamp: String?, signature: String?, body: [UInt8], secrets: SurfaceSecrets<String>,
                       now: Date) -> Result<Void, ForwardedRefusal> {
        let signed: ForwardedSignature
        switch ForwardedSignature.parse(timestamp: timestamp, signature: signature) {
        case .success(let value): signed = value
        case .failure(let refusal): return .failure(refusal)
        }
        if case .failure(let refusal) = window.check(signed.timestamp, now: now) { return .failure(refusal) }
        let message = signed.signedMessage(body: body)
        let received = Array(signed.hexDigest.utf8)
        var matched = false
        for secret in secrets.verifying(at: now) {
            let expected = Array(Hex.encode(HMAC.sha256(key: Array(secret.utf8), message: message)).utf8)
            matched = ConstantTime.equals(expected, received) || matched
        }
        return matched ? .success(()) : .failure(.signatureMismatch)
    }
}
