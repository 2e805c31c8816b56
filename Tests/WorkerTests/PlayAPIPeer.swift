import Crypto
import Foundation
import HTTPClient
import TestSupport
import Workers

/// `Tests/Peers/play_api.py` on a free port for one test: Google's token endpoint and the Play Developer API, checking
/// the signed assertion with the service account's public key. Killed when released.
final class PlayAPIPeer: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    static let clientEmail = "handoff-play@handoff-test.iam.gserviceaccount.com"
    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `http://127.0.0.1:<port>`: the API's base URL, and the token URI's origin.
    let base: String
    /// The service account whose public key the peer trusts.
    let accountKey: RSAPrivateKey
    private let child: ChildProcess
    private let folder: String

    init(accountKey: RSAPrivateKey = RSAPrivateKey.generate(), tokenLifetime: Int = 3600) throws {
        self.accountKey = accountKey
        folder = NSTemporaryDirectory() + "handoff-play-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let publicKey = folder + "/service-account.pub.pem"
        try Data(accountKey.publicKey.pem.utf8).write(to: URL(fileURLWithPath: publicKey))
        let (port, child) = try ListeningPeer.start("play_api.py") { port in
            ["/usr/bin/python3", Self.repositoryRoot + "/Tests/Peers/play_api.py", "--port", "\(port)",
             "--public-key", publicKey, "--client-email", Self.clientEmail, "--token-lifetime", "\(tokenLifetime)"]
        }
        base = "http://127.0.0.1:\(port)"
        self.child = child
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The key file Google would hand out for the service account, with this peer's token URI.
    func keyFile(privateKey: RSAPrivateKey? = nil, keyID: String = "0123456789abcdef") -> String {
        let pem = (privateKey ?? accountKey).pkcs8PEM.replacingOccurrences(of: "\n", with: "\\n")
        return """
            {"type":"service_account","project_id":"handoff-test","private_key_id":"\(keyID)",\
            "private_key":"\(pem)","client_email":"\(Self.clientEmail)","client_id":"1234567890",\
            "auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"\(base)/token",\
            "auth_provider_x509_cert_url":"https://www.googleapis.com/oauth2/v1/certs"}
            """
    }

    /// What the peer saw: `tokensIssued`, `apiCalls`, `assertions` (header and claims), `lastAuthorization`.
    func stats() throws -> [String: Any] {
        let response = try HTTPClient().send(HTTPRequest(url: base + "/_stats"))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// Adds a purchase the API answers with `answer` (JSON text): a subscription (`product` nil) or a one-time
    /// product's, of `package` under `token`; the first `failures` calls for it answer 503.
    func addPurchase(package: String, product: String? = nil, token: String, answer: String, failures: Int = 0)
        throws
    {
        let kind = product == nil ? "subscription" : "product"
        let document: [String: Any] = [
            "kind": kind, "package": package, "product": product ?? NSNull(), "token": token, "failures": failures,
            "answer": try JSONSerialization.jsonObject(with: Data(answer.utf8)),
        ]
        let body = try JSONSerialization.data(withJSONObject: document)
        let response = try HTTPClient().send(HTTPRequest(method: "POST", url: base + "/_purchases",
                                                         headers: [("Content-Type", "application/json")],
                                                         body: Array(body)))
        guard response.status == 200 else {
            throw StartFailure(description: "play_api.py refused a purchase: \(response.status)")
        }
    }

    /// Makes the peer forget every access token it issued.
    func revokeTokens() throws {
        _ = try HTTPClient().send(HTTPRequest(method: "POST", url: base + "/_revoke"))
    }
}
