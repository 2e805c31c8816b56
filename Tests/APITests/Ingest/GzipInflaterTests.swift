@testable import API
import Domain
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `Content-Encoding: gzip` on `/v1/m/*`: real gzip (Python's zlib) inflates exactly; a bomb stops at the cap.
@Suite struct GzipInflaterTests {
    /// `data` gzipped by Python's `gzip`/`zlib` at `level` (0 = stored blocks); `strategy` 4 forces fixed Huffman.
    /// `zeros` > 0 gzips that many zero bytes instead (too many to pass as an argument).
    private func gzip(_ data: [UInt8], level: Int = 6, strategy: Int = 0, zeros: Int = 0) throws -> [UInt8] {
        let script = """
            import base64, sys, zlib
            data = bytes(\(zeros)) if \(zeros) > 0 else base64.b64decode(sys.argv[1])
            c = zlib.compressobj(\(level), zlib.DEFLATED, 31, 8, \(strategy))
            sys.stdout.write(base64.b64encode(c.compress(data) + c.flush()).decode())
            """
        let output = try Shell.run(["python3", "-c", script, Data(data).base64EncodedString()])
        return try #require(Data(base64Encoded: output.trimmingCharacters(in: .whitespacesAndNewlines)).map(Array.init))
    }

    /// A batch-like JSON text of about `count` bytes, repetitive as real batches are, with some noise.
    private func batchText(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var text = #"{"v":1,"ev":["#
        while text.utf8.count < count {
            text += #"{"s":"sess-1","n":\#(UInt32.random(in: 0...999_999, using: &generator)),"t":"screen_view","#
                + #""e":"tap","p":{"x":\#(Int.random(in: 0...400)),"y":\#(Int.random(in: 0...900))}},"#
        }
        return Array(text.utf8)
    }

    @Test(arguments: [(0, 0), (1, 0), (6, 0), (9, 0), (6, 4), (6, 2)])
    func gzipOfEveryKindInflatesToTheSameBytes(level: Int, strategy: Int) throws {
        for size in [0, 1, 300, 3000, 40000] {
            let original = batchText(size)
            let inflated = GzipInflater.inflate(try gzip(original, level: level, strategy: strategy),
                                                limit: 64 * 1024)
            #expect(inflated == .success(original), "level \(level) strategy \(strategy) size \(size)")
        }
    }

    /// The trailer's CRC-32 is taken eight bytes a step and the rest one by one: every length around the step.
    @Test func theChecksumHoldsForEveryLengthAroundItsEightByteStep() throws {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...25) + [1021, 1024, 1031] {
            let original = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var compressed = try gzip(original, level: 0)
            #expect(GzipInflater.inflate(compressed, limit: 64 * 1024) == .success(original), "length \(length)")
            compressed[compressed.count - 8] ^= 0x80
            #expect(GzipInflater.inflate(compressed, limit: 64 * 1024) == .failure(.malformed), "length \(length)")
        }
    }

    @Test func aBombStopsAtTheCapAndABodyExactlyAtTheCapPasses() throws {
        let bomb = try gzip([], level: 9, zeros: 10 * 1024 * 1024)
        #expect(bomb.count < 20 * 1024)
        #expect(GzipInflater.inflate(bomb, limit: 64 * 1024) == .failure(.tooLarge))
        let exact = [UInt8](repeating: 0x61, count: 64 * 1024)
        #expect(GzipInflater.inflate(try gzip(exact), limit: 64 * 1024) == .success(exact))
        #expect(GzipInflater.inflate(try gzip(exact + [0x61]), limit: 64 * 1024) == .failure(.tooLarge))
        let stored = try gzip(exact + [0x61], level: 0)
        #expect(GzipInflater.inflate(stored, limit: 64 * 1024) == .failure(.tooLarge))
    }

    @Test func anythingButOneIntactGzipMemberIsMalformed() throws {
        let good = try gzip(batchText(2000))
        var badCRC = good
        badCRC[badCRC.count - 6] ^= 0x01
        var badLength = good
        badLength[badLength.count - 1] ^= 0x01
        var badData = good
        badData[good.count / 2] ^= 0xFF
        for (name, bytes) in [("crc", badCRC), ("length", badLength), ("trailing", good + [0]),
                              ("truncated", Array(good.dropLast(3))), ("empty", []), ("plain", Array("{}".utf8)),
                              ("magic", [0x1F, 0x8B, 7] + good.dropFirst(3))] {
            #expect(GzipInflater.inflate(bytes, limit: 64 * 1024) == .failure(.malformed), "\(name)")
        }
        // Flipped data bits are caught somewhere: by the DEFLATE decoder or by the CRC.
        if case .success = GzipInflater.inflate(badData, limit: 64 * 1024) { Issue.record("corrupt data inflated") }
    }

    @Test func theIngestBodyInflatesGzipUnderTheCapAndRefusesOtherEncodings() throws {
        let text = batchText(3000)
        func request(_ body: [UInt8], encoding: String?) -> Request {
            Request(method: .post, path: "/v1/m/batch", query: [:],
                    headers: Headers(encoding.map { [("Content-Encoding", $0)] } ?? []), body: body)
        }
        #expect(try IngestBody.bytes(request(try gzip(text), encoding: "gzip"), limit: 64 * 1024) == text)
        #expect(try IngestBody.bytes(request(text, encoding: nil), limit: 64 * 1024) == text)
        #expect(throws: IngestRefusal.tooLarge) {
            try IngestBody.bytes(request(try gzip(text), encoding: "gzip"), limit: 1000)
        }
        #expect(throws: IngestRefusal.tooLarge) { try IngestBody.bytes(request(text, encoding: nil), limit: 1000) }
        #expect(throws: IngestRefusal.invalid("body is not valid gzip")) {
            try IngestBody.bytes(request(text, encoding: "gzip"), limit: 64 * 1024)
        }
        #expect(throws: IngestRefusal.invalid("Content-Encoding must be gzip or absent")) {
            try IngestBody.bytes(request(text, encoding: "br"), limit: 64 * 1024)
        }
    }
}
