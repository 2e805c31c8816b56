import EventStore
import Foundation
import HTTPClient
import Redis

/// The `probe` job kind: a harmless job for tests and `bench/jobs`, compiled into the product on purpose so that real
/// `handoff work` processes can be measured and crash-tested (docs/jobs.md).
///
/// No event makes a probe: only a direct insert into `jobs` does (tests, the benchmark). Its effect is `RPUSH` of its
/// job id to the Redis list named in its payload (`started` list first, then `done` list), so a test can count how
/// often each job ran. Payload: `{"list": "<key prefix>", "sleepMs": 0, "fail": false, "mail": false}`; the list key
/// must start with `probe:`. With `"mail": true` it also sends a short fixed mail to the sender address itself
/// (`MAIL_FROM`, never anyone else) — what `bench/jobs` measures. Ladder: 10 s, 60 s, 300 s, then `dead`.
public enum ProbeJob {
    public static let name = "probe"
    public static let queue = "probe"
    public static let retryDelays: [Double] = [10, 60, 300]

    /// The kind, pushing to `redis`.
    public static func kind(redis: RedisPool, smtp: SMTPClient? = nil, mailFrom: String = "noreply@localhost")
        -> JobKind
    {
        JobKind(name: name, queue: queue, retryDelays: retryDelays, jobs: { _ in [] }) { run in
            guard let list = run.job.payload["list"]?.stringValue, list.hasPrefix("probe:") else {
                throw JobFailure("probe payload needs a 'list' starting with 'probe:'", permanent: true)
            }
            let id = String(run.job.id)
            let sleep = run.job.payload["sleepMs"]?.integerValue ?? 0
            let fails = run.job.payload["fail"] == .bool(true)
            let mails = run.job.payload["mail"] == .bool(true)
            let now = run.now
            // The effect runs with no transaction open, like every job's I/O.
            let timeout = Double(sleep) / 1000 + (mails ? (smtp?.configuration.totalTimeout ?? 0) : 0) + 5
            return .effect(JobEffect(timeout: timeout, perform: { () -> JobFailure? in
                do {
                    try redis.command(["RPUSH", list + ":started", id]).checked()
                    if sleep > 0 { usleep(UInt32(sleep) * 1000) }
                    if fails { return JobFailure("the probe was asked to fail") }
                    if mails {
                        guard let smtp else {
                            return JobFailure("this worker has no SMTP client for probes", permanent: true)
                        }
                        try send(MailContent(fromAddress: mailFrom, fromName: "Handoff probe", to: mailFrom,
                                             subject: "probe \(id)", text: "Probe job \(id).\n",
                                             html: "<p>Probe job \(id).</p>", messageID: "probe-\(id)@handoff.local",
                                             date: now), smtp: smtp)
                    }
                    try redis.command(["RPUSH", list + ":done", id]).checked()
                    return nil
                } catch {
                    return JobFailure(JobConsumer.describe(error))
                }
            }, record: { failure, _ in failure.map(JobVerdict.failed) ?? .done("probed") }))
        }
    }

    /// A probe job pushing to `list`; `dedupeKey` defaults to a random one.
    public static func job(list: String, sleepMilliseconds: Int = 0, fail: Bool = false, mail: Bool = false,
                           dedupeKey: String = "probe:" + UUID().uuidString) -> NewJob {
        NewJob(kind: name, orgId: nil, payload: .object([
            "list": .string(list), "sleepMs": .integer(Int64(sleepMilliseconds)), "fail": .bool(fail),
            "mail": .bool(mail),
        ]), dedupeKey: dedupeKey)
    }

    /// Untyped `throws`, so the SMTP error propagates as any other failed attempt.
    private static func send(_ content: MailContent, smtp: SMTPClient) throws {
        try smtp.send(try MailMessage(content))
    }
}
