import Crypto
import Foundation
import Testing

struct SecureRandomTests {
    @Test(arguments: [0, 1, 16, 32, 1000])
    func randomBytesHaveTheRequestedLength(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test func twoCallsGiveDifferentBytes() {
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    @Test func uuidsAreVersion4WithTheRFCVariantAndNeverRepeat() {
        let ids = (0..<2000).map { _ in SecureRandom.uuid() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
        }
        // The other 122 bits are random: across 2 000 ids every one of them is seen both set and clear.
        var seenSet = [Bool](repeating: false, count: 128), seenClear = [Bool](repeating: false, count: 128)
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 {
                    if bytes[bit / 8] >> (7 - bit % 8) & 1 == 1 { seenSet[bit] = true } else { seenClear[bit] = true }
                }
            }
        }
        let fixed = Set([48, 49, 50, 51, 64, 65])   // the version nibble and the two variant bits
        #expect((0..<128).filter { !fixed.contains($0) && !(seenSet[$0] && seenClear[$0]) } == [])
        #expect(fixed.allSatisfy { !(seenSet[$0] && seenClear[$0]) })
    }
}
