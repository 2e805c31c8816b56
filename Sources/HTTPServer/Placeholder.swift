import CMicroHTTPD

/// Placeholder replaced by the HTTPServer client.
enum HTTPServerPlaceholder {}
