import Foundation
import HandoffKit

/// Library clients for a test server, each with storage of its own (a fresh install) unless one is given.
enum KitClients {
    /// An iPhone 15 in Berlin with German as its language, for project bundle id `com.example.app`.
    static let iPhone = DeviceTraits(screenWidth: 393, screenHeight: 852, timeZone: "Europe/Berlin",
                                     language: "de-DE", platform: .ios, osVersion: "17.4",
                                     bundleId: "com.example.app")

    static func web2App(_ server: HandoffServer, storage: any PersistentStorage = InMemoryStorage(),
                        device: any DeviceTraitsSource = NoDeviceTraits(), retry: RetryPolicy = .never,
                        log: LogLines? = nil) -> Web2AppClient {
        Web2AppClient(configuration: Web2AppConfiguration(
            projectId: server.tenant.project, baseURL: server.baseURL, storage: storage, device: device,
            timeout: 20, retry: retry, log: log?.sink))
    }
}
