import CCurl

/// Placeholder replaced by the HTTPClient client.
enum HTTPClientPlaceholder {}
