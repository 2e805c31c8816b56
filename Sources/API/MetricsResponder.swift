import HTTPServer
import Telemetry

/// `GET /metrics` in the Prometheus text exposition format, served on a listener of its own (`METRICS_ADDRESS`),
/// never on the public API port: the series name every route, pool and queue, which is nobody's business outside.
///
/// Anything else on that listener is a bare 404 (405 for another method on `/metrics`); no request takes a body.
/// Scrapes are neither logged nor counted in the metrics they read.
public struct MetricsResponder: Responder {
    private let metrics: Metrics

    /// Serves `metrics` as they are at each scrape.
    public init(metrics: Metrics) {
        self.metrics = metrics
    }

    public func respond(to request: Request) -> Response {
        guard request.path == "/metrics" else { return Response(status: 404) }
        guard request.method == .get || request.method == .head else {
            return Response(status: 405, headers: ["Allow": "GET, HEAD"])
        }
        return Response(
            status: 200,
            headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
            body: Array(metrics.render().utf8))
    }

    public func bodyLimit(for method: HTTPServer.Method, path: String) -> Int { 0 }

    public func payloadTooLarge(_ request: Request) -> Response { Response(status: 413) }
}
