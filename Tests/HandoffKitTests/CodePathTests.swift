import Foundation
import HandoffKit
import Testing
import TestSupport

/// The code and install-token paths through the library against a real server, the guid kept, entitlements and
/// the paywall URL (issue 22).
@Suite struct CodePathTests {
    @Test func aCodeFromARecordedPaymentIdentifiesTheBuyerAndTheGuidIsKept() async throws {
        let server = try await HandoffServer.start(["--return-scheme", "myapp"])
        let guid = "usr:42"
        let paid = try server.pay(guid: guid, paymentId: "pi_code")
        let code = try #require((paid["handoff"] as? [String: Any])?["code"] as? String)
        let storage = FileStorage(directory: URL(fileURLWithPath: try TestEnvironment.scratchFolder())
            .appendingPathComponent("kit-\(UUID().uuidString)"))
        let client = KitClients.web2App(server, storage: storage)

        // Before a guid is known there is nothing to ask about.
        await #expect(throws: Web2AppError.notIdentified) { try await client.entitlements() }
        // Typed as a buyer might: lower case, a space inside, padded.
        let typed = "  " + code.prefix(4).lowercased() + " " + code.dropFirst(4).lowercased() + "\n"
        #expect(await client.identify(deepLinkValue: typed) == .identified(guid, via: .code))
        #expect(client.guid == guid)

        // The code is spent now; the kept guid answers at once, also for a new client over the same storage.
        #expect(await client.identify(deepLinkValue: nil) == .identified(guid, via: .code))
        let later = KitClients.web2App(server, storage: storage)
        #expect(await later.identify(deepLinkValue: code) == .identified(guid, via: .code))
        // A fresh install with the spent code learns nothing.
        #expect(await KitClients.web2App(server).identify(deepLinkValue: code) == .needsEmailFallback)

        let entitlements = try await later.entitlements()
        #expect(entitlements.guid == guid && entitlements.active)
        #expect(entitlements.entitlements.map(\.entitlement) == ["pro"])
        #expect(entitlements.entitlements.first?.isActive == true)
        #expect(entitlements.entitlements.first?.paymentId == "pi_code")
        let expiry = ISO8601DateFormatter().date(from: "2099-01-01T00:00:00Z")
        #expect(entitlements.entitlements.first?.expiresAt == expiry)

        // The return link as the page's "Open the app" button builds it works too (on a fresh install).
        let again = try server.pay(guid: "usr:43", paymentId: "pi_code_2")
        let link = try #require((again["handoff"] as? [String: Any])?["returnLink"] as? String)
        #expect(link.hasPrefix("myapp://handoff?code="))
        #expect(await KitClients.web2App(server).identify(deepLinkValue: link) == .identified("usr:43", via: .code))
    }

    @Test func anInstallTokenFromATrackerDeepLinkIdentifiesTheBuyer() async throws {
        let server = try await HandoffServer.start(["--tracker", "appsflyer",
                                                    "--tracker-link", "https://kit.onelink.me/AbCd"])
        let paid = try server.pay(guid: "buyer-7", paymentId: "pi_token")
        let install = try #require(paid["install"] as? [String: Any])
        let trackerURL = try #require(install["trackerUrl"] as? String)
        let token = try #require(install["token"] as? String)
        #expect(trackerURL.contains("deep_link_sub1=" + token))

        let client = KitClients.web2App(server)
        #expect(await client.identify(deepLinkValue: trackerURL) == .identified("buyer-7", via: .installToken))
        // Kept: the same answer at once, with the same path.
        #expect(await client.identify(deepLinkValue: nil) == .identified("buyer-7", via: .installToken))

        // Adjust's nested deep link names the token as `user_id`; a spent token is a miss like any other.
        let adjust = "myapp://handoff?user_id=\(token)&project_id=\(server.tenant.project)&destination=app"
        #expect(await KitClients.web2App(server).identify(deepLinkValue: adjust) == .needsEmailFallback)
    }

    @Test func thePaywallURLCarriesTheDeviceIDUntilTheGuidIsKnownAndThePaywallTakesIt() async throws {
        let server = try await HandoffServer.start()
        let storage = InMemoryStorage()
        let client = KitClients.web2App(server, storage: storage)
        let deviceID = client.deviceID
        #expect(UUID(uuidString: deviceID) != nil && deviceID == deviceID.lowercased())
        #expect(KitClients.web2App(server, storage: storage).deviceID == deviceID)
        #expect(KitClients.web2App(server).deviceID != deviceID)

        let base = try #require(URL(string: "https://pay.example.com/p?plan=pro&origin=web&id=x#top"))
        let marked = client.paywallURL(base)
        #expect(marked.absoluteString == "https://pay.example.com/p?plan=pro&origin=app&id=\(deviceID)#top")

        // The server's paywall rule reads the same id back as the buyer.
        let buyer = try server.send("GET", "/public/paywall/buyer?projectId=\(server.tenant.project)&origin=app&id="
            + deviceID)
        #expect(String(decoding: buyer.body, as: UTF8.self)
            == #"{"success":true,"data":{"guid":"\#(deviceID)","source":"id"}}"#)

        // Once the buyer is known, the paywall gets the guid (encoded: `:` is not unreserved).
        let paid = try server.pay(guid: "usr:9", paymentId: "pi_pay")
        let code = try #require((paid["handoff"] as? [String: Any])?["code"] as? String)
        #expect(await client.identify(deepLinkValue: code) == .identified("usr:9", via: .code))
        #expect(client.paywallURL(try #require(URL(string: "https://pay.example.com/p"))).absoluteString
            == "https://pay.example.com/p?origin=app&id=usr%3A9")
    }
}
