#ifndef HANDOFF_CCURL_SHIM_H
#define HANDOFF_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt is variadic: Swift cannot call it, so each argument type gets a typed shim. */
static inline CURLcode handoff_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode handoff_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode handoff_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode handoff_curl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode handoff_curl_setopt_write_function(CURL *curl, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, fn);
}
static inline CURLcode handoff_curl_setopt_read_function(CURL *curl, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_READFUNCTION, fn);
}
static inline CURLcode handoff_curl_setopt_header_function(CURL *curl, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, fn);
}
static inline CURLcode handoff_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
#endif
