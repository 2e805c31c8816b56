import Foundation
import Service
import Testing

/// `APPLE_ROOT_CERTIFICATES` (issue 14): the built-in Apple root by default, files when set, a clear refusal else.
@Suite struct StoreConfigurationTests {
    /// `Tests/Fixtures/apple/certs/<name>`, found above this file.
    private static func fixture(_ name: String) -> String {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let path = folder.appendingPathComponent("Tests/Fixtures/apple/certs/" + name).path
            if FileManager.default.fileExists(atPath: path) { return path }
            folder.deleteLastPathComponent()
        }
        fatalError("Tests/Fixtures/apple not found above \(#filePath)")
    }

    @Test func theDefaultRootIsAppleRootCAG3() throws {
        let roots = try Configuration(environment: [:]).appleTrustRoots.certificates
        #expect(roots.count == 1)
        #expect(roots.first?.der.count == 583)
    }

    @Test func filesAreReadInOrder() throws {
        let configuration = try Configuration(environment: [
            "APPLE_ROOT_CERTIFICATES": " \(Self.fixture("testCA.pem")) , \(Self.fixture("AppleRootCA-G3.der"))",
        ])
        #expect(configuration.appleTrustRoots.certificates.map(\.der.count) == [390, 583])
    }

    @Test(arguments: ["/nonexistent/root.pem", ",", fixture("testCA.key")])
    func aBadValueIsRefusedNamingTheVariable(value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration(environment: ["APPLE_ROOT_CERTIFICATES": value])
        }
        #expect(error?.variable == "APPLE_ROOT_CERTIFICATES")
    }
}
