import Commands
import Crypto
import Foundation
import Testing
import TestSupport

/// The built-in Apple Root CA - G3 and `APPLE_ROOT_CERTIFICATES` files.
struct AppleTrustRootsTests {
    @Test func theBuiltInRootIsAppleRootCAG3() throws {
        let roots = AppleTrustRoots.appleRootCAG3.certificates
        try #require(roots.count == 1)
        #expect(Hex.encode(roots[0].sha256Fingerprint)
            == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(roots[0].der == AppleFixtures.certificateFile("AppleRootCA-G3.der"))
    }

    @Test func theBuiltInRootVerifiesTheRealAppleChain() {
        let leaf = X509Certificate(der: AppleFixtures.certificateFile("AppleStoreSigningLeaf.der"))!
        let wwdr = X509Certificate(der: AppleFixtures.certificateFile("AppleWWDRCA-G6.der"))!
        let store = X509TrustStore(roots: AppleTrustRoots.appleRootCAG3.certificates)
        guard case .valid(let chain) = store.verify(leaf: leaf, intermediates: [wwdr], at: leaf.notBefore! + 60) else {
            Issue.record("the real chain did not verify to the built-in root")
            return
        }
        #expect(chain.count == 3)
        #expect(chain[0].hasExtension(oid: AppleSignedDataVerifier.leafOID))
        #expect(chain[1].hasExtension(oid: AppleSignedDataVerifier.intermediateOID))
    }

    @Test func noFilesMeansTheBuiltInRoot() throws {
        #expect(try AppleTrustRoots.load(paths: []).certificates == AppleTrustRoots.appleRootCAG3.certificates)
    }

    @Test func pemAndDERFilesAreRead() throws {
        let roots = try AppleTrustRoots.load(paths: [AppleFixtures.certificatePath("testCA.pem"),
                                                     AppleFixtures.certificatePath("AppleRootCA-G3.der")])
        #expect(roots.certificates.count == 2)
        let verifier = AppleSignedDataVerifier(trustRoots: roots)
        #expect(verifier.verifyNotification(signedPayload: AppleFixtures.signedData("testNotification"),
                                            bundleId: "com.example", appAppleId: 1234, now: AppleVerifiers.now)
            .value != nil)
    }

    @Test func aMissingFileOrAFileWithoutCertificatesIsNamed() {
        #expect(throws: AppleTrustRootsError(path: "/nonexistent/root.pem", problem: "cannot be read")) {
            try AppleTrustRoots.load(paths: ["/nonexistent/root.pem"])
        }
        let key = AppleFixtures.certificatePath("testCA.key")
        #expect(throws: AppleTrustRootsError(path: key, problem: "holds no PEM or DER certificate")) {
            try AppleTrustRoots.load(paths: [AppleFixtures.certificatePath("testCA.der"), key])
        }
    }
}
