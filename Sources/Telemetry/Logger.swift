import Foundation
import Synchronization

/// Writes one JSON object per line to standard error: `{"time":…,"level":…,"msg":…, fields…}`.
///
/// Callers pass only what may be logged: never bodies, keys, codes, e-mails or IPs in clear.
/// Fields keep the order given. Each line is built as bytes; lines never interleave. A buffered logger (the API
/// server's) hands debug and info lines to a `LogBuffer` that writes them in batches every 50 ms; warnings
/// and errors are written at once, after whatever is pending, so order is kept and problems are never delayed.
public final class Logger: Sendable {
    /// How much to log; a line below the configured level is dropped before it is formatted.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        /// Parses `debug`, `info`, `warning` (or `warn`), `error`.
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let level: Level
    private let descriptor: Int32
    private let lock = Mutex(())
    private let buffer: LogBuffer?

    /// A logger writing to `descriptor` (standard error by default); `buffered` batches debug and info lines.
    public init(level: Level = .info, descriptor: Int32 = 2, buffered: Bool = false) {
        self.level = level
        self.descriptor = descriptor
        self.buffer = buffered ? LogBuffer(descriptor: descriptor) : nil
    }

    deinit {
        buffer?.close()
    }

    /// Writes every buffered line now (call before the process exits).
    public func flush() {
        buffer?.flush()
    }

    /// Logs `message` with `fields`, in the order given.
    public func log(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        guard level >= self.level else { return }
        var line = start(level, message)
        for (key, value) in fields {
            line.append(byte: UInt8(ascii: ","))
            line.append(string: key)
            line.append(byte: UInt8(ascii: ":"))
            value.append(to: &line)
        }
        finish(&line, level)
    }

    /// The access log's line, at info: `{"time","level":"info","msg":"request","request_id","method","route",
    /// "status","duration_ms"}` — the same bytes `log(.info, "request", […])` writes, without building the fields'
    /// list first (one line per request is the busiest caller).
    public func request(id: String, method: String, route: String, status: Int, microseconds: Int) {
        guard Level.info >= level else { return }
        var line = start(.info, "request")
        line.append(raw: ",\"request_id\":")
        line.append(string: id)
        line.append(raw: ",\"method\":")
        line.append(string: method)
        line.append(raw: ",\"route\":")
        line.append(string: route)
        line.append(raw: ",\"status\":")
        line.append(integer: status)
        line.append(raw: ",\"duration_ms\":")
        LogValue.milliseconds(microseconds: microseconds).append(to: &line)
        finish(&line, .info)
    }

    private func start(_ level: Level, _ message: String) -> JSONBytes {
        var line = JSONBytes(capacity: 256)
        line.append(raw: "{\"time\":\"")
        line.appendTimestamp()
        line.append(raw: "\",\"level\":\"")
        line.append(raw: level.name)
        line.append(raw: "\",\"msg\":")
        line.append(string: message)
        return line
    }

    private func finish(_ line: inout JSONBytes, _ level: Level) {
        line.append(raw: "}\n")
        if let buffer, level < .warning {
            buffer.append(line.bytes)
            return
        }
        buffer?.flush()
        lock.withLock { _ in LogBuffer.writeAll(line.bytes, to: descriptor) }
    }

    public func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.debug, message, fields)
    }
    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.warning, message, fields)
    }
    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.error, message, fields)
    }
}
