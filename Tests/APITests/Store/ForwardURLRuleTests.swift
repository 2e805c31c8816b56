import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// Forward URLs are checked when they are set (issue 14): a host name, never an IP address in any spelling, and not
/// `localhost`; a name's address is checked again after DNS when a forward is sent.
@Suite struct ForwardURLRuleTests {
    @Test func aForwardURLMustNameAHostThatForwardsMayReach() throws {
        let fixture = try StoreFixture.migrated()
        func create(_ url: String) -> (Int, String) {
            let body = #"{"platform":"ios","bundleId":"com.example","forwardUrl":"\#(url)"}"#
            let response = fixture.apps.send(.post, "/s2s/v1/apps", key: fixture.tenant.key, body: body)
            return (response.status, (jsonObject(response)["code"] as? String) ?? "")
        }
        for url in ["http://127.0.0.1/hook", "http://2130706433/", "http://0x7f.1/", "http://[::1]/",
                    "http://10.0.0.1/", "https://hooks.example.com:0/"] {
            #expect(create(url) == (400, "VALIDATION_FORWARD_URL_FORMAT"), "\(url)")
        }
        for url in ["https://localhost/hook", "http://api.localhost:8080/"] {
            #expect(create(url) == (400, "VALIDATION_FORWARD_URL_ADDRESS"), "\(url)")
        }
        #expect(create("https://hooks.example.com/store").0 == 201)
        let app = try fixture.appleApp()
        let destination = fixture.apps.send(.post, "/s2s/v1/apps/\(app.id)/destinations", key: fixture.tenant.key,
                                            body: #"{"scheme":"x3","url":"https://localhost/x"}"#)
        #expect(destination.status == 400)
        #expect(bodyText(destination).contains("VALIDATION_FORWARD_URL_ADDRESS"))
    }
}
