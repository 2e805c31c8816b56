import Domain
import Foundation

/// An AppBatch v1 body (`POST /v1/m/batch`) read member by member, so each refusal is a 400 `invalid` whose detail
/// names the failing part (`ev[3].n`, `scr`), never a value. Times (`at`, `t`, `t0`, `t1`) are Unix milliseconds of
/// the device clock.
struct AppBatchBody {
    struct Screen {
        var id: String
        var seq: Int
        var t0: Int
        var t1: Int?
        var nav: String?
        var path: String?
        var eng: Int?
        var taps: Int?
        var itaps: Int?
    }

    struct Event {
        var session: String
        var n: Int
        var t: Int
        var name: String
        /// `p` as compact JSON text.
        var props: String?
    }

    var key: String
    var platform: String?
    var bundleId: String?
    var appVersion: String?
    var osVersion: String?
    var install: String
    var session: String
    var sequence: Int
    var sentAt: Int
    var consentMode: String?
    var consentStates: String?
    var screens: [Screen]
    var events: [Event]
    /// The `id` hashes present (`xid`, `em`, `emg`, `lid` → SHA-256 hex, kept in lowercase); empty without an
    /// identity.
    var identity: [String: String] = [:]
    /// `dp`: SHA-256 (hex, kept in lowercase) of the install's erase secret, if sent.
    var eraseProof: String?

    /// Most screen views in one batch.
    static let maxScreens = 20
    /// Most events in one batch.
    static let maxEvents = 500
    /// Longest id (`inst`, `sid`, `ev[].s`, `scr[].id`).
    static let maxIdLength = 64

    static func parse(_ bytes: [UInt8]) throws -> AppBatchBody {
        guard let object = IngestJSON.object(bytes) else { throw IngestRefusal.invalid("body is not a JSON object") }
        let top = Members(object, path: "")
        guard try top.int("v") == 1 else { throw IngestRefusal.invalid("v must be 1") }
        let app = try top.object("app")
        let scr = try top.optionalArray("scr")
        if let scr, !(1...maxScreens).contains(scr.count) {
            throw IngestRefusal.invalid("scr must hold 1 to \(maxScreens) screen views")
        }
        let ev = try top.optionalArray("ev") ?? []
        guard ev.count <= maxEvents else { throw IngestRefusal.invalid("ev holds more than \(maxEvents) events") }
        let dp = try top.optionalString("dp", max: 64).map { text in
            guard let hex = hex64(text) else { throw IngestRefusal.invalid("dp must be 64 hex digits") }
            return hex
        }
        var identity: [String: String] = [:]
        if let id = try top.optionalObject("id") {
            for name in ["xid", "em", "emg", "lid"] {
                guard let value = id.values[name], !value.isNull else { continue }
                guard case .string(let text) = value, let hex = hex64(text) else {
                    throw IngestRefusal.invalid("id.\(name) must be a SHA-256 in hex")
                }
                identity[name] = hex
            }
        }
        var body = AppBatchBody(
            key: try top.string("k", max: PublishableKey.length),
            platform: try app.optionalString("plat", max: 16), bundleId: try app.optionalString("bid", max: 255),
            appVersion: try app.optionalString("av", max: 64), osVersion: try app.optionalString("osv", max: 32),
            install: try top.string("inst", max: maxIdLength), session: try top.string("sid", max: maxIdLength),
            sequence: try top.int("n"), sentAt: try top.int("at"),
            consentMode: try top.optionalString("cm", max: 16), consentStates: try top.optionalString("cs", max: 16),
            screens: try (scr ?? []).enumerated().map { index, value in
                let screen = try Members.element(value, path: "scr[\(index)]")
                return Screen(id: try screen.string("id", max: maxIdLength), seq: try screen.int("seq"),
                              t0: try screen.int("t0"), t1: try screen.optionalInt("t1"),
                              nav: try screen.optionalString("nav", max: 32),
                              path: try screen.optionalString("path", max: 256),
                              eng: try screen.optionalInt("eng"), taps: try screen.optionalInt("taps"),
                              itaps: try screen.optionalInt("itaps"))
            },
            events: try ev.enumerated().map { index, value in
                let event = try Members.element(value, path: "ev[\(index)]")
                var props: String?
                if let p = event.values["p"], !p.isNull {
                    guard let object = p.object else { throw IngestRefusal.invalid("ev[\(index)].p must be an object") }
                    // Postgres' jsonb holds no NUL character.
                    guard !object.holdsEscapedNul else {
                        throw IngestRefusal.invalid("ev[\(index)].p must not hold a NUL character")
                    }
                    // Stored as sent: Postgres' jsonb reads the text (the parser has checked it is JSON).
                    props = String(decoding: object.text, as: UTF8.self)
                }
                return Event(session: try event.string("s", max: maxIdLength), n: try event.int("n"),
                             t: try event.int("t"), name: try event.string("e", max: 128), props: props)
            })
        body.identity = identity
        body.eraseProof = dp
        return body
    }

