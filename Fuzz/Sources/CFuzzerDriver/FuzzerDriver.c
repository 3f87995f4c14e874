// The entry-point shim between SwiftPM and libFuzzer.
//
// libFuzzer brings a main() that calls LLVMFuzzerTestOneInput, but SwiftPM
// links every executable target with `--defsym main=<target>_main`, so the
// Swift target's own top-level code is main and libFuzzer's is never run.
// The Swift main therefore calls repeat_fuzz_main, which runs libFuzzer's
// driver (LLVMFuzzerRunDriver) itself. LLVMFuzzerTestOneInput must still be
// defined: libFuzzer's main refers to it.

#include "CFuzzerDriver.h"

#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

static repeat_fuzz_target current_target;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return current_target == NULL ? 0 : current_target(data, size);
}

int repeat_fuzz_main(int argc, char **argv, repeat_fuzz_target target) {
    // Swift's runtime installs its backtracer on SIGILL, SIGTRAP, SIGABRT…
    // before main, and libFuzzer leaves a signal that already has a handler
    // alone: a Swift trap (overflow, index out of range, a force unwrap)
    // would print a backtrace and end the run without libFuzzer saving the
    // input. The backtracer reads SWIFT_BACKTRACE only at startup, so start
    // the process once more with it off (unless the caller chose a setting).
    if (getenv("SWIFT_BACKTRACE") == NULL) {
        setenv("SWIFT_BACKTRACE", "enable=no", 1);
        execv("/proc/self/exe", argv);
        // execv failed: go on with the backtracer; crashes are still reported.
    }
    current_target = target;
    return LLVMFuzzerRunDriver(&argc, &argv, target);
}
