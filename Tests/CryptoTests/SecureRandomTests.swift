import Crypto
import Testing

struct SecureRandomTests {
    @Test(arguments: [0, 1, 16, 32, 1000])
    func randomBytesHaveTheRequestedLength(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test func twoCallsGiveDifferentBytes() {
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}
