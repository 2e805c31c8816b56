import Crypto
import Domain
import Postgres

/// The event log on Postgres (DESIGN.md §3). Declared by the skeleton so the dependency graph is fixed;
/// append, read, subscribe, projections and replay arrive with the event store issue.
public enum EventStore {}
