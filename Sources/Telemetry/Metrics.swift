import Foundation
import Synchronization

/// Process-wide counters, histograms and gauges, rendered in the Prometheus text format (version 0.0.4).
///
/// Label values are route patterns, methods and statuses, never raw paths, so the series count stays bounded.
public final class Metrics: Sendable {
    /// One sample of a gauge read at scrape time.
    public struct GaugeSample: Sendable {
        public let labels: [(String, String)]
        public let value: Double
        public init(labels: [(String, String)], value: Double) {
            self.labels = labels
            self.value = value
        }
    }

    /// A gauge family whose samples are read when `/metrics` is scraped (pool usage, in-flight requests).
    public struct Gauge: Sendable {
        public let name: String
        public let help: String
        public let read: @Sendable () -> [GaugeSample]
        public init(name: String, help: String, read: @escaping @Sendable () -> [GaugeSample]) {
            self.name = name
            self.help = help
            self.read = read
        }
    }

    /// Upper bounds of the latency histogram, in seconds.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ]

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Histogram {
        var buckets: [UInt64] = Array(repeating: 0, count: Metrics.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0

        mutating func record(_ seconds: Double) {
            if let index = Metrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                buckets[index] += 1
            }
            count += 1
            sum += seconds
        }
    }

    private struct Shard {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [String: Histogram] = [:]
    }

    /// Request samples are spread over shards by thread, so request threads rarely wait for each other;
    /// a scrape adds the shards up.
    private static let shardCount = 16
    private final class LockedShard: Sendable {
        let state = Mutex(Shard())
    }

    private let shards: [LockedShard] = (0..<Metrics.shardCount).map { _ in LockedShard() }
    private let gauges = Mutex<[Gauge]>([])
    /// The command path's stage histograms, rendered after the requests.
    private let stages: StageTimings

    /// `stages`: whose stage histograms the exposition includes (the process-wide ones unless a test names its own).
    public init(stages: StageTimings = .shared) {
        self.stages = stages
    }

    /// Adds a gauge family read at every scrape.
    public func register(_ gauge: Gauge) {
        gauges.withLock { $0.append(gauge) }
    }

    /// Counts one answered request and its duration in seconds.
    public func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let shard = shards[ThreadShard.index(count: Metrics.shardCount)]
        shard.state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            // In place: copying the histogram out and back copied its buckets on every request.
            state.latency[route, default: Histogram()].record(seconds)
        }
    }

    /// The whole registry in the Prometheus text exposition format.
    public func render() -> String {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [String: Histogram] = [:]
        for shard in shards {
            let (shardRequests, shardLatency) = shard.state.withLock { ($0.requests, $0.latency) }
            requests.merge(shardRequests, uniquingKeysWith: +)
            latency.merge(shardLatency) { left, right in
                var sum = left
                for index in sum.buckets.indices { sum.buckets[index] += right.buckets[index] }
                sum.count += right.count
                sum.sum += right.sum
                return sum
            }
        }
        let gauges = self.gauges.withLock { $0 }
        var out = ""
        out += "# HELP handoff_http_requests_total HTTP requests answered, by route pattern, method and status.\n"
        out += "# TYPE handoff_http_requests_total counter\n"
        let requestKeys = requests.keys.sorted { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }
        for key in requestKeys {
            let labels = Self.labels([("route", key.route), ("method", key.method), ("status", String(key.status))])
            out += "handoff_http_requests_total\(labels) \(requests[key]!)\n"
        }
        out += "# HELP handoff_http_request_duration_seconds Time from a whole request to its response.\n"
        out += "# TYPE handoff_http_request_duration_seconds histogram\n"
        for route in latency.keys.sorted() {
            let histogram = latency[route]!
            var cumulative: UInt64 = 0
            for (index, bound) in Metrics.latencyBuckets.enumerated() {
                cumulative += histogram.buckets[index]
                let labels = Self.labels([("route", route), ("le", Self.number(bound))])
                out += "handoff_http_request_duration_seconds_bucket\(labels) \(cumulative)\n"
            }
            let infinity = Self.labels([("route", route), ("le", "+Inf")])
            out += "handoff_http_request_duration_seconds_bucket\(infinity) \(histogram.count)\n"
            let routeOnly = Self.labels([("route", route)])
            out += "handoff_http_request_duration_seconds_sum\(routeOnly) \(Self.number(histogram.sum))\n"
            out += "handoff_http_request_duration_seconds_count\(routeOnly) \(histogram.count)\n"
        }
        out += stages.render()
        for gauge in gauges {
            out += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n"
            for sample in gauge.read() {
                out += "\(gauge.name)\(Self.labels(sample.labels)) \(Self.number(sample.value))\n"
            }
        }
        return out
    }

    /// `{a="x",b="y"}` with label values escaped as the format requires; empty for no labels.
    static func labels(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        let rendered = pairs.map { name, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(name)=\"\(escaped)\""
        }
        return "{" + rendered.joined(separator: ",") + "}"
    }

    /// A sample value: integers without a fraction, others in Swift's shortest round-trip form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
