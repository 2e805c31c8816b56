#ifndef HANDOFF_CHIREDIS_SHIM_H
#define HANDOFF_CHIREDIS_SHIM_H
#include <sys/time.h>
#include <hiredis/hiredis.h>
#endif
