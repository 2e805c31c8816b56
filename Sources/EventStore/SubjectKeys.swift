import Crypto
import Domain
import Foundation
import Postgres

/// The per-subject data keys in `subject_keys`, wrapped by the master key: create on first use, read, destroy.
///
/// A data key is stored as `AESGCM.seal(key, masterKey, associatedData: wrapContext(org, subject))`, so a wrapped
/// key copied to another subject or org does not unwrap, with the id of the master key that wrapped it
/// (`master_key_id`, migration 0025). New keys are wrapped with the ring's current master key; rows wrapped by a
/// previous one keep opening until `MasterKeyRotation` re-wrapped them. Nothing is cached in memory: a key destroyed
/// by any process is gone for every process at once (one indexed read per use; the caller's transaction may batch it).
public struct SubjectKeys: Sendable {
    /// Subject ids longer than this many UTF-8 bytes are refused (the table checks it too).
    public static let maximumSubjectBytes = 200

    /// The master keys: the current one wraps, every one unwraps the rows that name it.
    public let masterKeys: MasterKeyRing

    /// A store whose keys are wrapped with `masterKey`, the 32 bytes of `HANDOFF_MASTER_KEY`, and no previous key.
    ///
    /// A wrong length is a programming error: the configuration validates the variable before this runs.
    public init(masterKey: [UInt8]) {
        self.init(masterKeys: MasterKeyRing(current: masterKey))
    }

    /// A store that wraps with `masterKeys.current` and unwraps with whichever key a row names.
    public init(masterKeys: MasterKeyRing) {
        self.masterKeys = masterKeys
    }

    /// The subject's data key, created (random, wrapped, inserted) when the subject has none yet.
    ///
    /// Safe under concurrency: of many first callers exactly one insert wins and all of them get its key.
    /// Returns `.destroyed` once `destroy` ran for the subject — a destroyed key is never re-created.
    /// Runs in the caller's transaction, if any (under REPEATABLE READ or SERIALIZABLE a lost creation race is a
    /// `.serializationFailure`: retry the transaction). Throws `SubjectKeyError` for a bad subject id or a key that
    /// does not unwrap, `PostgresError` for database failures.
    public func keyFor(org: UUID, subject: String, on connection: Connection) throws -> SubjectKeyState {
        try Self.validate(subject)
        let key = SubjectKey.generate()
        let wrapped = wrap(key, org: org, subject: subject)
        // One round trip whether the key is new or stored: the insert answers a new row, the select beside it the
        // stored one (both under the statement's snapshot).
        let rows = try connection.queryPrepared("""
            WITH made AS (
                INSERT INTO subject_keys (org_id, subject_id, wrapped_key, master_key_id) VALUES ($1, $2, $3, $4)
                ON CONFLICT (org_id, subject_id) DO NOTHING
                RETURNING 1
            )
            SELECT true AS inserted, NULL::bytea AS wrapped_key, NULL::text AS master_key_id, false AS destroyed
            FROM made
            UNION ALL
            SELECT false, wrapped_key, master_key_id, destroyed_at IS NOT NULL FROM subject_keys
            WHERE org_id = $1 AND subject_id = $2
            """, [.text(org.lowercasedText), .text(subject), .bytea(wrapped), .text(masterKeys.current.id)]).rows
        if let row = rows.first {
            if try row.bool("inserted") { return .live(key) }
            return try state(of: row, org: org, subject: subject)
        }
        // Another caller inserted first (its transaction committed while ours waited on the conflict, after this
        // statement's snapshot): its key is visible now.
        guard let state = try read(org: org, subject: subject, on: connection) else {
            throw SubjectKeyError.missingAfterInsert(org: org, subject: subject)
        }
        return state
    }

    /// The subject's data key if one was ever created: `.live`, `.destroyed`, or nil when the subject has none.
    ///
    /// Use it to open data (it never creates a key); `keyFor` to seal.
    public func existingKey(org: UUID, subject: String, on connection: Connection) throws -> SubjectKeyState? {
        try Self.validate(subject)
        return try read(org: org, subject: subject, on: connection)
    }

