import Domain
import Foundation
import HTTPServer

/// The body of an ingest POST as JSON bytes: as sent, or inflated when `Content-Encoding: gzip` says so — under the
/// same cap either way (the route's body limit bounds the bytes on the wire, `limit` the bytes after inflation).
enum IngestBody {
    /// The request's body, inflated when gzipped; 413 `too_large` past `limit`, 400 `invalid` (detail `body`) for a
    /// body that does not inflate, or a content encoding other than `gzip` or `identity`.
    static func bytes(_ request: Request, limit: Int) throws -> [UInt8] {
        let encoding = (request.headers["Content-Encoding"] ?? "identity").lowercased()
            .trimmingCharacters(in: .whitespaces)
        switch encoding {
        case "identity", "":
            guard request.body.count <= limit else { throw IngestRefusal.tooLarge }
            return request.body
        case "gzip", "x-gzip":
            switch GzipInflater.inflate(request.body, limit: limit) {
            case .success(let bytes): return bytes
            case .failure(.tooLarge): throw IngestRefusal.tooLarge
            case .failure(.malformed): throw IngestRefusal.invalid("body is not valid gzip")
            }
        default:
            throw IngestRefusal.invalid("Content-Encoding must be gzip or absent")
        }
    }
}
