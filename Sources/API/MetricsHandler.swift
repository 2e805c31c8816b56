import HTTPServer

/// `/metrics` in the Prometheus text exposition format.
enum MetricsHandler {
    static func metrics(_ request: Request, _ environment: Environment) -> Response {
        Response(
            status: 200,
            headers: Headers([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
            body: Array(environment.metrics.render().utf8))
    }
}
