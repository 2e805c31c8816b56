import Domain
import Testing

struct KeyRevocationTests {
    @Test func aPrefixWithoutALiveKeyIsNotFound() {
        #expect(KeyRevocation.decide(liveKeyHashes: []) == .failure(Refusal(
            kind: .notFound, code: .notFound, field: "prefix",
            message: "the project has no live key with this prefix")))
    }

    @Test func everyLiveKeyWithThePrefixIsRevokedInTheGivenOrder() {
        #expect(KeyRevocation.decide(liveKeyHashes: ["bb", "aa", "cc"]) == .success(["bb", "aa", "cc"]))
    }
}
