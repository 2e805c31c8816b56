import Commands
import Foundation
import HTTPClient

/// What the `google-play` job kind needs: the apps write model (its service-account keys, and `ApplyStoreEffect`)
/// and where the Play Developer API is.
public struct GooglePlayJobSettings: Sendable {
    /// The apps write model; nil on a worker without `HANDOFF_MASTER_KEY`, where no key opens and every job fails on
    /// the ladder until an operator sets it.
    public var apps: AppModel?
    /// The Play Developer API clients, one per service-account key, kept so their access tokens are reused.
    public var clients: GooglePlayJobClients

    /// Settings over `apps` calling the API at `baseURL` (`GOOGLE_PLAY_API_BASE_URL`) with `client`; the API
    /// client reads time from `clock` (its assertions' `iat` and the access tokens' expiry).
    public init(apps: AppModel?, baseURL: String = PlayDeveloperAPI.defaultBaseURL, client: HTTPClient = HTTPClient(),
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.apps = apps
        self.clients = GooglePlayJobClients(baseURL: baseURL, client: client, clock: clock)
    }
}
