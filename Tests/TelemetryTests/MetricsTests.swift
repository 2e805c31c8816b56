import Dispatch
import Telemetry
import Testing

@Suite struct MetricsTests {
    @Test func requestsFromManyThreadsAddUpInTheExposition() {
        let metrics = Metrics()
        DispatchQueue.concurrentPerform(iterations: 1000) { index in
            metrics.recordRequest(route: "/healthz", method: "GET", status: index % 10 == 0 ? 503 : 200, seconds: 0.002)
        }
        let text = metrics.render()
        #expect(text.contains(#"handoff_http_requests_total{route="/healthz",method="GET",status="200"} 900"#))
        #expect(text.contains(#"handoff_http_requests_total{route="/healthz",method="GET",status="503"} 100"#))
        #expect(text.contains(#"handoff_http_request_duration_seconds_bucket{route="/healthz",le="0.001"} 0"#))
        #expect(text.contains(#"handoff_http_request_duration_seconds_bucket{route="/healthz",le="0.0025"} 1000"#))
        #expect(text.contains(#"handoff_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 1000"#))
        #expect(text.contains(#"handoff_http_request_duration_seconds_count{route="/healthz"} 1000"#))
        #expect(text.contains("# TYPE handoff_http_requests_total counter"))
        #expect(text.contains("# TYPE handoff_http_request_duration_seconds histogram"))
    }

    @Test func gaugesAreReadAtScrapeTimeAndLabelValuesEscaped() {
        let metrics = Metrics()
        let box = Counter()
        metrics.register(Metrics.Gauge(name: "handoff_test_gauge", help: "A test gauge.") {
            [.init(labels: [("pool", "a\"b\\c")], value: Double(box.next()))]
        })
        #expect(metrics.render().contains(#"handoff_test_gauge{pool="a\"b\\c"} 1"#))
        #expect(metrics.render().contains(#"handoff_test_gauge{pool="a\"b\\c"} 2"#))
        #expect(metrics.render().contains("# TYPE handoff_test_gauge gauge"))
    }
}

/// A thread-safe counter for the gauge test.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = DispatchQueue(label: "counter")
    func next() -> Int { lock.sync { value += 1; return value } }
}
