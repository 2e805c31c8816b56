@testable import Domain
import Foundation

/// `identifiers`: the bytes as the ids clients send (`BuyerGuid`, `ProjectID`, `OrgID`, `ExternalID`), and as the
/// 16 bytes of a UUID.
///
/// Properties: an accepted guid is kept exactly (no folding or trimming), is 1–64 characters of `A–Z a–z 0–9 . _ : -`,
/// reads back from storage and parses from its own text to itself; every project id's text is a guid too unless it is
/// the nil or the max UUID (unset device ids); project and org ids accept the same texts, print the lowercase of what
/// was sent and parse their print to the same value; any UUID prints and parses back, and a guid minted from 16 bytes
/// is its lowercase text; an accepted external id is kept exactly, has 1–256 characters, no control, format or
/// line-breaking character and no space at either end.
enum IdentifiersFuzz {
    static let target = FuzzTarget(name: "identifiers", maxLength: 512, run: run)

    static let guidBytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-".utf8)

    static func run(_ bytes: [UInt8]) {
        let candidate = text(bytes)
        if case .success(let guid) = BuyerGuid.parse(candidate) { checkGuid(guid, candidate) }
        let project = try? ProjectID.parse(candidate).get()
        let org = try? OrgID.parse(candidate).get()
        check((project != nil) == (org != nil), "project and org ids disagree on '\(candidate)'")
        if let project {
            let uuid = CanonicalUUID.bytes(project.uuid)
            let unset = uuid.allSatisfy { $0 == 0 } || uuid.allSatisfy { $0 == 0xFF }
            check(((try? BuyerGuid.parse(candidate).get()) != nil) == !unset, "UUID '\(candidate)' as a guid")
            check(project.description == candidate.lowercased(), "'\(candidate)' prints as \(project)")
            check((try? ProjectID.parse(project.description).get()) == project, "\(project) does not parse back")
        }
        let random = material(bytes, count: 16)
        let uuid = CanonicalUUID.fromBytes(random[...])
        check(CanonicalUUID.parse(CanonicalUUID.text(uuid)) == uuid, "\(uuid) does not print and parse back")
        let minted = BuyerGuid(randomBytes: random)
        check(minted.text == CanonicalUUID.text(CanonicalUUID.version4(randomBytes: random))
                  && (try? BuyerGuid.parse(minted.text).get()) == minted, "minted guid '\(minted)'")
        if case .success(let id) = ExternalID.parse(candidate) { checkExternalID(id, candidate) }
    }

    private static func checkGuid(_ guid: BuyerGuid, _ candidate: String) {
        check(guid.text == candidate && guid.description == candidate, "guid '\(candidate)' kept as '\(guid)'")
        let shaped = (1...BuyerGuid.maxLength).contains(candidate.utf8.count)
            && candidate.utf8.allSatisfy(guidBytes.contains)
        check(shaped, "guid '\(candidate)' outside the alphabet or length")
        check(BuyerGuid(stored: guid.text) == guid, "guid '\(guid)' does not read back from storage")
        check((try? BuyerGuid.parse(guid.text).get()) == guid, "guid '\(guid)' does not parse back")
    }

    private static func checkExternalID(_ id: ExternalID, _ candidate: String) {
        check(id.text == candidate && (1...ExternalID.maxLength).contains(candidate.count), "external id '\(id)'")
        check(candidate.first != " " && candidate.last != " ", "external id '\(id)' padded with spaces")
        let refused: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        check(candidate.unicodeScalars.allSatisfy { !refused.contains($0.properties.generalCategory) },
              "external id '\(id)' with a control, format or line-breaking character")
        check(candidate.unicodeScalars.allSatisfy { $0 == " " || !$0.properties.isWhitespace },
              "external id '\(id)' with whitespace other than a space")
    }
}
