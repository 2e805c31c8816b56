import Crypto
import Foundation

/// The root certificates App Store signatures must chain up to (`APPLE_ROOT_CERTIFICATES`).
///
/// By default exactly Apple Root CA - G3, built into the binary. Tests and staging point the setting at other roots
/// (the test root of `Tests/Fixtures/apple`); production never needs to set it.
public struct AppleTrustRoots: Sendable {
    /// The roots, in the order configured.
    public let certificates: [X509Certificate]

    /// Roots from certificates already parsed.
    public init(certificates: [X509Certificate]) {
        self.certificates = certificates
    }

    /// Apple Root CA - G3 alone: the default.
    public static let appleRootCAG3: AppleTrustRoots = {
        guard let root = X509Certificate(der: appleRootCAG3DER) else {
            fatalError("the built-in Apple Root CA - G3 does not parse")
        }
        return AppleTrustRoots(certificates: [root])
    }()

    /// The certificates in the files at `paths`, each PEM (one or more certificates) or DER (one); throws naming
    /// the first file that cannot be read or holds no certificate. Empty `paths` give `appleRootCAG3`.
    public static func load(paths: [String]) throws(AppleTrustRootsError) -> AppleTrustRoots {
        guard !paths.isEmpty else { return appleRootCAG3 }
        var certificates: [X509Certificate] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw AppleTrustRootsError(path: path, problem: "cannot be read")
            }
            let found = X509Certificate.certificates(fileContents: [UInt8](data))
            guard !found.isEmpty else {
                throw AppleTrustRootsError(path: path, problem: "holds no PEM or DER certificate")
            }
            certificates += found
        }
        return AppleTrustRoots(certificates: certificates)
    }
}

/// A root certificate file that could not be used.
public struct AppleTrustRootsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as configured.
    public let path: String
    /// What is wrong with it (`cannot be read`, `holds no PEM or DER certificate`).
    public let problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path) \(problem)" }
}
