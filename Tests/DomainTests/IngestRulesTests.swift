import Domain
import Foundation
import Testing

/// The pure rules of app ingest (issue 20): keys, the app binding, consent, user agents, screen globs, admission.
@Suite struct IngestRulesTests {
    @Test func aPublishableKeyIsPk3xAnd32URLSafeCharacters() {
        let key = PublishableKey(randomBytes: [UInt8](repeating: 0xFF, count: 24))
        #expect(key.text == "pk_3x_" + String(repeating: "_", count: 32))
        #expect(PublishableKey.parse(key.text) == key)
        #expect(PublishableKey.parse("pk_3x_" + String(repeating: "a", count: 31)) == nil)
        #expect(PublishableKey.parse("pk_3x_" + String(repeating: "a", count: 33)) == nil)
        #expect(PublishableKey.parse("pk_3y_" + String(repeating: "a", count: 32)) == nil)
        #expect(PublishableKey.parse("pk_3x_" + String(repeating: "a", count: 31) + "=") == nil)
        #expect(PublishableKey.parse("sk_live_" + String(repeating: "a", count: 30)) == nil)
    }

    @Test func theAppBindingNeedsTheAppsOwnPlatformAndBundleIdExactly() {
        func check(_ plat: String?, _ bid: String?) -> Result<Void, IngestRefusal> {
            IngestAppBinding.check(platform: plat, bundleId: bid, app: .ios, appBundleId: "com.example.App")
        }
        #expect((try? check("ios", "com.example.App").get()) != nil)
        #expect(check("android", "com.example.App") == .failure(.appMismatch))
        #expect(check("ios", "com.example.app") == .failure(.appMismatch))
        #expect(check(nil, "com.example.App") == .failure(.invalid("plat is required")))
        #expect(check("iOS", "com.example.App") == .failure(.invalid("plat must be ios or android")))
        #expect(check("ios", "") == .failure(.invalid("bid is required")))
    }

