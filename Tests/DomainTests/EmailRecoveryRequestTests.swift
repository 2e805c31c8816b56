import Domain
import Testing

struct EmailRecoveryRequestTests {
    static let org = OrgID(randomBytes: [UInt8](repeating: 1, count: 16))

    @Test func aRequestNamingAKnownProjectGoesToItsOrganizationsLog() {
        #expect(EmailRecoveryRequest.decide(projectOrg: Self.org, addressErased: false)
            == EmailRecoveryRequest.Decision(log: .organization(Self.org), sealPlaceholder: false))
    }

    @Test func aRequestNamingAnUnknownProjectGoesToTheUnknownProjectLog() {
        #expect(EmailRecoveryRequest.decide(projectOrg: nil, addressErased: false)
            == EmailRecoveryRequest.Decision(log: .unknownProject, sealPlaceholder: false))
    }

    @Test func anErasedAddressIsSealedAsAPlaceholderInEitherLog() {
        #expect(EmailRecoveryRequest.decide(projectOrg: Self.org, addressErased: true)
            == EmailRecoveryRequest.Decision(log: .organization(Self.org), sealPlaceholder: true))
        #expect(EmailRecoveryRequest.decide(projectOrg: nil, addressErased: true)
            == EmailRecoveryRequest.Decision(log: .unknownProject, sealPlaceholder: true))
    }
}
