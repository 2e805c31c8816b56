/// Which addresses a forward may connect to (issue 14, SSRF guard): public ones, and whatever the allow-list
/// admits. Applied to a literal host when a forward URL is set (`ForwardURL.validate`) and to every resolved
/// address at connect time (the worker's libcurl guard), so a name that resolves to 127.0.0.1 is refused too.
public enum OutboundAddressRule {
    /// The rule's answer for one address.
    public enum Verdict: Sendable, Equatable {
        case permitted
        /// Refused, with the class that refused it.
        case refused(AddressClass)
    }

    /// Permitted when `allowed` admits `address` or the address is public; refused with its class otherwise.
    public static func verdict(_ address: NetworkAddress, allowed: NetworkAllowList) -> Verdict {
        if allowed.admits(address) { return .permitted }
        let addressClass = address.addressClass
        return addressClass == .public ? .permitted : .refused(addressClass)
    }
}
