import API
import Commands
import Domain
import Foundation
import HTTPServer
import Postgres
import TestSupport

/// App ingest over the API edge: tenants and apps made over S2S, SDK requests sent as a device would.
struct IngestFixture {
    let apps: AppFixture
    let api: APIResponder

    static func migrated(ingestConfigLimit: RateLimit = TestIdentity.uniqueLimit(count: 60),
                         redisURL: String? = nil,
                         ingestDailyBatches: Int = Environment.defaultIngestDailyBatches,
                         ingestRecordingLimit: RateLimit = TestIdentity.uniqueLimit(count: 600),
                         ingestBatchInstallLimit: RateLimit = Environment.defaultIngestBatchInstallLimit,
                         ingestBatchAddressLimit: RateLimit = TestIdentity.uniqueBatchAddressLimit(),
                         clock: @escaping @Sendable () -> Date = { Date() })
        throws -> IngestFixture {
        let apps = try AppFixture.migrated()
        return IngestFixture(apps: apps, api: try apps.tenants.responder(
            redisURL: redisURL, clock: clock, poolSize: 4, ingestConfigLimit: ingestConfigLimit,
            ingestDailyBatches: ingestDailyBatches, ingestRecordingLimit: ingestRecordingLimit,
            ingestBatchInstallLimit: ingestBatchInstallLimit, ingestBatchAddressLimit: ingestBatchAddressLimit))
    }

    /// An app made over S2S in a new tenant's project: its id, publishable key and the tenant.
    struct App {
        var appId: String
        var key: String
        var storeToken: String
        var tenant: (org: String, project: String, key: String)
    }

    func app(platform: String = "ios", bundleId: String = "com.example.Reader",
             tenant given: (org: String, project: String, key: String)? = nil) throws -> App {
        let tenant = try given ?? apps.tenants.tenant()
        let created = try apps.createApp(key: tenant.key, #"{"platform":"\#(platform)","bundleId":"\#(bundleId)"}"#)
        guard let appId = created["appId"] as? String, let key = created["publishableKey"] as? String,
              let storeToken = created["storeToken"] as? String
        else {
            throw AdminFailed(outcome: "no appId or publishableKey in \(created)")
        }
        return App(appId: appId, key: key, storeToken: storeToken, tenant: tenant)
    }

    /// `GET /v1/m/config/{pk}` with `query`, from `clientIP`.
    func config(_ key: String, _ query: [String: String], clientIP: String = "198.51.100.70") -> Response {
        api.respond(to: Request(method: .get, path: "/v1/m/config/\(key)", query: query, headers: Headers([]),
                                body: [], clientIP: clientIP, remoteAddress: clientIP))
    }

    /// `POST /v1/m/batch` with `body`, from the iOS SDK unless `userAgent` says otherwise.
    func batch(_ body: [UInt8], gzip: Bool = false, userAgent: String? = "X3Kit/1.4.2 (iOS 17.5.1)",
               clientIP: String = "198.51.100.72") -> Response {
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        if let userAgent { headers.append(("User-Agent", userAgent)) }
        return api.respond(to: Request(method: .post, path: "/v1/m/batch", query: [:], headers: Headers(headers),
                                       body: body, clientIP: clientIP, remoteAddress: clientIP))
    }

    /// `POST /v1/m/r` with a recording packet's bytes, as the SDK sends it.
    func recording(_ body: [UInt8], clientIP: String = "198.51.100.74") -> Response {
        api.respond(to: Request(method: .post, path: "/v1/m/r", query: [:],
                                headers: Headers([("Content-Type", "application/octet-stream"),
                                                  ("User-Agent", "X3Kit/1.4.2 (iOS 17.5.1)")]),
                                body: body, clientIP: clientIP, remoteAddress: clientIP))
    }

    /// `handoff admin app <arguments>` with the master key.
    func admin(_ arguments: [String]) throws -> AdminOutcome {
        try apps.tenants.admin(["app"] + arguments, environment: AppFixture.masterKeyEnvironment)
    }
}
