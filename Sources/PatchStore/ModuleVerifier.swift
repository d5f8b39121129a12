import PatchManifest
/// The pre-publish check of a module artifact. `patchcli release` and `patchcli verify` pass the
/// device-parity run (PatchRuntime's `PublishProof` after the structural checks below); the store
/// needs no runtime of its own.
public protocol ModuleVerifier: Sendable {
    /// Shown in messages and reports: which check accepted or refused the module.
    var name: String { get }
    /// Throws `StoreError.moduleRejected` with the reason, or returns what was checked.
    func verify(artifact: [UInt8]) throws(StoreError) -> ModuleCheckReport
}

public struct ModuleCheckReport: Codable, Sendable, Equatable {
    public var verifier: String
    /// What the artifact is: `wasm`, `PMOD(n)`, `POVR(...)`.
    public var layout: String
    public var modules: Int
    public var checks: [String]
    /// What passed but deserves a look (shown by `release` and `verify`, never fatal).
    public var warnings: [String]

    public init(verifier: String, layout: String, modules: Int, checks: [String], warnings: [String] = []) {
        self.verifier = verifier
        self.layout = layout
        self.modules = modules
        self.checks = checks
        self.warnings = warnings
    }
}

/// Structural checks that need no runtime: the artifact layering of sdk-contract §0/§1 (optional
/// `POVR` envelope, then a `PMOD` v1 container or one raw module), and for each module the wasm
/// magic and version, well-formed sections in the required order, and an exported `memory` (the SDK
/// refuses to activate a module without one). It does not execute or validate code: that is the
/// device-parity run PatchRuntime performs.
public struct StructuralModuleVerifier: ModuleVerifier {
    public var name: String { "structural" }

    public init() {}

    public func verify(artifact: [UInt8]) throws(StoreError) -> ModuleCheckReport {
        var layout: [String] = []
        var body = ArraySlice(artifact)
        if body.starts(with: Array("POVR".utf8)) {
            body = try unwrapOverlay(body)
            layout.append("POVR")
        }
        let modules: [ArraySlice<UInt8>]
        if body.starts(with: Array("PMOD".utf8)) {
            modules = try splitContainer(body)
            layout.append("PMOD(\(modules.count))")
        } else {
            modules = [body]
            layout.append("wasm")
        }
        for (index, module) in modules.enumerated() {
            try checkModule(module, label: modules.count == 1 ? "module" : "module \(index)")
        }
        return ModuleCheckReport(
            verifier: name, layout: layout.joined(separator: "/"), modules: modules.count,
            checks: ["artifact layering", "wasm magic and version 1", "section ids, order and sizes", "exports memory"])
    }

    private func reject(_ detail: String) -> StoreError { .moduleRejected(verifier: name, detail: detail) }

    private func readU32(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int? {
        let start = bytes.startIndex + offset
        guard offset >= 0, start + 4 <= bytes.endIndex else { return nil }
        return Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16 | Int(bytes[start + 3]) << 24
    }

    /// The artifact a `POVR` envelope wraps (read by PatchManifest's `OverlayEnvelope`, as `run`
    /// reads it). The SDK silently applies no overlay from a chunk it cannot decode (sdk-contract
    /// §1.3), so the `PROV` chunk must decode whole.
    private func unwrapOverlay(_ bytes: ArraySlice<UInt8>) throws(StoreError) -> ArraySlice<UInt8> {
        let envelope: OverlayEnvelope
        do {
            envelope = try OverlayEnvelope.decode(Array(bytes))
        } catch {
            throw reject("POVR envelope: \(error)")
        }
        do {
            _ = try ResourceOverlay.decode(envelope.overlay)
        } catch {
            throw reject("POVR envelope: the PROV overlay chunk does not decode (\(error)), so devices would apply none of its assets; build the artifact again with `patchcli build`")
        }
        return ArraySlice(envelope.inner)
    }

    /// `PMOD` | u8 version 1 | u8 count ≥ 1 | u16 0 | count × (u32 length, module bytes).
    private func splitContainer(_ bytes: ArraySlice<UInt8>) throws(StoreError) -> [ArraySlice<UInt8>] {
        guard bytes.count >= 8, bytes[bytes.startIndex + 4] == 1 else { throw reject("PMOD container: header shorter than 8 bytes or version is not 1") }
        let count = Int(bytes[bytes.startIndex + 5])
        guard count >= 1 else { throw reject("PMOD container: module count is 0") }
        var offset = 8
        var modules: [ArraySlice<UInt8>] = []
        for index in 0..<count {
            guard let length = readU32(bytes, at: offset), offset + 4 + length <= bytes.count else {
                throw reject("PMOD container: module \(index)'s length runs past the end of the artifact")
            }
            modules.append(bytes.dropFirst(offset + 4).prefix(length))
            offset += 4 + length
        }
        return modules
    }

    private func checkModule(_ module: ArraySlice<UInt8>, label: String) throws(StoreError) {
        guard module.count >= 8, module.prefix(4).elementsEqual([0x00, 0x61, 0x73, 0x6D]) else {
            throw reject("\(label): not WebAssembly (missing the \\0asm magic)")
        }
        guard module.dropFirst(4).prefix(4).elementsEqual([1, 0, 0, 0]) else {
            throw reject("\(label): wasm binary version is not 1")
        }
        // Non-custom sections must appear at most once, in this order (datacount, id 12, sits before code).
        let order: [UInt8: Int] = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 12: 10, 10: 11, 11: 12]
        var reader = LEBReader(bytes: module, offset: 8)
        var lastRank = 0
        var exportsMemory = false
        while !reader.atEnd {
            let sectionOffset = reader.offset
            let id = reader.byte()
            guard let id, let size = reader.u32(), reader.offset + size <= module.count else {
                throw reject("\(label): section header at offset \(sectionOffset) is truncated or its size runs past the end")
            }
            if id != 0 {
                guard let rank = order[id] else { throw reject("\(label): unknown section id \(id) at offset \(sectionOffset)") }
                guard rank > lastRank else { throw reject("\(label): section id \(id) at offset \(sectionOffset) is out of order or repeated") }
                lastRank = rank
            }
            if id == 7 {
                var exports = LEBReader(bytes: module.prefix(reader.offset + size), offset: reader.offset)
                exportsMemory = try exportsNamedMemory(&exports, label: label)
            }
            reader.offset += size
        }
        guard exportsMemory else { throw reject("\(label): does not export its linear memory as \"memory\" (devices refuse to activate it)") }
    }

    private func exportsNamedMemory(_ reader: inout LEBReader, label: String) throws(StoreError) -> Bool {
        guard let count = reader.u32() else { throw reject("\(label): export section is truncated") }
        var found = false
        for _ in 0..<count {
            guard let nameLength = reader.u32(), reader.offset + nameLength <= reader.bytes.count else {
                throw reject("\(label): export name runs past the end of the export section")
            }
            let name = reader.bytes.dropFirst(reader.offset).prefix(nameLength)
            reader.offset += nameLength
            guard let kind = reader.byte(), reader.u32() != nil else { throw reject("\(label): export entry is truncated") }
            if kind == 2, name.elementsEqual("memory".utf8) { found = true }
        }
        return found
    }
}

/// Unsigned LEB128 and bytes over a slice, with offsets relative to the slice start.
private struct LEBReader {
    let bytes: ArraySlice<UInt8>
    var offset: Int

    var atEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[bytes.startIndex + offset]
    }

    mutating func u32() -> Int? {
        var result = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard let byte = byte() else { return nil }
            result |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result <= Int(UInt32.max) ? result : nil }
        }
        return nil
    }
}
