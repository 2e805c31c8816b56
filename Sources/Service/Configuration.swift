import Commands
import Domain
import Foundation
import Redis
import Telemetry

/// Every setting of the service, read once from the environment at start and validated here.
///
/// No other code reads `ProcessInfo`; a bad value throws `ConfigurationError` naming the variable.
/// The defaults suit a local run (`infra/dev` sets the URLs of the servers it starts).
public struct Configuration: Sendable {
    public var databaseURL: String
    /// The owner role used by `handoff migrate`, `replay`, `audit` and `jobs`; defaults to `DATABASE_URL`.
    public var migrationDatabaseURL: String
    public var databasePoolSize: Int
    public var databaseStatementTimeoutMilliseconds: Int
    /// `COMMAND_BATCH_SIZE`: the most concurrent commands of one org that share a transaction (group commit); 1 = off.
    public var commandBatchSize: Int
    /// `DATABASE_PREPARED`: `on` (default) prepares hot statements once per connection; `off` sends them unnamed, for
    /// poolers that do not carry named statements across transactions (docs/operations.md).
    public var databasePreparedStatements: Bool
    /// `DATABASE_READ_URL`: a replica that feeds, exports, reports and entitlement lookups may read from; nil reads
    /// everything from `DATABASE_URL`.
    public var databaseReadURL: String?
    /// `REDIS_SENTINELS` + `REDIS_MASTER_NAME`: the Sentinels that name the Redis master; nil uses `REDIS_URL`'s host.
    public var redisSentinel: RedisSentinelConfiguration?
    public var redisURL: String
    public var redisPoolSize: Int
    public var redisTimeoutMilliseconds: Int
    /// `HTTP_HOST`: an IPv4 or IPv6 literal; `::` listens on every address, IPv4 too where dual stack is allowed.
    public var httpHost: String
    public var httpPort: Int
    public var httpThreads: Int
    public var httpMaxBodyBytes: Int
    public var httpConnectionTimeoutSeconds: Int
    public var httpConnectionLimit: Int
    /// `HTTP_CONNECTIONS_PER_IP`: open connections one client may hold (IPv6 by `ipv6PrefixLength`); 0 = no cap.
    /// Peers in `TRUSTED_PROXIES` are not capped.
    public var httpConnectionsPerIP: Int
    /// `HTTP_HEADER_TIMEOUT_SECONDS`: how long a request's headers may take to arrive in full, however steadily.
    public var httpHeaderTimeoutSeconds: Int
    /// `IPV6_PREFIX_LENGTH`: the leading bits of an IPv6 client address that every per-IP limit counts by.
    public var ipv6PrefixLength: Int
    public var trustedProxies: [String]
    /// `METRICS_ADDRESS`: where `GET /metrics` is served, apart from the API port; nil (`off`) serves it nowhere.
    public var metricsAddress: ListenAddress?
    public var shutdownGraceSeconds: Int
    public var logLevel: Logger.Level
    /// `PUBLIC_BASE_URL`: how clients reach this service (`http(s)://host[:port][/path]`, no trailing `/`), for links to
    /// its own pages (`postPaymentUrl`); defaults to `http://127.0.0.1:$HTTP_PORT`.
    public var publicBaseURL: String
    /// `HANDOFF_MASTER_KEY`: the 32-byte key that wraps every buyer's data key; nil when unset
    /// (see `personalDataSecrets()` and docs/personal-data.md).
    public var masterKey: Secret?
    /// `HANDOFF_MASTER_KEY_PREVIOUS`: older master keys (comma-separated) that still unwrap, never wrap, while
    /// `handoff keys rotate master` re-wraps every row under `masterKey` (docs/operations.md); empty when unset.
    public var previousMasterKeys: [Secret]
    /// `HANDOFF_LOOKUP_PEPPER`: at least 32 bytes, the HMAC key of e-mail and IP lookup hashes; nil when unset.
    public var lookupPepper: Secret?
    /// `HANDOFF_PASS_KEYS`: `id:base64url,…`, the first key signs passes, all verify; empty when unset.
    public var passKeys: [(id: String, key: Secret)]
    /// `HANDOFF_AUDIT_SIGNING_KEY`: base64url of the 32-byte Ed25519 seed of the deployment's audit key, which the
    /// `checkpoint` role signs chain heads with (docs/audit.md); nil when unset (the role then signs nothing).
    public var auditSigningKey: Secret?
    /// `CHECKPOINT_INTERVAL_SECONDS`: the `checkpoint` role signs an org's head at most once per this many seconds.
    public var checkpointIntervalSeconds: Int
    /// `INGEST_RETENTION_DAYS`: the `ingest-retention` role drops app-ingest partitions of days older than this.
    public var ingestRetentionDays: Int
    /// `LINK_CLICK_RETENTION_DAYS`: the `ingest-retention` role deletes go-link clicks older than this.
    public var linkClickRetentionDays: Int
    /// `RECORDING_RETENTION_DAYS`: the `ingest-retention` role deletes recording packets older than this.
    public var recordingRetentionDays: Int
    /// `INGEST_DAILY_BATCHES`: stored app-ingest batches per project and UTC day.
    public var ingestDailyBatches: Int
    /// `APPLE_ROOT_CERTIFICATES`: the roots App Store signatures must chain to; Apple Root CA - G3 when unset.
    public var appleTrustRoots: AppleTrustRoots
    /// `RESOLVE_FAILED_LOOKUPS_PER_MINUTE`: failed code lookups the whole deployment may have per minute before IPs
    /// that failed in the last 10 minutes are refused with 429 on `GET /public/handoff/resolve`.
    public var resolveFailedLookupsPerMinute: Int
    /// `RESOLVE_LIMITS`: `on` (default) or `off`; off drops both resolve limits (for `bench/resolve` only).
    public var resolveLimits: Bool
    /// `RATE_LIMIT_MULTIPLIER`: every rate limit and budget of the API times this (1 in production; the contract test
    /// raises them so that its thousands of requests from one address measure the contract, not the limits).
    public var rateLimitMultiplier: Int
    /// `SMTP_URL`: where `handoff work` hands mail (`smtp://` or `smtps://`, optional `user:password@`).
    public var smtpURL: String
    /// `MAIL_FROM`: the sender address of every mail (envelope and `From`).
    public var mailFrom: String
    /// `MAIL_FROM_NAME`: the sender's display name.
    public var mailFromName: String
    /// `WORK_THREADS`: worker threads per queue in each `handoff work` process.
    public var workThreads: Int
    /// `JOB_VISIBILITY_TIMEOUT_SECONDS`: after this long a crashed worker's jobs are taken over, and an enqueued job
    /// is checked against Redis by the sweeper.
    public var jobVisibilityTimeoutSeconds: Int
    /// `GOOGLE_OIDC_JWKS`: Google's keys for the OIDC tokens of Play pushes (a JWKS file, re-read when it changes, or
    /// inline JSON); nil when unset, and then a Google push to an app with a push service account is refused (401).
    public var googleOIDCJWKS: GoogleOIDCKeys.Source?
    /// `GOOGLE_PLAY_API_BASE_URL`: the Play Developer API (tests point it at a stand-in); no trailing `/`.
    public var googlePlayAPIBaseURL: String
    /// `APPLE_ADS_API_BASE_URL`: Apple's AdServices attribution API (tests point it at a stand-in); no trailing `/`.
    public var appleAdsAPIBaseURL: String
    /// `SMTP_CA_FILE`: a PEM file of CAs the SMTP client trusts in addition to the system's (tests); nil when unset.
    public var smtpCAFile: String?
    /// `FORWARD_ALLOWED_NETWORKS`: networks forwards may reach although not public (empty: public addresses only).
    public var forwardAllowedNetworks: NetworkAllowList
    /// `FORWARD_CA_FILE`: a PEM file of CAs forwards trust in addition to the system's (tests); nil when unset.
    public var forwardCAFile: String?
    /// `SURFACE_TIMESTAMP_MAX_AGE_HOURS`: how many hours in the past a forwarded notification's `x-ea-timestamp` may
    /// lie (`POST /v1/app-store/assn/{surfaceId}`); retries resend the first attempt's timestamp.
    public var surfaceTimestampMaxAgeHours: Int

