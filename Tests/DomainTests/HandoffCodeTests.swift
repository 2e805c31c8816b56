@testable import Domain
import Domain
import Foundation
import Testing

struct HandoffCodeTests {
    @Test func theAlphabetHas32DistinctSymbolsWithoutLookAlikes() {
        #expect(Set(CodeAlphabet.symbols).count == 32)
        #expect(!CodeAlphabet.symbols.contains { "01IOilo".utf8.contains($0) })
    }

    @Test func fiveRandomBytesMakeEightCharactersUsingFiveBitsEach() {
        #expect(HandoffCode(randomBytes: [0, 0, 0, 0, 0]).text == "22222222")
        #expect(HandoffCode(randomBytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).text == "ZZZZZZZZ")
        #expect(HandoffCode(randomBytes: [0x00, 0x44, 0x32, 0x14, 0xC7]).text == "23456789")
        #expect(InstallToken(randomBytes: [0x08, 0x42, 0x10, 0x84, 0x21]).text == "33333333")
    }

    @Test func everySymbolAppearsEquallyOftenAtEveryPositionOverAllValuesOfAByte() {
        for shift in stride(from: 0, to: 40, by: 5) {
            var counts = [String.Element: Int]()
            for value in 0..<32 {
                let number = UInt64(value) << UInt64(shift)
                let bytes = (0..<5).map { UInt8(truncatingIfNeeded: number >> UInt64(32 - 8 * $0)) }
                let text = HandoffCode(randomBytes: bytes).text
                counts[text[text.index(text.startIndex, offsetBy: 7 - shift / 5)], default: 0] += 1
            }
            #expect(counts.count == 32 && counts.values.allSatisfy { $0 == 1 }, "shift \(shift)")
        }
    }

    @Test func aCodeParsesBackToItself() {
        let code = HandoffCode(randomBytes: [0x12, 0x34, 0x56, 0x78, 0x9A])
        #expect(HandoffCode.parse(code.text) == code)
        #expect(InstallToken.parse("ABCD2345")?.text == "ABCD2345")
    }

    @Test(arguments: ["abcd2345", "ABCD234", "ABCD23456", "ABCD 2345", " ABCD2345", "ABCD0345", "ABCD1345",
                      "ABCDO345", "ABCDI345", "", "ABCD-345"])
    func anythingButEightUppercaseAlphabetCharactersIsNotACode(text: String) {
        #expect(HandoffCode.parse(text) == nil)
        #expect(InstallToken.parse(text) == nil)
    }

    @Test func aHandoffCodeLives72HoursAndAnInstallToken30Days() {
        let minted = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(HandoffCode.expiry(mintedAt: minted) == Date(timeIntervalSince1970: 1_700_000_000 + 259_200))
        #expect(InstallToken.expiry(mintedAt: minted) == Date(timeIntervalSince1970: 1_700_000_000 + 2_592_000))
    }
}
