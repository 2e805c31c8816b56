import Foundation
import Synchronization

/// Writes one JSON object per line to standard error: `{"time":…,"level":…,"msg":…, fields…}`.
///
/// Callers pass only what may be logged: never bodies, keys, codes, e-mails or IPs in clear.
/// Lines are written with one `write(2)` each, under a lock, so concurrent lines never interleave.
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

    /// Logs `message` with `fields`; field names are sorted so lines are stable.
    public func log(_ level: Level, _ message: String, _ fields: [String: LogValue] = [:]) {
        guard level >= self.level else { return }
        var line = "{\"time\":\"\(Self.timestamp())\",\"level\":\"\(level.name)\",\"msg\":"
        LogValue.string(message).append(to: &line)
        for key in fields.keys.sorted() {
            line += ","
            LogValue.string(key).append(to: &line)
            line += ":"
            fields[key]!.append(to: &line)
        }
        line += "}\n"
        var bytes = Array(line.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written <= 0 { break }
                offset += written
            }
        }
        bytes.removeAll()
    }

    public func debug(_ message: String, _ fields: [String: LogValue] = [:]) { log(.debug, message, fields) }
    public func info(_ message: String, _ fields: [String: LogValue] = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: [String: LogValue] = [:]) { log(.warning, message, fields) }
    public func error(_ message: String, _ fields: [String: LogValue] = [:]) { log(.error, message, fields) }

    /// UTC time with milliseconds, RFC 3339.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = now.tv_nsec / 1_000_000
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(Int32(millis), 3))Z"
    }
}
