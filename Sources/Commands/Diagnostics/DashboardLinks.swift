import Crypto
import Domain
import Foundation

/// The signed token of a short-lived read-only link: the handoff dashboard (`POST /s2s/v1/dashboard-links`,
/// `GET /dashboard/{token}`) and a session's replay (`POST /s2s/v1/apps/{appId}/recordings/replay-links`,
/// `GET /replay/{token}`): which project's page it opens, for whom, until when — nothing stored, a link cannot be
/// revoked, it just expires.
///
/// token = base64url(`payload ‖ tag`): `payload` = org id (16 bytes) ‖ project id (16) ‖ expiry in whole seconds
/// since 1970 (unsigned 64-bit big-endian, 8) ‖ the purpose's subject (none for the dashboard, 75 characters; for a
/// replay the app id (16) and the session id's UTF-8); `tag` = `HMAC(k, label ‖ 0 ‖ payload)[0..<16]` with the
/// purpose's label (`dashboard/v1`, `replay/v1`) under `k = HMAC(HANDOFF_MASTER_KEY, "handoff/dashboard-link/v1")`.
/// Opening checks the tag in constant time under the current and previous master keys, then the expiry: a link is
/// expired from its expiry on. A token of one purpose never opens another (the label is under the tag).
public struct DashboardLinks: Sendable {
    /// How long a link opens the dashboard: one hour.
    public static let lifetime: TimeInterval = 3600
    private static let payloadBytes = 40
    private static let tagBytes = 16
    /// The most subject bytes a token carries: a replay's app id and a session id of 64 characters of UTF-8.
    public static let maxSubjectBytes = 16 + 256

    /// What a link opens; its label is signed with the payload.
    public enum Purpose: String, Sendable {
        /// The project's handoff dashboard; no subject.
        case dashboard = "dashboard/v1"
        /// One recorded session's replay; the subject is the app id and the session id.
        case replay = "replay/v1"
    }

    /// What a valid token names.
    public struct Claims: Sendable, Equatable {
        public var org: OrgID
        public var project: ProjectID
        public var expiresAt: Date
        /// The purpose's subject bytes (empty for the dashboard).
        public var subject: [UInt8]
    }

    private let key: [UInt8]
    private let previousKeys: [[UInt8]]

    /// Links under `masterKey` (32 bytes) that also open links made under `previousMasterKeys`.
    public init(masterKey: [UInt8], previousMasterKeys: [[UInt8]] = []) {
        key = Self.derive(masterKey)
        previousKeys = previousMasterKeys.map(Self.derive)
    }

    private static func derive(_ masterKey: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: masterKey, message: Array("handoff/dashboard-link/v1".utf8))
    }

    /// A token for `project` of `org` made at `now`, valid for `lifetime` (expiry truncated to the second).
    public func sign(project: ProjectID, org: OrgID, now: Date) -> (token: String, expiresAt: Date) {
        sign(.dashboard, subject: [], project: project, org: org, now: now)
    }

    /// A token for `purpose` naming `subject` (at most `maxSubjectBytes`) in `project` of `org`, made at `now`.
    public func sign(_ purpose: Purpose, subject: [UInt8], project: ProjectID, org: OrgID, now: Date)
        -> (token: String, expiresAt: Date)
    {
        precondition(subject.count <= Self.maxSubjectBytes, "a link's subject is at most 272 bytes")
        let expiry = UInt64(max(0, (now.timeIntervalSince1970 + Self.lifetime).rounded(.down)))
        let expiryBytes = (0..<8).map { UInt8(truncatingIfNeeded: expiry >> (8 * (7 - UInt64($0)))) }
        let payload = Self.bytes(org.uuid) + Self.bytes(project.uuid) + expiryBytes + subject
        return (Base64URL.encode(payload + tag(payload, purpose, key: key)),
                Date(timeIntervalSince1970: Double(expiry)))
    }

    /// What a dashboard `token` names, or nil for a malformed, tampered, foreign-key or expired token (at `now`).
    public func open(_ token: String, now: Date) -> Claims? {
        open(token, purpose: .dashboard, now: now)
    }

    /// What `token` names for `purpose`, or nil for a malformed, tampered, foreign-key, other-purpose or expired
    /// token (at `now`).
    public func open(_ token: String, purpose: Purpose, now: Date) -> Claims? {
        let limit = Self.payloadBytes + Self.maxSubjectBytes + Self.tagBytes
        guard token.utf8.count <= (limit * 4 + 2) / 3, let bytes = Base64URL.decode(token),
              bytes.count >= Self.payloadBytes + Self.tagBytes, bytes.count <= limit,
              purpose != .dashboard || bytes.count == Self.payloadBytes + Self.tagBytes else { return nil }
        let payload = Array(bytes.dropLast(Self.tagBytes))
        let given = Array(bytes.suffix(Self.tagBytes))
        guard ([key] + previousKeys).contains(where: {
            ConstantTime.equals(given, tag(payload, purpose, key: $0))
        }) else {
            return nil
        }
        let expiry = payload[32..<40].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let expiresAt = Date(timeIntervalSince1970: Double(expiry))
        guard now < expiresAt else { return nil }
        return Claims(org: OrgID(UUID(uuid: Self.uuid(payload[0..<16]))),
                      project: ProjectID(UUID(uuid: Self.uuid(payload[16..<32]))), expiresAt: expiresAt,
                      subject: Array(payload.dropFirst(Self.payloadBytes)))
    }

    private func tag(_ payload: [UInt8], _ purpose: Purpose, key: [UInt8]) -> [UInt8] {
        Array(HMAC.sha256(key: key, message: Array(purpose.rawValue.utf8) + [0] + payload).prefix(Self.tagBytes))
    }

    /// The 16 bytes of `uuid`, as in the payload.
    public static func bytes(_ uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// The UUID of 16 payload bytes.
    public static func uuid(_ bytes: ArraySlice<UInt8>) -> uuid_t {
        let b = Array(bytes)
        return (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }
}
