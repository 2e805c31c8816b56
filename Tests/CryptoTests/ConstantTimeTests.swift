import Crypto
import Testing

struct ConstantTimeTests {
    @Test func equalBytesCompareEqual() {
        #expect(ConstantTime.equals([1, 2, 3, 4], [1, 2, 3, 4]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func bytesDifferingAnywhereCompareUnequal() {
        #expect(!ConstantTime.equals([1, 2, 3, 4], [0, 2, 3, 4]))
        #expect(!ConstantTime.equals([1, 2, 3, 4], [1, 2, 3, 5]))
    }

    @Test func inputsOfDifferentLengthsCompareUnequal() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 3, 4]))
        #expect(!ConstantTime.equals([], [0]))
    }
}
