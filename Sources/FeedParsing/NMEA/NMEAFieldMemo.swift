/// The value last read from a field, kept with the field's bytes (up to
/// 16): a receiver repeats fields from sentence to sentence (the time in
/// the GGA and RMC of one epoch, the date in every RMC), and a field read
/// again is compared, not parsed.
///
/// Only for readings that depend on nothing but the field's bytes.
struct NMEAFieldMemo<Value> {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// The field's length; -1 until a value is kept.
    private var length = -1
    private var value: Value?

    /// What `read` gives for field `index` of `f`: kept from the last call
    /// when the field has the same bytes.
    @inline(__always)
    mutating func value(of f: NMEAFields, _ index: Int, reading read: (NMEAFields, Int) -> Value) -> Value {
        let r = f.range(index)
        let length = r.end - r.start
        guard length >= 0, length <= 16, let base = f.bytes.baseAddress else { return read(f, index) }
        var low: UInt64
        var high: UInt64 = 0
        if r.start + 16 <= f.bytes.count {
            low = UnsafeRawPointer(base + r.start).loadUnaligned(as: UInt64.self)
            high = UnsafeRawPointer(base + r.start + 8).loadUnaligned(as: UInt64.self)
        } else if length <= 8, r.start + 8 <= f.bytes.count {
            low = UnsafeRawPointer(base + r.start).loadUnaligned(as: UInt64.self)
        } else {
            return read(f, index)
        }
        // Only the field's own bytes (little-endian: the first is lowest).
        low = length >= 8 ? low : low & ((1 << (8 * UInt64(length))) &- 1)
        high = length <= 8 ? 0 : length >= 16 ? high : high & ((1 << (8 * UInt64(length - 8))) &- 1)
        if length == self.length, low == self.low, high == self.high, let value { return value }
        let value = read(f, index)
        (self.low, self.high, self.length, self.value) = (low, high, length, value)
        return value
    }
}
