/// The keys passes are signed with, by id: the current one signs, it and the previous ones verify.
///
/// The domain holds no key bytes and no MAC: `mac` computes the tag of a message under the key named by an id
/// (in production `HMAC.sha256` from `Crypto` over a key table), so rotation is adding a new current id and
/// keeping the old one in `previousKeyIDs` for at least a pass lifetime (24 h).
public struct PassKeys: Sendable {
    /// The id of the key that signs new passes.
    public let currentKeyID: String
    /// Ids of older keys whose passes still verify.
    public let previousKeyIDs: [String]
    /// The tag of `message` under the key named `keyID`; only called with `currentKeyID` or a previous id.
    public let mac: @Sendable (_ keyID: String, _ message: [UInt8]) -> [UInt8]

    /// Keys with `currentKeyID` signing.
    ///
    /// Ids must be 1–32 characters of `A–Z a–z 0–9 _ -` (they travel in passes); others are a programming error.
    public init(
        currentKeyID: String, previousKeyIDs: [String] = [],
        mac: @escaping @Sendable (_ keyID: String, _ message: [UInt8]) -> [UInt8]
    ) {
        precondition(Self.isKeyID(currentKeyID), "PassKeys: malformed key id \(currentKeyID)")
        precondition(previousKeyIDs.allSatisfy(Self.isKeyID), "PassKeys: malformed previous key id")
        self.currentKeyID = currentKeyID
        self.previousKeyIDs = previousKeyIDs
        self.mac = mac
    }

    /// True when `keyID` names the current or a previous key.
    public func knows(_ keyID: some StringProtocol) -> Bool {
        keyID == currentKeyID || previousKeyIDs.contains { $0 == keyID }
    }

    /// True for 1–32 characters of `A–Z a–z 0–9 _ -`.
    public static func isKeyID(_ text: some StringProtocol) -> Bool {
        (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
