import Domain
import Testing

/// `externalId` and `email` of `POST /s2s/v1/users`.
struct BuyerInputTests {
    @Test(arguments: ["u", "user-42", "auth0|5f1c", "Ünïcødé id", String(repeating: "é", count: 256), "a b"])
    func anExternalIdOfOneTo256PrintableCharactersIsKeptExactly(text: String) throws {
        #expect(try ExternalID.parse(text).get().text == text)
    }

    @Test(arguments: ["", " a", "a ", "a\nb", "a\tb", "a\u{0}b", "a\u{200B}b", String(repeating: "x", count: 257)])
    func anExternalIdOutsideTheRuleIsRefusedNamingTheField(text: String) {
        #expect(ExternalID.parse(text) == .failure(FieldRefusal(
            field: "externalId", code: .externalIDFormat,
            rule: "be 1–256 printable characters without leading or trailing spaces")))
    }

    @Test(arguments: ["a@b.co", "Buyer+tag@Example.COM", "ü@bücher.de", "x@sub.domain.example"])
    func aPlausibleEmailIsKeptAsGiven(text: String) throws {
        #expect(try EmailAddress.parse(text).get().text == text)
    }

    @Test(arguments: ["", "plain", "@b.co", "a@", "a@b", "a@b.", "a@.b", "a@@b.co", "a@b@c.co", "a b@c.co",
                      "a@b.co\r\nBcc: x@y.z", "a@b.co\n", String(repeating: "a", count: 65) + "@b.co",
                      String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 186) + ".com"])
    func anImplausibleEmailIsRefusedNamingTheField(text: String) {
        #expect(EmailAddress.parse(text) == .failure(FieldRefusal(
            field: "email", code: .emailFormat, rule: "be an e-mail address of at most 254 characters")))
    }

    @Test func anEmailNeverPrintsItself() throws {
        #expect("\(try EmailAddress.parse("secret@example.com").get())" == "<e-mail>")
    }
}
