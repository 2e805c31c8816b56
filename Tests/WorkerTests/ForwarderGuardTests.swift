import Domain
import Foundation
import HTTPClient
import Synchronization
import Testing
import TestSupport
import Workers

/// The SSRF guard of forwards (issue 14) end to end: a canary listener on 127.0.0.1, never allow-listed here, must
/// see no connection, whatever the URL's spelling, a redirect or a name pinned to it. Other ranges are checked
/// through names pinned to them, with a check that never lets a non-loopback connection be attempted.
@Suite struct ForwarderGuardTests {
    /// Only 127.0.0.2 is allow-listed: receivers of these tests listen there, the canary on 127.0.0.1.
    static let allowed = try! NetworkAllowList.parse("127.0.0.2/32").get()

    /// The canary's address in every spelling libcurl or `inet_aton` accepts.
    static func spellings(_ port: Int) -> [String] {
        ["127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0x7f000001", "0177.1", "127.0.1",
         "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost", "127.0.0.1."].map { "http://\($0):\(port)/x3/a" }
    }

    @Test func everySpellingOfTheCanaryIsRefusedBeforeLibcurlSeesIt() throws {
        let canary = try CanaryListener()
        let forwarder = Forwarder(settings: Forwarder.Settings(allowed: Self.allowed))
        for url in Self.spellings(canary.port) {
            let attempt = forwarder.post(url: url, headers: [], body: Array("{}".utf8))
            #expect(attempt.error == "address refused" && attempt.status == nil, "\(url)")
        }
        #expect(canary.connections() == 0)
    }

