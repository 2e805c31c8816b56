#ifndef HANDOFF_CHIREDIS_SHIM_H
#define HANDOFF_CHIREDIS_SHIM_H
#include <sys/time.h>
#include <hiredis/hiredis.h>

/// `redisCommandArgv` typed: the reply (or NULL with `c->err` set) as a `redisReply *`.
static inline redisReply *handoff_redis_command_argv(redisContext *c, int argc, const char **argv,
                                                     const size_t *argvlen) {
    return (redisReply *)redisCommandArgv(c, argc, argv, argvlen);
}

/// The context's error text as a C string (Swift imports the `errstr` array as a tuple).
static inline const char *handoff_redis_errstr(const redisContext *c) {
    return c->errstr;
}

#endif
