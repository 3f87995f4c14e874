import CSimulationMath

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The C maths functions, named apart so that Simulation needs no Foundation.

func _exp(_ x: Double) -> Double { exp(x) }
func _log(_ x: Double) -> Double { log(x) }
func _cos(_ x: Double) -> Double { cos(x) }

/// `(sin(x), cos(x))` in one call (sincos(3)), the same values.
func _sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    var sine = 0.0
    var cosine = 0.0
    repeat_sincos(x, &sine, &cosine)
    return (sine, cosine)
}
