import Commands
import Domain
import EventStore
import Foundation
import Postgres

/// `handoff audit report --org ID [--from T] [--to T] [--group-by day|product] --format csv|jsonl` (issue 16 §4,
/// docs/audit.md "Reports"): the org's payment report at its latest signed chain head, on standard output.
///
/// Exit status: 0 printed (also without a signed head yet: an empty report naming none, and a note on standard
/// error); 1 the org has no history (an unknown org); 2 bad arguments (the message names the flag); 3 could not run.
extension AuditCommand {
    /// The report's output forms.
    public enum ReportFormat: String, Sendable {
        case csv, jsonl
    }

    /// What `audit report` is asked for.
    public struct ReportRequest: Equatable, Sendable {
        public var org: UUID
        public var query: PaymentReport.Query
        public var format: ReportFormat
    }

    /// The usage line of `audit report`.
    static let reportUsage = "       handoff audit report --org ID [--from T] [--to T] [--group-by day|product] "
        + "--format csv|jsonl"

    /// Parses the arguments after `audit report`; throws `UsageError` naming the bad flag.
    public static func parseReport(_ arguments: [String]) throws -> ReportRequest {
        let options = try flags(arguments, known: ["--org", "--from", "--to", "--group-by", "--format"])
        guard let orgText = options["--org"] else { throw UsageError(message: "--org is required for report") }
        guard let org = UUID(canonicalText: orgText) else {
            throw UsageError(message: "--org must be an organization id (a UUID), got \"\(orgText)\"")
        }
        guard let formatText = options["--format"] else {
            throw UsageError(message: "--format is required for report (csv or jsonl)")
        }
        guard let format = ReportFormat(rawValue: formatText) else {
            throw UsageError(message: "--format must be csv or jsonl, got \"\(formatText)\"")
        }
        func instant(_ flag: String) throws -> Date? {
            guard let text = options[flag] else { return nil }
            guard let date = RFC3339.parse(text) else {
                throw UsageError(message: "\(flag) must be an RFC 3339 date-time, e.g. 2026-01-01T00:00:00Z, got "
                    + "\"\(text)\"")
            }
            return date
        }
        var grouping = PaymentReport.Grouping.day
        if let text = options["--group-by"] {
            guard let value = PaymentReport.Grouping(rawValue: text) else {
                throw UsageError(message: "--group-by must be day or product, got \"\(text)\"")
            }
            grouping = value
        }
        return ReportRequest(org: org, query: PaymentReport.Query(from: try instant("--from"), to: try instant("--to"),
                                                                  grouping: grouping), format: format)
    }

    /// Runs `handoff audit report …` with the arguments after `report`; returns the exit status.
    static func runReport(arguments: [String], environment: [String: String]) -> Int32 {
        let request: ReportRequest
        do {
            request = try parseReport(arguments)
        } catch {
            Subcommands.printError("handoff audit report: \(error)\n\(usage)")
            return 2
        }
        guard let configuration = Subcommands.configuration(from: environment) else { return 2 }
        guard let connection = orgReadConnection(configuration, command: "audit report") else { return 3 }
        defer { connection.close() }
        let orgText = request.org.lowercasedText
        do {
            guard let report = try readReport(request, on: connection) else {
                Subcommands.printError("handoff audit report: org \(orgText) has no history (no such organization)")
                return 1
            }
            if report.head == nil {
                Subcommands.printError("handoff audit report: org \(orgText) has no signed head yet, so the report "
                    + "counts no event (the checkpoint worker role signs one once its history moved)")
            }
            let text = request.format == .csv ? report.csvText : report.jsonlText
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
            return 0
        } catch {
            Subcommands.printError("handoff audit report: \(error)")
            return 3
        }
    }

    /// The org's report, read in one REPEATABLE READ, READ ONLY transaction scoped to the org (so a replica's
    /// application role reads it too); nil when the org has no history.
    static func readReport(_ request: ReportRequest, on connection: Connection) throws -> PaymentReport? {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let scope = OrgScope.org(request.org).statement
            _ = try connection.query(scope.sql, scope.parameters)
            let report = try ChainHeadStore.end(org: request.org, on: connection) == nil ? nil
                : try PaymentReport.compute(request.query, org: request.org, on: connection)
            try connection.execute("COMMIT")
            return report
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
