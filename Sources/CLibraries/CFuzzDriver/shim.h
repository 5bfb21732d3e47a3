// libFuzzer's driver, present only when the program is linked with
// -sanitize=fuzzer. Declared weak, so the same program built plainly links
// and replays files instead (kp_fuzzer_linked() says which).
#include <stddef.h>
#include <stdint.h>

extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

static inline int kp_fuzzer_linked(void) { return LLVMFuzzerRunDriver != 0; }

static inline int kp_fuzzer_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
