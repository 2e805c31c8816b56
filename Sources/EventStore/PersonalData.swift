import Crypto
import Domain
import Foundation

/// Sealing personal data (e-mail, IP) for event payloads with the subject's data key (crypto-shredding).
///
/// The associated data binds each value to its org, subject and field (docs/personal-data.md): a value moved
/// to another buyer, org or field reads back as `.invalid`; once the subject's key is destroyed, as `.erased`.
public enum PersonalData {
    /// Encrypts `text` under the subject's key with a fresh random nonce: the same input seals differently each time.
    public static func seal(
        _ text: String, field: PersonalDataField, org: UUID, subject: String, key: SubjectKey
    ) -> SealedValue {
        let context = associatedData(field: field, org: org, subject: subject)
        return SealedValue(box: AESGCM.seal(Array(text.utf8), key: key.bytes, associatedData: context))
    }

    /// Decrypts a value sealed by `seal` for the same org, subject and field.
    ///
    /// `.erased` when the key was destroyed; `.invalid` when the value was altered, belongs to another org,
    /// subject or field, or was sealed under another key.
    public static func open(
        _ value: SealedValue, field: PersonalDataField, org: UUID, subject: String, key: SubjectKeyState
    ) -> Reveal {
        switch key {
        case .destroyed:
            return .erased
        case .live(let key):
            let context = associatedData(field: field, org: org, subject: subject)
            guard let plaintext = AESGCM.open(value.box, key: key.bytes, associatedData: context),
                  let text = String(validating: plaintext, as: UTF8.self)
            else { return .invalid }
            return .value(text)
        }
    }

    /// `"handoff.pd1" 0x00 ‖ org id (16 bytes) ‖ subject length (4 bytes, big-endian) ‖ subject ‖ field`,
    /// texts in UTF-8.
    ///
    /// The subject carries its length so that no (subject, field) pair can spell another pair's bytes.
    static func associatedData(field: PersonalDataField, org: UUID, subject: String) -> [UInt8] {
        let subjectBytes = Array(subject.utf8)
        let length = UInt32(clamping: subjectBytes.count)
        let lengthBytes = [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF),
                           UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        return Array("handoff.pd1".utf8) + [0] + bytes(of: org) + lengthBytes + subjectBytes
            + Array(field.rawValue.utf8)
    }

    /// The 16 bytes of a UUID in RFC 4122 order (as Postgres stores a `uuid`).
    static func bytes(of uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }
}
