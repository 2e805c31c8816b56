import CCurl

/// One libcurl easy handle with its error buffer, used by one thread for one transfer and freed in `deinit`.
///
/// Internal: `HTTPClient` makes a fresh one per call; an `HTTPSession` keeps one and an `SMTPClient` a pool of them,
/// reset between calls. No handle is ever used by two threads at once.
final class CurlEasy {
    /// A `curl_easy_setopt` that failed (an option this libcurl does not support, or out of memory).
    struct SetupError: Error {
        let message: String
    }

    /// `curl_global_init` runs exactly once, the first time this is read (Swift's lazy globals are thread-safe).
    private static let globalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Runs `curl_global_init(CURL_GLOBAL_DEFAULT)` once per process; later calls do nothing.
    static func globalInit() {
        let result = globalInitResult
        precondition(result == CURLE_OK, "curl_global_init failed: \(String(cString: curl_easy_strerror(result)))")
    }

    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(SetupError) {
        Self.globalInit()
        guard let handle = curl_easy_init() else { throw SetupError(message: "curl_easy_init failed") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try setBaseOptions()
    }

    /// Every option back to its default (`curl_easy_reset`), then this type's own: open connections, the DNS cache
    /// and TLS sessions are kept, so a reused handle keeps its connections alive.
    func reset() throws(SetupError) {
        curl_easy_reset(handle)
        try setBaseOptions()
    }

    /// Threads: no SIGALRM-based resolver timeouts. Never follow redirects. Detailed messages in `errorBuffer`.
    private func setBaseOptions() throws(SetupError) {
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws(SetupError) {
        try check(handoff_curl_setopt_long(handle, option, value), option)
    }

    /// libcurl copies string options (since 7.17), so the C string only has to live for the call.
    func set(_ option: CURLoption, _ value: String) throws(SetupError) {
        try check(value.withCString { handoff_curl_setopt_string(handle, option, $0) }, option)
    }

    /// The pointer must stay valid until the transfer ends (libcurl keeps it).
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(SetupError) {
        try check(handoff_curl_setopt_pointer(handle, option, pointer), option)
    }

    /// The list must stay alive until the transfer ends (libcurl keeps it).
    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) throws(SetupError) {
        try check(handoff_curl_setopt_slist(handle, option, list), option)
    }

    /// Milliseconds from seconds, at least 1 (0 would mean "no timeout" to libcurl).
    func setTimeout(_ option: CURLoption, seconds: Double) throws(SetupError) {
        let milliseconds = seconds.isFinite ? max(1, min(seconds * 1000, Double(Int32.max))) : Double(Int32.max)
        try set(option, Int(milliseconds))
    }

    /// Runs the transfer on the calling thread; callbacks run on this thread before it returns.
    func perform() -> CURLcode {
        errorBuffer[0] = 0
        return curl_easy_perform(handle)
    }

    /// libcurl's detailed message for the last failure, or its generic text for `code`.
    func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    /// The last HTTP status or SMTP reply code (`CURLINFO_RESPONSE_CODE`), 0 if none arrived.
    func responseCode() -> Int {
        var code = 0
        _ = handoff_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    func check(_ result: CURLcode, _ option: CURLoption) throws(SetupError) {
        guard result == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(result))
            throw SetupError(message: "curl_easy_setopt(\(option.rawValue)): \(reason)")
        }
    }
}
