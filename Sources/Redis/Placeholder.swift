import CHiredis

/// Placeholder replaced by the Redis client.
enum RedisPlaceholder {}
