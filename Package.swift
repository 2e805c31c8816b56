// swift-tools-version:6.0
import PackageDescription

/// Handoff: one executable over libraries, every dependency a Debian C library (DESIGN.md §1).
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Handoff",
    // One platform list per package (SwiftPM has no per-target minimum): the floor of HandoffKit, the client library
    // apps add (iOS 15, macOS 12). The server targets are built for Linux, where this list does not apply; on macOS
    // they would need macOS 15 (Synchronization), which this list no longer promises (docs/handoffkit.md).
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .executable(name: "handoff", targets: ["handoff"]),
        // The Swift client library for apps: the six paths and affiliate attribution (docs/handoffkit.md).
        .library(name: "HandoffKit", targets: ["HandoffKit"]),
        // The parsers that take outside bytes, for the libFuzzer package in Tests/Fuzz (docs/fuzzing.md).
        .library(name: "HandoffParsers", targets: ["API", "Commands", "Crypto", "Domain", "EventStore", "HTTPServer"]),
    ],
    targets: [
        // C libraries, wrapped as system library targets.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Pure domain.
        .target(name: "Domain", swiftSettings: strict),

        // The client library for apps (iOS, macOS, Linux for its tests): Foundation only, no server target.
        .target(name: "HandoffKit", swiftSettings: strict),

        // Thin clients over the C libraries.
        .target(name: "Postgres", dependencies: ["CLibPQ"], swiftSettings: strict),
        .target(name: "Redis", dependencies: ["CHiredis"], swiftSettings: strict),
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: strict),
        .target(name: "HTTPClient", dependencies: ["CCurl"], swiftSettings: strict),

        // Logging and metrics shared by the API and the workers (Foundation only).
        .target(name: "Telemetry", swiftSettings: strict),
        // Loops on threads of their own, for subscriptions and workers (Foundation, Dispatch, Synchronization).
        .target(name: "BackgroundTasks", swiftSettings: strict),

        // The service.
        .target(
            name: "EventStore", dependencies: ["BackgroundTasks", "Domain", "Postgres", "Crypto", "Telemetry"],
            swiftSettings: strict
        ),
        // The write model: one handler per command, the product projections and read models, all product SQL.
        .target(
            name: "Commands", dependencies: ["Domain", "EventStore", "Postgres", "Crypto"], swiftSettings: strict
        ),
        .target(
            name: "API",
            dependencies: ["Domain", "Commands", "Redis", "Crypto", "HTTPServer", "Telemetry"],
            // Redoc's standalone bundle for `/docs` (vendored from PyPI, see Sources/API/Redoc/README.md).
            // and rrweb-player for `/replay/{token}` (vendored from PyPI, see Sources/API/RRWebPlayer/README.md).
            resources: [.copy("Redoc"), .copy("RRWebPlayer")],
            swiftSettings: strict
        ),
        .target(
            name: "Workers",
            dependencies: [
                "Commands", "Crypto", "Domain", "EventStore", "HTTPClient", "Postgres", "Redis",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Migrate",
            dependencies: ["Postgres", "Crypto"],
            resources: [.copy("Migrations")],
            swiftSettings: strict
        ),
        // Composition root: configuration, subcommands, signals. `main` only calls into it.
        .target(
            name: "Service",
            dependencies: [
                "API", "BackgroundTasks", "Commands", "Domain", "Workers", "EventStore", "Migrate", "Postgres", "Redis",
                "HTTPServer", "HTTPClient", "Telemetry",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "handoff", dependencies: ["Service"], swiftSettings: strict),
        // bench/append's load generator; not a product, not used by the tests.
        .executableTarget(
            name: "handoff-bench", dependencies: ["Domain", "EventStore", "Postgres"], swiftSettings: strict
        ),

        // bench/store's load generator: App Store notification verification; not a product, not used by the tests.
        .executableTarget(
            name: "handoff-store-bench", dependencies: ["Commands", "Crypto", "Domain"], swiftSettings: strict
        ),

        // Tests: real Postgres, Redis, HTTP and SMTP peers started by infra/test.
        .target(
            name: "TestSupport", dependencies: ["Crypto", "Migrate", "Postgres"], path: "Tests/TestSupport", swiftSettings: strict
        ),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "COpenSSL"], swiftSettings: strict),
        // Store notifications without a database: App Store signed data against Apple's fixtures and fresh signatures.
        .testTarget(name: "StoreTests", dependencies: ["Commands", "Crypto", "Domain", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "DomainTests", dependencies: ["Domain"], swiftSettings: strict),
        .testTarget(name: "TelemetryTests", dependencies: ["Telemetry"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MigrateTests", dependencies: ["Migrate", "Postgres", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "EventStoreTests",
            dependencies: ["Domain", "EventStore", "Postgres", "Crypto", "Migrate", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PersonalDataTests",
            dependencies: ["Domain", "EventStore", "Crypto", "Postgres", "Migrate", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AuditTests",
            dependencies: [
                "Commands", "Domain", "EventStore", "Service", "Postgres", "Crypto", "Migrate", "TestSupport",
                "Workers", "Redis", "HTTPClient",
            ],
            swiftSettings: strict
        ),
        // The API edge driven without a socket: the responder over real Postgres and Redis (and, for e-mail recovery,
        // the workers in-process).
        .testTarget(
            name: "APITests",
            dependencies: [
                "API", "Commands", "Crypto", "Domain", "EventStore", "HTTPClient", "HTTPServer", "Postgres", "Redis",
                "Telemetry", "TestSupport", "Workers",
            ],
            swiftSettings: strict
        ),
        // The service as a process: configuration, `handoff serve`/`work` over sockets, the page in a real browser.
        .testTarget(
            name: "ServiceTests",
            dependencies: ["HTTPClient", "Service", "Telemetry", "TestSupport"],
            swiftSettings: strict
        ),
        // HandoffKit end to end against a real `handoff dev` (and headless Chromium for the post-payment page).
        .testTarget(
            name: "HandoffKitTests", dependencies: ["HandoffKit", "HTTPClient", "TestSupport"], swiftSettings: strict
        ),
        .testTarget(
            name: "WorkerTests",
            dependencies: [
                "Workers", "Commands", "Crypto", "EventStore", "Domain", "Postgres", "Redis", "HTTPClient", "Migrate",
                "TestSupport",
            ],
            swiftSettings: strict
        ),
    ]
)
