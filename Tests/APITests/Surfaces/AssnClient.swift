import Foundation
import TestSupport

/// Tests/Peers/assn_client.py: a developer's server forwarding one App Store notification, written from the issue's
/// text. Either it only builds the request (`build`, for the in-process API edge) or it sends it to a real listener
/// (`send`).
struct AssnClient {
    /// What the client built, and what a listener answered when it sent it.
    struct Outcome {
        var body: [UInt8]
        var headers: [(String, String)]
        /// (status, body) per copy sent; empty when nothing was sent.
        var responses: [(status: Int, body: String)]
    }

    let secret: String
    let signedPayload: String

    /// The request for `secret` and `signedPayload`, signed at `timestamp` (unix seconds; nil = now) or `ageSeconds`
    /// before now, with `tamper` applied after signing (`timestamp`, `body` or `signature`).
    func build(timestamp: Int64? = nil, ageSeconds: Int = 0, tamper: String? = nil) throws -> Outcome {
        try run(arguments(timestamp: timestamp, ageSeconds: ageSeconds, tamper: tamper))
    }

    /// The same, POSTed to `url` in `copies` identical requests started together.
    func send(to url: String, ageSeconds: Int = 0, tamper: String? = nil, copies: Int = 1) throws -> Outcome {
        try run(arguments(timestamp: nil, ageSeconds: ageSeconds, tamper: tamper)
            + ["--url", url, "--copies", String(copies)])
    }

    private func arguments(timestamp: Int64?, ageSeconds: Int, tamper: String?) -> [String] {
        var arguments = ["--secret=" + secret, "--signed-payload=" + signedPayload, "--age-seconds", String(ageSeconds)]
        if let timestamp { arguments += ["--timestamp", String(timestamp)] }
        if let tamper { arguments += ["--tamper", tamper] }
        return arguments
    }

    private func run(_ arguments: [String]) throws -> Outcome {
        let child = try ChildProcess(["/usr/bin/python3", HandoffBinary.packageRoot() + "/Tests/Peers/assn_client.py"]
            + arguments)
        let status = try child.wait(timeout: 120)
        let output = child.output()
        guard status == .exited(0),
              let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let hex = object["body_hex"] as? String, let pairs = object["headers"] as? [[String]]
        else { throw AdminFailed(outcome: "assn_client.py: \(status) \(output)") }
        let responses = (object["responses"] as? [[String: Any]] ?? []).map {
            (status: $0["status"] as? Int ?? -1, body: $0["body"] as? String ?? "")
        }
        return Outcome(body: Self.bytes(hex: hex), headers: pairs.map { ($0[0], $0[1]) }, responses: responses)
    }

    private static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
