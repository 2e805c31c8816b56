import Commands
import Domain
import Foundation
import Testing

/// `GOOGLE_OIDC_JWKS`: inline JSON or a file that is re-read when it changes, at most once a minute.
struct GoogleOIDCKeysTests {
    typealias Issuer = GoogleTokenIssuer

    static let first = Issuer(keyID: "first")
    static let second = Issuer(keyID: "second")

    private final class Folder {
        let path = NSTemporaryDirectory() + "handoff-jwks-\(UUID().uuidString)"
        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `text` to `name` by replacing the file (a new inode), as `curl -o tmp && mv tmp file` does.
        @discardableResult
        func write(_ text: String, to name: String = "certs.json") -> String {
            let file = path + "/" + name
            try! Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            return file
        }
    }

    private func verifies(_ keys: GoogleOIDCKeys, _ issuer: Issuer, now: Date) -> Bool {
        let token = issuer.token(claims: Issuer.claims(issuedAt: now - 10))
        return (try? keys.verifier(now: now).verify(authorization: "Bearer " + token, audience: Issuer.audience,
                                                     serviceAccount: Issuer.account, now: now).get()) != nil
    }

    @Test func theSettingIsInlineJSONWhenItStartsWithABraceAndAPathOtherwise() {
        #expect(GoogleOIDCKeys.Source(setting: #" {"keys":[]}"#) == .inline(json: #"{"keys":[]}"#))
        #expect(GoogleOIDCKeys.Source(setting: "/etc/handoff/google-certs.json")
            == .file(path: "/etc/handoff/google-certs.json"))
    }

    @Test func inlineKeysVerify() throws {
        let keys = try GoogleOIDCKeys(source: .inline(json: Issuer.jwks([Self.first])), now: Issuer.now)
        #expect(keys.keyIDs == ["first"])
        #expect(verifies(keys, Self.first, now: Issuer.now))
        #expect(!verifies(keys, Self.second, now: Issuer.now))
    }

    @Test func aMissingOrInvalidSourceIsRefusedAtStartSayingWhy() {
        let folder = Folder()
        #expect(throws: JSONWebKeySetError("cannot read the file \(folder.path)/absent.json")) {
            try GoogleOIDCKeys(source: .file(path: folder.path + "/absent.json"), now: Issuer.now)
        }
        let file = folder.write(#"{"keys":"x"}"#)
        #expect(throws: JSONWebKeySetError("field 'keys' must be an array")) {
            try GoogleOIDCKeys(source: .file(path: file), now: Issuer.now)
        }
        #expect(throws: JSONWebKeySetError("it holds no RS256 signing key")) {
            try GoogleOIDCKeys(source: .inline(json: #"{"keys":[]}"#), now: Issuer.now)
        }
    }

    @Test func aChangedFileIsReadAtTheFirstCheckAMinuteAfterTheLast() throws {
        let folder = Folder()
        let file = folder.write(Issuer.jwks([Self.first]))
        let keys = try GoogleOIDCKeys(source: .file(path: file), now: Issuer.now)
        #expect(verifies(keys, Self.first, now: Issuer.now))

        folder.write(Issuer.jwks([Self.second]))
        #expect(verifies(keys, Self.first, now: Issuer.now + 59))
        #expect(!verifies(keys, Self.second, now: Issuer.now + 59))
        #expect(verifies(keys, Self.second, now: Issuer.now + 60))
        #expect(!verifies(keys, Self.first, now: Issuer.now + 60))
        #expect(keys.keyIDs == ["second"])
    }

    @Test func aBrokenOrVanishedFileKeepsTheLastGoodKeysAndSaysWhy() throws {
        let folder = Folder()
        let file = folder.write(Issuer.jwks([Self.first]))
        let keys = try GoogleOIDCKeys(source: .file(path: file), now: Issuer.now)

        folder.write("<html>502 Bad Gateway</html>")
        #expect(verifies(keys, Self.first, now: Issuer.now + 60))
        #expect(keys.reloadFailure == "the key set is not valid JSON")

        try FileManager.default.removeItem(atPath: file)
        #expect(verifies(keys, Self.first, now: Issuer.now + 120))
        #expect(keys.reloadFailure == "cannot read the file \(file)")

        folder.write(Issuer.jwks([Self.first, Self.second]))
        #expect(verifies(keys, Self.second, now: Issuer.now + 180))
        #expect(keys.reloadFailure == nil)
    }
}
