import Foundation
import WasmParser
import WasmTypes

/// What one pass over a module's sections finds: the facts the parity rules, the resource caps and the
/// trap reports need, gathered without instantiating anything.
struct ModuleScan {
    struct FunctionImport {
        var module: String
        var name: String
        var type: FunctionType?
    }

    var functionImports: [FunctionImport] = []
    /// Imports of memories, tables, globals or tags, as `module.name (kind)`.
    var nonFunctionImports: [(item: String, kind: String)] = []
    /// Every memory, imported ones first.
    var memories: [MemoryType] = []
    /// Every table, imported ones first.
    var tables: [TableType] = []
    var memoryExportNames: [String] = []
    var functionExports: [String] = []
    /// Features outside the SDK's set, each with where it was first seen.
    var features: [(feature: String, location: String)] = []
    /// Absolute byte range of each defined function body, in function-index order after the imports.
    var bodyRanges: [Range<Int>] = []
    var functionNames: [UInt32: String] = [:]
    var exportedFunctionNames: [UInt32: String] = [:]
    var hasStartFunction = false

    /// The best name of a function: name section, else export name, else its index.
    func displayName(ofFunction index: UInt32) -> String {
        functionNames[index] ?? exportedFunctionNames[index] ?? "func[\(index)]"
    }

    /// The defined function whose body contains `offset`, by name.
    func function(containing offset: Int) -> String? {
        guard let position = bodyRanges.firstIndex(where: { $0.contains(offset) }) else { return nil }
        return displayName(ofFunction: UInt32(functionImports.count + position))
    }

    /// Parses every section with all proposals enabled, so that a module using one outside the SDK's
    /// set is reported by feature name instead of as an opaque parse error.
    static func scan(_ bytes: [UInt8]) throws(WasmParserError) -> ModuleScan {
        var scan = ModuleScan()
        var parser = Parser(bytes: bytes, features: .all)
        var types: [FunctionType?] = []
        var firstFeatureSeen: Set<String> = []

        func note(_ feature: String, _ location: String) {
            guard firstFeatureSeen.insert(feature).inserted else { return }
            scan.features.append((feature, location))
        }
        func noteValueType(_ type: ValueType, _ location: String) {
            switch type {
            case .v128: note("simd", location)
            case let .ref(reference):
                if case .concrete = reference.heapType { note("function-references/gc", location) }
            default: break
            }
        }
        func noteMemory(_ memory: MemoryType, _ location: String) {
            if memory.shared { note("threads (shared memory)", location) }
            if memory.isMemory64 { note("memory64", location) }
        }

        while let payload = try parser.parseNext() {
            switch payload {
            case let .typeSection(groups):
                for group in groups {
                    if group.types.count > 1 { note("gc (recursive type group)", "type section") }
                    for subtype in group.types {
                        switch subtype.body {
                        case let .function(type):
                            types.append(type)
                            for valueType in type.parameters + type.results { noteValueType(valueType, "type[\(types.count - 1)]") }
                        case .structType, .arrayType:
                            types.append(nil)
                            note("gc (struct/array types)", "type[\(types.count - 1)]")
                        }
                    }
                }
            case let .importSection(imports):
                for entry in imports {
                    let item = "\(entry.module).\(entry.name)"
                    switch entry.descriptor {
                    case let .function(typeIndex):
                        let type = Int(typeIndex) < types.count ? types[Int(typeIndex)] : nil
                        scan.functionImports.append(FunctionImport(module: entry.module, name: entry.name, type: type))
                    case let .memory(memory):
                        scan.memories.append(memory)
                        noteMemory(memory, "import \(item)")
                        scan.nonFunctionImports.append((item, "memory"))
                    case let .table(table):
                        scan.tables.append(table)
                        scan.nonFunctionImports.append((item, "table"))
                    case .global: scan.nonFunctionImports.append((item, "global"))
                    case .tag:
                        note("exception-handling", "import \(item)")
                        scan.nonFunctionImports.append((item, "tag"))
                    }
                }
            case let .memorySection(memories):
                for memory in memories {
                    noteMemory(memory.type, "memory[\(scan.memories.count)]")
                    scan.memories.append(memory.type)
                }
            case let .tableSection(tables):
                scan.tables += tables.map(\.type)
            case let .globalSection(globals):
                for (index, global) in globals.enumerated() { noteValueType(global.type.valueType, "global[\(index)]") }
            case .tagSection:
                note("exception-handling", "tag section")
            case let .exportSection(exports):
                for export in exports {
                    switch export.descriptor {
                    case .memory: scan.memoryExportNames.append(export.name)
                    case let .function(index):
                        scan.functionExports.append(export.name)
                        if scan.exportedFunctionNames[index] == nil { scan.exportedFunctionNames[index] = export.name }
                    default: break
                    }
                }
            case .startSection:
                scan.hasStartFunction = true
            case let .codeSection(codes):
                for (position, code) in codes.enumerated() {
                    let functionIndex = UInt32(scan.functionImports.count + position)
                    var expression = ExpressionParser(code: code)
                    let start = expression.offset
                    scan.bodyRanges.append(start..<start + code.expression.count)
                    for local in code.locals { noteValueType(local, "locals of func[\(functionIndex)]") }
                    var visitor = FeatureVisitor()
                    while let visit = try expression.parse() {
                        visit(visitor: &visitor)
                        if let feature = visitor.found {
                            note(feature, "func[\(functionIndex)] at offset \(visitor.binaryOffset)")
                            visitor.found = nil
                        }
                    }
                }
            case let .customSection(section) where section.name == "name":
                // A malformed name section only costs names in backtraces, as in WasmKit itself.
                var names = NameSectionParser(stream: StaticByteStreamSource(bytes: Array(section.bytes)))
                if let parsed = try? names.parseAll() {
                    for case let .functions(map) in parsed { scan.functionNames.merge(map) { first, _ in first } }
                }
            default:
                break
            }
        }
        // Locations were written with indices because the name section usually comes last.
        scan.features = scan.features.map { ($0.feature, scan.renamingFunctions(in: $0.location)) }
        return scan
    }

