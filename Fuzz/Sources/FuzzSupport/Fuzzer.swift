import CFuzzerDriver

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a fuzz target under libFuzzer.
///
/// Each fuzzer's `main.swift` is one call, `Fuzzer.run { bytes in … }`: the
/// body gets one input and traps on anything wrong (a Swift trap, a
/// `fatalError` naming the broken expectation, an address-sanitizer report),
/// which libFuzzer catches and saves as a crash file.
public enum Fuzzer {
    nonisolated(unsafe) private static var body: (UnsafeRawBufferPointer) -> Void = { _ in }

    /// Hands the process's arguments to libFuzzer and fuzzes `body` until
    /// libFuzzer stops, then exits with its status.
    public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        Self.body = body
        let status = repeat_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { data, size in
            Fuzzer.body(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        exit(status)
    }
}
