import Foundation
@testable import PatchBuild
import PatchManifest
import SwiftParser
import SwiftSyntax
import Testing

/// Runs the rewriter over in-memory files and returns the resulting text of every file it touched.
struct PreparedProject {
    var plan: PreparePlan
    /// Every file after the run (untouched files included), by path.
    var files: [String: String]

    /// `routing`: what a new project's patch.json asks for unless the test is about the selection.
    init(targets: [String: [String: String]], appTarget: String? = nil, routing: RoutingSelection = .all,
         existing: [String: String] = [:]) {
        let prepareTargets = targets.keys.sorted().map { name in
            PrepareTarget(name: name, sourceRoots: ["Sources/\(name)"], files: targets[name, default: [:]].keys.sorted().map { file in
                SourceFile(path: "Sources/\(name)/\(file)", bytes: Array(targets[name, default: [:]][file, default: ""].utf8))
            })
        }
        var files = existing
        for target in prepareTargets {
            for file in target.files { files[file.path] = String(decoding: file.bytes, as: UTF8.self) }
        }
        plan = Preparer.plan(targets: prepareTargets, appTarget: appTarget ?? prepareTargets.first?.name ?? "",
                             routing: routing, existingFile: { existing[$0].map { Array($0.utf8) } })
        for update in plan.updates {
            files[update.path] = update.after.map { String(decoding: $0, as: UTF8.self) }
        }
        self.files = files
    }

    /// A single-file, single-target project named App.
    init(_ source: String, routing: RoutingSelection = .all) {
        self.init(targets: ["App": ["View.swift": source]], routing: routing)
    }

    var userFile: String { files["Sources/App/View.swift"] ?? "" }
    var routingFile: String? { files[Preparer.routingFilePath(sourceRoot: "Sources/App")] }

    /// The routing file without its header and imports: just the thunks, for golden comparisons.
    var routingThunks: String {
        guard let routingFile else { return "" }
        return routingFile.components(separatedBy: "\n").drop { !$0.isEmpty }.drop { $0.isEmpty || $0.hasPrefix("import ") }
            .joined(separator: "\n")
    }

    /// Runs prepare again over this run's output.
    func rerun(targets: [String], appTarget: String? = nil, routing: RoutingSelection = .all) -> PreparedProject {
        var byTarget: [String: [String: String]] = [:]
        var existing: [String: String] = [:]
        for (path, text) in files {
            let parts = path.split(separator: "/", maxSplits: 2).map(String.init)
            guard parts.count == 3, targets.contains(parts[1]) else { existing[path] = text; continue }
            if parts[2].hasPrefix(Preparer.generatedFolderName + "/") { existing[path] = text }
            byTarget[parts[1], default: [:]][parts[2]] = text
        }
        return PreparedProject(targets: byTarget, appTarget: appTarget, routing: routing, existing: existing)
    }
}

/// The view thunk prepare generates, for golden expectations.
func expectedViewThunk(_ extended: String, _ typeName: String, hashOf body: String, access: String = "") -> String {
    """
    extension \(extended) {
        // patch-body-sha256: \(bodyHash(body))
        @ViewBuilder @MainActor \(access)var body: some View {
            if let __p = Patch.shared.thunkBody(typeName: "\(typeName)", instance: self) {
                __p
            } else {
                __patch_native_body
            }
        }
    }
    """
}

/// The content hash of an accessor block given as source text (`{ Text("x") }`).
func bodyHash(_ accessorBlock: String) -> String {
    let tree = Parser.parse(source: "var x: Int \(accessorBlock)")
    guard let binding = tree.statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first, let block = binding.accessorBlock else {
        Issue.record("not an accessor block: \(accessorBlock)")
        return ""
    }
    return ContentHash.of(block)
}

func assertParses(_ text: String, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let tree = Parser.parse(source: text)
    #expect(!tree.hasError, "\(label) does not parse:\n\(text)", sourceLocation: sourceLocation)
}

/// Writes `updates` under `root` as the CLI would (folders created, `nil` content deleted), without
/// the CLI's staging: tests check what the updates are, not how they are written.
func apply(_ updates: [PreparePlan.FileUpdate], root: String) throws {
    for update in updates {
        let path = root + "/" + update.path
        if let bytes = update.after {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
    }
}

/// The text of `root/path`, nil when absent.
func read(_ root: String, _ path: String) -> String? {
    FileManager.default.contents(atPath: root + "/" + path).map { String(decoding: $0, as: UTF8.self) }
}
