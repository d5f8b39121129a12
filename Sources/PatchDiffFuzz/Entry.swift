import Foundation

/// `PatchDiffFuzz --write-seeds DIR` writes the seed corpus. Otherwise:
/// - built with `-sanitize=fuzzer -DFUZZING` (`make fuzz`), the remaining arguments go to libFuzzer;
/// - built normally, each argument is a file to run through the target once: the way to replay a
///   crash-* file libFuzzer saved, under a debugger or in a plain build.
///
/// SwiftPM renames an executable's `main` (so tests can link it) and libFuzzer's own `main` is then
/// unused; this entry point hands control to libFuzzer through `LLVMFuzzerRunDriver` instead.
@main
enum FuzzEntry {
    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            try Seeds.write(to: URL(fileURLWithPath: arguments[2], isDirectory: true))
            return
        }
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput))
        #else
        for path in arguments.dropFirst() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes.withUnsafeBytes { FuzzTarget.run($0) }
            print("\(path): no crash; as a patch of the fixed OLD: \(bytes.withUnsafeBytes { FuzzTarget.outcomeAgainstFixedOld($0) })")
        }
        #endif
    }
}

/// libFuzzer's per-input callback. It lives in the same file as the `LLVMFuzzerRunDriver` call:
/// referencing it as a C function pointer from another file makes the compiler emit its C entry
/// point twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

#if FUZZING
/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`). Declared here rather than through
/// a C module because it is the only symbol needed; its arguments are plain pointers, which Swift
/// passes the same way C does.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