    /// Rewrites "func[N]" in a location to the function's name once the name section is known.
    private func renamingFunctions(in location: String) -> String {
        guard let open = location.range(of: "func["), let close = location[open.upperBound...].firstIndex(of: "]"),
              let index = UInt32(location[open.upperBound..<close])
        else { return location }
        return location.replacingCharacters(in: open.lowerBound...close, with: displayName(ofFunction: index))
    }
}

/// Spots instructions from proposals the device's WasmKit does not accept.
private struct FeatureVisitor: AnyInstructionVisitor {
    typealias VisitorError = Never
    var binaryOffset: Int = 0
    var found: String?

    mutating func visit(_ instruction: Instruction) {
        switch instruction {
        case let .load(load, _):
            switch load {
            case .i32AtomicLoad, .i64AtomicLoad, .i32AtomicLoad8U, .i32AtomicLoad16U, .i64AtomicLoad8U,
                 .i64AtomicLoad16U, .i64AtomicLoad32U:
                found = "threads (atomics)"
            case .v128Load, .v128Load8X8S, .v128Load8X8U, .v128Load16X4S, .v128Load16X4U, .v128Load32X2S,
                 .v128Load32X2U, .v128Load8Splat, .v128Load16Splat, .v128Load32Splat, .v128Load64Splat,
                 .v128Load32Zero, .v128Load64Zero:
                found = "simd"
            default: break
            }
        case let .store(store, _):
            switch store {
            case .i32AtomicStore, .i64AtomicStore, .i32AtomicStore8, .i32AtomicStore16, .i64AtomicStore8,
                 .i64AtomicStore16, .i64AtomicStore32:
                found = "threads (atomics)"
            case .v128Store: found = "simd"
            default: break
            }
        case .v128Const, .i8x16Shuffle, .simd, .simdLane, .simdMemLane:
            found = "simd"
        case .returnCall, .returnCallIndirect, .returnCallRef:
            found = "tail-call"
        case .throw, .throwRef, .tryTable:
            found = "exception-handling"
        case .callRef, .refAsNonNull, .brOnNull, .brOnNonNull:
            found = "function-references"
        case .atomicFence, .memoryAtomicNotify, .memoryAtomicWait32, .memoryAtomicWait64,
             .i32AtomicRmwAdd, .i64AtomicRmwAdd, .i32AtomicRmw8AddU, .i32AtomicRmw16AddU, .i64AtomicRmw8AddU,
             .i64AtomicRmw16AddU, .i64AtomicRmw32AddU, .i32AtomicRmwSub, .i64AtomicRmwSub, .i32AtomicRmw8SubU,
             .i32AtomicRmw16SubU, .i64AtomicRmw8SubU, .i64AtomicRmw16SubU, .i64AtomicRmw32SubU, .i32AtomicRmwAnd,
             .i64AtomicRmwAnd, .i32AtomicRmw8AndU, .i32AtomicRmw16AndU, .i64AtomicRmw8AndU, .i64AtomicRmw16AndU,
             .i64AtomicRmw32AndU, .i32AtomicRmwOr, .i64AtomicRmwOr, .i32AtomicRmw8OrU, .i32AtomicRmw16OrU,
             .i64AtomicRmw8OrU, .i64AtomicRmw16OrU, .i64AtomicRmw32OrU, .i32AtomicRmwXor, .i64AtomicRmwXor,
             .i32AtomicRmw8XorU, .i32AtomicRmw16XorU, .i64AtomicRmw8XorU, .i64AtomicRmw16XorU, .i64AtomicRmw32XorU,
             .i32AtomicRmwXchg, .i64AtomicRmwXchg, .i32AtomicRmw8XchgU, .i32AtomicRmw16XchgU, .i64AtomicRmw8XchgU,
             .i64AtomicRmw16XchgU, .i64AtomicRmw32XchgU, .i32AtomicRmwCmpxchg, .i64AtomicRmwCmpxchg,
             .i32AtomicRmw8CmpxchgU, .i32AtomicRmw16CmpxchgU, .i64AtomicRmw8CmpxchgU, .i64AtomicRmw16CmpxchgU,
             .i64AtomicRmw32CmpxchgU:
            found = "threads (atomics)"
        case .refI31, .i31GetS, .i31GetU, .structNew, .structNewDefault, .structGet, .structGetS, .structGetU,
             .structSet, .arrayNew, .arrayNewDefault, .arrayNewFixed, .arrayGet, .arrayGetS, .arrayGetU, .arraySet,
             .arrayLen, .refEq, .anyConvertExtern, .externConvertAny, .arrayNewData, .arrayNewElem, .arrayFill,
             .arrayCopy, .arrayInitData, .arrayInitElem, .refTest, .refCast, .brOnCast, .brOnCastFail:
            found = "gc"
        case let .memorySize(memory), let .memoryGrow(memory), let .memoryFill(memory):
            if memory != 0 { found = "multi-memory" }
        case let .memoryCopy(destination, source):
            if destination != 0 || source != 0 { found = "multi-memory" }
        case let .typedSelect(type):
            if type == .v128 { found = "simd" }
        default:
            break
        }
    }
}
