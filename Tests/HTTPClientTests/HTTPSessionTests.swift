import Foundation
import HTTPClient
import Testing
import TestSupport

/// `HTTPSession`: the connect-time peer check, kept-alive connections, request and response limits, and TLS with a
/// CA of the test's own. No test here lets a connection to anything but loopback be attempted: checks that refuse
/// other addresses refuse them all, whatever the rule under test says.
struct HTTPSessionTests {
    /// A check that records every address it is asked about and answers `permit` for loopback only.
    final class RecordingCheck: @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [[UInt8]] = []
        let permitLoopback: Bool

        init(permitLoopback: Bool) { self.permitLoopback = permitLoopback }

        var check: PeerAddressCheck {
            PeerAddressCheck { [self] bytes in
                lock.withLock { asked.append(bytes) }
                return permitLoopback && (bytes == [127, 0, 0, 1] || bytes == Array(repeating: 0, count: 15) + [1])
            }
        }

        var addresses: [[UInt8]] { lock.withLock { asked } }
    }

    @Test func aRefusingCheckMeansTheCanaryNeverSeesAConnection() throws {
        let canary = try CanaryListener()
        let recorder = RecordingCheck(permitLoopback: false)
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(peerCheck: recorder.check))
        let error = #expect(throws: HTTPClientError.self) {
            try session.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(canary.port)/", body: [1]))
        }
        #expect(error?.kind == .addressRefused)
        #expect(session.lastPeers == [PeerDecision(address: [127, 0, 0, 1], permitted: false)])
        #expect(recorder.addresses == [[127, 0, 0, 1]])
        #expect(canary.connections() == 0)
    }

    @Test func aPinnedNameIsCheckedAtTheAddressItResolvesToBeforeAnyConnect() throws {
        let canary = try CanaryListener()
        let recorder = RecordingCheck(permitLoopback: false)
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(
            peerCheck: recorder.check,
            pinnedAddresses: ["hooks.example.test:\(canary.port):127.0.0.1", "private.example.test:80:10.1.2.3"]))
        for url in ["http://hooks.example.test:\(canary.port)/", "http://private.example.test/"] {
            let error = #expect(throws: HTTPClientError.self) { try session.send(HTTPRequest(url: url)) }
            #expect(error?.kind == .addressRefused, "\(url)")
        }
        #expect(recorder.addresses == [[127, 0, 0, 1], [10, 1, 2, 3]])
        #expect(canary.connections() == 0)
    }

    @Test func aSessionReusesItsConnectionForTheNextRequest() throws {
        let receiver = try ForwardReceiver(x3Token: "t")
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(
            peerCheck: RecordingCheck(permitLoopback: true).check))
        for index in 0..<3 {
            let response = try session.send(HTTPRequest(method: "POST", url: receiver.base + "/x3/\(index)",
                                                        body: Array("{}".utf8)))
            #expect(response.status == 401)
            #expect(session.lastNewConnections == (index == 0 ? 1 : 0))
        }
        let ports = Set(receiver.requests().map(\.peerPort))
        #expect(ports.count == 1)
    }

    @Test func theReceiversDelayHoldsEachRequestOnTheKeptConnection() throws {
        let receiver = try ForwardReceiver(x3Token: "t", delayMilliseconds: 300)
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(
            peerCheck: RecordingCheck(permitLoopback: true).check))
        let started = Date()
        for index in 0..<2 {
            let response = try session.send(HTTPRequest(method: "POST", url: receiver.base + "/x3/\(index)",
                                                        body: Array("{}".utf8)))
            #expect(response.status == 401)
        }
        #expect(Date().timeIntervalSince(started) >= 0.6)
        #expect(Set(receiver.requests().map(\.peerPort)).count == 1)
    }

    @Test func aBodyOverTheLimitIsNeverSent() throws {
        let canary = try CanaryListener()
        let session = try HTTPSession()
        let error = #expect(throws: HTTPClientError.self) {
            try session.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(canary.port)/",
                                         body: [UInt8](repeating: 0x7B, count: (1 << 20) + 1)))
        }
        #expect(error?.kind == .requestTooLarge)
        #expect(session.lastPeers.isEmpty)
        #expect(canary.connections() == 0)
    }

    @Test func aLongAnswerIsCutToItsFirstBytesAndARedirectIsReturnedNotFollowed() throws {
        let port = try Shell.freePort()
        let peer = try PeerProcess(script: "Tests/Peers/http_receiver.py", arguments: ["--port", "\(port)"])
        let session = try HTTPSession(configuration: HTTPSessionConfiguration(maxResponseBytes: 1000))
        let big = try session.send(HTTPRequest(url: "http://127.0.0.1:\(port)/big/200000"))
        #expect(big.status == 200 && big.body == [UInt8](repeating: UInt8(ascii: "x"), count: 1000))
        let chunked = try session.send(HTTPRequest(url: "http://127.0.0.1:\(port)/big/200000?chunked=1"))
        #expect(chunked.status == 200 && chunked.body.count == 1000)
        let redirect = try session.send(HTTPRequest(url: "http://127.0.0.1:\(port)/redirect"))
        #expect(redirect.status == 302 && redirect.header("location") == "/echo/redirected")
        withExtendedLifetime(peer) {}
    }

    @Test func tlsVerifiesAgainstTheTestCAOnlyWhenItIsTrusted() throws {
        let authority = try TestCertificateAuthority()
        let receiver = try ForwardReceiver(x3Token: "t", tls: authority)
        let trusting = try HTTPSession(configuration: HTTPSessionConfiguration(caFile: authority.caFile))
        let response = try trusting.send(HTTPRequest(method: "POST", url: receiver.base + "/x3/a", body: [0x7B]))
        #expect(response.status == 401)
        let byName = try HTTPSession(configuration: HTTPSessionConfiguration(
            caFile: authority.caFile, pinnedAddresses: ["receiver.test:\(receiver.port):127.0.0.1"]))
        #expect(try byName.send(HTTPRequest(url: "https://receiver.test:\(receiver.port)/x3/b")).status == 401)

        // Without the CA the certificate does not verify: a failed request, never a silent downgrade.
        let plain = try HTTPSession()
        let error = #expect(throws: HTTPClientError.self) {
            try plain.send(HTTPRequest(method: "POST", url: receiver.base + "/x3/c", body: [0x7B]))
        }
        #expect(error?.kind == .tls)
        // A name the certificate does not cover fails too, even with the CA trusted.
        let wrongName = try HTTPSession(configuration: HTTPSessionConfiguration(
            caFile: authority.caFile, pinnedAddresses: ["other.test:\(receiver.port):127.0.0.1"]))
        let mismatch = #expect(throws: HTTPClientError.self) {
            try wrongName.send(HTTPRequest(url: "https://other.test:\(receiver.port)/x3/d"))
        }
        #expect(mismatch?.kind == .tls)
        #expect(receiver.requests().map(\.path) == ["/x3/a", "/x3/b"])
    }
}