    /// 64 hex digits in lowercase (either case taken: the protocol says "SHA-256 hex"), or nil.
    private static func hex64(_ text: String) -> String? {
        guard text.utf8.count == 64, text.utf8.allSatisfy({
            (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0)
        }) else { return nil }
        return text.lowercased()
    }

    /// One JSON object's members, read with the path its refusals name.
    struct Members {
        let values: IngestJSON.Object
        let path: String

        init(_ values: IngestJSON.Object, path: String) {
            self.values = values
            self.path = path
        }

        static func element(_ value: IngestJSON.Value, path: String) throws -> Members {
            guard let object = value.object else { throw IngestRefusal.invalid("\(path) must be an object") }
            return Members(object, path: path)
        }

        private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func object(_ key: String) throws -> Members {
            guard let value = values[key] else { throw IngestRefusal.invalid("\(name(key)) is required") }
            return try Members.element(value, path: name(key))
        }

        /// The member `key` as an object; nil when absent or null.
        func optionalObject(_ key: String) throws -> Members? {
            guard let value = values[key], !value.isNull else { return nil }
            return try Members.element(value, path: name(key))
        }

        func optionalArray(_ key: String) throws -> [IngestJSON.Value]? {
            guard let value = values[key], !value.isNull else { return nil }
            guard case .array(let array) = value else { throw IngestRefusal.invalid("\(name(key)) must be an array") }
            return array
        }

        func string(_ key: String, max: Int) throws -> String {
            guard let text = try optionalString(key, max: max) else {
                throw IngestRefusal.invalid("\(name(key)) is required")
            }
            return text
        }

        func optionalString(_ key: String, max: Int) throws -> String? {
            guard let value = values[key], !value.isNull else { return nil }
            guard case .string(let text) = value, !text.isEmpty, text.utf8.count <= max,
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else { throw IngestRefusal.invalid("\(name(key)) must be 1 to \(max) bytes of text") }
            return text
        }

        func int(_ key: String) throws -> Int {
            guard let number = try optionalInt(key) else { throw IngestRefusal.invalid("\(name(key)) is required") }
            return number
        }

        /// A whole number from 0 to 2^53 − 1 (`12`, also `12.0` or `1.2e1`).
        func optionalInt(_ key: String) throws -> Int? {
            guard let value = values[key], !value.isNull else { return nil }
            guard case .number(let text) = value, let double = Double(text), let exact = Int(exactly: double),
                  exact >= 0, exact <= 9_007_199_254_740_991
            else { throw IngestRefusal.invalid("\(name(key)) must be a whole number ≥ 0") }
            return exact
        }

        /// The member `key` as a boolean; nil when absent or null.
        func optionalBool(_ key: String) throws -> Bool? {
            guard let value = values[key], !value.isNull else { return nil }
            guard case .bool(let flag) = value else { throw IngestRefusal.invalid("\(name(key)) must be true or false") }
            return flag
        }
    }
}
