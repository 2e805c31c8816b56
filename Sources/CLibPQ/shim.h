#ifndef HANDOFF_CLIBPQ_SHIM_H
#define HANDOFF_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* PG_DIAG_* are character macros; these helpers spell them out for Swift. */

/* The five-character SQLSTATE of an error result, or NULL. */
static inline const char *handoff_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

/* The primary (one-line) message of an error result, or NULL. */
static inline const char *handoff_pq_primary_message(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
}

/* The name of the violated constraint, or NULL. */
static inline const char *handoff_pq_constraint_name(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
}

static inline void handoff_pq_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

/* Drops NOTICE/WARNING messages instead of printing them to stderr (libpq's default). */
static inline void handoff_pq_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, handoff_pq_ignore_notice, NULL);
}

#endif
