// swift-tools-version:5.4
import PackageDescription

/// libFuzzer targets for Handoff's parsers (docs/fuzzing.md). Never built by the root package's `swift build`:
/// `infra/fuzz` builds it with `-sanitize=fuzzer,address`, which links libFuzzer's `main`.
///
/// Tools version 5.4 on purpose: from 5.5 on SwiftPM renames an executable's entry point (`<module>_main`) and
/// links `main` to that name, which leaves libFuzzer's `main` out. Swift 6 language mode is set below all the same.
let package = Package(
    name: "HandoffFuzz",
    dependencies: [.package(name: "Handoff", path: "../..")],
    targets: [
        .executableTarget(
            name: "handoff-fuzz",
            dependencies: [.product(name: "HandoffParsers", package: "Handoff")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageVersions: [.version("6")]
)
