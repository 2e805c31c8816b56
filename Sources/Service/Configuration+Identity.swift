import Commands

extension Configuration {
    /// The identity secrets the write model needs, or nil when any of the three variables is missing.
    public var identity: IdentitySecrets? {
        identitySecrets.map {
            IdentitySecrets(masterKey: $0.masterKey, lookupPepper: $0.lookupPepper, passKeys: $0.passKeys)
        }
    }
}
