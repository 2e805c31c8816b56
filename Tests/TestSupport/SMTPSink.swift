import Foundation

/// infra/smtp-sink.py on a free port for one test, storing every mail under a scratch folder; stopped in `deinit`.
public final class SMTPSink: @unchecked Sendable {
    public let url: String
    public let folder: String
    private let process: ChildProcess

    /// How the sink speaks TLS, with a certificate of `TestCertificateAuthority`.
    public enum TLS: Sendable {
        /// Offers STARTTLS; with `required`, refuses mail before it.
        case startTLS(TestCertificateAuthority, required: Bool)
        /// SMTPS: TLS from the first byte (the URL is `smtps://`).
        case implicit(TestCertificateAuthority)
    }

    /// Starts the sink on `port` (default: a free one, picked again if another test took it first: `ListeningPeer`),
    /// speaking `tls` when given, and waits until it prints "listening" (up to 20 s).
    public init(port: Int? = nil, tls: TLS? = nil) throws {
        var scheme = "smtp"
        var folder = ""
        let started = try ListeningPeer.start("smtp-sink.py", port: port, timeout: 20) { port in
            var arguments = ["/usr/bin/python3", HandoffBinary.packageRoot() + "/infra/smtp-sink.py",
                             "--host", "127.0.0.1", "--port", "\(port)", "--exit-with-parent"]
            switch tls {
            case .startTLS(let authority, let required):
                arguments += ["--tls-cert", authority.certificateFile, "--tls-key", authority.keyFile]
                if required { arguments.append("--require-starttls") }
            case .implicit(let authority):
                arguments += ["--tls-cert", authority.certificateFile, "--tls-key", authority.keyFile,
                              "--implicit-tls"]
                scheme = "smtps"
            case nil:
                break
            }
            folder = try TestEnvironment.scratchFolder() + "/smtp-sink-\(port)-\(UInt32.random(in: 0...UInt32.max))"
            return arguments + ["--dir", folder]
        }
        url = "\(scheme)://127.0.0.1:\(started.port)"
        self.folder = folder
        process = started.process
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 5)
    }

    /// Whether each message received so far arrived over TLS, oldest first (from the side files).
    public func arrivedOverTLS() -> [Bool] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted()
        return names.map { name in
            let side = folder + "/" + name.dropLast(4) + ".json"
            let data = FileManager.default.contents(atPath: side) ?? Data()
            return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["tls"] as? Bool ?? false
        }
    }

    /// The raw messages received so far, oldest first.
    public func messages() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted()
        return names.compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
    }
}
