import Foundation

/// Text of Apple's signing fixtures (`Tests/Fixtures/apple/mock_signed_data`, see its README) and small helpers
/// that build JWS text for parser tests (signatures are not checked by the domain).
enum AppleFixtureText {
    /// `mock_signed_data/<name>`, trimmed.
    static func signedData(_ name: String) -> String {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let file = folder.appendingPathComponent("Tests/Fixtures/apple/mock_signed_data/" + name)
            if let data = FileManager.default.contents(atPath: file.path) {
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            folder.deleteLastPathComponent()
        }
        fatalError("Tests/Fixtures/apple/mock_signed_data/\(name) not found above \(#filePath)")
    }

    /// Unpadded base64url of `bytes`.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// `header.payload.signature` from JSON texts and a signature of `signatureLength` bytes.
    static func jws(header: String, payload: String, signatureLength: Int = 64) -> String {
        base64URL(Array(header.utf8)) + "." + base64URL(Array(payload.utf8)) + "."
            + base64URL([UInt8](repeating: 7, count: signatureLength))
    }

    /// A header naming ES256 and three certificate strings.
    static let header = #"{"alg":"ES256","x5c":["AAAA","BBBB","CCCC"]}"#
}