    /// Destroys the subject's data key for good: `wrapped_key` becomes NULL and `destroyed_at` is stamped.
    ///
    /// Everything sealed under the key then reads back as `.erased`, in every process at once, and `keyFor`
    /// answers `.destroyed` from now on (a subject that never had a key gets a destroyed row, so none is made
    /// later). Calling it again changes nothing. Commit the caller's transaction for it to take effect. Needs INSERT
    /// and UPDATE on `subject_keys`: the owner role (the application role has neither UPDATE nor DELETE there, so it
    /// can never bring a destroyed key back; migration 0014).
    public func destroy(org: UUID, subject: String, on connection: Connection) throws {
        try Self.validate(subject)
        try connection.queryPrepared("""
            INSERT INTO subject_keys (org_id, subject_id, wrapped_key, destroyed_at) VALUES ($1, $2, NULL, now())
            ON CONFLICT (org_id, subject_id) DO UPDATE
                SET wrapped_key = NULL, destroyed_at = coalesce(subject_keys.destroyed_at, now())
            """, [.text(org.lowercasedText), .text(subject)])
    }

    // MARK: - Wrapping

    /// Seals the key under the current master key, bound to its org and subject.
    func wrap(_ key: SubjectKey, org: UUID, subject: String) -> [UInt8] {
        AESGCM.seal(key.bytes, key: masterKeys.current.bytes,
                    associatedData: Self.wrapContext(org: org, subject: subject))
    }

    /// Opens a wrapped key with the master key named `masterKeyID` (every known key when nil); nil when no such key
    /// is known here, or the key was wrapped by another master key, for another subject, or altered.
    func unwrap(_ wrapped: [UInt8], masterKeyID: String?, org: UUID, subject: String) -> SubjectKey? {
        let context = Self.wrapContext(org: org, subject: subject)
        for candidate in masterKeys.candidates(for: masterKeyID) {
            if let opened = AESGCM.open(wrapped, key: candidate.bytes, associatedData: context) {
                return SubjectKey(bytes: opened)
            }
        }
        return nil
    }

    /// The associated data of a wrapped key: `"handoff.subject-key.v1" 0x00 ‖ org id (16 bytes) ‖ subject (UTF-8)`.
    ///
    /// The org id has a fixed length, so the subject needs no length prefix; the label keeps these bytes apart
    /// from the associated data of sealed personal data.
    static func wrapContext(org: UUID, subject: String) -> [UInt8] {
        Array("handoff.subject-key.v1".utf8) + [0] + PersonalData.bytes(of: org) + Array(subject.utf8)
    }

    // MARK: - Reading

    private func read(org: UUID, subject: String, on connection: Connection) throws -> SubjectKeyState? {
        let rows = try connection.queryPrepared(
            "SELECT wrapped_key, master_key_id, destroyed_at IS NOT NULL AS destroyed FROM subject_keys "
                + "WHERE org_id = $1 AND subject_id = $2",
            [.text(org.lowercasedText), .text(subject)]).rows
        guard let row = rows.first else { return nil }
        return try state(of: row, org: org, subject: subject)
    }

    /// The key a `subject_keys` row holds (`wrapped_key`, `master_key_id`, `destroyed`).
    private func state(of row: Row, org: UUID, subject: String) throws -> SubjectKeyState {
        if try row.bool("destroyed") { return .destroyed }
        guard let wrapped = row.bytes("wrapped_key"),
              let key = unwrap(wrapped, masterKeyID: row["master_key_id"], org: org, subject: subject) else {
            throw SubjectKeyError.unwrapFailed(org: org, subject: subject)
        }
        return .live(key)
    }

    static func validate(_ subject: String) throws {
        let count = subject.utf8.count
        guard count > 0, count <= maximumSubjectBytes, !subject.utf8.contains(0) else {
            throw SubjectKeyError.invalidSubject
        }
    }
}
