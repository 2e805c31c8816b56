import Domain
import Foundation
import Service
import Testing

/// `FORWARD_ALLOWED_NETWORKS`, `FORWARD_CA_FILE`, `SMTP_CA_FILE` (issue 14).
@Suite struct ForwardConfigurationTests {
    @Test func forwardsReachPublicAddressesOnlyAndTrustTheSystemsCAsByDefault() throws {
        let defaults = try Configuration(environment: [:])
        #expect(defaults.forwardAllowedNetworks == .none)
        #expect(defaults.forwardCAFile == nil && defaults.smtpCAFile == nil)
    }

    @Test func theAllowListAndTheCAFilesAreRead() throws {
        let file = NSTemporaryDirectory() + "/ca-\(UUID().uuidString).pem"
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let set = try Configuration(environment: [
            "FORWARD_ALLOWED_NETWORKS": "127.0.0.0/8, fd00::/8", "FORWARD_CA_FILE": file, "SMTP_CA_FILE": file,
        ])
        #expect(set.forwardAllowedNetworks.blocks.map(\.description) == ["127.0.0.0/8", "fd00::/8"])
        #expect(set.forwardCAFile == file && set.smtpCAFile == file)
    }

    @Test(arguments: [
        ("FORWARD_ALLOWED_NETWORKS", "10.0.0.1/8"), ("FORWARD_ALLOWED_NETWORKS", "localhost"),
        ("FORWARD_ALLOWED_NETWORKS", "127.1/32"), ("FORWARD_CA_FILE", "/nonexistent/ca.pem"),
        ("SMTP_CA_FILE", "/nonexistent/ca.pem"),
    ])
    func aBadValueIsRefusedNamingItsVariable(variable: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) { try Configuration(environment: [variable: value]) }
        #expect(error?.variable == variable)
    }
}
