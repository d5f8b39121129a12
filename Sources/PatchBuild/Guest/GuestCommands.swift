import Foundation

/// The toolchain command lines of one guest build, in the work directory that holds the templates
/// and the generated source: swiftc, clang (support.c), wasm-ld and, when installed, wasm-opt.
///
/// Size: swiftc emits LLVM bitcode (`-lto=llvm-full`) and clang too (`-flto`), so wasm-ld optimizes
/// the guest, the parts of the Embedded standard library it instantiates and the support runtime as
/// one unit (`-Osize` marks every function for size), which drops code no export reaches (about a
/// fifth of a string-handling module); `wasm-opt --code-folding -Oz` then shrinks what is left by
/// another fifth (an eighth for integer-only code). Paths are relative to the work directory and the directory itself is mapped to `.`, so
/// nothing of the machine leaks into the module.
public struct GuestCommands: Sendable, Equatable {
    public var toolchain: Toolchain
    public var workDirectory: String
    /// The compiled guest library (`GuestLibrary`: Prelude.swift and the Foundation layer, with the
    /// view DSL when the program lowers views) the program imports: its directory is searched for
    /// the module and its bitcode is linked in. Every build sets it; the library's own compile
    /// (`libraryCompile`) needs none.
    public var library: GuestLibrary.Entry?

    public init(toolchain: Toolchain, workDirectory: String, library: GuestLibrary.Entry? = nil) {
        self.toolchain = toolchain
        self.workDirectory = workDirectory
        self.library = library
    }

    /// Embedded Swift, whole-module, size-optimized, bitcode for link-time optimization: the
    /// program and the guest library are compiled alike.
    private var swiftcOptions: [String] {
        var arguments = ["-target", toolchain.guestTarget, "-enable-experimental-feature", "Embedded", "-wmo", "-parse-as-library",
                         "-Osize", "-lto=llvm-full", "-Xfrontend", "-disable-stack-protector"]
        if let sdk = toolchain.swiftSDK {
            arguments += ["-sdk", sdk.sdkRoot]
            if let resources = sdk.swiftResources { arguments += ["-resource-dir", resources] }
            for path in sdk.includeSearchPaths { arguments += ["-I", path] }
        }
        return arguments + ["-import-objc-header", "PatchGuestSupport.h", "-file-prefix-map", "\(workDirectory)=."]
    }

    /// The program (`GuestProgram.fileName`) into guest.o, against the guest library.
    public var swiftc: [String] {
        swiftcOptions + ["-module-name", GuestModuleBuilder.moduleName] + (library.map { ["-I", $0.directory] } ?? [])
            + [GuestProgram.fileName, "-c", "-o", "guest.o"]
    }

    /// Prelude.swift and `library`'s `files` (`GuestLibrary.files(in:)`) into the library module
    /// `GuestLibrary` caches: its `.swiftmodule` (with the SIL of every function, as Embedded Swift
    /// serializes them, so the program specializes the library's generics) and its bitcode.
    /// `-enable-testing` lets the program `@testable import` it: the glue uses the prelude's internal
    /// declarations, as it did in one module. The view DSL's library reads inputs the faster way
    /// (`-D PATCH_VIEWS`): a body decodes its inputs member by member on every render, while function
    /// modules are held to a size.
    public func libraryCompile(_ library: GuestLibrary, files: [String]) -> [String] {
        swiftcOptions + ["-module-name", library.moduleName, "-enable-testing"] + library.conditions.flatMap { ["-D", $0] } + ["Prelude.swift"] + files
            + ["-emit-module", "-emit-module-path", library.moduleFile, "-c", "-o", library.objectFile]
    }

    /// support.c: freestanding with its own allocator, or against wasi-libc's (`PATCH_GUEST_LIBC`).
    public var clang: [String] {
        var arguments = ["-Oz", "-flto", "-mbulk-memory"]
        if let sdk = toolchain.swiftSDK {
            arguments = ["--target=\(sdk.targetTriple)", "--sysroot=\(sdk.sdkRoot)", "-DPATCH_GUEST_LIBC"] + arguments
            for path in sdk.includeSearchPaths { arguments += ["-I", path] }
        } else {
            arguments = ["--target=wasm32-unknown-unknown", "-ffreestanding", "-fno-builtin"] + arguments
        }
        return arguments + ["-ffile-prefix-map=\(workDirectory)=.", "-c", "support.c", "-o", "support.o"]
    }

    /// A reactor module exporting `memory`, the allocator and `exports`. With a WASI SDK, wasi-libc's
    /// `crt1-reactor.o` adds `_initialize` (run by the SDK before any call) and `libc.a` follows the
    /// objects so only what they use is linked.
    public func link(exports: [String]) -> [String] {
        var arguments = ["--no-entry", "--export-memory", "--gc-sections"]
        var symbols = exports + ["patch_malloc", "patch_free"]
        var inputs = ["guest.o"] + (library.map { [$0.objectPath] } ?? [])
            + ["support.o", toolchain.unicodeDataTables]
        if let sdk = toolchain.swiftSDK {
            symbols.append("_initialize")
            inputs.insert((sdk.libcDirectory as NSString).appendingPathComponent("crt1-reactor.o"), at: 0)
            for path in [sdk.libcDirectory] + sdk.librarySearchPaths { arguments.append("-L\(path)") }
            inputs.append("-lc")
        }
        return arguments + symbols.map { "--export=\($0)" } + inputs + ["-o", Self.linkedModule]
    }

    /// What `link` writes in the work directory.
    public static let linkedModule = "module.wasm"

    /// `wasm-opt -Oz` keeping the name section (`-g`) for symbols.json; the features come from the
    /// module's own `target_features` section, so it never uses one the linker did not.
    ///
    /// `--code-folding` first: LLVM leaves many identical block tails (the traps of overflow and
    /// bounds checks, the release sequences of String code), and merging them before `-Oz`
    /// reshapes the code finds far more of them than the run inside `-Oz` does: 4.6% of the
    /// string-handling benchmark module and 2.1% of the test fixture's with binaryen 108.
    public static func wasmOpt(input: String, output: String) -> [String] {
        ["--code-folding", "-Oz", "-g", input, "-o", output]
    }
}
