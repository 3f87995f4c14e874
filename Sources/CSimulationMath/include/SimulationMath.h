#ifndef REPEAT_SIMULATION_MATH_H
#define REPEAT_SIMULATION_MATH_H

/// The sine and cosine of `x` (radians) in one call, for about the price
/// of one: the same values as sin(3) and cos(3), whose argument reduction
/// and kernels the C library shares between the three.
void repeat_sincos(double x, double *sine, double *cosine);

#endif
