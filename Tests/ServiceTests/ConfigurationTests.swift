import Foundation
import Service
import Testing
import TestSupport

@Suite struct ConfigurationTests {
    @Test func anEmptyEnvironmentGivesTheLocalDefaults() throws {
        let configuration = try Configuration(environment: [:])
        #expect(configuration.httpHost == "127.0.0.1")
        #expect(configuration.httpPort == 8080)
        #expect(configuration.httpThreads == 4)
        #expect(configuration.databasePoolSize == 4)
        #expect(configuration.databaseURL == "postgresql://handoff@127.0.0.1:5432/handoff")
        #expect(configuration.migrationDatabaseURL == configuration.databaseURL)
        #expect(configuration.redisURL == "redis://127.0.0.1:6379")
        #expect(configuration.trustedProxies == [])
        #expect(configuration.httpMaxBodyBytes == 65_536)
        #expect(configuration.httpConnectionsPerIP == 64)
        #expect(configuration.httpHeaderTimeoutSeconds == 10)
        #expect(configuration.ipv6PrefixLength == 64)
        #expect(configuration.metricsAddress == ListenAddress(host: "127.0.0.1", port: 9464))
    }

    @Test func everyVariableIsRead() throws {
        let configuration = try Configuration(environment: [
            "DATABASE_URL": "host=/tmp dbname=x", "MIGRATION_DATABASE_URL": "postgres://owner@db/x",
            "DATABASE_POOL_SIZE": "7", "DATABASE_STATEMENT_TIMEOUT_MS": "2000", "REDIS_URL": "unix:///run/redis.sock",
            "REDIS_POOL_SIZE": "3", "REDIS_TIMEOUT_MS": "250", "HTTP_HOST": "0.0.0.0", "HTTP_PORT": "9000",
            "HTTP_THREADS": "8", "HTTP_MAX_BODY_BYTES": "1024", "HTTP_CONNECTION_TIMEOUT_SECONDS": "5",
            "HTTP_CONNECTION_LIMIT": "50", "TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1,::1",
            "SHUTDOWN_GRACE_SECONDS": "3", "LOG_LEVEL": "warning", "HTTP_CONNECTIONS_PER_IP": "8",
            "HTTP_HEADER_TIMEOUT_SECONDS": "4", "IPV6_PREFIX_LENGTH": "56", "METRICS_ADDRESS": "[::1]:9100",
        ])
        #expect(configuration.databaseURL == "host=/tmp dbname=x")
        #expect(configuration.migrationDatabaseURL == "postgres://owner@db/x")
        #expect(configuration.databasePoolSize == 7)
        #expect(configuration.databaseStatementTimeoutMilliseconds == 2000)
        #expect(configuration.redisURL == "unix:///run/redis.sock")
        #expect(configuration.redisPoolSize == 3)
        #expect(configuration.redisTimeoutMilliseconds == 250)
        #expect(configuration.httpHost == "0.0.0.0")
        #expect(configuration.httpPort == 9000)
        #expect(configuration.httpThreads == 8)
        #expect(configuration.httpMaxBodyBytes == 1024)
        #expect(configuration.httpConnectionTimeoutSeconds == 5)
        #expect(configuration.httpConnectionLimit == 50)
        #expect(configuration.trustedProxies == ["10.0.0.0/8", "127.0.0.1", "::1"])
        #expect(configuration.shutdownGraceSeconds == 3)
        #expect(configuration.logLevel == .warning)
        #expect(configuration.publicBaseURL == "http://127.0.0.1:9000")
        #expect(configuration.httpConnectionsPerIP == 8)
        #expect(configuration.httpHeaderTimeoutSeconds == 4)
        #expect(configuration.ipv6PrefixLength == 56)
        #expect(configuration.metricsAddress == ListenAddress(host: "::1", port: 9100))
    }

