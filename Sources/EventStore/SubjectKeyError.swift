import Foundation

/// Why `SubjectKeys` could not hand out a subject's key. Messages name the org and subject, never key bytes.
public enum SubjectKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The subject id is empty, longer than 200 bytes, or contains a NUL character.
    case invalidSubject
    /// The stored wrapped key does not open under this master key with this org and subject bound in:
    /// the master key is not the one the key was wrapped with, or the row was altered or copied from another
    /// subject. Nothing can be decrypted for this subject until the right master key is configured.
    case unwrapFailed(org: UUID, subject: String)
    /// The row vanished between inserting it and reading it back (someone deleted it concurrently).
    case missingAfterInsert(org: UUID, subject: String)

    public var description: String {
        switch self {
        case .invalidSubject:
            "a subject id must be 1 to 200 bytes of text without NUL characters"
        case .unwrapFailed(let org, let subject):
            "the data key of subject \(subject) in org \(org.lowercasedText) does not unwrap with the "
                + "configured master key (wrong HANDOFF_MASTER_KEY, or the row was altered or moved)"
        case .missingAfterInsert(let org, let subject):
            "the data key of subject \(subject) in org \(org.lowercasedText) disappeared while it was created"
        }
    }
}
