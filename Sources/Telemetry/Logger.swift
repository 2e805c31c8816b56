import Foundation
import Synchronization

/// Writes one JSON object per line to standard error: `{"time":…,"level":…,"msg":…, fields…}`.
///
/// Callers pass only what may be logged: never bodies, keys, codes, e-mails or IPs in clear.
/// Fields keep the order given. Each line is built as bytes and written with one `write(2)` under a lock,
/// so concurrent lines never interleave. The access log writes a line per request, so this path is kept lean.
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

    /// A logger writing to `descriptor` (standard error by default).
    public init(level: Level = .info, descriptor: Int32 = 2) {
        self.level = level
        self.descriptor = descriptor
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
        lock.withLock { _ in
            line.bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }

    public func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.debug, message, fields) }
    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.warning, message, fields)
    }
    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) { log(.error, message, fields) }
}
