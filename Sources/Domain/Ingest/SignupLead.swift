/// The "signup is lead" rule: with the app's setting on, a batch holding an `account_created` event and an identity
/// (`id` with at least one of `xid`, `em`, `emg`, `lid`) makes the install's one signup lead. Identify alone (an
/// identity without `account_created`) never does, nor `account_created` without an identity.
public enum SignupLead {
    /// The event name that marks a signup.
    public static let eventName = "account_created"

    /// Whether the batch makes a signup lead.
    public static func applies(settingOn: Bool, eventNames: [String], hasIdentity: Bool) -> Bool {
        settingOn && hasIdentity && eventNames.contains(eventName)
    }
}
