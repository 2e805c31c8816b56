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

/* ---- issue14-forward: the connect-time address guard (Sources/HTTPClient/CurlOpenSocket.swift) ---- */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

typedef curl_socket_t (*handoff_curl_opensocket_fn)(void *, curlsocktype, struct curl_sockaddr *);

static inline CURLcode handoff_curl_setopt_opensocket_function(CURL *curl, handoff_curl_opensocket_fn fn) {
    return curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, fn);
}

/* Copies the peer address of `address` (network order) into `out` (16 bytes): returns 4 for IPv4, 16 for IPv6,
   0 for any other family or a truncated address. `addr` is declared as a `struct sockaddr` but libcurl stores
   the whole `sockaddr_in6` there. */
static inline int handoff_curl_sockaddr_bytes(const struct curl_sockaddr *address, unsigned char *out) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        memcpy(out, &((const struct sockaddr_in *)(const void *)&address->addr)->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        memcpy(out, &((const struct sockaddr_in6 *)(const void *)&address->addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}
/* ---- end issue14-forward ---- */
#endif
