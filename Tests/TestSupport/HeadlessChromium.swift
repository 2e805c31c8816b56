import Foundation

/// Whether headless Chromium can run on this machine at all (infra/test installs Debian's `chromium`), and if not,
/// what it said.
public enum HeadlessChromium {
    /// nil when chromium starts and renders a blank page; otherwise why not (its exit status and output).
    public static let failure: String? = {
        let child: ChildProcess
        do {
            child = try ChildProcess(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                                      "about:blank"])
        } catch {
            return "chromium could not be started: \(error)"
        }
        let status: ChildProcess.Termination
        do { status = try child.wait(timeout: 60) } catch { return "chromium did not finish: \(error)" }
        let output = child.output()
        if status == .exited(0) && output.contains("<body></body>") { return nil }
        return "chromium ended with \(status): \(output.suffix(2000))"
    }()

    /// Set by infra/test (`HANDOFF_TEST_REQUIRE_BROWSER=1`): then a chromium that cannot run fails the test instead
    /// of skipping it; by hand (`swift test`) it is skipped.
    public static let required = ProcessInfo.processInfo.environment["HANDOFF_TEST_REQUIRE_BROWSER"] == "1"

    /// Run the end-to-end test: chromium works, or it is required (and the test then fails with its reason).
    public static var shouldRun: Bool { required || failure == nil }
}
