#ifndef REPEAT_MEASURED_REGION_H
#define REPEAT_MEASURED_REGION_H

/// Calls `body(context)`. The gate benchmarks run their measured work
/// through this one C function so that callgrind can count exactly that
/// work by name (`--toggle-collect=repeat_measured_region`), whatever the
/// Swift optimizer names and specializes.
void repeat_measured_region(void (*body)(void *), void *context);

#endif
