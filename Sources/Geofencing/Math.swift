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

/// Bounds on the haversine h = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) of two
/// points `dLat` and `dLon` degrees apart (Δλ the short way round),
/// `cosines` the product of their latitudes' cosines, without
/// trigonometry: `upper` with sin x ≈ x (sin²x ≤ x²), `lower` that scaled
/// by 1 − x²/3 for the larger half-angle (sin²x ≥ x²(1 − x²/3)).
@inlinable @inline(__always)
func smallAngleHaversine(dLat: Double, dLon: Double, cosines: Double) -> (upper: Double, lower: Double) {
    let a = dLat * (.pi / 360) * (dLat * (.pi / 360))
    let b = dLon * (.pi / 360) * (dLon * (.pi / 360))
    let h = a + cosines * b
    return (h, h - h * max(a, b) * (1.0 / 3))
}

/// The cosine of a latitude in degrees without a library call below 80°:
/// 1 − 2 sin²(φ/2), with sin by its Taylor polynomial to x¹⁵ (relative
/// error below 1e-14 there — far inside the grid's 1e-9 decision band);
/// nearer the poles, where the cosine itself is tiny, the C library's.
@inlinable @inline(__always)
func latitudeCosine(degrees: Double) -> Double {
    guard abs(degrees) < 80 else { return cosine(degrees: degrees) }
    let x = degrees * (.pi / 360)
    let x2 = x * x
    var p = -1.0 / 1_307_674_368_000  // −1/15!
    p = p * x2 + 1.0 / 6_227_020_800  // 1/13!
    p = p * x2 - 1.0 / 39_916_800  // −1/11!
    p = p * x2 + 1.0 / 362_880  // 1/9!
    p = p * x2 - 1.0 / 5_040  // −1/7!
    p = p * x2 + 1.0 / 120  // 1/5!
    p = p * x2 - 1.0 / 6  // −1/3!
    let s = x + x * x2 * p
    return 1 - 2 * s * s
}
