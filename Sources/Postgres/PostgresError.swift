/// A failure from Postgres or the pool, classified so callers can branch on `kind`, never on text.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as far as a caller needs to decide (retry, answer 409, replace the connection …).
    public enum Kind: Sendable, Equatable {
        /// SQLSTATE 23505: a unique constraint or index refused the row.
        case uniqueViolation
        /// SQLSTATE 40001: a serializable (or repeatable read) transaction lost a conflict; retry it.
        case serializationFailure
        /// SQLSTATE 40P01: the server broke a deadlock by aborting this transaction; retry it.
        case deadlockDetected
        /// SQLSTATE 57014: the statement was cancelled, including by `statement_timeout`.
        case queryCanceled
        /// The connection died (SQLSTATE class 08, 57P01–57P03, or libpq lost the socket).
        /// The connection is broken and the pool replaces it.
        case connectionLost
        /// SQLSTATE 25006 from a server that accepts only reads: a hot standby, or a primary fenced with
        /// `default_transaction_read_only` (a failover left this connection on the wrong server). The connection is
        /// broken and the pool replaces it; nothing of the statement was applied.
        case readOnlyServer
        /// A new connection could not be opened (server down, bad address, authentication refused).
        case connectFailed
        /// No pooled connection became free within `checkoutTimeout`.
        case poolTimeout
        /// Anything else: syntax errors, other constraint violations, bad parameters, decoding errors.
        case other
    }

    /// The classification callers branch on.
    public let kind: Kind
    /// The five-character SQLSTATE when the server gave one.
    public let sqlState: String?
    /// The primary message. It never includes the connection URL, and never the detail line where the
    /// server echoes key values; data-exception (class 22) messages have their quoted value cut off.
    public let message: String
    /// The name of the violated constraint (for `.uniqueViolation` and other integrity errors), if any.
    public let constraint: String?

    /// Creates an error; the pool and connections make these, tests and fakes may too.
    public init(kind: Kind, sqlState: String? = nil, message: String, constraint: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
    }

    /// `kind [SQLSTATE]: message`, safe to log.
    public var description: String {
        let state = sqlState.map { " [\($0)]" } ?? ""
        return "PostgresError.\(kind)\(state): \(message)"
    }
}

extension PostgresError.Kind {
    /// Classifies a SQLSTATE.
    init(sqlState: String) {
        switch sqlState {
        case "23505": self = .uniqueViolation
        case "40001": self = .serializationFailure
        case "40P01": self = .deadlockDetected
        case "57014": self = .queryCanceled
        case "57P01", "57P02", "57P03": self = .connectionLost
        case _ where sqlState.hasPrefix("08"): self = .connectionLost
        default: self = .other
        }
    }
}
