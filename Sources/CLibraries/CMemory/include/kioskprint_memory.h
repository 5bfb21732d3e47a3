// The Memory module's C: the idle release's unmapping of shared code
// (kioskprint_memory.c says how it stays safe), and malloc's arena cap. Only the
// Memory module includes this.
#pragma once

// M_ARENA_MAX is a macro that does not import into Swift, hence the wrapper.
#include <malloc.h>
static inline int kioskprint_limit_malloc_arenas(int arenas) { return mallopt(M_ARENA_MAX, arenas); }

/// Drops this process's resident pages of every loaded object's read-only
/// segments. Returns the bytes unmapped (-1 when /proc/self/pagemap cannot
/// be read).
long kioskprint_release_code_pages(void);
