#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

// Process tuning for a long-running service. M_ARENA_MAX is a macro that
// does not import into Swift, hence the wrapper.
#include <malloc.h>
static inline int kioskprint_limit_malloc_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
