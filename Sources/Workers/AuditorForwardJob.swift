import Commands
import Crypto
import Domain
import EventStore
import Foundation

/// The `audit-head-forward` job kind (queue `forward`, issue 16 §1): delivers one signed chain head to its org's
/// auditor URL, so a copy lives outside the deployment.
///
/// Made by the `checkpoint` role in the transaction that inserts the head (dedupe key
/// `audit-head-forward:<org>:<org_seq>`); no event makes it. The payload holds the exact request: the body is the
/// head's document (canonical JSON, as `handoff audit head` prints it) and the headers sign it —
/// `content-type: application/json`, `x-handoff-audit-key-id: <key_id>`, `x-handoff-audit-signature:
/// ed25519=<hex Ed25519 signature of the body>` — so every retry sends identical bytes, and a receiver checks it
/// with the public keys of `GET /s2s/v1/audit/keys` (and the head's own signature, inside the body).
///
/// Claim phase: read the org's auditor URL now (cleared since: done, `skipped`). I/O: one POST through the
/// `Forwarder` (SSRF guard, TLS, 10 s). Outcome: 2xx done; otherwise the ladder of `store-forward`. **No event is
/// recorded**: an event would move the org's head, which the checkpoint would sign and forward again, for ever; the
/// job row (`outcome`, `last_error`, `handoff jobs list --org`) is the record of the deliveries.
public enum AuditorForwardJob {
    public static let name = "audit-head-forward"
    public static let queue = StoreForwardJob.queue
    /// The ladder of `store-forward`: 1 min, 5 min, 30 min, 2 h, 6 h, 24 h, then `dead`.
    public static let retryDelays = StoreForwardJob.retryDelays

    /// The kind with its effect.
    public static func kind(forwarder: Forwarder) -> JobKind {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: { _ in [] }) { run in
            try perform(run, forwarder: forwarder)
        }
    }

    /// The job delivering `head`, its body signed by `signer`.
    public static func job(_ head: ChainHead, signer: ChainHeadSigner) -> NewJob {
        let body = head.json.canonicalText
        let org = head.orgId.lowercasedText
        return NewJob(kind: name, orgId: head.orgId, payload: .object([
            "orgSeq": .integer(Int64(head.orgSeq)), "body": .string(body), "keyId": .string(signer.keyId),
            "signature": .string(Hex.encode(signer.signature(for: Array(body.utf8)))),
        ]), dedupeKey: "\(name):\(org):\(head.orgSeq)")
    }

    /// The request's headers for a body signed with `signature` by key `keyId`.
    public static func headers(keyId: String, signature: String) -> [(String, String)] {
        [("content-type", "application/json"), ("x-handoff-audit-key-id", keyId),
         ("x-handoff-audit-signature", "ed25519=" + signature)]
    }

    static func perform(_ run: JobRun, forwarder: Forwarder) throws -> JobPlan {
        let payload = run.job.payload
        guard let org = run.job.orgId, let body = payload["body"]?.stringValue,
              let keyId = payload["keyId"]?.stringValue, let signature = payload["signature"]?.stringValue
        else { throw JobFailure("malformed audit-head-forward payload", permanent: true) }
        guard let url = try AuditorLookup.url(org: org, on: run.transaction.connection) else {
            return .done("skipped: the organization has no auditor URL")
        }
        let headers = headers(keyId: keyId, signature: signature)
        return .effect(JobEffect(timeout: forwarder.settings.timeout + 1, perform: {
            forwarder.post(url: url, headers: headers, body: Array(body.utf8))
        }, record: { attempt, _ in
            if attempt.succeeded { return .done("forwarded: \(attempt.status ?? 0)") }
            let reason = attempt.status.map { "HTTP \($0)" } ?? attempt.error ?? "no answer"
            return .failed(JobFailure(reason, permanent: attempt.error == "too large"))
        }))
    }
}
