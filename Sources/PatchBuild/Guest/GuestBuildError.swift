/// Why a declaration stays native: it cannot be compiled into the guest module.
public struct GuestUnpatchable: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Reason: String, Sendable, Codable {
        /// Uses Foundation/UIKit/SwiftUI/Combine (or another OS framework) the guest does not have.
        case osFrameworkAPI = "os_framework_api"
        /// `async`/`await`: embedded wasm32 has no _Concurrency.
        case asyncCode = "async_code"
        /// Uses something the project does not declare and the guest's standard library lacks.
        case missingDependency = "missing_dependency"
        /// Classes, actors, existentials, generic exports, inout: outside the guest tier.
        case unsupportedLanguageFeature = "unsupported_language_feature"
        /// A parameter or result type the JSON glue cannot carry.
        case unsupportedSignature = "unsupported_signature"
        /// The requested declaration id does not exist in the sources.
        case notFound = "not_found"
        /// The guest compiler rejected it for another reason (its diagnostic is quoted).
        case compileError = "compile_error"
        /// A view body reads something the guest view DSL cannot give it (the detail names it).
        case viewNotLowerable = "view_not_lowerable"
        /// A changed view body reads a host value (a token) the shipped thunk does not pass: only a
        /// new app build can provide it.
        case viewNeedsNewHostValue = "view_needs_new_host_value"
    }

    public var declarationID: String
    public var reason: Reason
    public var detail: String
    public var location: GuestSourceLocation?

    /// `declarationId` in manifest.json, like `exports[]` (`declaration_id` in `--json` reports).
    enum CodingKeys: String, CodingKey {
        case declarationID = "declarationId", reason, detail, location
    }

    public init(declarationID: String, reason: Reason, detail: String, location: GuestSourceLocation?) {
        self.declarationID = declarationID
        self.reason = reason
        self.detail = detail
        self.location = location
    }

    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)\(declarationID) stays native (\(reason.rawValue)): \(detail)"
    }
}

/// Failures of a guest build as a whole (as opposed to one declaration being unpatchable).
public enum GuestBuildError: Error, CustomStringConvertible, Equatable {
    case sourcesUnreadable(path: String, reason: String)
    case invalidDeclarationID(String)
    case templatesMissing(searched: [String], executable: String)
    case toolchain(ToolchainError)
    /// Every requested export is unpatchable: there is nothing to put in a module.
    case nothingToPatch(unpatchable: [GuestUnpatchable])
    /// A compiler or linker step failed in a way not attributable to one declaration.
    case compileFailed(step: String, output: String)
    case outputUnwritable(path: String, reason: String)
    case invalidProbe(location: GuestSourceLocation, reason: String)

    public var description: String {
        switch self {
        case let .sourcesUnreadable(path, reason):
            return "\(path): cannot read the project sources (\(reason)); pass the directory holding the app's Swift files with --sources"
        case let .invalidDeclarationID(text):
            return "'\(text)' is not a declaration id; write it as Type.name(label:_:) or name(label:) — e.g. PriceCalculator.total(items:discount:)"
        case let .templatesMissing(searched, executable):
            let looked = searched.isEmpty ? "" : " (looked in: \(searched.joined(separator: ", ")))"
            return "the guest templates (templates/guest/Prelude.swift, support.c) were not found beside \(executable)\(looked); "
                + "reinstall patchcli (`make install` puts them in <prefix>/share/patchcli/templates) "
                + "or set PATCHCLI_TEMPLATES to a templates directory"
        case let .toolchain(error):
            return error.description
        case let .nothingToPatch(unpatchable):
            let lines = unpatchable.map { "  \($0)" }.joined(separator: "\n")
            return "nothing to patch: every requested declaration must stay native:\n\(lines)"
        case let .compileFailed(step, output):
            return "\(step) failed:\n\(output)"
        case let .outputUnwritable(path, reason):
            return "\(path): cannot be written (\(reason))"
        case let .invalidProbe(location, reason):
            return "\(location): invalid @probe comment: \(reason); write it as // @probe {\"param\": value} -> {\"value\": result}"
        }
    }
}
