import Foundation
import HTTPClient
import TestSupport

/// `Tests/Peers/adservices_api.py` on a free port for one test: Apple's AdServices attribution API as documented
/// (`POST /api/v1/` with a token as `text/plain`), its answers scripted per token. Killed when released.
final class AdServicesPeer: @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `http://127.0.0.1:<port>/api/v1`: what `APPLE_ADS_API_BASE_URL` names.
    let base: String
    private let root: String
    private let child: ChildProcess

    init() throws {
        let (port, child) = try ListeningPeer.start("adservices_api.py") { port in
            ["/usr/bin/python3", PlayAPIPeer.repositoryRoot + "/Tests/Peers/adservices_api.py", "--port=\(port)"]
        }
        root = "http://127.0.0.1:\(port)"
        base = root + "/api/v1"
        self.child = child
    }

    /// Scripts `token`: the API answers `answers` (status, JSON body or nil) in turn, the last one from then on.
    func script(_ token: String, _ answers: [(Int, String?)]) throws {
        let list = answers.map { #"{"status":\#($0.0),"body":\#($0.1 ?? "null")}"# }.joined(separator: ",")
        let tokenJSON = String(decoding: try JSONSerialization.data(withJSONObject: [token]), as: UTF8.self)
            .dropFirst().dropLast()
        let response = try HTTPClient().send(HTTPRequest(
            method: "POST", url: root + "/_tokens", headers: [("Content-Type", "application/json")],
            body: Array(#"{"token":\#(tokenJSON),"answers":[\#(list)]}"#.utf8)))
        guard response.status == 200 else { throw StartFailure(description: "the peer refused a script") }
    }

    /// The API calls the peer answered, oldest first: `path`, `contentType`, `body` (the token).
    func calls() throws -> [[String: String]] {
        let response = try HTTPClient().send(HTTPRequest(url: root + "/_stats"))
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["calls"] as? [[String: String]] ?? []
    }
}
