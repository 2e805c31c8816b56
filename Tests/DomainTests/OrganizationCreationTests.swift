import Domain
import Testing

struct OrganizationCreationTests {
    static func refusedName() -> Result<String, Refusal> {
        .failure(Refusal(FieldRefusal(field: "--name", code: .projectNameFormat,
                                      rule: "be 1 to 200 characters without control characters")))
    }

    @Test func aPlainNameIsTheOrganizationsName() {
        #expect(OrganizationCreation.decide(name: "Acme Games") == .success("Acme Games"))
    }

    @Test func anEmptyNameIsRefusedNamingTheFlag() {
        #expect(OrganizationCreation.decide(name: "") == Self.refusedName())
    }

    @Test func aNameWithAControlCharacterIsRefused() {
        #expect(OrganizationCreation.decide(name: "Acme\u{7}") == Self.refusedName())
    }

    @Test func aNameOf200CharactersIsTakenAndOf201Refused() {
        #expect(OrganizationCreation.decide(name: String(repeating: "a", count: 200))
            == .success(String(repeating: "a", count: 200)))
        #expect(OrganizationCreation.decide(name: String(repeating: "a", count: 201)) == Self.refusedName())
    }
}
