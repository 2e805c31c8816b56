import Domain
import Testing

struct KeyCreationTests {
    @Test func aKeyIsIssuedForAnExistingProject() {
        #expect(KeyCreation.decide(projectExists: true) == .success(.create))
    }

    @Test func aKeyForAnUnknownProjectIsNotFound() {
        #expect(KeyCreation.decide(projectExists: false) == .failure(Refusal(
            kind: .notFound, code: .notFound, field: "project", message: "no project has this id")))
    }
}
