import Domain
import Testing

/// String escapes as both JSON parsers read them (`JSONEscape`), seen through `EventJSON`: each escape's character,
/// surrogate pairs joined, and the refusals with the text and offset the parser reports.
@Suite struct JSONEscapeTests {
    @Test func everyEscapeReadsItsCharacter() throws {
        let text = #""\" \\ \/ \b \f \n \r \t \u00e9 \u20AC \ud83d\ude00""#
        #expect(try EventJSON.parse(text) == .string("\" \\ / \u{8} \u{C} \n \r \t é € 😀"))
    }

    @Test func refusalsNameTheRuleAndWhereItBroke() {
        let cases: [(String, String, Int)] = [
            (#""\x""#, "invalid escape", 3),
            (#""\u12""#, "short \\u escape", 3),
            (#""\u12G4""#, "invalid \\u escape", 3),
            (#""\ud800""#, "lone surrogate", 7),
            (#""\ud800\u0041""#, "lone surrogate", 13),
            (#""\udc00""#, "lone surrogate", 7),
            (#""\u0000""#, "\\u0000 is not allowed (Postgres text cannot hold it)", 7),
            (#""\"#, "unterminated string", 2),
        ]
        for (text, reason, offset) in cases {
            do {
                _ = try EventJSON.parse(text)
                Issue.record("\(text) parsed")
            } catch let error as EventJSON.ParseError {
                #expect(error.reason == reason && error.offset == offset, "\(text): \(error)")
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    @Test func theReaderAnswersTheCodePointAndItsUTF8() throws {
        var index = 1
        var out: [UInt8] = []
        let bytes = Array(#"\ud83d\ude00"#.utf8)
        #expect(try JSONEscape.read(bytes, at: &index, into: &out) == 0x1F600)
        #expect(index == bytes.count)
        #expect(out == Array("😀".utf8))
    }
}