    @Test func consentIsAModeAndFourPurposeStatesWithoutDefault() throws {
        let consent = try IngestConsent.parse(mode: "opt_in", states: "gdpx").get()
        #expect(consent.mode == .optIn && consent.analytics == .granted && consent.attribution == .denied)
        #expect(consent.recordings == .pending && consent.adMeasurement == .notUsed && consent.text == "gdpx")
        #expect(consent.storesBatches && !consent.usesInstallSources)
        #expect(try IngestConsent.parse(mode: "always", states: "dggg").get().storesBatches == false)
        #expect(try IngestConsent.parse(mode: "opt_out", states: "pggg").get().storesBatches == false)
        #expect(IngestConsent.parse(mode: nil, states: "gggg") == .failure(.invalid("cm is required")))
        #expect(IngestConsent.parse(mode: "optin", states: "gggg")
                == .failure(.invalid("cm must be always, opt_in or opt_out")))
        #expect(IngestConsent.parse(mode: "always", states: nil) == .failure(.invalid("cs is required")))
        for bad in ["ggg", "ggggg", "gGgg", "gg g", ""] {
            #expect(IngestConsent.parse(mode: "always", states: bad)
                    == .failure(.invalid("cs must be 4 characters of g, d, p, x")), "\(bad)")
        }
    }

    @Test func theSDKsUserAgentsAreReadAndAnythingElseIsNot() throws {
        let ios = try #require(SDKUserAgent.parse("X3Kit/1.4.2 (iOS 17.5.1)"))
        #expect(ios.sdk == "X3Kit" && ios.version == "1.4.2" && ios.platform == .ios && ios.osVersion == "17.5.1")
        #expect(ios.wrapper == nil)
        let rn = try #require(SDKUserAgent.parse("X3Android/2.0.0-beta.1 (Android 14) RN/0.74.1"))
        #expect(rn.platform == .android && rn.version == "2.0.0-beta.1" && rn.osVersion == "14")
        #expect(rn.wrapper == "RN" && rn.wrapperVersion == "0.74.1")
        #expect(SDKUserAgent.parse("X3Kit/1.0 (iOS 16.0) Flutter/3.22.0")?.wrapper == "Flutter")
        for other in [nil, "", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)", "curl/8.4.0",
                      "X3Kit/1.0 (Android 14)", "X3Kit/1.0 (iOS 17)  ", "X3Kit/ (iOS 17)",
                      "X3Kit/1.0 (iOS 17) Cordova/1",
                      "X3Android/1.0 (Android 14) RN/", "python-requests/2.31"] {
            #expect(SDKUserAgent.parse(other) == nil, "\(other ?? "nil")")
        }
    }

    @Test func screenGlobsMatchWholeNamesWithStarsAnywhere() {
        #expect(ScreenGlob("Settings*").matches("SettingsPrivacy"))
        #expect(ScreenGlob("Settings*").matches("Settings"))
        #expect(!ScreenGlob("Settings*").matches("MySettings"))
        #expect(ScreenGlob("*Debug*").matches("PaywallDebugView"))
        #expect(ScreenGlob("a*b*c").matches("aXbYc") && !ScreenGlob("a*b*c").matches("aXbY"))
        #expect(ScreenGlob("Home").matches("Home") && !ScreenGlob("Home").matches("home"))
        #expect(ScreenGlob("*").matches("") && ScreenGlob("**").matches("x"))
    }

    @Test func settingsChangeByNameAndRefuseNamingTheFlag() throws {
        let changed = try IngestSettingsChange.apply(
            ["enabled": "off", "leads": "on", "blocked-events": "debug_tap,noise", "exclude-screens": "Debug*",
             "session-timeout-ms": "600000", "flush-interval-ms": "5000", "flush-events": "20"],
            to: .defaults).get()
        #expect(!changed.enabled && changed.leadsEnabled && changed.identifyEnabled)
        #expect(changed.blockedEvents == ["debug_tap", "noise"] && changed.excludedScreens == ["Debug*"])
        #expect(changed.sessionTimeoutMs == 600_000 && changed.flushIntervalMs == 5000 && changed.flushEvents == 20)
        #expect(try IngestSettingsChange.apply(["blocked-events": ""], to: changed).get().blockedEvents == [])
        for (name, value) in [("enabled", "yes"), ("session-timeout-ms", "59999"), ("flush-events", "0"),
                              ("flush-interval-ms", "x"), ("blocked-events", "a,,b")] {
            guard case .failure(let refusal) = IngestSettingsChange.apply([name: value], to: .defaults) else {
                Issue.record("\(name)=\(value) was taken")
                continue
            }
            #expect(refusal.field == "--" + name)
        }
    }

    @Test func aBatchIsStoredOnlyWhenNotPausedNotABotAnalyticsGrantedAndQuotaLeft() throws {
        let sdk = SDKUserAgent.parse("X3Kit/1.4.2 (iOS 17.5.1)")
        let granted = try IngestConsent.parse(mode: "opt_in", states: "gggg").get()
        let denied = try IngestConsent.parse(mode: "opt_in", states: "dggg").get()
        var asked = 0
        func quota(_ left: Bool) -> () -> Bool { { asked += 1; return left } }
        #expect(BatchAdmission.decide(appEnabled: true, userAgent: sdk, consent: granted, quotaLeft: quota(true))
                == nil)
        #expect(BatchAdmission.decide(appEnabled: false, userAgent: sdk, consent: granted, quotaLeft: quota(true))
                == .paused)
        #expect(BatchAdmission.decide(appEnabled: true, userAgent: nil, consent: granted, quotaLeft: quota(true))
                == .bot)
        #expect(BatchAdmission.decide(appEnabled: true, userAgent: sdk, consent: denied, quotaLeft: quota(true))
                == .consent)
        #expect(asked == 1)
        #expect(BatchAdmission.decide(appEnabled: true, userAgent: sdk, consent: granted, quotaLeft: quota(false))
                == .quota)
        #expect(asked == 2)
    }

    @Test func deviceTimesAreCorrectedByTheSendTimeAndBatchesOlderThanSevenDaysRefused() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // The device clock runs an hour behind: it sent at now − 1 h by its own clock.
        let offset = BatchAdmission.clockOffset(serverNow: now, sentAt: now.addingTimeInterval(-3600))
        #expect(offset == 3600)
        let sixDaysAgoOnDevice = now.addingTimeInterval(-6 * 86400 - 3600)
        #expect((try? BatchAdmission.checkAge(earliestDeviceTime: sixDaysAgoOnDevice, offset: offset,
                                              serverNow: now).get()) != nil)
        let eightDaysAgoOnDevice = now.addingTimeInterval(-8 * 86400 - 3600)
        #expect(BatchAdmission.checkAge(earliestDeviceTime: eightDaysAgoOnDevice, offset: offset, serverNow: now)
                == .failure(.invalid("at: the batch is older than 7 days")))
        // A time far past the batch's own `at` (a broken clock, a forged body) lands on no far-off day.
        #expect(BatchAdmission.checkAge(earliestDeviceTime: now, latestDeviceTime: now.addingTimeInterval(2 * 86400),
                                        offset: 0, serverNow: now)
                == .failure(.invalid("at: a time of the batch is more than a day after at")))
        #expect((try? BatchAdmission.checkAge(earliestDeviceTime: now, latestDeviceTime: now.addingTimeInterval(3600),
                                              offset: 0, serverNow: now).get()) != nil)
        // A device clock a day ahead does not make an old batch young.
        let ahead = BatchAdmission.clockOffset(serverNow: now, sentAt: now.addingTimeInterval(86400))
        #expect(BatchAdmission.checkAge(earliestDeviceTime: now.addingTimeInterval(-7 * 86400), offset: ahead,
                                        serverNow: now) == .failure(.invalid("at: the batch is older than 7 days")))
    }
}

/// Two checks' outcomes are equal when both passed or both refused alike.
private func == (lhs: Result<Void, IngestRefusal>, rhs: Result<Void, IngestRefusal>) -> Bool {
    switch (lhs, rhs) {
    case (.success, .success): return true
    case (.failure(let left), .failure(let right)): return left == right
    default: return false
    }
}
