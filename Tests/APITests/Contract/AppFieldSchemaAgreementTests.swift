@testable import API
import Domain
import Foundation
import Testing

/// The field schemas of apps (issue 14) against their parsers, on both sides of each edge: a client generated from
/// `/openapi.json` sends nothing the server refuses, and the server takes nothing the document rules out.
@Suite struct AppFieldSchemaAgreementTests {
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

    @Test func forwardURL() {
        agree(ContractFields.forwardUrl, { Self.ok(AppForwardURL.validate($0)) }, [
            "https://a", "http://a", "HTTP://A.B:8080/x?y=1", "https://[2001:db8::1]:443/p", "https://a/%41",
            "https://a/%zz", "https://u@a", "https://a/#f", "https://a/?q=#", "ftp://a", "https://", "https://a b",
            "https://a/é", "https://a:65535", "https://a:65536", "https://a:0", "https://a:01", "https://a..b",
            "https://a/\n", "http://a/\"",
            "https://[ab.cd]/", "https://[::1]", "https://[a:b]:80/x",
            "https://" + String(repeating: "a", count: 2040), "https://" + String(repeating: "a", count: 2041),
            "https://" + String(repeating: "a", count: 63), "https://" + String(repeating: "a", count: 64) + ".b",
            // The host at most 253 characters (the pattern's lookahead), whatever follows it.
            "https://" + Self.host(253), "https://" + Self.host(254), "https://" + Self.host(253) + ":8080/x",
            "https://" + Self.host(254) + "/x", "HTtpS://" + Self.host(277) + "/%3F", "https://" + Self.host(253) + "?q",
        ])
    }

    /// A host name of `count` characters: labels of 63 letters or fewer, separated by dots.
    private static func host(_ count: Int) -> String {
        var labels: [String] = []
        var left = count
        while left > 0 {
            let length = min(63, left)
            labels.append(String(repeating: "a", count: length))
            left -= length + 1
        }
        let host = labels.joined(separator: ".")
        precondition(host.count == count, "no host of \(count) characters in labels of 63")
        return host
    }

    @Test func secrets() {
        agree(ContractFields.revenuecatSecret, { Self.ok(AppSecretKind.revenuecatSecret.parse($0, field: "s")) }, [
            "a", "Bearer abc", " a", "a ", "a  b", "a\tb", "é", "\"\\", String(repeating: "a", count: 512),
            String(repeating: "a", count: 513), "", "a\u{7F}",
        ])
        for schema in [ContractFields.googlePushAudience, ContractFields.destinationSecret] {
            agree(schema, { Self.ok(SecretText.token.parse($0, field: "s")) }, [
                "a", "a b", "\"\\~!", "é", "", String(repeating: "a", count: 512), String(repeating: "a", count: 513),
            ])
        }
    }

    @Test func bundleIdsAndPlatforms() {
        agree(ContractFields.iosBundleId, { Self.ok(AppFields.bundleID($0, platform: .ios)) },
              ["com.example.App", "a", "a-b", "a_b", "a..b", "", String(repeating: "a", count: 256)])
        agree(ContractFields.androidPackage, { Self.ok(AppFields.bundleID($0, platform: .android)) },
              ["com.example.app", "a", "a.b", "a.1b", "A.B_c", "a-b.c", "a." + String(repeating: "b", count: 254)])
        agree(ContractFields.appPlatform, { Self.ok(AppFields.platform($0)) }, ["ios", "android", "iOS", "web", ""])
        agree(ContractFields.destinationScheme, { Self.ok(DestinationScheme.parse($0)) },
              ["x3", "attribloom", "X3", ""])
        agree(ContractFields.appId, { Self.ok(AppID.parse($0)) },
              ["6f1c2e3a-9b4d-4e5f-8a7b-0c1d2e3f4a5b", "6F1C2E3A-9B4D-4E5F-8A7B-0C1D2E3F4A5B", "6f1c2e3a", ""])
    }

    @Test func serviceAccountKeyMembers() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(ContractFields.serviceAccountKey.json
            .bytes)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(GoogleServiceAccountKey.members))
        #expect(Set(schema["required"] as? [String] ?? []) == Set(GoogleServiceAccountKey.requiredMembers))
        let base = ["type": "service_account", "client_email": "sa@p.iam.gserviceaccount.com",
                    "private_key": "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n"]
        for (member, values) in [
            ("private_key", ["-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", "MIIB",
                             "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n",
                             "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n"]),
            ("token_uri", ["https://oauth2.googleapis.com/token", "http://127.0.0.1:9/t", "http://example.com/t"]),
            ("client_id", ["123", "a b", ""]), ("type", ["service_account", "user"]),
        ] {
            for value in values {
                let parsed = Self.ok(GoogleServiceAccountKey.parse(members: base.merging([member: value]) { $1 },
                                                                   field: "k"))
                #expect(check.accepts(value, properties[member] ?? [:]) == parsed, "\(member): \(value)")
            }
        }
    }

    @Test func storeToken() {
        let schema = JSONSchema.string(pattern: StoreToken.pattern, lengths: 32...32)
        agree(schema, { StoreToken.parse($0) != nil },
              [String(repeating: "A", count: 32), String(repeating: "-_", count: 16), String(repeating: "A", count: 31),
               String(repeating: "=", count: 32), String(repeating: "A", count: 33)])
    }
}
