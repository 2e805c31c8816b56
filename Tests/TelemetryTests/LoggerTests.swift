import Foundation
import Telemetry
import Testing

@Suite struct LoggerTests {
    /// Runs `body` with a logger writing into a temporary file and returns what it wrote.
    /// (A file, not a pipe: a pipe's 64 KiB buffer would block writers until someone reads.)
    private func capture(level: Logger.Level = .info, _ body: (Logger) -> Void) -> String {
        let path = NSTemporaryDirectory() + "logger-\(UInt64.random(in: 0...UInt64.max)).log"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path) }
        body(Logger(level: level, descriptor: descriptor))
        close(descriptor)
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func aLineIsOneJSONObjectWithFieldsInTheOrderGiven() throws {
        let output = capture {
            $0.info("request", ["b": 2, "a": "x", "ok": true, "ms": .milliseconds(microseconds: 1_234_567)])
        }
        #expect(output.hasSuffix("\n"))
        #expect(output.filter { $0 == "\n" }.count == 1)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(line["msg"] as? String == "request")
        #expect(line["level"] as? String == "info")
        #expect(line["b"] as? Int == 2)
        #expect(line["a"] as? String == "x")
        #expect(line["ok"] as? Bool == true)
        #expect(output.contains(#""b":2,"a":"x","ok":true,"ms":1234.567}"#))
        let time = try #require(line["time"] as? String)
        #expect(time.count == 24 && time.hasSuffix("Z"))
    }

    @Test func theAccessLogLineIsTheGenericLineWithTheSameFieldsAndDroppedBelowInfo() {
        let output = capture {
            $0.request(id: "req-\"1\"", method: "GET", route: "/s2s/v1/users/{guid}", status: 404, microseconds: 40_050)
            $0.info("request", ["request_id": "req-\"1\"", "method": "GET", "route": "/s2s/v1/users/{guid}",
                                "status": 404, "duration_ms": .milliseconds(microseconds: 40_050)])
        }
        // Each line without its time (everything before the first comma).
        let lines = output.split(separator: "\n").map { String($0.drop { $0 != "," }) }
        let expected = #","level":"info","msg":"request","request_id":"req-\"1\"","method":"GET","#
            + #""route":"/s2s/v1/users/{guid}","status":404,"duration_ms":40.050}"#
        #expect(lines == [expected, expected])
        #expect(capture(level: .warning) { $0.request(id: "r", method: "GET", route: "/", status: 200, microseconds: 1) }
            .isEmpty)
    }

    @Test func millisecondsKeepThreeDecimals() {
        let output = capture {
            $0.info("m", ["a": .milliseconds(microseconds: 5), "b": .milliseconds(microseconds: 40_050)])
        }
        #expect(output.contains(#""a":0.005,"b":40.050}"#))
    }

    @Test func quotesNewlinesAndControlCharactersAreEscaped() throws {
        let output = capture { $0.error("bad \"input\"\nnext\u{01}", ["path": "a\\b\tc"]) }
        #expect(output.filter { $0 == "\n" }.count == 1)
        #expect(output.contains(#""msg":"bad \"input\"\nnext\u0001""#))
        let line = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(line["path"] as? String == "a\\b\tc")
    }

    @Test func linesBelowTheLevelAreDropped() {
        let output = capture(level: .warning) { logger in
            logger.debug("d")
            logger.info("i")
            logger.warning("w")
            logger.error("e")
        }
        #expect(output.split(separator: "\n").count == 2)
        #expect(output.contains(#""msg":"w""#) && output.contains(#""msg":"e""#))
    }

    @Test func concurrentLinesNeverInterleave() throws {
        let output = capture { logger in
            DispatchQueue.concurrentPerform(iterations: 400) { index in
                logger.info("line", ["index": .int(index), "padding": .string(String(repeating: "x", count: 200))])
            }
        }
        let lines = output.split(separator: "\n")
        #expect(lines.count == 400)
        let indices = Set(lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["index"] as? Int
        })
        #expect(indices == Set(0..<400))
    }

    @Test func levelNamesParse() {
        #expect(Logger.Level(name: "WARN") == .warning)
        #expect(Logger.Level(name: "debug") == .debug)
        #expect(Logger.Level(name: "loud") == nil)
    }
}

@Suite struct BufferedLoggerTests {
    @Test func bufferedLinesArriveByTheNextBatchAndOnFlushInOrder() throws {
        let path = NSTemporaryDirectory() + "logger-\(UInt64.random(in: 0...UInt64.max)).log"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { unlink(path); close(descriptor) }
        let logger = Logger(level: .info, descriptor: descriptor, buffered: true)
        for index in 0..<100 { logger.info("line", ["index": .int(index)]) }
        logger.error("problem")
        let afterError = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(afterError.count == 101)
        #expect(afterError.last?.contains(#""msg":"problem""#) == true)
        #expect(afterError.first?.contains(#""index":0}"#) == true)

        logger.info("later")
        var waited = 0
        while try !String(contentsOfFile: path, encoding: .utf8).contains("later") && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""msg":"later""#))
        logger.info("flushed")
        logger.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("\"msg\":\"flushed\"}\n"))
    }
}
