import API
import Commands
import Domain
import EventStore
import Foundation
import HTTPServer
import Postgres
import Redis
import Telemetry
import TestSupport

/// Surfaces over the API edge (no socket) on a fresh database: an edge whose clock, surface limit and timestamp
/// window a test chooses, Apple signatures checked against the fixtures' test root, and the surface model directly
/// (with the edge's master key) for what the admin CLI does. Binds (`POST /v1/app-store/bind`) have a budget of
/// their own, so the commission tests bind freely.
struct SurfaceFixture {
    let store: StoreFixture
    let surfaces: SurfaceModel

    var apps: AppFixture { store.apps }
    var tenant: (org: String, project: String, key: String) { store.tenant }

    static let publicBaseURL = "https://handoff.example.com"

    static func migrated(clock: @escaping @Sendable () -> Date = { Date() },
                         surfaceLimit: RateLimit = TestIdentity.uniqueLimit(count: 1000),
                         window: ForwardedTimestampWindow = .standard) throws -> SurfaceFixture {
        let tenants = try TenantFixture.migrated()
        let environment = Environment(
            model: WriteModel(pool: Pool(configuration: PostgresConfiguration(url: tenants.database.appURL,
                                                                              poolSize: 8)),
                              secrets: TestIdentity.secrets()),
            redis: RedisPool(configuration: try RedisConfiguration(
                url: try TestEnvironment.redisURL(), poolSize: 4, connectTimeout: 0.3, commandTimeout: 0.3)),
            metrics: Metrics(), logger: Logger(level: .error, descriptor: open("/dev/null", O_WRONLY)),
            authFailureLimit: TestIdentity.uniqueLimit(count: 20), clock: clock, publicBaseURL: publicBaseURL,
            storeLimit: TestIdentity.uniqueLimit(count: 1000),
            storeChecks: StoreChecks(appleRoots: StoreFixture.appleRoots),
            appAccountTokenLimit: TestIdentity.uniqueLimit(count: 1000),
            bindLimit: TestIdentity.uniqueLimit(count: 1000), surfaceLimit: surfaceLimit,
            forwardedTimestampWindow: window)
        let log = EventLog(pool: Pool(configuration: PostgresConfiguration(url: tenants.database.appURL, poolSize: 2)),
                           projections: ProjectionRegistry.service)
        let masterKey = TestIdentity.secrets().masterKey
        let apps = AppFixture(tenants: tenants, api: APIResponder(environment: environment),
                              model: AppModel(log: log, masterKey: masterKey))
        return SurfaceFixture(store: StoreFixture(apps: apps, tenant: try tenants.tenant()),
                              surfaces: SurfaceModel(log: log, masterKey: masterKey))
    }

    /// A surface of `app` (as `handoff admin surface create` makes it): its id and forwarding secret.
    func surface(app: String) throws -> (id: String, secret: String) {
        let appId = try AppID.parse(app).get()
        let created = try surfaces.createSurface.run(AppCommandScope(app: appId, org: nil, project: nil),
                                                     metadata: EventMetadata(actor: .admin("test")))
        return (created.surface.surfaceId.description, created.secret.text)
    }

    /// `POST /v1/app-store/assn/<surfaceId>` with exactly these bytes and headers.
    func post(surface: String, body: [UInt8], headers: [(String, String)]) -> Response {
        apps.api.respond(to: Request(method: .post, path: "/v1/app-store/assn/\(surface)", query: [:],
                                     headers: Headers(headers), body: body, clientIP: "203.0.113.9",
                                     remoteAddress: "203.0.113.9"))
    }

    /// The request `assn_client.py` builds for `body`'s JWS, signed with `secret` at `timestamp`, sent to `surface`.
    func forward(surface: String, secret: String, body: String, timestamp: Int64? = nil,
                 tamper: String? = nil) throws -> Response {
        let built = try AssnClient(secret: secret, signedPayload: Self.signedPayload(of: body))
            .build(timestamp: timestamp, tamper: tamper)
        return post(surface: surface, body: built.body, headers: built.headers)
    }

    /// The JWS of an Apple body `{"signedPayload":"<JWS>"}`.
    static func signedPayload(of body: String) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["signedPayload"] as? String
            ?? ""
    }

    /// The unix seconds of `date`.
    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
