import CLibPQ
import Foundation

/// One libpq connection: parameterized queries, a prepared-statement cache and multi-statement scripts.
///
/// Calls block the calling thread until Postgres answers (or `statement_timeout` fires). Use a connection from
/// one thread at a time; `Pool` guarantees that for the connections it hands out. After a `.connectionLost`
/// error the connection is broken for good (`isBroken`): drop it and open another.
public final class Connection: @unchecked Sendable {
    /// libpq's `bytea` type OID: `.bytea` parameters are declared with it.
    private static let byteaOID: Oid = 17
    /// Beyond this many distinct SQL texts, `queryPrepared` stops preparing and runs them unprepared.
    private static let preparedStatementLimit = 512

    private var handle: OpaquePointer?
    /// Set once the connection failed for good (`isBroken`).
    var broken = false
    /// SQL text → name of the statement prepared for it on this connection.
    var preparedStatements: [String: String] = [:]
    private var nextStatementNumber = 1
    /// Statements waiting to go out in front of the next one sent (`sendWithNext`).
    var unsent: [Statement] = []
    /// How many times this connection has been used to talk to Postgres (every statement, pipeline, prepare): two
    /// `mark`s tell whether anything was sent in between.
    private(set) var exchanges = 0
    /// False under `DATABASE_PREPARED=off`: `queryPrepared` and prepared pipeline statements run unnamed.
    let usesPreparedStatements: Bool

    /// Connects to `configuration.url` (URI or key=value), then sets `statement_timeout`.
    ///
    /// Throws `.connectFailed` when the server cannot be reached, refuses the login, or the URL does not parse.
    /// The message never contains the URL or its password.
    public init(configuration: PostgresConfiguration) throws {
        usesPreparedStatements = configuration.preparedStatements
        let password = try Self.password(in: configuration.url)
        // `dbname` first and expand_dbname=1: libpq expands the URL in its place, and the keywords after it
        // override what the URL says.
        let keywords = ["dbname", "connect_timeout", "fallback_application_name"]
        let values = [configuration.url, String(configuration.connectTimeout), "handoff"]
        let connection = Self.withCStringArray(keywords) { keywordPointers in
            Self.withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connectFailed, message: "could not connect to Postgres: out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            var message = Self.errorMessage(of: connection)
            if let password, !password.isEmpty {
                message = message.replacingOccurrences(of: password, with: "***")
            }
            PQfinish(connection)
            throw PostgresError(kind: .connectFailed, message: "could not connect to Postgres: \(message)")
        }
        handoff_pq_silence_notices(connection)
        handle = connection
        do {
            try execute("SET statement_timeout = \(configuration.statementTimeoutMilliseconds)")
        } catch let error as PostgresError {
            close()
            throw PostgresError(kind: .connectFailed, sqlState: error.sqlState,
                                message: "could not set statement_timeout: \(error.message)")
        }
    }

    deinit { close() }

    /// Whether the connection is closed or dead; a broken connection is never used again.
    public var isBroken: Bool {
        guard let handle else { return true }
        return broken || PQstatus(handle) != CONNECTION_OK
    }

    /// The libpq handle, for extensions in this module; nil once closed.
    var rawHandle: OpaquePointer? { handle }

    /// The server process serving this connection (`pg_backend_pid()`); 0 once closed.
    public var backendPID: Int32 {
        guard let handle else { return 0 }
        return PQbackendPID(handle)
    }

    /// Closes the connection; later queries throw `.connectionLost`. Calling it twice is harmless.
    public func close() {
        guard let handle else { return }
        PQfinish(handle)
        self.handle = nil
    }

