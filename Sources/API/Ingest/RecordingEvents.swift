import Commands
import Crypto
import Domain
import Foundation

/// The inflated NDJSON of a packet's rrweb events (docs/recordings.md "Events"): one JSON object per line, each with
/// a whole-number `type` and `timestamp` (Unix milliseconds, device clock).
///
/// A screenshot travels once per hash as the Custom event (`type` 5) `{"tag":"x3","payload":{"e":"img","sha","mime",
/// "data"}}`, `data` the image in base64 whose SHA-256 must be `sha`. Its `data` is always taken out of the stored
/// event (the wireframe and the `sha` reference stay); the bytes become a replay asset only when `keepsScreenshots`.
struct RecordingEvents {
    /// Most events in one packet.
    static let maxEvents = 2000
    /// The image types a screenshot may have.
    static let mimes: Set<String> = ["image/png", "image/jpeg", "image/webp"]

    /// The NDJSON to store, one event a line.
    var ndjson: [UInt8]
    var count: Int
    var earliest: Int
    var latest: Int
    var assets: [RecordingPacketRow.Asset]
    /// The SHA-256 of every screenshot the packet's events name, with its bytes or without.
    var references: [String]

    static func read(_ bytes: [UInt8], keepsScreenshots: Bool) throws -> RecordingEvents {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if lines.last == [UInt8(ascii: "\r")] { lines.removeLast() }
        guard !lines.isEmpty else { throw IngestRefusal.invalid("events: the packet holds no event") }
        guard lines.count <= maxEvents else {
            throw IngestRefusal.invalid("events: more than \(maxEvents) events in one packet")
        }
        var output: [UInt8] = []
        var assets: [RecordingPacketRow.Asset] = []
        var references: [String] = []
        var times: [Int] = []
        for (index, line) in lines.enumerated() {
            guard var event = IngestJSON.object(Array(line)) else {
                throw IngestRefusal.invalid("events[\(index)] is not a JSON object")
            }
            let members = AppBatchBody.Members(event, path: "events[\(index)]")
            let type = try members.int("type")
            times.append(try members.int("timestamp"))
            var kept = Array(line)
            if type == 5, var data = event["data"]?.object, case .string("x3") = data["tag"],
               var payload = data["payload"]?.object, case .string("img") = payload["e"]
            {
                if let asset = try screenshot(payload, path: "events[\(index)].data.payload"), keepsScreenshots {
                    assets.append(asset)
                }
                if case .string(let sha) = payload["sha"], !references.contains(sha) { references.append(sha) }
                payload.remove("data")
                data.replace("payload", with: .object(payload))
                event.replace("data", with: .object(data))
                kept = event.sortedCompactBytes
            }
            output += kept + [UInt8(ascii: "\n")]
        }
        return RecordingEvents(ndjson: output, count: lines.count, earliest: times.min() ?? 0,
                               latest: times.max() ?? 0, assets: assets, references: references)
    }

    /// The image of a screenshot event, checked against its `sha`; nil when it carries no `data` (sent before).
    private static func screenshot(_ payload: IngestJSON.Object, path: String) throws -> RecordingPacketRow.Asset? {
        let members = AppBatchBody.Members(payload, path: path)
        let sha = try members.string("sha", max: 64)
        guard sha.utf8.count == 64, sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { throw IngestRefusal.invalid("\(path).sha must be a SHA-256 in lowercase hex") }
        let mime = try members.string("mime", max: 32)
        guard mimes.contains(mime) else {
            throw IngestRefusal.invalid("\(path).mime must be image/png, image/jpeg or image/webp")
        }
        guard let text = try members.optionalString("data", max: Int.max) else { return nil }
        guard let bytes = Data(base64Encoded: text).map(Array.init) else {
            throw IngestRefusal.invalid("\(path).data must be base64")
        }
        guard Hex.encode(SHA256.hash(bytes)) == sha else {
            throw IngestRefusal.invalid("\(path).sha is not the SHA-256 of data")
        }
        return RecordingPacketRow.Asset(sha256: sha, mime: mime, bytes: bytes)
    }
}
