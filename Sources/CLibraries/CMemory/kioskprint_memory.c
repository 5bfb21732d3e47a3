// Unmapping the loaded code's resident pages from an idle process.
//
// MADV_PAGEOUT (CleanPages.release) evicts the file pages only this process
// maps; the pages of libc, libstdc++, GLib... that other processes map too
// stay in its resident set. MADV_DONTNEED drops this process's
// mappings of them as well (the page cache keeps them; a page touched again
// comes back with a minor fault), but it discards a private page's own
// content, so it is applied only where none can exist:
//  - the read-only PT_LOAD segments of loaded objects (code and constants),
//    walked under dl_iterate_phdr, which holds the loader's lock, so that no
//    object is unloaded and nothing else mapped there while it runs;
//  - within them, only the pages /proc/self/pagemap shows as present file
//    pages: a copy-on-write page (a debugger's breakpoint) or one in swap is
//    skipped.
#define _GNU_SOURCE
#include "kioskprint_memory.h"

#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

struct code_release {
    int pagemap;
    uintptr_t page;
    uintptr_t vdso;
    long bytes;
};

// pagemap: 8 bytes per page; bit 63 present, bit 62 swapped, bit 61 file page.
static int is_file_page(uint64_t entry) {
    return (entry >> 63 & 1) && (entry >> 61 & 1) && !(entry >> 62 & 1);
}

static void release_range(struct code_release *state, uintptr_t start, uintptr_t end) {
    enum { batch = 512 };
    uint64_t entries[batch];
    for (uintptr_t chunk = start; chunk < end; chunk += batch * state->page) {
        uintptr_t pages = (end - chunk) / state->page;
        if (pages > batch) pages = batch;
        ssize_t wanted = (ssize_t)(pages * sizeof(uint64_t));
        if (pread(state->pagemap, entries, (size_t)wanted, (off_t)(chunk / state->page * sizeof(uint64_t))) != wanted) return;
        uintptr_t run = 0, runLength = 0;
        for (uintptr_t index = 0; index <= pages; index++) {
            if (index < pages && is_file_page(entries[index])) {
                if (runLength == 0) run = chunk + index * state->page;
                runLength += state->page;
                continue;
            }
            if (runLength > 0 && madvise((void *)run, runLength, MADV_DONTNEED) == 0) state->bytes += (long)runLength;
            runLength = 0;
        }
    }
}

static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct code_release *state = data;
    if (info->dlpi_addr == state->vdso) return 0;  // the kernel's own page, not a file's
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        uintptr_t start = (info->dlpi_addr + header->p_vaddr) & ~(state->page - 1);
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + state->page - 1) & ~(state->page - 1);
        release_range(state, start, end);
    }
    return 0;
}

long kioskprint_release_code_pages(void) {
    struct code_release state = {
        .pagemap = -1, .page = (uintptr_t)sysconf(_SC_PAGESIZE), .vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR),
    };
    state.pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (state.pagemap < 0) return -1;
    dl_iterate_phdr(release_object, &state);
    close(state.pagemap);
    return state.bytes;
}
