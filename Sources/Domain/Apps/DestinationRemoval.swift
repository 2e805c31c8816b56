/// The decider of `DELETE /s2s/v1/apps/{appId}/destinations/{destinationId}` and `handoff admin app destination
/// remove`: a live destination of the app is removed (the forward URL too, which leaves the app without one).
public enum DestinationRemoval {
    /// The outcome when the destination may be removed.
    public enum Decision: Sendable, Equatable {
        /// Record `AppDestinationRemoved`.
        case remove
    }

    /// Decides removing `destination` from `app` (nil = no such app): 404 `NOT_FOUND` about `appId`, or about
    /// `destinationId` when the app has no live destination with this id (never had, or already removed).
    public static func decide(app: AppState?, destination: DestinationID) -> Result<Decision, Refusal> {
        guard let app else { return .failure(.notFound("no app has this id", field: "appId")) }
        guard app.destinations.contains(where: { $0.id == destination }) else {
            return .failure(.notFound("the app has no destination with this id", field: "destinationId"))
        }
        return .success(.remove)
    }
}
