// Retired user-space instructions of the calling thread through
// perf_event_open(2); where the kernel offers no counter the caller gets
// -errno and reports why instead of a figure.

#include "ProcessCounters.h"

#if defined(__linux__)

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int repeat_instructions_open(void) {
    struct perf_event_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.type = PERF_TYPE_HARDWARE;
    attributes.size = sizeof attributes;
    attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
    attributes.disabled = 1;
    attributes.exclude_kernel = 1;
    attributes.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attributes, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : (int)fd;
}

void repeat_instructions_start(int fd) {
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

int64_t repeat_instructions_stop(int fd) {
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t value = 0;
    return read(fd, &value, sizeof value) == (ssize_t)sizeof value ? (int64_t)value : -1;
}

void repeat_instructions_close(int fd) { close(fd); }

#else

#include <errno.h>

int repeat_instructions_open(void) { return -ENOSYS; }
void repeat_instructions_start(int fd) { (void)fd; }
int64_t repeat_instructions_stop(int fd) { (void)fd; return -1; }
void repeat_instructions_close(int fd) { (void)fd; }

#endif
