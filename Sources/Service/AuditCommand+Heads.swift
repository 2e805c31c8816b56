import Crypto
import Domain
import EventStore
import Foundation
import Postgres

/// `handoff audit head` and `handoff audit verify --org ID --head HEAD.json` (docs/audit.md "Signed chain heads").
extension AuditCommand {
    /// Prints `org`'s latest signed head as one line of canonical JSON (exit 0), or says it has none (exit 1).
    static func printHead(org: UUID, on connection: Connection) throws -> Int32 {
        guard let head = try ChainHeadStore.latest(org: org, on: connection) else {
            Subcommands.printError("handoff audit: org \(org.lowercasedText) has no signed head yet (the "
                + "checkpoint worker role signs one once its history moved)")
            return 1
        }
        print(head.json.canonicalText)
        return 0
    }

    /// Verifies `org`'s chain as `verify(org:on:)` does, then its history against the signed head in the file
    /// `headFile`, with the keys of `keysFile` (a `handoff audit keys` document kept by the auditor) or else the
    /// database's: exit 0 when both hold, 1 naming the first break.
    static func verify(org: UUID, head headFile: String, keysFile: String?, on connection: Connection) throws
        -> Int32
    {
        let head = try readHead(headFile)
        let keys = try keysFile.map(readKeys) ?? ChainHeadStore.keys(on: connection)
        let orgText = org.lowercasedText
        guard head.orgId == org else {
            throw UsageError(message: "--head is a head of org \(head.orgId.lowercasedText), not of --org")
        }
        let chain = try verify(org: org, on: connection)
        let check = try AuditVerifier.check(head, org: org, keys: keys, on: connection)
        let seq = head.orgSeq
        switch check {
        case .matches:
            print("signed head org_seq \(seq) (key \(head.keyId), signed at \(head.signedAt)): the history reaches "
                + "it with the same hash \(Hex.encode(head.hash))")
            return chain
        case .anotherOrg:
            throw UsageError(message: "--head is not a head of --org")
        case .unknownKey:
            print("BROKEN org \(orgText) at org_seq \(seq): the signed head's key_id \(head.keyId) is not an audit "
                + "key")
        case .badSignature:
            print("BROKEN org \(orgText) at org_seq \(seq): the signed head's signature does not verify (the head was "
                + "altered)")
        case .historyEndsBefore(let lastSeq):
            print("BROKEN org \(orgText) at org_seq \(lastSeq + 1): the history ends at org_seq \(lastSeq), before "
                + "the signed head's org_seq \(seq) (its tail was cut off)")
        case .eventMissing:
            print("BROKEN org \(orgText) at org_seq \(seq): the event of the signed head is missing")
        case .differs(let storedHash, _):
            print("BROKEN org \(orgText) at org_seq \(seq): the history's hash \(Hex.encode(storedHash)) is not the "
                + "signed head's \(Hex.encode(head.hash)) (the history was rewritten)")
        }
        return 1
    }

    /// The head in `path` (a `handoff audit head` line, surrounding whitespace allowed).
    static func readHead(_ path: String) throws -> ChainHead {
        do {
            return try ChainHead(json: try EventJSON.parse(try document(path, flag: "--head")))
        } catch let error as ChainHead.FormatError {
            throw UsageError(message: "--head: \(path) is not a signed head: \(error)")
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError(message: "--head: \(path) is not JSON: \(error)")
        }
    }

    /// The keys in `path` (a `handoff audit keys` document).
    static func readKeys(_ path: String) throws -> [AuditKey] {
        do {
            return try AuditKey.keys(fromDocument: try EventJSON.parse(try document(path, flag: "--keys")))
        } catch let error as AuditKey.DocumentError {
            throw UsageError(message: "--keys: \(path): \(error)")
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError(message: "--keys: \(path) is not JSON: \(error)")
        }
    }

    /// The text of the file at `path` without surrounding whitespace.
    private static func document(_ path: String, flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "\(flag): cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
