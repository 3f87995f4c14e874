#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C maths functions this module needs, without Foundation.

/// The cosine of an angle in degrees.
func cosine(degrees: Double) -> Double { cos(degrees * .pi / 180) }

/// The largest power of ten not above `value` (> 0).
func powerOfTen(below value: Double) -> Double { pow(10, floor(log10(value))) }
