import Crypto
import Foundation
import Testing
import Workers

/// Service-account key files and the JWT-bearer assertion, without a server.
struct PlayDeveloperAPIKeyTests {
    typealias Key = PlayDeveloperAPI.ServiceAccountKey

    static let privateKey = RSAPrivateKey.generate()
    static let pem = privateKey.pkcs8PEM.replacingOccurrences(of: "\n", with: "\\n")

    private func key(_ json: String) throws(PlayDeveloperAPI.KeyFileError) -> Key {
        try Key(json: Array(json.utf8))
    }

    @Test func aGoogleKeyFileIsRead() throws {
        let key = try key("""
            {"type":"service_account","project_id":"p","private_key_id":"abc","private_key":"\(Self.pem)",\
            "client_email":"play@p.iam.gserviceaccount.com","client_id":"1",\
            "token_uri":"https://oauth2.googleapis.com/token","universe_domain":"googleapis.com"}
            """)
        #expect(key.clientEmail == "play@p.iam.gserviceaccount.com")
        #expect(key.privateKeyID == "abc")
        #expect(key.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(key.privateKey.publicKey.pem == Self.privateKey.publicKey.pem)
        #expect("\(key)" == "ServiceAccountKey(play@p.iam.gserviceaccount.com, <redacted>)")
    }

    @Test func aKeyFileWithoutTokenURIUsesGooglesTokenEndpoint() throws {
        let key = try key(#"{"private_key":"\#(Self.pem)","client_email":"a@b.c"}"#)
        #expect(key.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(key.privateKeyID == nil)
    }

    @Test func badKeyFilesAreRefusedWithoutRepeatingTheKey() {
        let cases: [(String, String)] = [
            ("", "the key file is not a service account's JSON key"),
            ("[]", "the key file is not a service account's JSON key"),
            (#"{"client_email":"a@b.c"}"#, "the key file has no private_key"),
            (#"{"private_key":"\#(Self.pem)"}"#, "the key file has no client_email"),
            (#"{"type":"authorized_user","private_key":"\#(Self.pem)","client_email":"a@b.c"}"#,
             "the key file is not of type service_account"),
            (#"{"private_key":"\#(Self.pem)","client_email":"nobody"}"#, "client_email is not an e-mail address"),
            (#"{"private_key":"\#(Self.pem)","client_email":"a@b.c","token_uri":"file:///etc/passwd"}"#,
             "token_uri is not an http(s) URL"),
            (#"{"private_key":"-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----","client_email":"a@b.c"}"#,
             "private_key is not an unencrypted RSA private key in PEM"),
        ]
        for (json, message) in cases {
            #expect(throws: PlayDeveloperAPI.KeyFileError(message)) { try key(json) }
        }
    }
}
