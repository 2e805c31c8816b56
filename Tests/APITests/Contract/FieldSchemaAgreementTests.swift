@testable import API
import Domain
import Foundation
import Testing

/// Each field schema of `/openapi.json` against the parser the server runs: for values on both sides of every edge,
/// the schema accepts exactly what the parser accepts (so a client generated from the document sends nothing the
/// server refuses, and the server takes nothing the document rules out).
@Suite struct FieldSchemaAgreementTests {
    let check = SchemaCheck()

    private func agree(_ schema: JSONSchema, _ parser: (String) -> Bool, _ values: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let json = (try? JSONSerialization.jsonObject(with: Data(schema.json.bytes))) ?? [:]
        for value in values {
            #expect(check.accepts(value, json) == parser(value), "\(value.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    private static func ok<T>(_ result: Result<T, FieldRefusal>) -> Bool {
        if case .success = result { true } else { false }
    }

    @Test func guid() {
        agree(ContractFields.guid, { Self.ok(BuyerGuid.parse($0)) }, [
            "abc123def456", "a", "-_:.", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "",
            "a b", "a/b", "é", "0", "00-00", "0.0", "000000000000000a", "0000000000000001", "null", "NULL", "Nil",
            "undefined", "nullx", ".", "..", "...", "a.", "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-ffff-ffff-fffffffffffe",
            "00000000-0000-0000-0000-000000000000", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B", "abc\n",
        ])
    }

    @Test func externalIdAndEmail() {
        agree(ContractFields.externalId, { Self.ok(ExternalID.parse($0)) }, [
            "a", "user-42", " a", "a ", "a b", "", "\t", "a\tb", "a\u{A0}b", "a\u{200B}b", "a\u{202E}b", "a\u{7F}",
            "é", "\u{1F600}", String(repeating: "é", count: 256), String(repeating: "a", count: 257),
            String(repeating: "\u{1F600}", count: 256), "a\u{2028}", "a\n",
        ])
        agree(ContractFields.email, { Self.ok(EmailAddress.parse($0)) }, [
            "a@b.c", "buyer@example.com", "a@b", "a@@b.c", "@b.c", "a@.b", "a@b.", "a@b..c", "a b@c.d", "é@ü.de",
            String(repeating: "a", count: 64) + "@b.c", String(repeating: "a", count: 65) + "@b.c",
            "a@" + String(repeating: "b", count: 248) + ".c", "a@" + String(repeating: "b", count: 249) + ".c",
            "\u{1F600}@x.io", "a\u{200B}@b.c", "a@b.c\n", "a.b+c@d.e",
        ])
    }

    @Test func paymentFields() {
        let catalog = { (text: String) in Self.ok(PaymentFields.catalogID(text, field: "x", code: .productIDFormat)) }
        for schema in [ContractFields.paymentId, ContractFields.catalogId] {
            agree(schema, catalog, ["a", "pi_3Nq8", "", String(repeating: "a", count: 128),
                                    String(repeating: "a", count: 129), "a/b", "a b", "GPA.1234-5678"])
        }
        agree(ContractFields.currency, { Self.ok(PaymentFields.currency($0)) }, ["EUR", "eur", "EU", "EURO", "E1R"])
    }

    @Test func expiresAtAtEveryEdge() {
        let parses = { (text: String) in RFC3339.parse(text) != nil }
        agree(ContractFields.expiresAt, parses, [
            "1970-01-01T00:00:00Z", "1970-01-01T00:00:00+00:00", "1970-01-01T00:00:00-00:00",
            "1970-01-01T00:00:00+01:00", "1970-01-01T05:00:00+01:00", "1970-01-01T05:00:00-01:00",
            "1970-01-02T00:00:00+23:59", "1969-12-31T23:59:59Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59+01:00",
            "9999-12-31T00:00:00-00:01", "9999-12-31T00:00:00-00:00", "9999-12-30T23:59:59-23:59",
            "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
            "1972-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-12-31T23:59:59Z", "2024-13-01T00:00:00Z",
            "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z",
            "2024-01-01T23:59:60Z", "2024-01-01t00:00:00z", "2024-01-01T00:00:00.1Z", "2024-01-01T00:00:00.123456789Z",
            "2024-01-01T00:00:00.1234567891Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:00+01", "2024-01-01T00:00:00+24:00", "2024-01-01T00:00:00+23:60",
            "2024-01-01T00:00:00+23:59", "2024-1-01T00:00:00Z", "2024-01-01 00:00:00Z", "+2024-01-01T00:00:00Z",
            "2024-01-01T00:00Z", "2024-01-01T00:00:00", "2024-01-01T00:00:00Z\n", "0000-01-01T00:00:00Z",
        ])
        // Every day of the edge years and of a leap century, at both edges of the day and with both offsets.
        var values: [String] = []
        for year in [1970, 1971, 1972, 2000, 2100, 9998, 9999] {
            for month in 1...12 {
                for day in [1, 28, 29, 30, 31] {
                    let date = String(format: "%04d-%02d-%02d", year, month, day)
                    values += ["\(date)T00:00:00+00:01", "\(date)T23:59:59-00:01", "\(date)T12:00:00Z"]
                }
            }
        }
        agree(ContractFields.expiresAt, parses, values)
    }

    @Test func theInstantIsTheRFC3339One() {
        #expect(RFC3339.parse("1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(RFC3339.parse("2024-02-29T12:34:56.789+05:30")?.timeIntervalSince1970 == 1_709_190_296.789)
        #expect(RFC3339.parse("2024-01-01T00:00:00.1239Z")?.timeIntervalSince1970 == 1_704_067_200.123)
        #expect(RFC3339.parse("9999-12-31T23:59:59.999999999Z")?.timeIntervalSince1970 == 253_402_300_799.999)
    }

    @Test func urlsAndProjectSettings() {
        let url = { (text: String) in Self.ok(PaywallURL.parse(text)) }
        agree(ContractFields.url, url, [
            "https://a", "https://pay.example.com/checkout?x=1&y=%2F#top", "HTTPS://A.B", "http://localhost",
            "HTTP://LOCALHOST:8080/x", "http://127.0.0.1:3000", "http://[::1]/p", "https://[::1]",
            "http://example.com",
            "https://user@host", "https://a b", "https://a/%zz", "https://a/%41", "https://a:65535", "https://a:65536",
            "https://a:", "ftp://a", "https://", "https://a/#f#g", "https://é.com", "https://a/é", "https://a/\"",
            "https://a/<", "https://a/[x]", "https://a/a|b", "https://a/'()*+,;=:@!$&~", "https://a.b.c-d_e",
            "https://a..b", "https://a/\n", "https://" + String(repeating: "a", count: 2040),
            "https://" + String(repeating: "a", count: 2041),
        ])
        agree(ContractFields.returnScheme, { Self.ok(ReturnScheme.parse($0)) }, [
            "myapp", "MyApp", "a+b.c-d", "https", "HTTPS", "javascript", "JavaScript", "1app", "", "a_b",
            String(repeating: "a", count: 64), String(repeating: "a", count: 65), "httpsx",
        ])
        agree(ContractFields.androidPackage, { Self.ok(AndroidPackage.parse($0)) }, [
            "com.example.app", "a.b", "a", "a.", ".a", "a..b", "a.1b", "a.b_1", "a.b-c", "A.B",
            "a." + String(repeating: "b", count: 253), "a." + String(repeating: "b", count: 254),
        ])
        agree(ContractFields.iosBundleId, { Self.ok(IOSBundleID.parse($0)) }, [
            "com.example.App", "a", "a-b", "", "a.", ".a", "a..b", "a_b", "a b",
            String(repeating: "a", count: 255), String(repeating: "a", count: 256),
        ])
        let name = { (text: String) in
            Self.ok(ProjectSettings(name: "x").applying({ var c = ProjectSettingsChange(); c.name = .set(text)
                return c }()))
        }
        agree(ContractFields.projectName, name, [
            "a", "My app", "", "a\u{7}", "a\u{85}", "\u{200B}", String(repeating: "é", count: 200),
            String(repeating: "a", count: 201), String(repeating: "\u{1F600}", count: 200), "a\n",
        ])
    }

    @Test func theAdjustLinkRuleOfThePatchBody() throws {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(ProjectOperations.patchBody.json.bytes))
            as? [String: Any])
        let branches = try #require(body["oneOf"] as? [[String: Any]])
        let adjust = try #require(branches.last?["properties"] as? [String: Any])["trackerLink"]
        let parses = { (text: String) in Self.ok(TrackerLink.parse(text, tracker: .adjust)) }
        for link in ["https://app.adjust.com/abc", "https://x.go.link/h", "https://x.go.link/h?adj_t=abc",
                     "https://GO.LINK?adj_t=1", "https://x.adj.st/?a=1&adj_t=", "https://x.adj.st/?a=1&adj_t=2#f",
                     "https://go.linkx.com/h", "https://x.go.link:8080/h?adj_t=abc", "https://x.go.link#adj_t=1",
                     "https://x.go.link/h?xadj_t=1"] {
            #expect(check.accepts(link, adjust ?? [:]) == parses(link), "\(link)")
        }
    }

    @Test func fingerprintFieldsCodesAndTokens() {
        agree(ContractFields.screen, { Self.ok(ScreenSize.parse($0)) }, [
            "393x852", "1x1", "20000x20000", "20001x1", "19999x9", "01x1", "0x1", "1x", "x1", "1X1", "1x1x1",
            "99999x1", "1 x1",
        ])
        agree(ContractFields.timezone, { Self.ok(FingerprintFields.timezone($0)) },
              ["Europe/Berlin", "Etc/GMT+3", "", "a b", String(repeating: "a", count: 65), "Ü"])
        agree(ContractFields.language, { Self.ok(FingerprintFields.language($0)) },
              ["ru-RU", "zh_Hant", "", "en US", String(repeating: "a", count: 36)])
        agree(ContractFields.osVersion, { Self.ok(FingerprintFields.osVersion($0)) },
              ["17.4.1", "\"\\", "", "1 2", String(repeating: "1", count: 33), "é"])
        agree(ContractFields.bundleId, { Self.ok(FingerprintFields.bundleID($0)) },
              ["com.a.b", "a_b-c", "", "a b", String(repeating: "a", count: 256)])
        agree(ContractFields.code, { HandoffCode.parse($0) != nil },
              ["K7M2Q9XB", "K7M2Q9X", "K7M2Q9XBB", "k7m2q9xb", "K7M2Q9X1", "K7M2Q9XO", "K7M2Q9XI"])
        agree(ContractFields.pageToken, PageTokenText.isWellFormed,
              [String(repeating: "A", count: 32), String(repeating: "_", count: 31) + "-",
               String(repeating: "A", count: 31), String(repeating: "A", count: 33),
               String(repeating: "=", count: 32)])
    }
}
