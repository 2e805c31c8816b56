import API
import Foundation
import HTTPServer
import Testing
import TestSupport

/// `POST /v1/m/batch` limits (issue 20): per install (app and `inst`) and per client IP, 429 `rate_limited` in the
/// compact shape; without Redis the batch goes through (fail open, like the daily quota).
@Suite struct IngestBatchLimitTests {
    private static func limit(_ count: Int, open: Bool = false) -> RateLimit {
        RateLimit.perWindow(name: "batch-limit-test-\(UInt64.random(in: 0...UInt64.max))", count: count, seconds: 60,
                            onFailure: open ? .openWithCap(perProcessPerSecond: 100) : .closed)
    }

    private func batch(_ key: String, inst: String) -> [UInt8] {
        Array(IngestBatchTests.batch(key: key).replacingOccurrences(of: #""inst":"I-4F2A""#,
                                                                     with: #""inst":"\#(inst)""#).utf8)
    }

    @Test func overTheInstallsBudgetABatchIs429AndAnotherInstallIsNotCounted() throws {
        let fixture = try IngestFixture.migrated(ingestBatchInstallLimit: Self.limit(2))
        let app = try fixture.app()
        for _ in 0..<2 { #expect(fixture.batch(batch(app.key, inst: "A")).status == 200) }
        let limited = fixture.batch(batch(app.key, inst: "A"))
        #expect(limited.status == 429)
        let seconds = try #require(limited.headers["Retry-After"].flatMap(Int.init))
        #expect(bodyText(limited) == #"{"ok":false,"code":"rate_limited","retryAfter":\#(seconds)}"#)
        #expect(fixture.batch(batch(app.key, inst: "B")).status == 200)
        // The same install id in another app is another install.
        let other = try fixture.app()
        #expect(fixture.batch(batch(other.key, inst: "A")).status == 200)
    }

    @Test func overTheAddressBudgetABatchIs429WhateverTheInstallOrApp() throws {
        let fixture = try IngestFixture.migrated(ingestBatchAddressLimit: Self.limit(3))
        let app = try fixture.app()
        let other = try fixture.app()
        for (key, inst) in [(app.key, "A"), (app.key, "B"), (other.key, "C")] {
            #expect(fixture.batch(batch(key, inst: inst)).status == 200)
        }
        #expect(fixture.batch(batch(other.key, inst: "D")).status == 429)
        #expect(fixture.batch(batch(other.key, inst: "D"), clientIP: "198.51.100.73").status == 200)
    }

    @Test func withoutRedisBatchesAreStoredNotRefused() throws {
        let fixture = try IngestFixture.migrated(redisURL: "redis://127.0.0.1:1",
                                                 ingestBatchInstallLimit: Self.limit(60, open: true),
                                                 ingestBatchAddressLimit: Self.limit(60, open: true))
        let app = try fixture.app()
        let response = fixture.batch(batch(app.key, inst: "A"))
        #expect(response.status == 200)
        #expect(jsonObject(response)["stored"] as? Bool == true)
    }
}
