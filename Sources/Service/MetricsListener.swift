import API
import HTTPServer
import Telemetry

/// `GET /metrics` on a listener of its own (`METRICS_ADDRESS`), apart from the public API port, so that a proxy in
/// front of the API cannot expose it by accident.
///
/// One request thread and a few connections are plenty for a scraper. Lifecycle as `Server`: started by `init`,
/// stopped once by `stop()`.
final class MetricsListener: Sendable {
    private let server: Server

    /// Starts listening on `address`; throws `ConfigurationError` naming `METRICS_ADDRESS` when it cannot.
    init(address: ListenAddress, metrics: Metrics, headerTimeoutSeconds: Int) throws(ConfigurationError) {
        server = Server(
            configuration: ServerConfiguration(
                host: address.host, port: address.port, threadCount: 1, connectionTimeout: 30, connectionLimit: 16,
                headerTimeout: Double(headerTimeoutSeconds)),
            responder: MetricsResponder(metrics: metrics))
        do {
            try server.start()
        } catch {
            throw ConfigurationError(variable: "METRICS_ADDRESS", problem: "cannot listen on \(address): \(error)")
        }
    }

    /// The bound port (differs from the configured one when that was 0).
    var port: Int { server.port }

    /// Closes the listener; a scrape in progress may finish for up to a second.
    func stop() {
        server.stop(drainTimeout: 1)
    }
}
