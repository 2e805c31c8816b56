import Foundation
import HTTPClient

extension EnvironmentReader {
    /// `smtp://…` or `smtps://…`, printable ASCII. The value is not echoed (it may hold a password).
    func smtpURL(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        let lowered = raw.lowercased()
        guard lowered.hasPrefix("smtp://") || lowered.hasPrefix("smtps://"), raw.count > 8,
              raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError(variable: name, problem: "must be an smtp:// or smtps:// URL")
        }
        return raw
    }

    /// A bare e-mail address (`noreply@example.com`) without control characters, spaces or `<>(),;:"[]\`.
    func mailAddress(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        guard MailAddress.isAcceptable(raw) else {
            throw ConfigurationError(variable: name, problem: "must be a bare e-mail address such as "
                + "noreply@example.com (no name, angle brackets, spaces or line breaks)")
        }
        return raw
    }

    /// A display name: 1–64 characters, no control characters (it is sent RFC 2047-encoded).
    func displayName(_ name: String, default fallback: String) throws -> String {
        guard let raw = text(name) else { return fallback }
        guard (1...64).contains(raw.count),
              raw.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
            throw ConfigurationError(variable: name, problem: "must be 1–64 characters without control characters")
        }
        return raw
    }
}
