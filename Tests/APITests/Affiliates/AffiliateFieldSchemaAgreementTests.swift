@testable import API
import Domain
import Foundation
import Testing

/// The field schemas of affiliate programs and bind (issue 15) against their parsers, on both sides of each edge: a
/// client generated from `/openapi.json` sends nothing the server refuses, and the server takes nothing the document
/// rules out.
@Suite struct AffiliateFieldSchemaAgreementTests {
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

    @Test func refCodes() {
        agree(ContractFields.refCode, { Self.ok(RefCode.parse($0)) }, [
            "ABC234", "abc234", " abc234 ", "\tABC234\n", "\r\nZZZZZZZZZZZZZZZZ", "llllll", "ABC23", "ABCDEI",
            "ABCDEO", "ABCDE1", "ABC 234", "", String(repeating: "Z", count: 17), "ÄBC234",
            String(repeating: " ", count: 58) + "ABC234", String(repeating: " ", count: 59) + "ABC234",
        ])
    }

    @Test func campaignFields() {
        agree(ContractFields.offerCode, { text in
            Self.ok(CampaignTerms.parse(name: "C", commission: CommissionRule(kind: .percent(basisPoints: 1)),
                                        windowDays: nil, holdDays: nil, offerCode: text))
        }, ["SPRING_50", "a-b", "", "a b", "a.b", String(repeating: "a", count: 64),
            String(repeating: "a", count: 65)])
        agree(ContractFields.affiliateName, { Self.ok(AffiliateDraft.name($0, field: "name")) }, [
            "Jane's blog", "Ж", "", "a\u{7}", "a\u{85}", String(repeating: "é", count: 200),
            String(repeating: "é", count: 201),
        ])
        agree(ContractFields.campaignId, { Self.ok(CampaignID.parse($0)) },
              ["3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f", "3C2B1A09-8F7E-4D6C-9B5A-4E3D2C1B0A9F", "3c2b1a09", ""])
    }

    @Test func signedClickIds() {
        let keys = PassKeys(currentKeyID: "k1") { _, message in Array(message.suffix(32)) }
        let click = SignedClickID.issue(ClickFacts(
            click: ClickID(UUID()), project: ProjectID(UUID()), affiliate: AffiliateID(UUID()),
            campaign: CampaignID(UUID()), source: .link, clickedAt: Date(), expiresAt: Date()), keys: keys)
        let longKey = PassKeys(currentKeyID: String(repeating: "k", count: 32)) { _, message in
            Array(message.suffix(32))
        }
        let longest = SignedClickID.issue(ClickFacts(
            click: ClickID(UUID()), project: ProjectID(UUID()), affiliate: AffiliateID(UUID()),
            campaign: CampaignID(UUID()), source: .link, clickedAt: Date(), expiresAt: Date()), keys: longKey)
        #expect(longest.count == SignedClickID.maxLength)
        agree(ContractFields.signedClickId, { Self.ok(SignedClickID.parse($0)) }, [
            click, longest, "", "c1", "v2" + click.dropFirst(2), click + ".x", String(click.dropLast()), click + "=",
            click.replacingOccurrences(of: ".k1.", with: ".k 1."),
        ])
    }
}
