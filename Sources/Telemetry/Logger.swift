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

        public var name: String { ["debug", "info", "warning", "error"][rawValue] }
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
        var line = JSONBytes(capacity: 256)
        line.append(raw: "{\"time\":\"")
        line.appendTimestamp()
        line.append(raw: "\",\"level\":\"")
        line.append(raw: level.name)
        line.append(raw: "\",\"msg\":")
        line.append(string: message)
        for (key, value) in fields {
            line.append(byte: UInt8(ascii: ","))
            line.append(string: key)
            line.append(byte: UInt8(ascii: ":"))
            value.append(to: &line)
        }
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
