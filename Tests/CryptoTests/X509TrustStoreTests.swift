import Crypto
import Testing

/// Chain verification up to configured roots at a given instant, on Apple's test and real chains.
struct X509TrustStoreTests {
    /// 2024-01-01T00:00:00Z: inside the validity of every test certificate.
    private static let inside: Int64 = 1_704_067_200

    private let root = X509Certificate(der: AppleFixtures.certificateFile("testCA.der"))!
    private let intermediate =
        X509Certificate.certificates(pem: AppleFixtures.certificateText("testIntermediate.pem"))[0]
    private let leaf = X509Certificate.certificates(pem: AppleFixtures.certificateText("testLeaf.pem"))[0]
    private let appleRoot = X509Certificate(der: AppleFixtures.certificateFile("AppleRootCA-G3.der"))!

    private func failure(_ verification: X509ChainVerification) -> X509ChainFailure? {
        if case .invalid(let failure) = verification { return failure }
        return nil
    }

    @Test func theTestChainVerifiesUpToTheTestRoot() throws {
        let verification = X509TrustStore(roots: [root])
            .verify(leaf: leaf, intermediates: [intermediate], at: Self.inside)
        guard case .valid(let chain) = verification else {
            Issue.record("refused: \(String(describing: failure(verification)))")
            return
        }
        #expect(chain == [leaf, intermediate, root])
    }

    @Test func aStoreWithSeveralRootsFindsTheRightOne() {
        let store = X509TrustStore(roots: [appleRoot, root])
        guard case .valid(let chain) = store.verify(leaf: leaf, intermediates: [intermediate], at: Self.inside) else {
            Issue.record("refused")
            return
        }
        #expect(chain.last == root)
    }

    @Test func theRealAppleRootRefusesTheTestChain() {
        let verification = X509TrustStore(roots: [appleRoot]).verify(leaf: leaf, intermediates: [intermediate],
                                                                     at: Self.inside)
        #expect(failure(verification) != nil)
    }

    @Test func aStoreWithoutRootsTrustsNothing() {
        #expect(failure(X509TrustStore(roots: []).verify(leaf: leaf, intermediates: [intermediate], at: Self.inside))
            != nil)
    }

    @Test func withoutTheIntermediateThereIsNoChain() {
        #expect(failure(X509TrustStore(roots: [root]).verify(leaf: leaf, intermediates: [], at: Self.inside)) != nil)
    }

    @Test func anIntermediateConfiguredAsRootIsNoTrustAnchor() {
        // Partial chains are not accepted: the chain must end at a self-signed root.
        #expect(failure(X509TrustStore(roots: [intermediate]).verify(leaf: leaf, intermediates: [], at: Self.inside))
            != nil)
    }

    @Test func theLeafIsNotYetValidBeforeItsNotBefore() throws {
        let store = X509TrustStore(roots: [root])
        let early = try #require(failure(store.verify(leaf: leaf, intermediates: [intermediate],
                                                      at: leaf.notBefore! - 1)))
        #expect(early.isOutsideValidity)
        #expect(early.message.contains("not yet valid"))
    }

    @Test func theLeafHasExpiredAfterItsNotAfter() throws {
        let store = X509TrustStore(roots: [root])
        let late = try #require(failure(store.verify(leaf: leaf, intermediates: [intermediate],
                                                     at: leaf.notAfter! + 1)))
        #expect(late.isOutsideValidity)
        #expect(late.message.contains("expired"))
    }

    @Test func theBoundsOfTheWindowAreAsOpenSSLJudgesThem() {
        let store = X509TrustStore(roots: [root])
        // Valid from notBefore inclusive; the intermediate expires 29 s before the leaf.
        if case .invalid(let failure) = store.verify(leaf: leaf, intermediates: [intermediate], at: leaf.notBefore!) {
            Issue.record("refused at notBefore: \(failure)")
        }
        #expect(failure(store.verify(leaf: leaf, intermediates: [intermediate], at: intermediate.notAfter!)) != nil)
    }

    @Test func aTamperedIntermediateBreaksTheChain() throws {
        var bytes = intermediate.der
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "C")))  // "CA" in the subject
        bytes[index] = UInt8(ascii: "D")
        let tampered = try #require(X509Certificate(der: bytes))
        #expect(failure(X509TrustStore(roots: [root]).verify(leaf: leaf, intermediates: [tampered], at: Self.inside))
            != nil)
    }

    @Test func theRealAppleChainVerifiesUpToAppleRootCAG3() {
        let appleLeaf = X509Certificate(der: AppleFixtures.certificateFile("AppleStoreSigningLeaf.der"))!
        let wwdr = X509Certificate(der: AppleFixtures.certificateFile("AppleWWDRCA-G6.der"))!
        let at = appleLeaf.notBefore! + 86_400
        let store = X509TrustStore(roots: [appleRoot])
        guard case .valid(let chain) = store.verify(leaf: appleLeaf, intermediates: [wwdr], at: at) else {
            Issue.record("the real chain was refused")
            return
        }
        #expect(chain == [appleLeaf, wwdr, appleRoot])
        #expect(failure(X509TrustStore(roots: [root]).verify(leaf: appleLeaf, intermediates: [wwdr], at: at)) != nil)
    }
}
