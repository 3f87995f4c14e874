// The named frame around a gate benchmark's measured work; see MeasuredRegion.h.

#include "MeasuredRegion.h"

__attribute__((noinline)) void repeat_measured_region(void (*body)(void *), void *context) { body(context); }
