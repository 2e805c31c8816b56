/// Feeds a byte array to libcurl's upload (SMTP DATA) in the chunks it asks for.
final class UploadSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
