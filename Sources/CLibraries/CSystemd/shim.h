#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

// Process tuning for a long-running service. M_ARENA_MAX and
// M_MMAP_THRESHOLD are macros that do not import into Swift, hence the wrappers.
#include <malloc.h>
static inline int kioskprint_limit_malloc_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }
static inline int kioskprint_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
