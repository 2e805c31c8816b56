extension PlayDeveloperAPI {
    /// Why a Play Developer API call gave no purchase.
    public enum Failure: Error, Equatable, Sendable {
        /// The token endpoint refused the signed assertion (a deleted or wrong key, a clock far off): HTTP status and
        /// OAuth `error` code. Not worth retrying until the app's key changes.
        case tokenRefused(status: Int, error: String?)
        /// The API refused the access token (401 after a fresh token, or 403): the service account lacks access to
        /// the app in the Play Console.
        case denied(status: Int)
        /// No such purchase (404, or 410 for one too old to be kept).
        case notFound
        /// Google is overloaded or failing (429, 5xx): retry later.
        case unavailable(status: Int)
        /// No answer (connect failure, timeout, TLS): retry later. The message is for logs.
        case transport(String)
        /// An answer that is not the documented JSON. The message names what was wrong, for logs.
        case malformedResponse(String)

        /// True when the same call may succeed later without any change on Handoff's side.
        public var isRetryable: Bool {
            switch self {
            case .unavailable, .transport: true
            case .tokenRefused, .denied, .notFound, .malformedResponse: false
            }
        }
    }
}
