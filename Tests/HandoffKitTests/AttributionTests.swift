import Foundation
import HandoffKit
import Testing
import TestSupport

/// Affiliate attribution through the library: binds by code and by click, tokens kept per account and reused
/// across purchases, and the refusals of referral input (issue 22).
@Suite struct AttributionTests {
    /// A server with a campaign (offer code `SPRING50`) and an affiliate `JANE234`.
    private func program() async throws -> HandoffServer {
        let server = try await HandoffServer.start(["--paywall-url", "https://pay.example.com/p"])
        let campaign = try server.s2s("POST", "/s2s/v1/campaigns", #"{"name":"Spring","#
            + #""commission":{"type":"percent","basisPoints":2000},"offerCode":"SPRING50"}"#)
        let campaignId = try #require(campaign["campaignId"] as? String)
        _ = try server.s2s("POST", "/s2s/v1/affiliates", #"{"name":"Jane","campaignId":"\#(campaignId)","#
            + #""refCode":"JANE234"}"#)
        return server
    }

    private func attribution(_ server: HandoffServer, account: String, storage: any PersistentStorage,
                             guid: String? = nil) -> Attribution {
        Attribution(projectId: server.tenant.project, baseURL: server.baseURL,
                    tokenStore: KeychainTokenStore(accountID: account, storage: storage), guid: guid,
                    timeout: 20, retry: .never)
    }

    /// A click on the affiliate's link: the signed click id from the 302's `Location`.
    private func click(_ server: HandoffServer) throws -> String {
        let answer = try server.send("GET", "/a/JANE234?p=\(server.tenant.project)")
        #expect(answer.status == 302)
        let location = try #require(answer.header("Location"))
        let items = URLComponents(string: location)?.queryItems ?? []
        return try #require(items.first { $0.name == "click" }?.value)
    }

    @Test func eachAccountKeepsItsOwnTokenAndReusesItForEveryPurchase() async throws {
        let server = try await program()
        // Files, as the store keeps them where there is no Keychain: a restart reads them back.
        let storage = FileStorage(directory: URL(fileURLWithPath: try TestEnvironment.scratchFolder())
            .appendingPathComponent("kit-tokens-\(UUID().uuidString)"))
        let alice = attribution(server, account: "alice", storage: storage, guid: "acct-alice")
        #expect(alice.appAccountToken() == nil && alice.binding() == nil)

        let bound = try await alice.resolveToken(signedClickId: nil, refCode: " jane234 ")
        #expect(bound.offerCode == "SPRING50")
        #expect(try #require(bound.expiresAt) > Date().addingTimeInterval(29 * 86_400))
        #expect(alice.binding() == bound && alice.appAccountToken() == bound.appAccountToken)
        // The guid's own token: the one `POST /public/app-account-token` answers for it.
        let own = try server.send("POST", "/public/app-account-token",
                                  body: #"{"projectId":"\#(server.tenant.project)","guid":"acct-alice"}"#)
        #expect(String(decoding: own.body, as: UTF8.self).contains(bound.appAccountToken.uuidString.lowercased()))

        // Every purchase reads the kept token, also after a restart (a new store over the same storage).
        let restarted = attribution(server, account: "alice", storage: storage, guid: "acct-alice")
        #expect(restarted.appAccountToken() == bound.appAccountToken)
        // A later click while the window is open: first touch wins, the same token.
        #expect(try await restarted.resolveToken(signedClickId: try click(server), refCode: nil).appAccountToken
            == bound.appAccountToken)

        // A new account on the same device starts without a token and binds its own.
        let bob = attribution(server, account: "bob", storage: storage, guid: "acct-bob")
        #expect(bob.appAccountToken() == nil)
        let bobs = try await bob.resolveToken(signedClickId: nil, refCode: "JANE234")
        #expect(bobs.appAccountToken != bound.appAccountToken)
        #expect(alice.appAccountToken() == bound.appAccountToken && bob.appAccountToken() == bobs.appAccountToken)
    }

    @Test func aClickBoundWithoutAGuidIsNeverHandedToASecondAccount() async throws {
        let server = try await program()
        let storage = InMemoryStorage()
        let clickId = try click(server)
        let first = attribution(server, account: "first", storage: storage)
        let bound = try await first.resolveToken(signedClickId: clickId, refCode: nil)
        // Kept: asking again answers the kept binding (the server would answer the same token for this click).
        #expect(try await first.resolveToken(signedClickId: clickId, refCode: nil) == bound)

        // The server answers the click's token to anyone who binds it again; the store refuses to give it to a
        // second account.
        let second = attribution(server, account: "second", storage: storage)
        await #expect(throws: AttributionError.tokenHeldByAnotherAccount) {
            try await second.resolveToken(signedClickId: clickId, refCode: nil)
        }
        #expect(second.appAccountToken() == nil && first.appAccountToken() == bound.appAccountToken)
    }

    @Test func referralInputErrorsAreTypedAndBindNothing() async throws {
        let server = try await program()
        let storage = InMemoryStorage()
        let carol = attribution(server, account: "carol", storage: storage, guid: "acct-carol")
        await #expect(throws: AttributionError.clickOrCodeRequired) {
            try await carol.resolveToken(signedClickId: nil, refCode: nil)
        }
        await #expect(throws: AttributionError.clickOrCodeRequired) {
            try await carol.resolveToken(signedClickId: "  ", refCode: " ")
        }
        await #expect(throws: AttributionError.clickOrCodeRequired) {
            try await carol.resolveToken(signedClickId: try click(server), refCode: "JANE234")
        }
        await #expect(throws: AttributionError.invalidInput(code: "VALIDATION_REF_CODE_FORMAT")) {
            try await carol.resolveToken(signedClickId: nil, refCode: "JANE")
        }
        await #expect(throws: AttributionError.invalidInput(code: "VALIDATION_SIGNED_CLICK_ID_FORMAT")) {
            try await carol.resolveToken(signedClickId: "c1.not-a-click", refCode: nil)
        }
        await #expect(throws: AttributionError.noReferral) {
            try await carol.resolveToken(signedClickId: nil, refCode: "ZZZZ2345")
        }
        let foreign = attribution(server, account: "dave", storage: storage, guid: "null")
        await #expect(throws: AttributionError.invalidInput(code: "VALIDATION_GUID_FORMAT")) {
            try await foreign.resolveToken(signedClickId: nil, refCode: "JANE234")
        }
        #expect(carol.appAccountToken() == nil && carol.binding() == nil && foreign.appAccountToken() == nil)
    }
}
