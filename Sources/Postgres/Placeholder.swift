import CLibPQ

/// Placeholder replaced by the Postgres client.
enum PostgresPlaceholder {}