    /// Key material from the environment. Prints as `<redacted>` (also inside a printed `Configuration`).
    public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
        CustomReflectable
    {
        /// The decoded bytes.
        public let bytes: [UInt8]

        public init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        public var description: String { "<redacted>" }
        public var debugDescription: String { "<redacted>" }
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    /// Every variable the service reads, with its default and meaning (printed by `handoff help`, listed in README).
    public static let variables: [(name: String, defaultValue: String, meaning: String)] = [
        ("DATABASE_URL", "postgresql://handoff@127.0.0.1:5432/handoff", "Postgres for serve/work (URI or key=value)"),
        ("MIGRATION_DATABASE_URL", "DATABASE_URL", "Postgres owner role: migrate, replay, audit, jobs"),
        ("DATABASE_POOL_SIZE", "HTTP_THREADS", "Postgres connections per process (1–200)"),
        ("DATABASE_STATEMENT_TIMEOUT_MS", "10000", "statement_timeout of every connection (100–600000)"),
        ("COMMAND_BATCH_SIZE", "16", "concurrent commands of one org sharing a transaction (1–32; 1 = no group commit)"),
        ("DATABASE_PREPARED", "on", "on: named prepared statements; off: unnamed (pgbouncer < 1.21 transaction mode)"),
        ("DATABASE_READ_URL", "(none)", "a replica for feeds, exports, reports, entitlement reads (read-your-writes)"),
        ("REDIS_URL", "redis://127.0.0.1:6379", "Redis: redis://[:password@]host[:port][/db] or unix:///path"),
        ("REDIS_SENTINELS", "(none)", "host:port,…: Sentinels that name the master (REDIS_URL gives password, db)"),
        ("REDIS_MASTER_NAME", "(none)", "the master's name in the Sentinels (required with REDIS_SENTINELS)"),
        ("REDIS_POOL_SIZE", "HTTP_THREADS", "Redis connections per process (1–200)"),
        ("REDIS_TIMEOUT_MS", "1000", "Redis connect and per-command timeout (10–60000)"),
        ("HTTP_HOST", "127.0.0.1", "address the API listens on: IPv4 or IPv6 literal (:: = all, dual-stack)"),
        ("HTTP_PORT", "8080", "port the API listens on (1–65535)"),
        ("HTTP_THREADS", "4", "request threads (1–256); handlers block on Postgres/Redis"),
        ("HTTP_MAX_BODY_BYTES", "65536", "body limit for routes without their own (0–16777216)"),
        ("HTTP_CONNECTION_TIMEOUT_SECONDS", "30", "idle seconds before a connection is closed (1–3600)"),
        ("HTTP_CONNECTION_LIMIT", "1024", "open connections at most (1–65536)"),
        ("HTTP_CONNECTIONS_PER_IP", "64",
         "open connections per client IP or IPv6 prefix (0–65536, 0 = no cap; trusted proxies uncapped)"),
        ("HTTP_HEADER_TIMEOUT_SECONDS", "10", "seconds a request's headers may take to arrive in full (1–3600)"),
        ("IPV6_PREFIX_LENGTH", "64", "leading bits of an IPv6 client address that per-IP limits count by (32–128)"),
        ("TRUSTED_PROXIES", "(none)", "comma-separated IPs/CIDRs whose X-Forwarded-For is honoured"),
        ("METRICS_ADDRESS", "127.0.0.1:9464", "host:port or [IPv6]:port of the /metrics listener, or off"),
        ("SHUTDOWN_GRACE_SECONDS", "10", "on SIGTERM, seconds to finish in-flight requests (0–600)"),
        ("LOG_LEVEL", "info", "debug, info, warning or error"),
        ("PUBLIC_BASE_URL", "http://127.0.0.1:$HTTP_PORT", "http(s) URL clients reach this service at (page links)"),
        ("HANDOFF_MASTER_KEY", "(none)", "base64url of 32 random bytes: wraps each buyer's personal-data key"),
        ("HANDOFF_MASTER_KEY_PREVIOUS", "(none)",
         "comma-separated base64url master keys that still unwrap during a rotation (docs/operations.md)"),
        ("HANDOFF_LOOKUP_PEPPER", "(none)", "base64url of ≥ 32 random bytes: HMAC key of e-mail/IP lookup hashes"),
        ("HANDOFF_PASS_KEYS", "(none)", "id:base64url(≥ 32 bytes),…: pass keys, the first signs, all verify"),
        ("HANDOFF_AUDIT_SIGNING_KEY", "(none)",
         "base64url of a 32-byte Ed25519 seed: the audit key that signs chain heads (checkpoint role)"),
        ("CHECKPOINT_INTERVAL_SECONDS", "60", "the checkpoint role signs an org's head at most this often (1–86400)"),
        ("INGEST_RETENTION_DAYS", "400", "the ingest-retention role drops app-ingest days older than this (1–3650)"),
        ("LINK_CLICK_RETENTION_DAYS", "180", "the ingest-retention role deletes link clicks older than this (1–3650)"),
        ("RECORDING_RETENTION_DAYS", "90", "the ingest-retention role deletes recordings older than this (1–3650)"),
        ("INGEST_DAILY_BATCHES", "1000000", "stored app-ingest batches per project and UTC day (1–1000000000)"),
        ("APPLE_ROOT_CERTIFICATES", "(Apple Root CA - G3, built in)",
         "comma-separated PEM/DER files: the roots App Store signatures must chain to"),
        ("RESOLVE_FAILED_LOOKUPS_PER_MINUTE", "300",
         "global failed code lookups per minute (1–1000000) before recently failed IPs get 429"),
        ("RESOLVE_LIMITS", "on", "on or off: off drops the resolve rate limits (benchmarks only)"),
        ("RATE_LIMIT_MULTIPLIER", "1", "multiplies every API rate limit and budget (1–1000000; tests only, keep 1)"),
        ("SMTP_URL", "smtp://127.0.0.1:25", "mail server of handoff work: smtp:// or smtps://[user:pass@]host[:port]"),
        ("MAIL_FROM", "noreply@localhost", "sender address of recovery mail (a bare address)"),
        ("MAIL_FROM_NAME", "Handoff", "sender display name of recovery mail"),
        ("WORK_THREADS", "2", "worker threads per queue in each handoff work process (1–64)"),
        ("JOB_VISIBILITY_TIMEOUT_SECONDS", "60", "seconds before a crashed worker's job is taken over (1–3600)"),
        ("GOOGLE_OIDC_JWKS", "(none)", "Google's OIDC keys for Play pushes: JWKS file path (re-read on change) or JSON"),
        ("GOOGLE_PLAY_API_BASE_URL", "https://androidpublisher.googleapis.com", "Play Developer API base URL"),
        ("APPLE_ADS_API_BASE_URL", "https://api-adservices.apple.com/api/v1",
         "Apple's AdServices attribution API: the apple-ads role posts install tokens to it"),
        ("SMTP_CA_FILE", "(none)", "PEM file of extra CAs the SMTP client trusts (tests with their own CA)"),
        ("FORWARD_ALLOWED_NETWORKS", "(none)", "comma-separated CIDRs forwards may reach although not public"),
        ("FORWARD_CA_FILE", "(none)", "PEM file of extra CAs forwards trust (tests with their own CA)"),
        ("SURFACE_TIMESTAMP_MAX_AGE_HOURS", "72",
         "hours a forwarded App Store notification's x-ea-timestamp may lie in the past (1–720)"),
    ]

    /// Where `/metrics` is served unless `METRICS_ADDRESS` says otherwise: loopback only, so nothing outside the host
    /// can scrape it, on 9464 (the default port of OpenTelemetry's Prometheus exporters).
    public static let defaultMetricsAddress = ListenAddress(host: "127.0.0.1", port: 9464)

    /// Reads and validates `environment` (pass `ProcessInfo.processInfo.environment`).
    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        httpThreads = try reader.integer("HTTP_THREADS", default: 4, in: 1...256)
        databaseURL = try reader.databaseURL("DATABASE_URL", default: "postgresql://handoff@127.0.0.1:5432/handoff")
        migrationDatabaseURL = try reader.databaseURL("MIGRATION_DATABASE_URL", default: databaseURL)
        databasePoolSize = try reader.integer("DATABASE_POOL_SIZE", default: httpThreads, in: 1...200)
        databaseStatementTimeoutMilliseconds = try reader.integer(
            "DATABASE_STATEMENT_TIMEOUT_MS", default: 10_000, in: 100...600_000)
        commandBatchSize = try reader.integer("COMMAND_BATCH_SIZE", default: 16, in: 1...32)
        databasePreparedStatements = try reader.onOff("DATABASE_PREPARED", default: true)
        databaseReadURL = try reader.text("DATABASE_READ_URL").map { _ in
            try reader.databaseURL("DATABASE_READ_URL", default: "") }
        redisSentinel = try reader.redisSentinel("REDIS_SENTINELS", masterName: "REDIS_MASTER_NAME")
        redisURL = try reader.redisURL("REDIS_URL", default: "redis://127.0.0.1:6379")
        redisPoolSize = try reader.integer("REDIS_POOL_SIZE", default: httpThreads, in: 1...200)
        redisTimeoutMilliseconds = try reader.integer("REDIS_TIMEOUT_MS", default: 1000, in: 10...60_000)
        httpHost = try reader.ipAddress("HTTP_HOST", default: "127.0.0.1")
        httpPort = try reader.integer("HTTP_PORT", default: 8080, in: 1...65535)
        httpMaxBodyBytes = try reader.integer("HTTP_MAX_BODY_BYTES", default: 65_536, in: 0...16_777_216)
        httpConnectionTimeoutSeconds = try reader.integer("HTTP_CONNECTION_TIMEOUT_SECONDS", default: 30, in: 1...3600)
        httpConnectionLimit = try reader.integer("HTTP_CONNECTION_LIMIT", default: 1024, in: 1...65536)
        httpConnectionsPerIP = try reader.integer("HTTP_CONNECTIONS_PER_IP", default: 64, in: 0...65536)
        httpHeaderTimeoutSeconds = try reader.integer("HTTP_HEADER_TIMEOUT_SECONDS", default: 10, in: 1...3600)
        ipv6PrefixLength = try reader.integer("IPV6_PREFIX_LENGTH", default: 64, in: 32...128)
        trustedProxies = try reader.addressList("TRUSTED_PROXIES")
        metricsAddress = try reader.listenAddress("METRICS_ADDRESS", default: Self.defaultMetricsAddress)
        shutdownGraceSeconds = try reader.integer("SHUTDOWN_GRACE_SECONDS", default: 10, in: 0...600)
        logLevel = try reader.logLevel("LOG_LEVEL", default: .info)
        publicBaseURL = try reader.publicBaseURL("PUBLIC_BASE_URL", default: "http://127.0.0.1:\(httpPort)")
        masterKey = try reader.base64URLSecret("HANDOFF_MASTER_KEY", byteCount: 32...32).map(Secret.init(bytes:))
        previousMasterKeys = try reader.masterKeyList("HANDOFF_MASTER_KEY_PREVIOUS").map(Secret.init(bytes:))
        lookupPepper = try reader.base64URLSecret("HANDOFF_LOOKUP_PEPPER", byteCount: 32...1024)
            .map(Secret.init(bytes:))
        passKeys = try reader.passKeys("HANDOFF_PASS_KEYS").map { ($0.id, Secret(bytes: $0.key)) }
        auditSigningKey = try reader.base64URLSecret("HANDOFF_AUDIT_SIGNING_KEY", byteCount: 32...32)
            .map(Secret.init(bytes:))
        checkpointIntervalSeconds = try reader.integer("CHECKPOINT_INTERVAL_SECONDS", default: 60, in: 1...86_400)
        ingestRetentionDays = try reader.integer("INGEST_RETENTION_DAYS", default: IngestRowStore.defaultRetentionDays,
                                                 in: 1...3650)
        linkClickRetentionDays = try reader.integer("LINK_CLICK_RETENTION_DAYS",
                                                    default: LinkClickRetention.defaultRetentionDays, in: 1...3650)
        recordingRetentionDays = try reader.integer("RECORDING_RETENTION_DAYS",
                                                    default: RecordingStore.defaultRetentionDays, in: 1...3650)
        ingestDailyBatches = try reader.integer("INGEST_DAILY_BATCHES", default: 1_000_000, in: 1...1_000_000_000)
        appleTrustRoots = try reader.appleTrustRoots("APPLE_ROOT_CERTIFICATES")
        resolveFailedLookupsPerMinute = try reader.integer(
            "RESOLVE_FAILED_LOOKUPS_PER_MINUTE", default: 300, in: 1...1_000_000)
        switch reader.text("RESOLVE_LIMITS") ?? "on" {
        case "on": resolveLimits = true
        case "off": resolveLimits = false
        case let other:
            throw ConfigurationError(variable: "RESOLVE_LIMITS", problem: "must be on or off (got \"\(other)\")")
        }
        rateLimitMultiplier = try reader.integer("RATE_LIMIT_MULTIPLIER", default: 1, in: 1...1_000_000)
        smtpURL = try reader.smtpURL("SMTP_URL", default: "smtp://127.0.0.1:25")
        mailFrom = try reader.mailAddress("MAIL_FROM", default: "noreply@localhost")
        mailFromName = try reader.displayName("MAIL_FROM_NAME", default: "Handoff")
        workThreads = try reader.integer("WORK_THREADS", default: 2, in: 1...64)
        jobVisibilityTimeoutSeconds = try reader.integer("JOB_VISIBILITY_TIMEOUT_SECONDS", default: 60, in: 1...3600)
        googleOIDCJWKS = try reader.googleOIDCKeys("GOOGLE_OIDC_JWKS")
        googlePlayAPIBaseURL = try reader.publicBaseURL(
            "GOOGLE_PLAY_API_BASE_URL", default: "https://androidpublisher.googleapis.com")
        appleAdsAPIBaseURL = try reader.publicBaseURL("APPLE_ADS_API_BASE_URL",
                                                      default: "https://api-adservices.apple.com/api/v1")
        smtpCAFile = try reader.readableFile("SMTP_CA_FILE")
        forwardAllowedNetworks = try reader.networks("FORWARD_ALLOWED_NETWORKS")
        forwardCAFile = try reader.readableFile("FORWARD_CA_FILE")
        surfaceTimestampMaxAgeHours = try reader.integer(
            "SURFACE_TIMESTAMP_MAX_AGE_HOURS", default: ForwardedTimestampWindow.standard.maxAgeHours,
            in: ForwardedTimestampWindow.maxAgeHoursRange)
    }

