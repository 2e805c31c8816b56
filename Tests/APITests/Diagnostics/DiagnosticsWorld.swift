@testable import API
import Foundation
import HTTPServer

/// A fingerprint world (tenant with fingerprinting on, movable clock) plus an edge for code resolves with limits of
/// its own, and readers of the timeline routes.
struct DiagnosticsWorld {
    let world: FingerprintFixture
    /// The same database and clock, with resolve limits of this test's own.
    let codes: APIResponder

    init(settings: [String]? = nil) throws {
        world = try settings.map { try FingerprintFixture(settings: $0) } ?? FingerprintFixture()
        let clock = world.clock
        codes = try ResolveTests.responder(world.fixture, clock: { clock.now() })
    }

    /// `GET /public/handoff/resolve?code=` from its own IP.
    func redeem(_ code: String) -> Response { ResolveTests.resolve(codes, code, ip: "198.51.100.77") }

    /// `GET /s2s/v1/users/{guid}/timeline` with `key` (default: the tenant's).
    func timeline(_ guid: String = PaymentTests.guidA, key: String? = nil) -> Response {
        world.api.respond(to: s2sRequest(.get, "/s2s/v1/users/\(guid)/timeline", key: key ?? world.tenant.key))
    }

    /// `GET /s2s/v1/payments/{paymentId}/timeline` with `key` (default: the tenant's).
    func paymentTimeline(_ paymentId: String, key: String? = nil) -> Response {
        world.api.respond(to: s2sRequest(.get, "/s2s/v1/payments/\(paymentId)/timeline", key: key ?? world.tenant.key))
    }

    /// The answer's entries as `<event>: <line>`.
    static func lines(_ response: Response) -> [String] {
        ((jsonObject(response)["entries"] as? [[String: Any]]) ?? []).map {
            "\($0["event"] as? String ?? "?"): \($0["line"] as? String ?? "?")"
        }
    }

    /// The answer's verdict.
    static func verdict(_ response: Response) -> [String: String] {
        ((jsonObject(response)["verdict"] as? [String: Any]) ?? [:]).mapValues { "\($0)" }
    }

    /// The entries' lines of `event`.
    static func lines(_ response: Response, of event: String) -> [String] {
        lines(response).filter { $0.hasPrefix(event + ": ") }
    }
}
