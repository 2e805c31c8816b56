import Domain
import Foundation
import Testing

struct PaywallBuyerRuleTests {
    static let idText = "11111111-1111-4111-8111-111111111111"
    static let idGuid = try! BuyerGuid.parse(idText).get()
    static let passGuid = try! BuyerGuid.parse("22222222-2222-4222-8222-222222222222").get()
    static let valid = PassVerification.valid(PassClaims(
        guid: passGuid, projectID: try! ProjectID.parse("33333333-3333-4333-8333-333333333333").get(),
        expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))

    typealias Decide = PaywallBuyerRule

    @Test func appOriginWithAnIDNamesThatBuyer() {
        #expect(Decide.decide(origin: "app", id: Self.idText, passResult: nil) == .buyer(Self.idGuid, source: .id))
    }

    @Test func appOriginWithAnIDWinsOverAValidPass() {
        #expect(Decide.decide(origin: "app", id: Self.idText, passResult: Self.valid)
            == .buyer(Self.idGuid, source: .id))
    }

    @Test func appOriginWithAnIDWinsOverAnInvalidPass() {
        #expect(Decide.decide(origin: "app", id: Self.idText, passResult: .invalid(.tampered))
            == .buyer(Self.idGuid, source: .id))
    }

    @Test func anIDIsTakenExactlySoAnUppercaseIDIsAnotherBuyer() throws {
        let lower = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
        let upper = try BuyerGuid.parse(lower.uppercased()).get()
        #expect(Decide.decide(origin: "app", id: lower.uppercased(), passResult: nil) == .buyer(upper, source: .id))
        let lowerGuid = try BuyerGuid.parse(lower).get()
        #expect(upper.description == lower.uppercased() && upper != lowerGuid)
    }

    @Test(arguments: ["abc123def456", "9f3c6a2b1d4e5f60", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B"])
    func anOpaqueDeviceIDFromTheAppNamesThatBuyerExactly(id: String) throws {
        #expect(Decide.decide(origin: "app", id: id, passResult: Self.valid)
            == .buyer(try BuyerGuid.parse(id).get(), source: .id))
    }

    @Test func aValidPassWithoutAnIDNamesThePassGuid() {
        #expect(Decide.decide(origin: nil, id: nil, passResult: Self.valid) == .buyer(Self.passGuid, source: .pass))
        #expect(Decide.decide(origin: "app", id: nil, passResult: Self.valid) == .buyer(Self.passGuid, source: .pass))
    }

    @Test func anEmptyIDWithAppOriginFallsBackToThePass() {
        #expect(Decide.decide(origin: "app", id: "", passResult: Self.valid) == .buyer(Self.passGuid, source: .pass))
    }

    @Test(arguments: [nil, "", "web", "App", "APP", " app"] as [String?])
    func anIDWithoutAppOriginIsIgnoredInFavourOfThePass(origin: String?) {
        #expect(Decide.decide(origin: origin, id: Self.idText, passResult: Self.valid)
            == .buyer(Self.passGuid, source: .pass))
    }

    @Test(arguments: [nil, "web"] as [String?])
    func anIDWithoutAppOriginAndWithoutAPassIsNotFound(origin: String?) {
        #expect(Decide.decide(origin: origin, id: Self.idText, passResult: nil) == .notFound)
    }

    @Test func nothingAtAllIsNotFound() {
        #expect(Decide.decide(origin: nil, id: nil, passResult: nil) == .notFound)
        #expect(Decide.decide(origin: "app", id: nil, passResult: nil) == .notFound)
    }

    @Test(arguments: [PassInvalidReason.tampered, .expired, .unknownKey, .malformed])
    func anUnusablePassWithoutAnIDIsNotFound(reason: PassInvalidReason) {
        #expect(Decide.decide(origin: nil, id: nil, passResult: .invalid(reason)) == .notFound)
        #expect(Decide.decide(origin: "app", id: "", passResult: .invalid(reason)) == .notFound)
        #expect(Decide.decide(origin: "web", id: Self.idText, passResult: .invalid(reason)) == .notFound)
    }

    @Test func aMalformedIDFromTheAppIsRefusedNamingIDEvenWithAValidPass() {
        #expect(Decide.decide(origin: "app", id: "device 1", passResult: Self.valid) == .refused(FieldRefusal(
            field: "id", code: .guidFormat, rule: "be 1–64 characters from A-Z a-z 0-9 . _ : -")))
    }

    @Test func aMalformedIDWithoutAppOriginIsIgnored() {
        #expect(Decide.decide(origin: "web", id: "device 1", passResult: Self.valid)
            == .buyer(Self.passGuid, source: .pass))
    }

    @Test func theSourceNamesAreTheAnswersWords() {
        #expect(PaywallBuyerSource.id.rawValue == "id" && PaywallBuyerSource.pass.rawValue == "pass")
    }
}
