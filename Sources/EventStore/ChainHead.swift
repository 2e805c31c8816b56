import Crypto
import Domain
import Foundation

/// A signed statement of where one org's hash chain stood (issue 16 §1, docs/audit.md "Signed chain heads"): the
/// `hash` of the event at `org_seq`, signed with the deployment's audit key.
///
/// The signature is Ed25519 over the UTF-8 canonical JSON (`EventJSON.canonicalBytes`, the form events are hashed
/// in) of exactly six members — `hash`, `key_id`, `org_id`, `org_seq`, `recorded_at`, `signed_at` — and the head's
/// JSON document is those six plus `signature` (128 lowercase hex digits). Times are UTC in the canonical form of
/// `recorded_at` (`YYYY-MM-DDTHH:MM:SS.ffffffZ`).
public struct ChainHead: Sendable, Equatable {
    public var orgId: UUID
    public var orgSeq: Int
    /// The hash of the event at `orgSeq` (32 bytes).
    public var hash: [UInt8]
    /// That event's `recorded_at`, canonical.
    public var recordedAt: String
    /// When the head was signed, canonical.
    public var signedAt: String
    /// The signing key's id (`AuditKey.id(of:)`).
    public var keyId: String
    /// The Ed25519 signature of `signedBytes` (64 bytes).
    public var signature: [UInt8]

    public init(orgId: UUID, orgSeq: Int, hash: [UInt8], recordedAt: String, signedAt: String, keyId: String,
                signature: [UInt8]) {
        self.orgId = orgId
        self.orgSeq = orgSeq
        self.hash = hash
        self.recordedAt = recordedAt
        self.signedAt = signedAt
        self.keyId = keyId
        self.signature = signature
    }

    /// The six members the signature covers.
    public var payload: EventJSON {
        .object([
            "hash": .string(Hex.encode(hash)), "key_id": .string(keyId),
            "org_id": .string(orgId.lowercasedText), "org_seq": .integer(Int64(orgSeq)),
            "recorded_at": .string(recordedAt), "signed_at": .string(signedAt),
        ])
    }

    /// The bytes the signature covers: the canonical JSON of `payload`.
    public var signedBytes: [UInt8] { payload.canonicalBytes }

    /// The head's document: `payload` and `signature` (what `handoff audit head` prints, the heads API lists, the
    /// export's trailer carries and the auditor URL receives).
    public var json: EventJSON {
        guard case .object(var members) = payload else { return payload }
        members["signature"] = .string(Hex.encode(signature))
        return .object(members)
    }

    /// Why a document is not a chain head: the member at fault.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        public let member: String
        public let rule: String
        public var description: String { "\(member) must \(rule)" }
    }

    /// Reads a head document: exactly the seven members, each of its type and form.
    public init(json: EventJSON) throws(FormatError) {
        guard case .object(let members) = json else {
            throw FormatError(member: "the head", rule: "be a JSON object")
        }
        let expected: Set = ["hash", "key_id", "org_id", "org_seq", "recorded_at", "signed_at", "signature"]
        if let extra = Set(members.keys).subtracting(expected).sorted().first {
            throw FormatError(member: extra, rule: "not be there (a head has seven members)")
        }
        func text(_ name: String) throws(FormatError) -> String {
            guard let value = members[name]?.stringValue else { throw FormatError(member: name, rule: "be a string") }
            return value
        }
        func hex(_ name: String, bytes: Int) throws(FormatError) -> [UInt8] {
            let value = try text(name)
            guard value.utf8.count == bytes * 2, value == value.lowercased(), let decoded = Hex.decode(value) else {
                throw FormatError(member: name, rule: "be \(bytes * 2) lowercase hex digits")
            }
            return decoded
        }
        func time(_ name: String) throws(FormatError) -> String {
            let value = try text(name)
            guard EventChain.date(fromCanonical: value) != nil else {
                throw FormatError(member: name, rule: "be a UTC time as YYYY-MM-DDTHH:MM:SS.ffffffZ")
            }
            return value
        }
        let orgText = try text("org_id")
        guard let orgId = UUID(canonicalText: orgText), orgText == orgId.lowercasedText else {
            throw FormatError(member: "org_id", rule: "be a lowercase UUID")
        }
        guard let seq = members["org_seq"]?.integerValue, seq >= 1 else {
            throw FormatError(member: "org_seq", rule: "be an integer of at least 1")
        }
        let keyId = try text("key_id")
        guard AuditKey.isWellFormedId(keyId) else {
            throw FormatError(member: "key_id", rule: "be 16 lowercase hex digits")
        }
        self.init(orgId: orgId, orgSeq: Int(seq), hash: try hex("hash", bytes: 32),
                  recordedAt: try time("recorded_at"), signedAt: try time("signed_at"), keyId: keyId,
                  signature: try hex("signature", bytes: Ed25519PublicKey.signatureByteCount))
    }

    /// `date` in the canonical UTC form `YYYY-MM-DDTHH:MM:SS.ffffffZ`, cut to the microsecond (what Postgres keeps).
    public static func canonicalTime(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: Double(seconds)))
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(Int(fraction), 6))Z"
    }
}
