import CCurl

// libcurl callbacks. They are global functions (not closures) so they carry no actor isolation; each gets its
// context object through the `void *` user-data pointer (`Unmanaged`, unretained: the caller keeps the object
// alive across `curl_easy_perform`, which calls these on the caller's own thread).

/// `CURLOPT_WRITEFUNCTION`: appends to the `ResponseCollector`; returning a short count aborts the transfer.
func handoffCurlWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    deliver(data, size * count, context) { $0.receiveBody($1) }
}

/// `CURLOPT_HEADERFUNCTION`: one complete header line per call.
func handoffCurlWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    deliver(data, size * count, context) { $0.receiveHeaderLine($1) }
}

/// Hands `length` bytes at `data` to the collector behind `context`; answers `length` when it took them, else 0
/// (which makes libcurl abort the transfer).
private func deliver(
    _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ context: UnsafeMutableRawPointer?,
    to receive: (ResponseCollector, UnsafeBufferPointer<UInt8>) -> Bool
) -> Int {
    guard let context, length > 0, let data else { return 0 }
    let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawPointer(data).bindMemory(to: UInt8.self, capacity: length)
    return receive(collector, UnsafeBufferPointer(start: bytes, count: length)) ? length : 0
}

/// `CURLOPT_READFUNCTION`: copies the next chunk of the `UploadSource`; 0 signals the end.
func handoffCurlReadUpload(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context, let buffer else { return Int(CURL_READFUNC_ABORT) }
    let source = Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue()
    let length = min(size * count, source.bytes.count - source.offset)
    guard length > 0 else { return 0 }
    source.bytes.withUnsafeBytes { all in
        UnsafeMutableRawPointer(buffer).copyMemory(from: all.baseAddress! + source.offset, byteCount: length)
    }
    source.offset += length
    return length
}
