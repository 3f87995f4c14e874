#ifndef REPEAT_PROCESS_COUNTERS_H
#define REPEAT_PROCESS_COUNTERS_H

#include <stdint.h>

/// Whether this build counts heap allocations (glibc: malloc and friends are
/// interposed in the executable; elsewhere nothing is counted).
int repeat_allocations_counted(void);

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign, valloc) made by every thread of the process so far.
uint64_t repeat_allocation_count(void);

/// Opens a counter of the instructions the calling thread retires in user
/// space (perf_event_open, disabled until started). Returns the file
/// descriptor, or -errno when the kernel refuses (no PMU in a VM, ENOENT;
/// perf_event_paranoid, EACCES or EPERM; no such syscall, ENOSYS).
int repeat_instructions_open(void);

/// Resets and starts the counter `fd`.
void repeat_instructions_start(int fd);

/// Stops the counter `fd` and returns its value, or -1 when it cannot be read.
int64_t repeat_instructions_stop(int fd);

/// Closes the counter `fd`.
void repeat_instructions_close(int fd);

#endif
