@testable import API
import Foundation
import Testing
import TestSupport

/// The SDK routes' JSON parser (`IngestJSON`), checked against Python's `json` module as the oracle: what one takes,
/// the other takes, to the same value; what Python refuses is refused here too. Plus what Python cannot judge: the
/// kept object text, the kept number text, lone surrogates and the depth limit.
@Suite struct IngestJSONTests {
    /// Python's reading of `text`: its canonical form (sorted keys, compact, raw UTF-8), or nil when it refuses it.
    private func python(_ texts: [String]) throws -> [String?] {
        let script = """
            import base64, json, sys
            for line in base64.b64decode(sys.argv[1]).decode().split("\\u0001"):
                try:
                    v = json.loads(line)
                    print("ok " + json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
                except ValueError:
                    print("refused")
            """
        let joined = Data(texts.joined(separator: "\u{1}").utf8).base64EncodedString()
        let output = try Shell.run(["python3", "-c", script, joined])
        return output.split(separator: "\n", omittingEmptySubsequences: false).prefix(texts.count).map {
            $0.hasPrefix("ok ") ? String($0.dropFirst(3)) : nil
        }
    }

    private func mine(_ text: String) -> String? {
        guard let value = try? IngestJSON.parse(Array(text.utf8)) else { return nil }
        var out: [UInt8] = []
        IngestJSON.write(value, sorted: true, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func agreesWithPythonOnValidAndInvalidDocuments() throws {
        let documents = [
            #"{}"#, #"[]"#, #"{"a":1}"#, #" { "b" : [ 1 , 2 , { "c" : null } ] , "a" : true } "#,
            #"{"s":"caf\u00e9 \ud83d\ude00 \n\t\"\\/"}"#, #"{"ü":"ü","emoji":"😀"}"#, #"[-1,0,12,-0.5,3.25]"#,
            #"{"nested":{"deeper":{"deepest":[false,null,"x"]}}}"#, #""just a string""#, #"42"#, #"null"#,
            // Refused by both:
            #"{"a":1,}"#, #"[1,2,]"#, #"{a:1}"#, #"{'a':1}"#, #"[01]"#, #"[1.]"#, #"[.5]"#, #"[+1]"#, #"[1e]"#,
            #"{"a" 1}"#, #"{"a":1"#, #"["#, #""#, #"[1] [2]"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\u12"}"#,
            "{\"a\":\"tab\there\"}",
        ]
        let oracle = try python(documents)
        for (document, expected) in zip(documents, oracle) {
            #expect(mine(document) == expected, "\(document)")
        }
    }

    /// Python takes these (its `json` extensions); RFC 8259 and this parser do not.
    @Test func refusesWhatOnlyPythonTakes() {
        for text in ["[NaN]", "[Infinity]", "[-Infinity]"] {
            #expect((try? IngestJSON.parse(Array(text.utf8))) == nil, "\(text)")
        }
    }

    @Test func keepsObjectTextAndNumberText() throws {
        let text = #"{"ev":[{"n":1,"p":{ "price" : 9.90, "big": 1e400, "list":[1, 2] }}],"x":-0.0}"#
        let root = try #require(IngestJSON.parse(Array(text.utf8)).object)
        guard case .array(let events) = root["ev"] else { Issue.record("ev is not an array"); return }
        let props = try #require(events.first?.object?["p"]?.object)
        #expect(String(decoding: props.text, as: UTF8.self) == #"{ "price" : 9.90, "big": 1e400, "list":[1, 2] }"#)
        guard case .number("9.90") = props["price"], case .number("1e400") = props["big"],
              case .number("-0.0") = root["x"] else {
            Issue.record("numbers lost their text")
            return
        }
        #expect(String(decoding: props.sortedCompactBytes, as: UTF8.self) == #"{"big":1e400,"list":[1,2],"price":9.90}"#)
    }

    @Test func repeatedKeysKeepTheLastValue() throws {
        let object = try #require(IngestJSON.object(Array(#"{"a":1,"b":2,"a":3}"#.utf8)))
        guard case .number("3") = object["a"] else { Issue.record("the first value won"); return }
        #expect(String(decoding: object.sortedCompactBytes, as: UTF8.self) == #"{"a":3,"b":2}"#)
    }

    @Test func refusesLoneSurrogatesAndInvalidUTF8() {
        for text in [#"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#] {
            #expect(IngestJSON.object(Array(text.utf8)) == nil && (try? IngestJSON.parse(Array(text.utf8))) == nil,
                    "\(text)")
        }
        #expect((try? IngestJSON.parse([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect((try? IngestJSON.parse([0x22, 0xFF, 0x22])) == nil)
        #expect((try? IngestJSON.parse(Array("\"é\"".utf8))) != nil)
    }

    @Test func readsTheNulEscapeAndReportsItInObjectText() throws {
        let object = try #require(IngestJSON.object(Array(#"{"a":"x\u0000y"}"#.utf8)))
        guard case .string(let text) = object["a"] else { Issue.record("not a string"); return }
        #expect(text == "x\u{0}y")
        #expect(object.holdsEscapedNul)
        #expect(try #require(IngestJSON.object(Array(#"{"a":"x\u0001y"}"#.utf8))).holdsEscapedNul == false)
    }

    @Test func nestingStopsAtTheLimit() {
        let depth = IngestJSON.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect((try? IngestJSON.parse(Array(deepest.utf8))) != nil)
        #expect((try? IngestJSON.parse(Array(tooDeep.utf8))) == nil)
    }
}
