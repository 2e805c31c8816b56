import CCurl
import Glibc

/// The context of `handoffCurlOpenSocket`: the check and what it decided during one transfer.
final class PeerGuard {
    let check: PeerAddressCheck?
    private(set) var decisions: [PeerDecision] = []

    init(check: PeerAddressCheck?) {
        self.check = check
    }

    /// Asks the check (no check: every address is permitted) and records the answer.
    func permits(_ bytes: [UInt8]) -> Bool {
        let permitted = check?.permits(bytes) ?? true
        decisions.append(PeerDecision(address: bytes, permitted: permitted))
        return permitted
    }

    /// Some address was refused.
    var refusedAny: Bool { decisions.contains { !$0.permitted } }
}

/// `CURLOPT_OPENSOCKETFUNCTION`: libcurl calls it instead of `socket(2)` for every address it is about to connect
/// to. Refused addresses (and families other than IPv4/IPv6) get `CURL_SOCKET_BAD`, which libcurl treats as a failed
/// connection attempt for that address (it goes on with the next one, if any); nothing is sent to them. A global
/// function (no actor isolation); the `PeerGuard` arrives unretained through `CURLOPT_OPENSOCKETDATA`.
func handoffCurlOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address, purpose == CURLSOCKTYPE_IPCXN else { return CURL_SOCKET_BAD }
    let peerGuard = Unmanaged<PeerGuard>.fromOpaque(context).takeUnretainedValue()
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = Int(handoff_curl_sockaddr_bytes(address, &bytes))
    guard count == 4 || count == 16, peerGuard.permits(Array(bytes.prefix(count))) else { return CURL_SOCKET_BAD }
    let socketType = address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue)
    return socket(address.pointee.family, socketType, address.pointee.protocol)
}