    /// Runs one statement with `$1`, `$2` … parameters (PQexecParams) and returns its rows.
    ///
    /// Text parameters go in text format and are converted by the server to the type the statement needs;
    /// `bytea` parameters go in binary. Results come back in text format.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> QueryResult {
        if !unsent.isEmpty { return try pipeline([Statement(sql, parameters)])[0] }
        let connection = try liveHandle()
        let result = try Self.withParameters(parameters) { types, values, lengths, formats in
            PQexecParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 0)
        }
        return try consume(result)
    }

    /// Like `query`, but prepares the statement on first use and reuses it afterwards on this connection.
    ///
    /// With `preparedStatements` off in the configuration it is exactly `query` (an unnamed statement).
    /// The cache is keyed by the SQL text; parameter types are fixed by the first call (text parameters are
    /// left for the server to infer, `bytea` and binary ones are declared with their type). Use it for hot, fixed SQL.
    @discardableResult
    public func queryPrepared(_ sql: String, _ parameters: [PostgresValue] = []) throws -> QueryResult {
        if !unsent.isEmpty { return try pipeline([Statement(sql, parameters, prepared: true)])[0] }
        guard usesPreparedStatements else { return try query(sql, parameters) }
        if let name = preparedStatements[sql] {
            do {
                return try executePrepared(name, parameters)
            } catch let error as PostgresError where error.sqlState == "26000" {
                // Someone ran DEALLOCATE or DISCARD on this connection: prepare again below.
                preparedStatements[sql] = nil
            }
        }
        guard let name = try prepare(sql, parameters) else { return try query(sql, parameters) }
        return try executePrepared(name, parameters)
    }

    /// Prepares `sql` on this connection and caches its name; nil once the cache is full (run it unprepared then).
    func prepare(_ sql: String, _ parameters: [PostgresValue]) throws -> String? {
        guard usesPreparedStatements, preparedStatements.count < Self.preparedStatementLimit else { return nil }
        let connection = try liveHandle()
        let name = "handoff_\(nextStatementNumber)"
        nextStatementNumber += 1
        let prepared = try Self.withParameters(parameters) { types, _, _, _ in
            PQprepare(connection, name, sql, Int32(parameters.count), types)
        }
        _ = try consume(prepared)
        preparedStatements[sql] = name
        return name
    }

    /// Runs a script of one or more `;`-separated statements without parameters (PQexec), e.g. a migration.
    ///
    /// Statements run in one implicit transaction unless the script has its own BEGIN/COMMIT.
    public func execute(_ script: String) throws {
        try sendQueued()
        let connection = try liveHandle()
        _ = try consume(PQexec(connection, script))
    }

    /// libpq's view of the transaction: idle, inside a block, inside a failed block, or unknown.
    var transactionStatus: PGTransactionStatusType {
        guard let handle else { return PQTRANS_UNKNOWN }
        return PQtransactionStatus(handle)
    }

    /// Whether a statement failed inside the open transaction block, so only ROLLBACK is accepted.
    public var isInFailedTransaction: Bool { transactionStatus == PQTRANS_INERROR }

    /// Makes the connection fit to hand to the next caller: rolls back an open or failed transaction.
    /// Returns false when it is broken or could not be cleaned, so it must be closed instead.
    func prepareForReuse() -> Bool {
        unsent = []
        guard !isBroken else { return false }
        switch transactionStatus {
        case PQTRANS_IDLE:
            return true
        case PQTRANS_INTRANS, PQTRANS_INERROR:
            guard (try? execute("ROLLBACK")) != nil else { return false }
            return !isBroken && transactionStatus == PQTRANS_IDLE
        default:
            return false
        }
    }

    // MARK: - Statements sent with the next one

    /// Queues `statements` to be sent in front of the next statement this connection sends (`query`,
    /// `queryPrepared`, `pipeline`, `execute`), in the same round trip: a transaction's BEGIN and scope, a
    /// savepoint. Their errors are that next call's errors. A caller that may send nothing afterwards looks at
    /// `unsentStatementCount` and drops what it queued (`dropUnsentStatements`) instead of undoing what never ran.
    public func sendWithNext(_ statements: [Statement]) {
        unsent += statements
    }

    /// How many statements queued by `sendWithNext` have not been sent yet (all are sent together, or none).
    public var unsentStatementCount: Int { unsent.count }

    /// Forgets the statements queued by `sendWithNext` that were not sent, except the first `kept`.
    public func dropUnsentStatements(keeping kept: Int = 0) {
        unsent.removeSubrange(min(kept, unsent.count)...)
    }

    /// Queues a write whose answer nobody reads (`sendWithNext`, prepared): it goes with this connection's next
    /// statement, so several such writes share one round trip. Its failure is thrown by the call that sends it;
    /// whoever owns the transaction sends what is left before it commits (`sendQueued`; `Pool.transaction` does).
    public func queueWrite(_ sql: String, _ parameters: [PostgresValue] = []) {
        unsent.append(Statement(sql, parameters, prepared: true))
    }

    /// Where the connection stands: how often it has talked to Postgres and how many statements wait (`queued`).
    public struct Mark: Equatable, Sendable {
        let exchanges: Int
        public let queued: Int
    }

    /// The connection's mark now, to compare with later (`hasSentOrQueued(since:)`).
    public var mark: Mark { Mark(exchanges: exchanges, queued: unsent.count) }

    /// Whether anything reached Postgres since `mark`.
    public func hasSent(since mark: Mark) -> Bool { exchanges != mark.exchanges }

    /// Whether anything reached Postgres or was queued since `mark` (taken after the caller's own queueing).
    public func hasSentOrQueued(since mark: Mark) -> Bool { self.mark != mark }

    /// Sends every queued statement now (one round trip; none when nothing is queued).
    public func sendQueued() throws {
        if !unsent.isEmpty { try pipeline([]) }
    }

    // MARK: - Running statements

    private func executePrepared(_ name: String, _ parameters: [PostgresValue]) throws -> QueryResult {
        let connection = try liveHandle()
        let result = try Self.withParameters(parameters) { _, values, lengths, formats in
            PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        return try consume(result)
    }

    func liveHandle() throws -> OpaquePointer {
        exchanges += 1
        guard let handle, !broken else {
            throw PostgresError(kind: .connectionLost, message: "the connection is closed or broken")
        }
        return handle
    }

    /// Copies a result into Swift values and clears it, or turns it into a `PostgresError`.
    func consume(_ result: OpaquePointer?) throws -> QueryResult {
        guard let result else { throw failureWithoutResult() }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
            return Self.copy(result)
        case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
            // The connection now waits for COPY data we will never send: it cannot be reused.
            broken = true
            throw PostgresError(kind: .other, message: "COPY is not supported by this client")
        default:
            throw failure(from: result)
        }
    }

    private func failure(from result: OpaquePointer) -> PostgresError {
        let sqlState = handoff_pq_sqlstate(result).map { String(cString: $0) }
        var message = handoff_pq_primary_message(result).map { String(cString: $0) }
            ?? Self.trimmed(String(cString: PQresultErrorMessage(result)))
        if message.isEmpty, let handle { message = Self.errorMessage(of: handle) }
        if let sqlState, sqlState.hasPrefix("22") { message = Self.withoutQuotedValue(message) }
        let constraint = handoff_pq_constraint_name(result).map { String(cString: $0) }
        var kind = sqlState.map(PostgresError.Kind.init(sqlState:)) ?? .other
        if let handle, PQstatus(handle) == CONNECTION_BAD { kind = .connectionLost }
        if sqlState == "25006", isOnReadOnlyServer { kind = .readOnlyServer }
        if kind == .connectionLost || kind == .readOnlyServer { broken = true }
        return PostgresError(kind: kind, sqlState: sqlState, message: message, constraint: constraint)
    }

    /// libpq returned no result: out of memory, or the connection could not send or receive.
    func failureWithoutResult() -> PostgresError {
        guard let handle else {
            return PostgresError(kind: .connectionLost, message: "the connection is closed")
        }
        let message = Self.errorMessage(of: handle)
        if PQstatus(handle) == CONNECTION_BAD {
            broken = true
            return PostgresError(kind: .connectionLost, message: message)
        }
        return PostgresError(kind: .other, message: message.isEmpty ? "libpq returned no result" : message)
    }

    private static func copy(_ result: OpaquePointer) -> QueryResult {
        let columnCount = PQnfields(result)
        let rowCount = PQntuples(result)
        let names = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let layout = Row.Layout(names: names)
        var rows: [Row] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                let isNull = PQgetisnull(result, row, column) == 1
                values.append(isNull ? nil : String(cString: PQgetvalue(result, row, column)))
            }
            rows.append(Row(layout: layout, values: values))
        }
        let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return QueryResult(columns: names, rows: rows, affectedRows: affected)
    }

    // MARK: - C strings

    /// Lends `body` libpq's parameter arrays: type OIDs, NUL-terminated values, lengths and formats.
    /// The buffers live until `body` returns.
    static func withParameters<R>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                 UnsafePointer<Int32>?) throws -> R
    ) throws -> R {
        var types: [Oid] = []
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { buffers.forEach { free($0) } }
        func appendBinary(_ bytes: [UInt8], type: Oid, index: Int) throws {
            guard bytes.count <= Int(Int32.max), let raw = malloc(max(1, bytes.count)) else {
                throw PostgresError(kind: .other, message: "binary parameter $\(index + 1) is too large")
            }
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress { raw.copyMemory(from: base, byteCount: source.count) }
            }
            types.append(type)
            buffers.append(raw.assumingMemoryBound(to: CChar.self))
            lengths.append(Int32(bytes.count))
            formats.append(1)
        }
        for (index, parameter) in parameters.enumerated() {
            switch parameter {
            case .null:
                types.append(0)
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(var text):
                // One pass over contiguous UTF-8 (memchr + memcpy): a byte-by-byte `utf8.contains(0)` was 14% of the
                // append client's instructions (callgrind, bench/append).
                var hasNUL = false
                let copied = text.withUTF8 { utf8 -> UnsafeMutablePointer<CChar>? in
                    if let base = utf8.baseAddress, memchr(base, 0, utf8.count) != nil {
                        hasNUL = true
                        return nil
                    }
                    guard let raw = malloc(utf8.count + 1)?.assumingMemoryBound(to: CChar.self) else { return nil }
                    if let base = utf8.baseAddress { memcpy(raw, base, utf8.count) }
                    raw[utf8.count] = 0
                    return raw
                }
                guard !hasNUL else {
                    throw PostgresError(kind: .other, message: "text parameter $\(index + 1) contains a NUL character")
                }
                guard let copy = copied else {
                    throw PostgresError(kind: .other, message: "out of memory copying parameter $\(index + 1)")
                }
                types.append(0)
                buffers.append(copy)
                lengths.append(0)
                formats.append(0)
            case .bytea(let bytes):
                try appendBinary(bytes, type: byteaOID, index: index)
            case .binary(let type, let bytes):
                try appendBinary(bytes, type: type, index: index)
            }
        }
        let values = buffers.map { $0.map { UnsafePointer($0) } }
        return try types.withUnsafeBufferPointer { types in
            try values.withUnsafeBufferPointer { values in
                try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer { formats in
                        try body(types.baseAddress, values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }

    /// Lends `body` a NULL-terminated array of C strings.
    private static func withCStringArray<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The password the connection string carries, to keep it out of messages; throws when it does not parse.
    private static func password(in url: String) throws -> String? {
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &parseError) else {
            if let parseError { PQfreemem(parseError) }
            // libpq's message can quote parts of the URL, password included: say only what is wrong.
            throw PostgresError(kind: .connectFailed, message: "the database URL is not a valid connection string")
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                return String(cString: value)
            }
            option += 1
        }
        return nil
    }

    /// libpq's last message on one line (it spreads hints over several, indented with tabs).
    private static func errorMessage(of connection: OpaquePointer) -> String {
        let text = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        return text.split(whereSeparator: \.isNewline).map { trimmed(String($0)) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    private static func trimmed(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `invalid input syntax for type integer: "secret"` → `invalid input syntax for type integer`.
    private static func withoutQuotedValue(_ message: String) -> String {
        guard message.hasSuffix("\""), let range = message.range(of: ": \"") else { return message }
        return String(message[..<range.lowerBound])
    }
}
