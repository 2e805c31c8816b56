import Foundation

/// Apple's signing fixtures in `Tests/Fixtures/apple` (see its README), found by walking up from this file: the
/// fixtures are copied into the repository (`Tests/Fixtures/apple`, from the workplace's `shared/fixtures/apple`) so a
/// clean clone anywhere finds them.
public enum AppleFixtures {
    /// The fixture folder `…/Tests/Fixtures/apple`.
    public static let directory: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Tests/Fixtures/apple")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("README.md").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        fatalError("Tests/Fixtures/apple not found above \(#filePath)")
    }()

    /// The bytes of `certs/<name>`.
    public static func certificateFile(_ name: String) -> [UInt8] {
        bytes("certs/" + name)
    }

    /// The text of `certs/<name>` (PEM certificates and keys).
    public static func certificateText(_ name: String) -> String {
        String(decoding: bytes("certs/" + name), as: UTF8.self)
    }

    /// The text of `mock_signed_data/<name>`, without the trailing newline.
    public static func signedData(_ name: String) -> String {
        String(decoding: bytes("mock_signed_data/" + name), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func bytes(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(path).path) else {
            fatalError("cannot read fixture \(path)")
        }
        return [UInt8](data)
    }
}

extension AppleFixtures {
    /// The path of `certs/<name>`, for settings that take files.
    public static func certificatePath(_ name: String) -> String {
        directory.appendingPathComponent("certs/" + name).path
    }
}
