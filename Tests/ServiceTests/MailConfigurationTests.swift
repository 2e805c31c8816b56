import Foundation
import Service
import Testing

/// `SMTP_URL`, `MAIL_FROM`, `MAIL_FROM_NAME`, `WORK_THREADS`, `JOB_VISIBILITY_TIMEOUT_SECONDS` (issue 6).
@Suite struct MailConfigurationTests {
    @Test func theWorkerVariablesHaveLocalDefaultsAndAreRead() throws {
        let defaults = try Configuration(environment: [:])
        #expect(defaults.smtpURL == "smtp://127.0.0.1:25")
        #expect(defaults.mailFrom == "noreply@localhost")
        #expect(defaults.mailFromName == "Handoff")
        #expect(defaults.workThreads == 2)
        #expect(defaults.jobVisibilityTimeoutSeconds == 60)
        let set = try Configuration(environment: [
            "SMTP_URL": "smtps://user:p%40ss@mail.example.com:465", "MAIL_FROM": "recovery@example.com",
            "MAIL_FROM_NAME": "Пример", "WORK_THREADS": "4", "JOB_VISIBILITY_TIMEOUT_SECONDS": "5",
        ])
        #expect(set.smtpURL == "smtps://user:p%40ss@mail.example.com:465")
        #expect(set.mailFrom == "recovery@example.com")
        #expect(set.mailFromName == "Пример")
        #expect(set.workThreads == 4)
        #expect(set.jobVisibilityTimeoutSeconds == 5)
    }

    @Test(arguments: [
        ("SMTP_URL", "http://mail.example.com"), ("SMTP_URL", "smtp://host with space"),
        ("MAIL_FROM", "noreply@example.com\r\nBcc: victim@example.com"), ("MAIL_FROM", "Handoff <noreply@example.com>"),
        ("MAIL_FROM", "no-at-sign"), ("MAIL_FROM_NAME", "Handoff\r\nBcc: x@example.com"), ("WORK_THREADS", "0"),
        ("JOB_VISIBILITY_TIMEOUT_SECONDS", "0"),
    ])
    func aBadValueIsRefusedNamingItsVariable(variable: String, value: String) {
        let error = #expect(throws: ConfigurationError.self) { try Configuration(environment: [variable: value]) }
        #expect(error?.variable == variable)
        #expect(error?.problem.contains("victim") == false)
    }
}
