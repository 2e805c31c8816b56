import Foundation

/// A small recorded session written by hand from rrweb's event model (rrweb 1.x `EventType`, `NodeType`,
/// `IncrementalSource`): Meta (4), FullSnapshot (2) of a checkout screen's wireframe, then IncrementalSnapshots (3): a
/// mouse move, a mutation that changes the total's text and adds a "Paid" line, a scroll. Sent as one
/// `POST /v1/m/r` packet (docs/recordings.md).
public enum RRWebFixture {
    /// Text the full snapshot shows.
    public static let snapshotText = "Checkout"
    /// Text only the incremental mutation adds: present once the player has applied it.
    public static let mutationText = "Paid with card"

    /// The NDJSON events, the first at device time `at` (Unix milliseconds), 300 ms apart after the snapshot.
    public static func events(at: Int) -> String {
        let node = #"{"type":0,"id":1,"childNodes":[{"type":1,"id":2,"name":"html","publicId":"","systemId":""},"#
            + #"{"type":2,"id":3,"tagName":"html","attributes":{},"childNodes":[{"type":2,"id":4,"tagName":"head","#
            + #""attributes":{},"childNodes":[]},{"type":2,"id":5,"tagName":"body","attributes":{"style":"#
            + #""font-family:sans-serif;padding:16px"},"childNodes":[{"type":2,"id":6,"tagName":"h1","attributes":{},"#
            + #""childNodes":[{"type":3,"id":7,"textContent":"\#(snapshotText)"}]},{"type":2,"id":8,"tagName":"p","#
            + #""attributes":{"id":"total"},"childNodes":[{"type":3,"id":9,"textContent":"Total: 9.99 EUR"}]}]}]}]}"#
        return [
            #"{"type":4,"data":{"href":"app://com.example.Reader/Checkout","width":390,"height":844},"#
                + #""timestamp":\#(at)}"#,
            #"{"type":2,"data":{"node":\#(node),"initialOffset":{"left":0,"top":0}},"timestamp":\#(at + 10)}"#,
            #"{"type":3,"data":{"source":1,"positions":[{"x":40,"y":60,"id":5,"timeOffset":0}]},"#
                + #""timestamp":\#(at + 300)}"#,
            #"{"type":3,"data":{"source":0,"texts":[{"id":9,"value":"Total: 19.98 EUR"}],"attributes":[],"#
                + #""removes":[],"adds":[{"parentId":5,"nextId":null,"node":{"type":2,"id":10,"tagName":"p","#
                + #""attributes":{"id":"paid"},"childNodes":[]}},{"parentId":10,"nextId":null,"node":{"type":3,"#
                + #""id":11,"textContent":"\#(mutationText)"}}]},"timestamp":\#(at + 600)}"#,
            #"{"type":3,"data":{"source":3,"id":1,"x":0,"y":0},"timestamp":\#(at + 900)}"#,
        ].joined(separator: "\n") + "\n"
    }

    /// An 8×8 PNG (one blue colour), base64: a real image a browser decodes.
    public static let screenshotPNG = "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQqziBFTEMLQkABkZXgRDD"
        + "jAEAAAAASUVORK5CYII="

    /// The screenshot's SHA-256, lowercase hex.
    public static var screenshotSha: String {
        let script = "import base64, hashlib, sys; print(hashlib.sha256(base64.b64decode(sys.argv[1])).hexdigest())"
        return ((try? Shell.run(["python3", "-c", script, screenshotPNG])) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The screenshot as the SDK sends it the first time: rrweb's Custom event (type 5) `{tag:"x3", payload:{e:"img",
    /// sha, mime, data}}`, at device time `at`.
    public static func screenshotEvent(at: Int) -> String {
        #"{"type":5,"data":{"tag":"x3","payload":{"e":"img","sha":"\#(screenshotSha)","mime":"image/png","#
            + #""data":"\#(screenshotPNG)"}},"timestamp":\#(at)}"#
    }

    /// A packet header for `key`'s iOS app `com.example.Reader`, session `sid`, packet 0, granted (`gg`, `opt_in`).
    public static func header(key: String, sid: String, at: Int) -> String {
        #"{"v":1,"k":"\#(key)","plat":"ios","bid":"com.example.Reader","ins":"I-REPLAY","sid":"\#(sid)","seq":0,"#
            + #""sec":"replay-secret-0123456789","at":\#(at),"scr":"Checkout","cm":"opt_in","cs":"gg"}"#
    }

    /// `"X3R1"`, the header's length (4 bytes, big-endian), the header and the gzip of `events`.
    public static func packet(header: String, events: String) throws -> [UInt8] {
        let script = "import base64, gzip, sys; sys.stdout.write(base64.b64encode(gzip.compress("
            + "base64.b64decode(sys.argv[1]))).decode())"
        let output = try Shell.run(["python3", "-c", script, Data(events.utf8).base64EncodedString()])
        guard let gzipped = Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureError(message: "python3 gave no gzip: \(output)")
        }
        let head = Array(header.utf8)
        let length = UInt32(head.count)
        return Array("X3R1".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * (3 - UInt32($0)))) }
            + head + Array(gzipped)
    }

    struct FixtureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
