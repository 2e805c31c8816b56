import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import TestSupport

/// Apps over the API edge and the app model directly (store intake's and the forwarder's reads), on one database.
struct AppFixture {
    let tenants: TenantFixture
    let api: APIResponder
    /// The app commands and reads with the test identity's master key (the responder's).
    let model: AppModel

    static func migrated(publicBaseURL: String = "https://handoff.example.com",
                         appAccountTokenLimit: RateLimit = TestIdentity.uniqueLimit(count: 30),
                         storeLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         clock: @escaping @Sendable () -> Date = { Date() },
                         storeChecks: StoreChecks = StoreChecks()) throws -> AppFixture {
        let tenants = try TenantFixture.migrated()
        let pool = Pool(configuration: PostgresConfiguration(url: tenants.database.appURL, poolSize: 2))
        return AppFixture(
            tenants: tenants,
            api: try tenants.responder(clock: clock, poolSize: 8, publicBaseURL: publicBaseURL,
                                       appAccountTokenLimit: appAccountTokenLimit, storeLimit: storeLimit,
                                       storeChecks: storeChecks),
            model: AppModel(log: EventLog(pool: pool, projections: ProjectionRegistry.service),
                            masterKey: TestIdentity.secrets().masterKey))
    }

    /// `HANDOFF_MASTER_KEY` as the admin CLI must get it to seal like `model` and the responder.
    static let masterKeyEnvironment = [
        "HANDOFF_MASTER_KEY": Data(TestIdentity.secrets().masterKey).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: ""),
    ]

    func send(_ method: HTTPServer.Method, _ path: String, key: String, body: String = "") -> Response {
        api.respond(to: s2sRequest(method, path, key: key, body: body))
    }

    /// Creates an app through `POST /s2s/v1/apps`; the answer as JSON (fails the test unless 201).
    func createApp(key: String, _ body: String) throws -> [String: Any] {
        let response = send(.post, "/s2s/v1/apps", key: key, body: body)
        guard response.status == 201 else { throw AdminFailed(outcome: "\(response.status) \(bodyText(response))") }
        return jsonObject(response)
    }

    func mintToken(projectId: String, guid: String, clientIP: String = "198.51.100.40") -> Response {
        api.respond(to: Request(method: .post, path: "/public/app-account-token", query: [:], headers: Headers([]),
                                body: Array(#"{"projectId":"\#(projectId)","guid":"\#(guid)"}"#.utf8),
                                clientIP: clientIP, remoteAddress: clientIP))
    }

    /// A private key in PEM as key files carry it (not a real key: only its shape is checked here).
    static let pem = "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n"
        + "-----END PRIVATE KEY-----\n"
    /// The same as a JSON string literal.
    static let pemJSON = pem.replacingOccurrences(of: "\n", with: "\\n")
    static let keyFileJSON = #"{"type":"service_account","project_id":"p-1","private_key":"\#(pemJSON)","#
        + #""client_email":"play@p-1.iam.gserviceaccount.com","token_uri":"http://127.0.0.1:9/token"}"#
}
