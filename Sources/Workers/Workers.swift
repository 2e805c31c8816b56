import Domain
import EventStore
import HTTPClient
import Redis

/// Relay, mailer, forwarder and sweeper (DESIGN.md §7). Declared by the skeleton so the dependency graph
/// is fixed; the job machinery arrives with the workers issue.
public enum Workers {}
