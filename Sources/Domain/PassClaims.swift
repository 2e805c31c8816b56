import Foundation

/// What a verified pass says: the buyer, the project it was issued for, and when it stops being valid.
public struct PassClaims: Hashable, Sendable {
    /// The buyer the pass names.
    public let guid: BuyerGuid
    /// The project whose `POST /s2s/v1/users` issued the pass.
    public let projectID: ProjectID
    /// The first instant at which the pass is expired; whole seconds since 1970 (UTC).
    public let expiresAt: Date

    /// Claims as issued; `expiresAt` is truncated to whole seconds, as the pass carries it.
    public init(guid: BuyerGuid, projectID: ProjectID, expiresAt: Date) {
        self.guid = guid
        self.projectID = projectID
        self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    }
}
