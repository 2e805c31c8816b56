@testable import API
import Domain

/// `ingest-body`: the bytes as the JSON of every SDK route (`/v1/m/*`): `IngestJSON.parse`, and the bodies read from
/// it (`AppBatchBody`, `AppInstallBody`, `AppLeadBody`, `AppEraseBody`, `RecordingHeader`).
///
/// Properties: a body is read or refused with a 400 `invalid` that has a detail (never another error); a value the
/// parser takes, written compactly, parses again to the same writing (a fixed point), sorted or not; every object's
/// kept text parses to the same value as the object; a batch's events keep `p` as text that parses as an object and
/// holds no `\u0000`; every id a batch answers is within its length.
enum IngestBodyFuzz {
    static let target = FuzzTarget(name: "ingest-body", maxLength: 8192, run: run)

    static func run(_ bytes: [UInt8]) {
        if let value = try? IngestJSON.parse(bytes) {
            for sorted in [false, true] {
                let once = written(value, sorted: sorted)
                guard let again = try? IngestJSON.parse(once) else {
                    return check(false, "the writing '\(text(once))' does not parse")
                }
                check(written(again, sorted: sorted) == once, "writing '\(text(once))' is not a fixed point")
            }
            checkObjectTexts(value)
        }
        read { try AppBatchBody.parse(bytes) }.map(checkBatch)
        _ = read { try AppInstallBody.parse(bytes) }
        _ = read { try AppLeadBody.parse(bytes) }
        _ = read { try AppEraseBody.parse(bytes) }
        _ = read { try RecordingHeader.parse(bytes) }
    }

    private static func written(_ value: IngestJSON.Value, sorted: Bool) -> [UInt8] {
        var out: [UInt8] = []
        IngestJSON.write(value, sorted: sorted, into: &out)
        return out
    }

    private static func checkObjectTexts(_ value: IngestJSON.Value) {
        switch value {
        case .object(let object):
            let kept = Array(object.text)
            guard let reparsed = try? IngestJSON.parse(kept) else {
                return check(false, "an object's text '\(text(kept))' does not parse")
            }
            check(written(reparsed, sorted: true) == written(value, sorted: true),
                  "an object's text '\(text(kept))' is another value")
            object.members.forEach { checkObjectTexts($0.value) }
        case .array(let elements): elements.forEach(checkObjectTexts)
        default: break
        }
    }

    /// The body `parse` reads, or nil when it refuses it as it must.
    private static func read<T>(_ parse: () throws -> T) -> T? {
        do {
            return try parse()
        } catch let refusal as IngestRefusal {
            check(refusal.status == 400 && refusal.code == "invalid", "refused with \(refusal.status) \(refusal.code)")
            check(!(refusal.detail ?? "").isEmpty, "a refusal without a detail")
            return nil
        } catch {
            check(false, "threw \(type(of: error)), not an IngestRefusal")
            return nil
        }
    }

    private static func checkBatch(_ body: AppBatchBody) {
        for id in [body.install, body.session] + body.events.map(\.session) + body.screens.map(\.id) {
            check(!id.isEmpty && id.utf8.count <= AppBatchBody.maxIdLength, "an id of \(id.utf8.count) bytes")
        }
        for props in body.events.compactMap(\.props) {
            check(IngestJSON.object(Array(props.utf8)) != nil, "props '\(props)' are not an object")
            check(!props.contains("\\u0000"), "props '\(props)' hold \\u0000")
        }
    }
}
