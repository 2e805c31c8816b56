import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `GET /s2s/v1/apps/{appId}/deliveries` (issue 14): an app's forward attempts for its own project only.
@Suite struct DeliveryRouteTests {
    @Test func anAppsDeliveriesAreItsProjectsOnlyAndTheQueryIsChecked() throws {
        let fixture = try StoreFixture.migrated()
        let app = try fixture.appleApp()
        let own = fixture.apps.send(.get, "/s2s/v1/apps/\(app.id)/deliveries", key: fixture.tenant.key)
        #expect(own.status == 200)
        #expect(bodyText(own) == #"{"deliveries":[],"nextAfter":null}"#)
        let other = try fixture.apps.tenants.tenant()
        let foreign = fixture.apps.send(.get, "/s2s/v1/apps/\(app.id)/deliveries", key: other.key)
        #expect(foreign.status == 404)
        #expect(fixture.apps.send(.get, "/s2s/v1/apps/\(UUID().uuidString.lowercased())/deliveries",
                                  key: fixture.tenant.key).status == 404)
        #expect(fixture.apps.send(.get, "/s2s/v1/apps/not-a-uuid/deliveries", key: fixture.tenant.key).status == 400)
        for (name, value) in [("limit", "0"), ("limit", "201"), ("limit", "x"), ("after", "0"), ("after", "-1")] {
            let response = fixture.apps.api.respond(to: Request(
                method: .get, path: "/s2s/v1/apps/\(app.id)/deliveries", query: [name: value],
                headers: Headers([("Authorization", "Bearer " + fixture.tenant.key)]), body: [],
                clientIP: "203.0.113.7", remoteAddress: "203.0.113.7"))
            #expect(response.status == 400, "\(name)=\(value)")
            #expect(bodyText(response).contains("'\(name)'"))
        }
    }
}
