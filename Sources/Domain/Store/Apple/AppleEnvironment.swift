/// The App Store server environment a notification or transaction comes from (Apple's `environment` field).
///
/// Only `production` and `sandbox` are signed by the App Store; `xcode` and `localTesting` data is signed by Xcode
/// or a test harness and never verifies against Apple's roots.
public enum AppleEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"
}
