import Foundation

/// Tests/Peers/forward_receiver.py on a free port for one test: checks the x3 and attribloom signatures and records
/// every request it got (`requests()`); stopped in `deinit`.
public final class ForwardReceiver: @unchecked Sendable {
    /// One request as the receiver recorded it.
    public struct Received: Sendable, Equatable {
        public let path: String
        public let headers: [[String]]
        public let body: [UInt8]
        /// `ok`, `redirect`, or why a check failed.
        public let verdict: String
        /// The client's port: the same port twice means the connection was reused.
        public let peerPort: Int
        /// The JWS of an attribloom body.
        public let signedPayload: String?

        /// The first header called `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }
    }

    /// `http://host:port` or `https://…` with TLS.
    public let base: String
    public let port: Int
    private let log: String
    private let process: ChildProcess

    /// Starts the receiver on `host` (default 127.0.0.1), over TLS when `tls` is given, verifying x3 signatures with
    /// `x3Token`, attribloom ones with `attribloomSecret` and signed chain heads (`/audit/…`) with `auditPublicKey`
    /// (the 64 hex digits of an Ed25519 key); every request waits `delayMilliseconds` before its answer.
    public init(host: String = "127.0.0.1", x3Token: String? = nil, attribloomSecret: String? = nil,
                auditPublicKey: String? = nil, tls: TestCertificateAuthority? = nil,
                delayMilliseconds: Int = 0) throws {
        let log = try TestEnvironment.scratchFolder() + "/forward-receiver-\(UInt32.random(in: 0...UInt32.max))"
        var options = ["--log", log]
        // `--name=value`: a store token may begin with `-`, which argparse would read as an option.
        if let x3Token { options += ["--x3-token=" + x3Token] }
        if let attribloomSecret { options += ["--attribloom-secret=" + attribloomSecret] }
        if let auditPublicKey { options += ["--audit-public-key", auditPublicKey] }
        if let tls { options += ["--tls-cert", tls.certificateFile, "--tls-key", tls.keyFile] }
        if delayMilliseconds > 0 { options += ["--delay-ms=\(delayMilliseconds)"] }
        let (port, process) = try ListeningPeer.start("forward_receiver.py") { port in
            ["/usr/bin/python3", HandoffBinary.packageRoot() + "/Tests/Peers/forward_receiver.py",
             "--host", host, "--port", "\(port)"] + options
        }
        self.port = port
        self.log = log
        self.process = process
        base = (tls == nil ? "http" : "https") + "://\(host):\(port)"
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 5)
    }

    /// Every request received so far, oldest first.
    public func requests() -> [Received] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let path = object["path"] as? String, let hex = object["body_hex"] as? String,
                  let verdict = object["verdict"] as? String else { return nil }
            let body = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }
            return Received(path: path, headers: object["headers"] as? [[String]] ?? [], body: body,
                            verdict: verdict, peerPort: object["peer_port"] as? Int ?? 0,
                            signedPayload: object["signed_payload"] as? String)
        }
    }
}
