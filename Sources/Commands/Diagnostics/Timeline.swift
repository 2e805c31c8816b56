import Domain
import Foundation

/// A buyer's (or one payment's) diagnostic timeline: every fact in order with its sentence, and the verdict on top.
///
/// Holds no personal data: facts are read from events' types and clear fields only, codes only as the fact that one
/// was minted or redeemed (redacted), never an e-mail or IP.
public struct Timeline: Sendable, Equatable {
    public var guid: String
    /// The payment a payment timeline is about; nil for a buyer's.
    public var paymentId: String?
    public var verdict: HandoffVerdict
    /// In log order (`org_seq`).
    public var entries: [Entry]
    /// True when the buyer has more events than one timeline reads (`BuyerTimelines.maxEvents`): the oldest shown.
    public var truncated: Bool

    /// One fact with the event it came from.
    public struct Entry: Sendable, Equatable {
        public var fact: DiagnosticFact
        /// The event type (`PaymentRecorded`, `FingerprintRefused`, …).
        public var event: String
        /// The event's `org_seq`, so a support person can find it in `GET /s2s/v1/events`.
        public var orgSeq: Int
    }

    /// Each entry's sentence (`DiagnosticFact.lines`).
    public var lines: [String] { DiagnosticFact.lines(entries.map(\.fact)) }

    /// `{"entries":[{"at","event","line","orgSeq","paymentId"}],"guid","paymentId","truncated","verdict":{…}}` as
    /// canonical JSON; `verdict` is `{"identified":true,"path","at","text"}` or `{"identified":false,"reason",
    /// "text"}`.
    public var json: EventJSON {
        let shown: [EventJSON] = zip(entries, lines).map { entry, line in
            .object([
                "at": .string(PaymentFields.text(entry.fact.at)), "event": .string(entry.event),
                "line": .string(line), "orgSeq": .integer(Int64(entry.orgSeq)),
                "paymentId": entry.fact.paymentId.map(EventJSON.string) ?? .null,
            ])
        }
        return .object([
            "guid": .string(guid), "paymentId": paymentId.map(EventJSON.string) ?? .null,
            "verdict": Self.json(verdict), "entries": .array(shown), "truncated": .bool(truncated),
        ])
    }

    /// The verdict as JSON.
    static func json(_ verdict: HandoffVerdict) -> EventJSON {
        switch verdict {
        case .identified(let path, let at):
            return .object(["identified": .bool(true), "path": .string(path.rawValue),
                            "at": .string(PaymentFields.text(at)), "text": .string(verdict.words)])
        case .notIdentified(let reason):
            return .object(["identified": .bool(false), "reason": .string(reason.code),
                            "text": .string(verdict.words)])
        }
    }

    /// The CLI's form: the verdict, then one `<time>  <payment>  <sentence>` line per fact.
    public var text: String {
        var output = ["buyer \(guid)" + (paymentId.map { ", payment \($0)" } ?? ""), verdict.words, ""]
        for (entry, line) in zip(entries, lines) {
            output.append("\(PaymentFields.text(entry.fact.at))  \(entry.fact.paymentId ?? "-")  \(line)")
        }
        if truncated { output.append("(only the oldest \(entries.count) facts are shown)") }
        return output.joined(separator: "\n") + "\n"
    }
}

extension HandoffVerdict.Reason {
    /// A stable machine name for the reason (`fingerprintRefused`, `codeExpiredUnused`, …).
    public var code: String {
        switch self {
        case .noPayment: "noPayment"
        case .fingerprintRefused: "fingerprintRefused"
        case .fingerprintingOff: "fingerprintingOff"
        case .codeExpiredUnused: "codeExpiredUnused"
        case .recoverySkipped: "recoverySkipped"
        case .trackerLinkMissingAdjT: "trackerLinkMissingAdjT"
        case .noFingerprintCaptured: "noFingerprintCaptured"
        case .openedWithoutFingerprint: "openedWithoutFingerprint"
        case .recoveryNeverRequested: "recoveryNeverRequested"
        case .recoveryNotUsed: "recoveryNotUsed"
        }
    }
}
