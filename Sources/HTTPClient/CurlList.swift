import CCurl

/// A `curl_slist` built from Swift strings (libcurl copies each one), freed in `deinit`.
final class CurlList {
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) throws(CurlEasy.SetupError) {
        for line in lines {
            guard let next = curl_slist_append(head, line) else {
                throw CurlEasy.SetupError(message: "curl_slist_append failed")
            }
            head = next
        }
    }

    deinit { curl_slist_free_all(head) }
}
