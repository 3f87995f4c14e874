#ifndef REPEAT_MEMORY_HINTS_H
#define REPEAT_MEMORY_HINTS_H

/// Asks the processor to start loading the cache line at `address`, which
/// the program will read soon, without waiting for it. Never faults, even
/// for an address that is not mapped.
static inline void repeat_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
