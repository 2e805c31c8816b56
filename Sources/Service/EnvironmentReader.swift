import Domain
import Foundation
import Telemetry

/// Reads typed values out of environment variables; every refusal names the variable and what it accepts.
struct EnvironmentReader {
    private let environment: [String: String]

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    /// The trimmed value, or nil when unset or empty.
    func text(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let raw = text(name) else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw ConfigurationError(
                variable: name, problem: "must be an integer from \(range.lowerBound) to \(range.upperBound) (got \"\(raw)\")")
        }
        return value
    }

    /// A libpq connection string: a `postgres://`/`postgresql://` URI or `key=value` pairs. The value is not echoed
    /// (it may hold a password).
    func databaseURL(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        let isURI = raw.hasPrefix("postgresql://") || raw.hasPrefix("postgres://")
        let isKeyValue = !isURI && raw.contains("=") && !raw.contains("://")
        guard isURI || isKeyValue else {
            throw ConfigurationError(
                variable: name, problem: "must be a postgresql:// URI or key=value connection string")
        }
        return raw
    }

    /// An absolute `http`/`https` URL with a host, printable ASCII, no query or fragment; a trailing `/` is dropped.
    func publicBaseURL(_ name: String, default fallback: String) throws -> String {
        guard var raw = text(name) else { return fallback }
        while raw.hasSuffix("/") { raw.removeLast() }
        let scheme = raw.hasPrefix("https://") ? "https://" : raw.hasPrefix("http://") ? "http://" : nil
        guard let scheme, raw.count > scheme.count, raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              !raw.contains("?"), !raw.contains("#"), !raw.dropFirst(scheme.count).hasPrefix("/") else {
            throw ConfigurationError(variable: name, problem: "must be an http:// or https:// URL with a host, "
                + "without query or fragment")
        }
        return raw
    }

    /// `redis://[[user]:password@]host[:port][/db]` or `unix:///path`. The value is not echoed.
    func redisURL(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        guard raw.hasPrefix("redis://") || raw.hasPrefix("unix:///") else {
            throw ConfigurationError(variable: name, problem: "must start with redis:// or unix:///")
        }
        return raw
    }

    /// Comma-separated IPv4/IPv6 addresses, each optionally with a `/prefix`.
    func addressList(_ name: String) throws -> [String] {
        guard let raw = text(name) else { return [] }
        let items = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for item in items where !IPAddressText.isAddressOrCIDR(item) {
            throw ConfigurationError(variable: name, problem: "\"\(item)\" is not an IP address or CIDR range")
        }
        return items
    }

    /// Base64url text (RFC 4648 §5, padding optional) of `byteCount` bytes, or nil when unset. The value is never
    /// echoed: it is key material.
    func base64URLSecret(_ name: String, byteCount: ClosedRange<Int>) throws -> [UInt8]? {
        guard let raw = text(name) else { return nil }
        let length = byteCount.lowerBound == byteCount.upperBound
            ? "exactly \(byteCount.lowerBound) bytes" : "at least \(byteCount.lowerBound) bytes"
        guard let bytes = Self.decodeBase64URL(raw) else {
            throw ConfigurationError(
                variable: name,
                problem: "must be base64url (A-Z a-z 0-9 - _) of \(length), "
                    + "e.g. from `openssl rand 32 | basenc --base64url`")
        }
        guard byteCount.contains(bytes.count) else {
            let bound = bytes.count > byteCount.upperBound && byteCount.count > 1
                ? "at most \(byteCount.upperBound) bytes" : length
            throw ConfigurationError(variable: name, problem: "must decode to \(bound) (it decodes to \(bytes.count))")
        }
        return bytes
    }

    /// `id:base64url,id:base64url,…` (spaces around items ignored): each id 1–32 of `A–Z a–z 0–9 _ -`, unique,
    /// each key 32–1024 bytes. Empty when unset. Values are never echoed; ids are (they are not secret).
    func passKeys(_ name: String) throws -> [(id: String, key: [UInt8])] {
        guard let raw = text(name) else { return [] }
        var keys: [(id: String, key: [UInt8])] = []
        for (index, item) in raw.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let entry = item.trimmingCharacters(in: .whitespaces)
            let position = "item \(index + 1)"
            guard let colon = entry.firstIndex(of: ":") else {
                throw ConfigurationError(variable: name, problem: "\(position) must be id:base64url-key")
            }
            let id = String(entry[..<colon])
            guard PassKeys.isKeyID(id) else {
                throw ConfigurationError(variable: name,
                                         problem: "\(position) must start with an id of 1–32 characters A-Z a-z 0-9 _ -")
            }
            guard !keys.contains(where: { $0.id == id }) else {
                throw ConfigurationError(variable: name, problem: "the key id \(id) appears twice")
            }
            guard let bytes = Self.decodeBase64URL(String(entry[entry.index(after: colon)...])),
                  (32...1024).contains(bytes.count) else {
                throw ConfigurationError(variable: name, problem: "the key of \(id) must be base64url of 32–1024 "
                    + "bytes, e.g. from `openssl rand 32 | basenc --base64url`")
            }
            keys.append((id, bytes))
        }
        return keys
    }

    /// Strict base64url: only the URL alphabet, `=` padding only at the end and only to a multiple of 4.
    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.utf8.count % 4 == 0 {
            if body.hasSuffix("==") { body = body.dropLast(2) } else if body.hasSuffix("=") { body = body.dropLast() }
        }
        let isURLAlphabet: (UInt8) -> Bool = { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
        guard !body.isEmpty, body.utf8.allSatisfy(isURLAlphabet), body.utf8.count % 4 != 1 else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    func logLevel(_ name: String, default fallback: Logger.Level) throws -> Logger.Level {
        guard let raw = text(name) else { return fallback }
        guard let level = Logger.Level(name: raw) else {
            throw ConfigurationError(variable: name, problem: "must be debug, info, warning or error (got \"\(raw)\")")
        }
        return level
    }
}
