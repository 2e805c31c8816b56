/// A test notification sent from the Play Console (`testNotification`); changes nothing.
public struct TestNotification: Hashable, Sendable {
    public let version: String

    public init(version: String) {
        self.version = version
    }
}
