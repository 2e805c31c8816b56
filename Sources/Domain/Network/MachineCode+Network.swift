extension MachineCode {
    /// A forward URL that is not an absolute `http`/`https` URL with a host, without user info, at most
    /// `ForwardURL.maxLength` characters.
    public static let forwardURLFormat = MachineCode(rawValue: "VALIDATION_FORWARD_URL_FORMAT")
    /// A forward URL whose host is an address forwards may not reach (loopback, private, link-local, CGNAT,
    /// multicast, reserved, IPv4-mapped) or an IPv4 address not written as four decimal numbers.
    public static let forwardURLAddress = MachineCode(rawValue: "VALIDATION_FORWARD_URL_ADDRESS")
    /// A list of networks that is not comma-separated CIDR blocks.
    public static let networkFormat = MachineCode(rawValue: "VALIDATION_NETWORK_FORMAT")
}
