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
func _sin(_ x: Double) -> Double { sin(x) }
func _cos(_ x: Double) -> Double { cos(x) }
