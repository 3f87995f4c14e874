// Counts heap allocations by interposing the allocation functions: glibc
// resolves malloc to the first definition in the process, which is this
// one, linked into the executable; each forwards to glibc's own allocator
// (__libc_malloc and friends, exported for exactly this) after one relaxed
// atomic increment. free is not interposed: every block still comes from
// glibc's allocator, so glibc's free releases it. This is the counting
// package-benchmark's MallocInterposer does with an LD_PRELOAD library,
// without the library.

#include "ProcessCounters.h"

// An address-sanitized build (the fuzzers of Fuzz/) brings its own malloc,
// which must be the only one: it counts nothing then.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REPEAT_NO_MALLOC_COUNTER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(REPEAT_NO_MALLOC_COUNTER)

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocations;

static inline void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

int repeat_allocations_counted(void) { return 1; }

uint64_t repeat_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

__attribute__((visibility("default"))) void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

__attribute__((visibility("default"))) void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *valloc(size_t size) {
    count();
    return __libc_memalign(4096, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

#else

int repeat_allocations_counted(void) { return 0; }

uint64_t repeat_allocation_count(void) { return 0; }

#endif
