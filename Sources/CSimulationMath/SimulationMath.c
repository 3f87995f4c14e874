// sincos(3) is a GNU extension, declared by <math.h> only with
// _GNU_SOURCE; Apple's C library names it __sincos.

#define _GNU_SOURCE
#include <math.h>

#include "SimulationMath.h"

void repeat_sincos(double x, double *sine, double *cosine) {
#if defined(__APPLE__)
    __sincos(x, sine, cosine);
#else
    sincos(x, sine, cosine);
#endif
}