    @Test func httpHostTakesIPv6AndMetricsAddressTakesBothFamiliesOrOff() throws {
        #expect(try Configuration(environment: ["HTTP_HOST": "::"]).httpHost == "::")
        #expect(try Configuration(environment: ["HTTP_HOST": "::1"]).httpHost == "::1")
        #expect(try Configuration(environment: ["METRICS_ADDRESS": "0.0.0.0:9464"]).metricsAddress
            == ListenAddress(host: "0.0.0.0", port: 9464))
        #expect(try Configuration(environment: ["METRICS_ADDRESS": "[::]:1"]).metricsAddress
            == ListenAddress(host: "::", port: 1))
        #expect(try Configuration(environment: ["METRICS_ADDRESS": "off"]).metricsAddress == nil)
        #expect(try Configuration(environment: ["HTTP_CONNECTIONS_PER_IP": "0"]).httpConnectionsPerIP == 0)
        #expect("\(ListenAddress(host: "::1", port: 9464))" == "[::1]:9464")
    }

    @Test func publicBaseURLDefaultsToTheHTTPPortAndDropsATrailingSlash() throws {
        #expect(try Configuration(environment: [:]).publicBaseURL == "http://127.0.0.1:8080")
        #expect(try Configuration(environment: ["PUBLIC_BASE_URL": "https://h.example.com/app/"]).publicBaseURL
            == "https://h.example.com/app")
    }

    @Test(arguments: [
        ("HTTP_PORT", "eighty", "HTTP_PORT: must be an integer from 1 to 65535 (got \"eighty\")"),
        ("HTTP_PORT", "70000", "HTTP_PORT: must be an integer from 1 to 65535 (got \"70000\")"),
        ("HTTP_THREADS", "0", "HTTP_THREADS: must be an integer from 1 to 256 (got \"0\")"),
        ("HTTP_HOST", "localhost",
         "HTTP_HOST: must be an IPv4 or IPv6 address like 127.0.0.1 or :: (got \"localhost\")"),
        ("HTTP_HOST", "[::1]", "HTTP_HOST: must be an IPv4 or IPv6 address like 127.0.0.1 or :: (got \"[::1]\")"),
        ("HTTP_CONNECTIONS_PER_IP", "-1", "HTTP_CONNECTIONS_PER_IP: must be an integer from 0 to 65536 (got \"-1\")"),
        ("HTTP_HEADER_TIMEOUT_SECONDS", "0",
         "HTTP_HEADER_TIMEOUT_SECONDS: must be an integer from 1 to 3600 (got \"0\")"),
        ("IPV6_PREFIX_LENGTH", "129", "IPV6_PREFIX_LENGTH: must be an integer from 32 to 128 (got \"129\")"),
        ("METRICS_ADDRESS", "9464", "METRICS_ADDRESS: must be host:port (127.0.0.1:9464, [::1]:9464) with a port "
            + "from 1 to 65535, or off (got \"9464\")"),
        ("METRICS_ADDRESS", "::1:9464", "METRICS_ADDRESS: must be host:port (127.0.0.1:9464, [::1]:9464) with a "
            + "port from 1 to 65535, or off (got \"::1:9464\")"),
        ("METRICS_ADDRESS", "localhost:9464", "METRICS_ADDRESS: must be host:port (127.0.0.1:9464, [::1]:9464) "
            + "with a port from 1 to 65535, or off (got \"localhost:9464\")"),
        ("METRICS_ADDRESS", "127.0.0.1:0", "METRICS_ADDRESS: must be host:port (127.0.0.1:9464, [::1]:9464) "
            + "with a port from 1 to 65535, or off (got \"127.0.0.1:0\")"),
        ("REDIS_URL", "http://x", "REDIS_URL: must start with redis:// or unix:///"),
        ("TRUSTED_PROXIES", "10.0.0.0/33", "TRUSTED_PROXIES: \"10.0.0.0/33\" is not an IP address or CIDR range"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL: must be debug, info, warning or error (got \"loud\")"),
        ("PUBLIC_BASE_URL", "ftp://x",
         "PUBLIC_BASE_URL: must be an http:// or https:// URL with a host, without query or fragment"),
        ("PUBLIC_BASE_URL", "https://x/?a=1",
         "PUBLIC_BASE_URL: must be an http:// or https:// URL with a host, without query or fragment"),
    ])
    func aBadValueIsRefusedNamingTheVariable(variable: String, value: String, message: String) {
        #expect(throws: ConfigurationError.self) { try Configuration(environment: [variable: value]) }
        do {
            _ = try Configuration(environment: [variable: value])
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func aBadDatabaseURLIsRefusedWithoutEchoingItsPassword() {
        do {
            _ = try Configuration(environment: ["DATABASE_URL": "mysql://root:hunter2@db/x"])
            Issue.record("accepted a mysql URL")
        } catch {
            #expect("\(error)" == "DATABASE_URL: must be a postgresql:// URI or key=value connection string")
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    /// 32 bytes 0x00…0x1f in base64url, and 40 bytes of 0xA5.
    static let masterKeyText = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
    static let pepperText = "paWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpQ"

    @Test func thePersonalDataSecretsAreReadFromBase64URL() throws {
        let configuration = try Configuration(environment: [
            "HANDOFF_MASTER_KEY": Self.masterKeyText, "HANDOFF_LOOKUP_PEPPER": Self.pepperText + "==",
        ])
        #expect(configuration.masterKey?.bytes == (0..<32).map { UInt8($0) })
        #expect(configuration.lookupPepper?.bytes == [UInt8](repeating: 0xA5, count: 40))
        let secrets = try configuration.personalDataSecrets()
        #expect(secrets.masterKey == (0..<32).map { UInt8($0) })
        #expect(secrets.lookupPepper.count == 40)
    }

    @Test func thePersonalDataSecretsAreOptionalUntilACommandAsksForThem() throws {
        let configuration = try Configuration(environment: [:])
        #expect(configuration.masterKey == nil)
        #expect(configuration.lookupPepper == nil)
        #expect(throws: ConfigurationError(
            variable: "HANDOFF_MASTER_KEY",
            problem: "is required to handle personal data; set it to 32 random bytes in base64url "
                + "(openssl rand 32 | basenc --base64url)")) { try configuration.personalDataSecrets() }
        let withKey = try Configuration(environment: ["HANDOFF_MASTER_KEY": Self.masterKeyText])
        #expect { try withKey.personalDataSecrets() } throws: { error in
            (error as? ConfigurationError)?.variable == "HANDOFF_LOOKUP_PEPPER"
        }
    }

    @Test(arguments: [
        ("HANDOFF_MASTER_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8+",
         "must be base64url (A-Z a-z 0-9 - _) of exactly 32 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
        ("HANDOFF_MASTER_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8/",
         "must be base64url (A-Z a-z 0-9 - _) of exactly 32 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
        ("HANDOFF_MASTER_KEY", "s3cr3t key!",
         "must be base64url (A-Z a-z 0-9 - _) of exactly 32 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
        ("HANDOFF_MASTER_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd",
         "must decode to exactly 32 bytes (it decodes to 30)"),
        ("HANDOFF_MASTER_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ",
         "must decode to exactly 32 bytes (it decodes to 34)"),
        ("HANDOFF_LOOKUP_PEPPER", "c2hvcnRwZXBwZXI",
         "must decode to at least 32 bytes (it decodes to 11)"),
        ("HANDOFF_LOOKUP_PEPPER", "paWlpa=Wlpa",
         "must be base64url (A-Z a-z 0-9 - _) of at least 32 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
    ])
    func aMalformedSecretIsRefusedNamingTheVariableWithoutEchoingIt(variable: String, value: String, problem: String) {
        do {
            _ = try Configuration(environment: [variable: value])
            Issue.record("accepted \(variable)")
        } catch {
            #expect("\(error)" == "\(variable): \(problem)")
            #expect(!"\(error)".contains(value))
        }
    }

    @Test func passKeysAreReadCurrentFirstAndTheIdentitySecretsNeedAllThree() throws {
        let key0 = String(repeating: "A", count: 43)
        let configuration = try Configuration(environment: [
            "HANDOFF_MASTER_KEY": Self.masterKeyText, "HANDOFF_LOOKUP_PEPPER": Self.pepperText,
            "HANDOFF_PASS_KEYS": "kid1:\(Self.pepperText), kid0:\(key0)",
        ])
        #expect(configuration.passKeys.map(\.id) == ["kid1", "kid0"])
        #expect(configuration.passKeys[1].key.bytes == [UInt8](repeating: 0, count: 32))
        #expect(configuration.identitySecrets?.passKeys.map(\.id) == ["kid1", "kid0"])
        #expect(configuration.missingIdentityVariables.isEmpty)
        #expect(!"\(configuration)".contains(key0))
        let none = try Configuration(environment: [:])
        #expect(none.passKeys.isEmpty && none.identitySecrets == nil)
        #expect(none.missingIdentityVariables == ["HANDOFF_MASTER_KEY", "HANDOFF_LOOKUP_PEPPER", "HANDOFF_PASS_KEYS"])
        let noPassKeys = try Configuration(environment: [
            "HANDOFF_MASTER_KEY": Self.masterKeyText, "HANDOFF_LOOKUP_PEPPER": Self.pepperText,
        ])
        #expect(noPassKeys.identitySecrets == nil && noPassKeys.missingIdentityVariables == ["HANDOFF_PASS_KEYS"])
    }

    @Test(arguments: [
        ("nocolon", "item 1 must be id:base64url-key"),
        ("bad id!:\(String(repeating: "A", count: 43))",
         "item 1 must start with an id of 1–32 characters A-Z a-z 0-9 _ -"),
        ("k:\(String(repeating: "A", count: 43)),k:\(String(repeating: "B", count: 43))", "the key id k appears twice"),
        ("k:c2hvcnRwZXBwZXI",
         "the key of k must be base64url of 32–1024 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
        ("k:not base64",
         "the key of k must be base64url of 32–1024 bytes, e.g. from `openssl rand 32 | basenc --base64url`"),
    ])
    func aMalformedPassKeyListIsRefusedWithoutEchoingTheKey(value: String, problem: String) {
        do {
            _ = try Configuration(environment: ["HANDOFF_PASS_KEYS": value])
            Issue.record("accepted \(value)")
        } catch {
            #expect("\(error)" == "HANDOFF_PASS_KEYS: \(problem)")
            #expect(!"\(error)".contains(String(repeating: "A", count: 43)))
        }
    }

    @Test func secretsNeverPrint() throws {
        let configuration = try Configuration(environment: [
            "HANDOFF_MASTER_KEY": Self.masterKeyText, "HANDOFF_LOOKUP_PEPPER": Self.pepperText,
        ])
        for text in ["\(configuration)", String(reflecting: configuration), "\(configuration.masterKey!)"] {
            #expect(!text.contains("165"))  // 0xA5
            #expect(!text.contains("31"))   // the master key's last byte
            #expect(!text.contains(Self.masterKeyText))
        }
        #expect("\(configuration.masterKey!)" == "<redacted>")
    }

    @Test func theResolveLimitsAreConfiguredAndValidated() throws {
        let defaults = try Configuration(environment: [:])
        #expect(defaults.resolveLimits && defaults.resolveFailedLookupsPerMinute == 300)
        let set = try Configuration(environment: ["RESOLVE_LIMITS": "off", "RESOLVE_FAILED_LOOKUPS_PER_MINUTE": "20"])
        #expect(!set.resolveLimits && set.resolveFailedLookupsPerMinute == 20)
        for (variable, value, message) in [
            ("RESOLVE_LIMITS", "no", #"RESOLVE_LIMITS: must be on or off (got "no")"#),
            ("RESOLVE_FAILED_LOOKUPS_PER_MINUTE", "0",
             #"RESOLVE_FAILED_LOOKUPS_PER_MINUTE: must be an integer from 1 to 1000000 (got "0")"#),
        ] {
            let problem = String(message.dropFirst(variable.count + 2))
            #expect(throws: ConfigurationError(variable: variable, problem: problem)) {
                try Configuration(environment: [variable: value])
            }
        }
    }

    @Test func theExecutableStopsWithExitStatus2AndNamesTheVariable() throws {
        let process = try ChildProcess([try HandoffBinary.path(), "serve"],
                                       environment: ["HTTP_PORT": "eighty", "PATH": "/usr/bin:/bin"])
        #expect(try process.wait(timeout: 30) == .exited(2))
        #expect(process.output()
            == "handoff: invalid configuration: HTTP_PORT: must be an integer from 1 to 65535 (got \"eighty\")\n")
    }
}
