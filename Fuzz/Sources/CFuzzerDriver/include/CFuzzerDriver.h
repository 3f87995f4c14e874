#ifndef REPEAT_FUZZER_DRIVER_H
#define REPEAT_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// One fuzz input: libFuzzer's LLVMFuzzerTestOneInput signature.
typedef int (*repeat_fuzz_target)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver on `target` with the process's arguments (every
/// libFuzzer flag: corpus folders, -max_total_time, -dict, a crash file to
/// replay…) and returns its exit status.
int repeat_fuzz_main(int argc, char **argv, repeat_fuzz_target target);

#endif