    /// The secrets of the buyer-identity endpoints (`POST /s2s/v1/users`, `GET /public/paywall/buyer`), or nil
    /// when any of `HANDOFF_MASTER_KEY`, `HANDOFF_LOOKUP_PEPPER`, `HANDOFF_PASS_KEYS` is unset — named in
    /// `missingIdentityVariables`. Without them `serve` still starts, logs a warning, and those endpoints answer 503.
    public var identitySecrets: (masterKey: [UInt8], lookupPepper: [UInt8], passKeys: [(id: String, key: [UInt8])])? {
        guard let masterKey, let lookupPepper, !passKeys.isEmpty else { return nil }
        return (masterKey.bytes, lookupPepper.bytes, passKeys.map { ($0.id, $0.key.bytes) })
    }

    /// The identity variables that are unset, in the order of `variables`.
    public var missingIdentityVariables: [String] {
        (masterKey == nil ? ["HANDOFF_MASTER_KEY"] : []) + (lookupPepper == nil ? ["HANDOFF_LOOKUP_PEPPER"] : [])
            + (passKeys.isEmpty ? ["HANDOFF_PASS_KEYS"] : [])
    }

    /// The master key and the lookup pepper, for the commands that read or write personal data; throws
    /// `ConfigurationError` naming the first one that is unset.
    ///
    /// There is deliberately no built-in default: a key in the source would be public, and a deployment that
    /// forgot the variable would encrypt real buyers' data under it (docs/personal-data.md).
    public func personalDataSecrets() throws -> (masterKey: [UInt8], lookupPepper: [UInt8]) {
        guard let masterKey else {
            throw ConfigurationError(variable: "HANDOFF_MASTER_KEY", problem: Self.missingSecretProblem)
        }
        guard let lookupPepper else {
            throw ConfigurationError(variable: "HANDOFF_LOOKUP_PEPPER", problem: Self.missingSecretProblem)
        }
        return (masterKey.bytes, lookupPepper.bytes)
    }

    private static let missingSecretProblem =
        "is required to handle personal data; set it to 32 random bytes in base64url "
            + "(openssl rand 32 | basenc --base64url)"
}
