import EventStore
import Foundation
import Postgres

/// The app commands and reads (issue 14): they seal and open app secrets, so they need the personal-data master key
/// (`HANDOFF_MASTER_KEY`); without it `WriteModel.apps` is nil and the edge answers 503 on the app routes.
public struct AppModel: Sendable {
    /// Apps as tenants read them, and what store intake and the forwarder need.
    public let lookup: AppLookup
    public let createApp: CreateApp
    public let updateApp: UpdateApp
    public let rotateStoreToken: RotateStoreToken
    public let addDestination: AddDestination
    public let removeDestination: RemoveDestination
    public let mintAppAccountToken: MintAppAccountToken
    /// Store intake: records a store notification once and applies its effect.
    public let receiveStoreNotification: ReceiveStoreNotification
    /// Applies a store effect learned after intake (Google, through the Play Developer API).
    public let applyStoreEffect: ApplyStoreEffect

    /// The app model over `log`, sealing with `masterKey` (32 bytes).
    /// `forwardAddresses` is the rule forward URLs pass when set (`FORWARD_ALLOWED_NETWORKS` admits private networks).
    public init(log: EventLog, masterKey: [UInt8], forwardAddresses: ForwardAddresses = ForwardAddresses()) {
        self.init(log: log, masterKeys: MasterKeyRing(current: masterKey), forwardAddresses: forwardAddresses)
    }

    /// The app model over `log`, sealing with `masterKeys.current` and opening with whichever key a row names.
    public init(log: EventLog, masterKeys: MasterKeyRing, forwardAddresses: ForwardAddresses = ForwardAddresses()) {
        let keys = SubjectKeys(masterKeys: masterKeys)
        let sealer = AppSealer(subjectKeys: keys)
        self.lookup = AppLookup(pool: log.pool, subjectKeys: keys)
        self.createApp = CreateApp(log: log, sealer: sealer, addresses: forwardAddresses)
        self.updateApp = UpdateApp(log: log, sealer: sealer, addresses: forwardAddresses)
        self.rotateStoreToken = RotateStoreToken(log: log, sealer: sealer)
        self.addDestination = AddDestination(log: log, sealer: sealer, addresses: forwardAddresses)
        self.removeDestination = RemoveDestination(log: log)
        self.mintAppAccountToken = MintAppAccountToken(log: log)
        self.receiveStoreNotification = ReceiveStoreNotification(log: log)
        self.applyStoreEffect = ApplyStoreEffect(log: log)
    }
}
