#ifndef HANDOFF_CLIBPQ_SHIM_H
#define HANDOFF_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
