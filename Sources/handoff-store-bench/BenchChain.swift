import Crypto
import Foundation

/// The certificate chain and leaf key bench/store made with the openssl command line (like Apple's: P-384 root and
/// intermediate, P-256 leaf), and App Store notifications signed with them.
struct BenchChain {
    let root: X509Certificate
    /// `x5c`: standard base64 of leaf, intermediate and root DER.
    let x5c: [String]
    let key: ECDSAPrivateKey

    /// Reads `root.pem`, `leaf.pem`, `intermediate.pem` and `leaf.key`; exits with a message when one is unusable.
    init(root rootPath: String, leaf leafPath: String, intermediate intermediatePath: String, key keyPath: String) {
        root = Self.certificate(rootPath)
        x5c = [Self.certificate(leafPath), Self.certificate(intermediatePath), root]
            .map { Data($0.der).base64EncodedString() }
        guard let key = ECDSAPrivateKey(pem: Self.file(keyPath)) else { fail("not a P-256 key: \(keyPath)") }
        self.key = key
    }

    /// A compact JWS of `payload` (sorted keys) under the App Store's header.
    func sign(_ payload: [String: Any]) -> String {
        let header = try! JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": x5c], options: .sortedKeys)
        let body = try! JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)
        let input = Base64URL.encode([UInt8](header)) + "." + Base64URL.encode([UInt8](body))
        return input + "." + Base64URL.encode(key.signature(for: Array(input.utf8)))
    }

    /// A Production DID_RENEW for `com.example` (App Store id 1234) with a nested signedTransactionInfo and
    /// signedRenewalInfo — three JWS, each with this chain — its own `notificationUUID` and transaction id, and an
    /// `appAccountToken` nobody was given (so intake records it and changes no entitlement).
    func didRenew(index: Int, signedDate: Int64) -> String {
        let transaction: [String: Any] = [
            "transactionId": "\(2_000_000_000 + index)", "originalTransactionId": "2000000000",
            "bundleId": "com.example", "productId": "pro.monthly", "purchaseDate": signedDate,
            "expiresDate": signedDate + 2_592_000_000, "type": "Auto-Renewable Subscription",
            "appAccountToken": UUID().uuidString.lowercased(), "environment": "Production", "currency": "USD",
            "price": 10_990, "signedDate": signedDate,
        ]
        let renewal: [String: Any] = [
            "originalTransactionId": "2000000000", "autoRenewProductId": "pro.monthly", "autoRenewStatus": 1,
            "environment": "Production", "signedDate": signedDate,
        ]
        return sign([
            "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
            "signedDate": signedDate,
            "data": ["appAppleId": 1234, "bundleId": "com.example", "environment": "Production",
                     "signedTransactionInfo": sign(transaction), "signedRenewalInfo": sign(renewal)] as [String: Any],
        ])
    }

    private static func file(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func certificate(_ path: String) -> X509Certificate {
        guard let certificate = X509Certificate.certificates(pem: file(path)).first else {
            fail("no certificate in \(path)")
        }
        return certificate
    }
}

/// Prints `message` to standard error and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}
