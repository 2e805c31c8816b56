import Foundation

/// A buyer's `guid`: an opaque id of 1–64 characters of `A–Z a–z 0–9 . _ : -`, compared and returned exactly.
///
/// Tenants send their own ids (`abc123def456`), SDKs their device id (Android's 16-hex `ANDROID_ID`, iOS's upper-case
/// `identifierForVendor`); ids Handoff mints are lowercase version-4 UUIDs. Nothing is folded or trimmed: `ABC` and
/// `abc` are two buyers, and the text given first is the text stored, signed into passes and answered. The alphabet
/// needs no escaping in JSON, a URL path segment or a query. Refused with `VALIDATION_GUID_FORMAT` as well: an unset
/// device id (`UnsetDeviceID`), which would merge every such device into one buyer, and `.` / `..`, which no URL path
/// can carry (`GET /s2s/v1/users/{guid}`). docs/identity.md and docs/decisions.md ("Opaque buyer ids") say why.
public struct BuyerGuid: Hashable, Sendable, CustomStringConvertible {
    /// The most characters a guid may have; also what keeps a guid from naming an address's personal-data subject
    /// (`email:<64 hex>`, 70 characters).
    public static let maxLength = 64
    /// The characters of a guid: `A–Z a–z 0–9 . _ : -`.
    public static let characters = ASCIISet("A-Za-z0-9._:-")
    /// A whole guid's shape, `^[A-Za-z0-9._:-]{1,64}$`; `refusedPattern` names the texts of that shape still refused.
    public static let pattern = characters.pattern(lengths: 1...maxLength)
    /// The texts of guid shape that `parse` refuses: unset device ids (`UnsetDeviceID`) and the dot segments.
    public static let refusedPattern = "^(?:" + (UnsetDeviceID.patterns + [#"\.\.?"#]).joined(separator: "|") + ")$"

    /// The id exactly as it was first given (or minted).
    public let text: String

    private init(checked text: String) { self.text = text }

    /// A new guid from 16 bytes of a CSPRNG, as a lowercase version-4 UUID (the caller draws the bytes).
    public init(randomBytes: [UInt8]) {
        self.text = CanonicalUUID.text(CanonicalUUID.version4(randomBytes: randomBytes))
    }

    /// A guid read back from storage (a projection row, a signed pass): checked for the alphabet and length only, so
    /// a value stored under an older, looser rule still reads back; nil when it is not a guid at all.
    public init?(stored text: String) {
        guard Self.hasGuidShape(Array(text.utf8)) else { return nil }
        self.text = text
    }

    /// The text, exactly as given.
    public var description: String { text }

    /// Parses a guid sent by a client; refuses, with `VALIDATION_GUID_FORMAT` naming `field`, anything outside
    /// 1–64 characters of `A–Z a–z 0–9 . _ : -`, an unset device id, and `.` or `..`.
    public static func parse(_ text: String, field: String = "guid") -> Result<BuyerGuid, FieldRefusal> {
        let bytes = Array(text.utf8)
        guard hasGuidShape(bytes) else {
            return .failure(FieldRefusal(field: field, code: .guidFormat,
                                         rule: "be 1–\(maxLength) characters from A-Z a-z 0-9 . _ : -"))
        }
        guard !UnsetDeviceID.matches(bytes) else {
            return .failure(FieldRefusal(field: field, code: .guidFormat, rule: "not be \(UnsetDeviceID.described)"))
        }
        guard text != ".", text != ".." else {
            return .failure(FieldRefusal(field: field, code: .guidFormat,
                                         rule: "not be . or .. (a URL path cannot carry them)"))
        }
        return .success(BuyerGuid(checked: text))
    }

    /// 1–64 bytes, each of `A–Z a–z 0–9 . _ : -` (so the UTF-8 and the characters are the same count).
    private static func hasGuidShape(_ bytes: [UInt8]) -> Bool {
        (1...maxLength).contains(bytes.count) && bytes.allSatisfy(characters.contains)
    }
}
