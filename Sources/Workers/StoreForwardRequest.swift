import Crypto
import Foundation

/// The bytes and headers of one forward, per scheme (issue 14). Pure but for HMAC; the same inputs give the same
/// request, which is how retries send identical bytes.
public enum StoreForwardRequest {
    /// Why no request could be built (a permanent failure of the job).
    public struct Refusal: Error, Sendable, Equatable {
        public let reason: String
    }

    /// The x3 scheme: the exact received `body`, `content-type: application/json`, `x-x3-forwarded: 1`,
    /// `x-x3-signature: sha256=<hex HMAC-SHA256(body, key = token)>`.
    public static func x3(body: [UInt8], token: String) -> (headers: [(String, String)], body: [UInt8]) {
        let signature = Hex.encode(HMAC.sha256(key: Array(token.utf8), message: body))
        return ([("content-type", "application/json"), ("x-x3-forwarded", "1"),
                 ("x-x3-signature", "sha256=" + signature)], body)
    }

    /// The attribloom scheme: body `{"signedPayload":"<JWS>"}` with the JWS exactly as it arrived in the App Store
    /// notification `received`, `content-type: application/json`, `x-ea-timestamp: <timestamp>` (unix seconds),
    /// `x-ea-signature: sha256=<hex HMAC-SHA256(key = secret, timestamp + "." + body)>`.
    public static func attribloom(received: [UInt8], secret: [UInt8], timestamp: String) throws(Refusal)
        -> (headers: [(String, String)], body: [UInt8])
    {
        let jws = try signedPayload(received)
        let body = Array(#"{"signedPayload":""#.utf8) + Array(jws.utf8) + Array(#""}"#.utf8)
        let signature = Hex.encode(HMAC.sha256(key: secret, message: Array(timestamp.utf8) + [0x2E] + body))
        return ([("content-type", "application/json"), ("x-ea-timestamp", timestamp),
                 ("x-ea-signature", "sha256=" + signature)], body)
    }

    /// The `signedPayload` of an App Store Server Notification V2 body: a compact JWS (three base64url segments),
    /// which needs no JSON escaping, so it goes into the new body byte for byte.
    static func signedPayload(_ received: [UInt8]) throws(Refusal) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(received)) as? [String: Any],
              let jws = object["signedPayload"] as? String else {
            throw Refusal(reason: "the notification has no signedPayload")
        }
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        guard segments.count == 3, segments.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(base64URL.contains) })
        else { throw Refusal(reason: "the signedPayload is not a compact JWS") }
        return jws
    }
}
