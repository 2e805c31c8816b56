import Domain

/// The address rule a forward URL must pass when it is set (`ForwardURL.validate`: a public host, no odd spelling of
/// an IPv4 address) — the forwarder checks it again, with the address a name resolves to, at send time.
/// `allowed` is `FORWARD_ALLOWED_NETWORKS`.
public struct ForwardAddresses: Sendable {
    public let allowed: NetworkAllowList

    public init(allowed: NetworkAllowList = .none) { self.allowed = allowed }

    /// Throws the address refusal (400 `VALIDATION_FORWARD_URL_ADDRESS` naming `field`) when `url`'s host may not be
    /// reached. Its syntax is `AppForwardURL`'s to judge (and is judged again, strictly, at send time).
    func check(_ url: AppForwardURL, field: String) throws {
        if case .failure(let refusal) = ForwardURL.validate(url.text, allowed: allowed, field: field),
           refusal.code == .forwardURLAddress {
            throw Refusal(refusal)
        }
    }
}
