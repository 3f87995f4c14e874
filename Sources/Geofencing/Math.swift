#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The C maths functions this module needs, without Foundation.

/// The cosine of an angle in degrees.
@inlinable func cosine(degrees: Double) -> Double { cos(degrees * .pi / 180) }

/// The sine of an angle in radians.
@inlinable func sine(radians: Double) -> Double { sin(radians) }

/// The arcsine in radians.
@inlinable func arcsine(_ x: Double) -> Double { asin(x) }

/// `sin(x)` for the small half-angles of nearby points: a Taylor polynomial
/// (relative error below 2e-16 for |x| ≤ 0.05 rad), else the C library.
@inlinable @inline(__always)
func smallAngleSine(_ x: Double) -> Double {
    guard abs(x) <= 0.05 else { return sin(x) }
    let x2 = x * x
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
}
