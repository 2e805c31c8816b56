/// Collects a response body and headers, refusing to grow past a byte limit.
final class ResponseCollector {
    let bodyLimit: Int
    let headerLimit: Int
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    var headerBytes = 0
    var exceededLimit = false
    /// The body reached `bodyLimit`: `body` holds its first `bodyLimit` bytes and the transfer was stopped.
    var bodyTruncated = false

    init(bodyLimit: Int, headerLimit: Int) {
        self.bodyLimit = bodyLimit
        self.headerLimit = headerLimit
    }

    /// One raw header line from libcurl, CRLF included. A status line starts a new response (after a
    /// `100 Continue`, for instance), so it resets the fields gathered so far.
    func receiveHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= headerLimit else {
            exceededLimit = true
            return false
        }
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A { end -= 1 }
        // Bytes, not Characters: "\r\n" is one Character in Swift and would survive a Character-wise trim.
        let line = Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
        if line.hasPrefix("HTTP/") {
            headers = []
        } else if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            headers[headers.count - 1].1 += " " + line.trimmingSpaces()
        } else if let colon = line.firstIndex(of: ":") {
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces()))
        }
        return true
    }

    /// Appends `bytes`; past `bodyLimit` keeps what fits and answers false (libcurl stops the transfer).
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + bytes.count <= bodyLimit else {
            body.append(contentsOf: bytes.prefix(bodyLimit - body.count))
            exceededLimit = true
            bodyTruncated = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (header optional whitespace).
    func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
