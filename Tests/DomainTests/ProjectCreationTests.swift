import Domain
import Testing

struct ProjectCreationTests {
    @Test func aProjectIsCreatedInAnExistingOrganization() {
        #expect(ProjectCreation.decide(organizationExists: true) == .success(.create))
    }

    @Test func aProjectInAnUnknownOrganizationIsNotFound() {
        #expect(ProjectCreation.decide(organizationExists: false) == .failure(Refusal(
            kind: .notFound, code: .notFound, field: "org", message: "no organization has this id")))
    }
}
