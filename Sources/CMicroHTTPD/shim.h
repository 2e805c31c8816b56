#ifndef HANDOFF_CMICROHTTPD_SHIM_H
#define HANDOFF_CMICROHTTPD_SHIM_H
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <netinet/tcp.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The callback MHD_OPTION_URI_LOG_CALLBACK takes; its result becomes the request's first `*con_cls`.
typedef void *(*handoff_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon without a listen socket of its own (`MHD_USE_NO_LISTEN_SOCKET` in `flags`), with the options
/// Handoff uses: connections come in through MHD_add_connection from the server's accept thread.
///
/// MHD_start_daemon is variadic and Swift cannot call it; this fixes the option list and its types.
/// `cls` is handed to all four callbacks. There is no per-IP limit here: `notify_connection` counts connections per
/// client address itself (it groups IPv6 addresses by prefix, which MHD_OPTION_PER_IP_CONNECTION_LIMIT cannot).
/// Each connection gets a 16 KiB memory pool (libmicrohttpd's default is 32 KiB): it holds the request line, the
/// headers and the read and write buffers, and libmicrohttpd zeroes all of it after every request on a kept-alive
/// connection (5 % of a trivial request's CPU at 32 KiB). Request headers of up to about 12 KiB still fit; more
/// gets 431 from libmicrohttpd. Bodies stream through the read buffer whatever its size.
/// Returns NULL when MHD refuses the options or cannot start threads.
static inline struct MHD_Daemon *handoff_mhd_start(unsigned int flags,
                                                   unsigned int thread_pool_size,
                                                   unsigned int connection_timeout,
                                                   unsigned int connection_limit,
                                                   MHD_AccessHandlerCallback handler,
                                                   handoff_mhd_uri_logger uri_logger,
                                                   MHD_RequestCompletedCallback completed,
                                                   MHD_NotifyConnectionCallback notify_connection,
                                                   void *cls)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024),
                            MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, cls,
                            MHD_OPTION_END);
}

/// The connection's socket, or -1 (MHD_get_connection_info is variadic).
static inline int handoff_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Milliseconds since the kernel last received data on TCP socket `fd` (`tcpi_last_data_recv`), or -1.
///
/// Read-only: calling it on a descriptor that was meanwhile reused for another socket does no harm.
static inline long handoff_tcp_milliseconds_since_data(int fd)
{
    struct tcp_info info;
    socklen_t length = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) {
        return -1;
    }
    return (long)info.tcpi_last_data_recv;
}

/// Writes the connection's peer address as text ("203.0.113.7", "2001:db8::1") into `buffer`.
///
/// IPv4-mapped IPv6 peers ("::ffff:1.2.3.4") are written in IPv4 form. Returns 0 on success, -1 otherwise.
static inline int handoff_mhd_client_ip(struct MHD_Connection *connection, char *buffer, socklen_t size)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return -1;
    }
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return inet_ntop(AF_INET, &v4->sin_addr, buffer, size) == NULL ? -1 : 0;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            return inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], buffer, size) == NULL ? -1 : 0;
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, buffer, size) == NULL ? -1 : 0;
    }
    return -1;
}
#endif