    @Test func theConnectTimeCheckAloneRefusesEverySpellingTheURLParserLetsThrough() throws {
        let canary = try CanaryListener()
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(
            peerCheck: Forwarder.peerCheck(allowed: Self.allowed)))
        for url in Self.spellings(canary.port) + ["http://[::1]:\(canary.port)/", "http://[::127.0.0.1]:1/"] {
            let error = #expect(throws: HTTPClientError.self) {
                try session.send(HTTPRequest(method: "POST", url: url, body: Array("{}".utf8)))
            }
            // libcurl reads every spelling as the address and the check refuses the socket (a name with a trailing
            // dot does not even resolve).
            let refused = error?.kind == .addressRefused && !session.lastPeers.isEmpty
            let unresolved = error?.kind == .connectFailed && session.lastPeers.isEmpty
            #expect(refused || unresolved, "\(url): \(String(describing: error))")
            #expect(session.lastPeers.allSatisfy { !$0.permitted }, "\(url)")
        }
        #expect(canary.connections() == 0)
    }

    @Test func aRedirectFromAnAllowedReceiverToTheCanaryIsNotFollowed() throws {
        let canary = try CanaryListener()
        let receiver = try ForwardReceiver(host: "127.0.0.2", x3Token: "token")
        let forwarder = Forwarder(settings: Forwarder.Settings(allowed: Self.allowed))
        let attempt = forwarder.post(url: receiver.base + "/redirect?to=http://127.0.0.1:\(canary.port)/x3/a",
                                     headers: [], body: Array("{}".utf8))
        #expect(attempt.status == 302 && !attempt.succeeded && attempt.host == "127.0.0.2")
        #expect(receiver.requests().map(\.verdict) == ["redirect"])
        #expect(canary.connections() == 0)
    }

    @Test func aNamePinnedToTheCanaryIsRefusedAtConnectTime() throws {
        let canary = try CanaryListener()
        let forwarder = Forwarder(settings: Forwarder.Settings(
            allowed: Self.allowed, pinnedAddresses: ["hooks.example.test:\(canary.port):127.0.0.1"]))
        let attempt = forwarder.post(url: "http://hooks.example.test:\(canary.port)/x3/a", headers: [],
                                     body: Array("{}".utf8))
        #expect(attempt.error == "address refused" && attempt.host == "hooks.example.test")
        #expect(canary.connections() == 0)
    }

    /// The rule's answers, recorded; the socket is only ever opened for a permitted loopback address.
    final class LoopbackOnly: @unchecked Sendable {
        let verdicts = Mutex<[(String, Bool)]>([])

        func check(allowed: NetworkAllowList) -> PeerAddressCheck {
            let rule = Forwarder.peerCheck(allowed: allowed)
            return PeerAddressCheck { [self] bytes in
                let permitted = rule.permits(bytes)
                let address = NetworkAddress(bytes: bytes)
                verdicts.withLock { $0.append((address?.description ?? "?", permitted)) }
                return permitted && address?.addressClass == .loopback
            }
        }
    }

    @Test(arguments: [
        "10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "224.0.0.1", "0.0.0.0",
        "255.255.255.255", "192.0.2.1", "240.0.0.1", "[fd00::1]", "[fe80::1]", "[::ffff:10.0.0.1]",
        "[::ffff:8.8.8.8]", "[64:ff9b::a00:1]", "[ff02::1]", "[::]",
    ])
    func aNamePinnedToAnyRefusedRangeIsRefusedBeforeAnyConnect(address: String) throws {
        let recorder = LoopbackOnly()
        let forwarder = Forwarder(settings: Forwarder.Settings(
            allowed: Self.allowed, pinnedAddresses: ["pinned.example.test:80:\(address)"],
            peerCheck: recorder.check(allowed: Self.allowed)))
        let attempt = forwarder.post(url: "http://pinned.example.test/x3/a", headers: [], body: Array("{}".utf8))
        #expect(attempt.error == "address refused")
        let verdicts = recorder.verdicts.withLock { $0 }
        #expect(verdicts.count == 1 && verdicts.allSatisfy { !$0.1 }, "\(verdicts)")
        #expect(verdicts.first?.0 == NetworkAddress.parseCanonical(
            String(address.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))))?.description)
    }

    @Test func aRefusedAddressFallsThroughToTheNextPermittedOneOfTheSameName() throws {
        let receiver = try ForwardReceiver(host: "127.0.0.2", x3Token: "token")
        let recorder = LoopbackOnly()
        let forwarder = Forwarder(settings: Forwarder.Settings(
            allowed: Self.allowed, pinnedAddresses: ["both.example.test:\(receiver.port):10.0.0.1,127.0.0.2"],
            peerCheck: recorder.check(allowed: Self.allowed)))
        let attempt = forwarder.post(url: "http://both.example.test:\(receiver.port)/x3/a", headers: [],
                                     body: Array("{}".utf8))
        #expect(attempt.status == 401)  // Reached: the receiver refuses the unsigned body.
        #expect(recorder.verdicts.withLock { $0.map { "\($0.0) \($0.1)" } } == ["10.0.0.1 false", "127.0.0.2 true"])
    }

    @Test func aTLSReceiverWithItsOwnCAIsReachedOnlyWhenTheCAIsTrusted() throws {
        let authority = try TestCertificateAuthority()
        let receiver = try ForwardReceiver(host: "127.0.0.2", x3Token: "token", tls: authority)
        let trusting = Forwarder(settings: Forwarder.Settings(allowed: Self.allowed, caFile: authority.caFile))
        let reached = trusting.post(url: receiver.base + "/x3/a?answer=thanks", headers: [], body: Array("{}".utf8))
        #expect(reached.status == 401 && reached.error == nil)
        let plain = Forwarder(settings: Forwarder.Settings(allowed: Self.allowed))
        let refused = plain.post(url: receiver.base + "/x3/b", headers: [], body: Array("{}".utf8))
        #expect(refused.status == nil && refused.error == "tls" && !refused.succeeded)
        #expect(receiver.requests().map(\.path) == ["/x3/a?answer=thanks"])
    }

    @Test func aBodyOverOneMebibyteIsNeverSent() throws {
        let receiver = try ForwardReceiver(host: "127.0.0.2", x3Token: "token")
        let forwarder = Forwarder(settings: Forwarder.Settings(allowed: Self.allowed))
        let attempt = forwarder.post(url: receiver.base + "/x3/a", headers: [],
                                     body: [UInt8](repeating: 0x20, count: Forwarder.maxBodyBytes + 1))
        #expect(attempt.error == "too large")
        #expect(receiver.requests().isEmpty)
    }
}
