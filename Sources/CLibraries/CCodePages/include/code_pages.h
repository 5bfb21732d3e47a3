// The idle release's unmapping of shared code (code_pages.c says how it
// stays safe). Only the Service module includes this.
#pragma once

/// Drops this process's resident pages of every loaded object's read-only
/// segments. Returns the bytes unmapped (-1 when /proc/self/pagemap cannot
/// be read).
long kioskprint_release_code_pages(void);
