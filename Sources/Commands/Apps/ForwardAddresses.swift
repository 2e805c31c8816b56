import Domain

/// The address rule a forward URL must pass when it is set (`ForwardURL.validate`: a public host, no odd spelling of
/// an IPv4 address) — the forwarder checks it again, with the address a name resolves to, at send time.
/// `allowed` is `FORWARD_ALLOWED_NETWORKS`.
public struct ForwardAddresses: Sendable {
    public let allowed: NetworkAllowList

    public init(allowed: NetworkAllowList = .none) { self.allowed = allowed }

    /// Throws the refusal (400 naming `field`) when `url` may not be a forward URL here.
    func check(_ url: AppForwardURL, field: String) throws {
        if case .failure(let refusal) = ForwardURL.validate(url.text, allowed: allowed, field: field) {
            throw Refusal(refusal)
        }
    }
}
