#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes (a key as ``JSONObjectScanner`` hands it on)
    /// spell `name`: one comparison of memory, where comparing with a
    /// `String`'s UTF-8 goes byte by byte through generic code.
    func spells(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, name.utf8Start, count) == 0)
    }
}
