// Guest view DSL (see ViewDSL.swift): host tokens (docs/views.md "Tokens and slots").
//
// `build` replaces each host read of a view (`model.title`, `colorScheme == .dark`) with one of the
// reads below; the shipped thunk evaluates the expression natively and passes it as a token
// (sdk-contract §5.1, §5.4): strings and numbers in the inputs under `__strtok_<id>`/`__numtok_<id>`,
// colors and fonts by reference from the IR (`{"hostToken":{"_0":"ct_…"}}`, `{"fontToken":{"_0":"ft_…"}}`).

/// The inputs of the view being evaluated: its tokens, and the `__geo_*` sizes a GeometryReader reads
/// (ViewDSL+Geometry.swift). The view's `init(_patchInputs:)` sets it before the body runs, and the
/// body is evaluated within the same export call, while the input bytes are alive. A module runs one
/// call at a time.
nonisolated(unsafe) var _patchTokenInputs: _PatchJSONValue? = nil

/// The string token the host passed as `key` (`__strtok_st_…`). The host passes every token its
/// thunk lists and `build` reads only those, so a missing or malformed one means a host that does
/// not follow the contract: it reads as empty rather than trapping the render.
func _patchStringToken(_ key: StaticString) -> String {
    (try? _patchTokenInputs?.decode(key, as: String.self)) ?? ""
}

/// The number token the host passed as `key` (`__numtok_nt_…`); a Bool token is 0 or 1.
func _patchNumberToken(_ key: StaticString) -> Double {
    (try? _patchTokenInputs?.decode(key, as: Double.self)) ?? 0
}

extension Color {
    /// A color the thunk's token table supplies (`ColorRef.hostToken`, IR v4).
    init(_patchHostToken id: StaticString) {
        _patchHostTokenWritten = true
        var ir = _PatchIR()
        ir.raw("{\"hostToken\":{\"_0\":\"")
        ir.raw(id)
        ir.raw("\"}}")
        _ref = ir.bytes
    }
}

extension Font {
    /// A font the thunk's token table supplies (`Modifier.fontToken`, IR v4).
    init(_patchHostToken id: StaticString) {
        self.init(_style: nil, _size: nil, _weight: nil, _design: nil, _token: id)
    }

    /// What `.font(_:)` writes for a token font: `fontToken`, then `fontWeight` when the body made
    /// the host's font bolder (`theme.font.weight(.bold)`): the IR cannot change a token's font, and
    /// SwiftUI's `.fontWeight` applies the weight to the font in effect, which gives the same text.
    func _writeTokenModifiers(_ id: StaticString, into ir: inout _PatchIR) {
        _patchHostTokenWritten = true
        ir.raw("{\"fontToken\":{\"_0\":\"")
        ir.raw(id)
        ir.raw("\"}}")
        guard let weight = _weight else { return }
        ir.raw(",{\"fontWeight\":{\"_0\":\"")
        ir.raw(weight._name)
        ir.raw("\"}}")
    }
}

/// A host value of a Codable type (a project struct or enum, an array, optional or dictionary of
/// them, an optional String or number) that the thunk passed as the JSON text of a string token
/// (`__strtok_st_…`): `JSONEncoder().encode(model.items)`, with JSONEncoder's defaults, as
/// `callJSON` carries values (§2.4: Dates since 2001), so the project's generated codecs read it as
/// they read a function's arguments. A missing or undecodable text (the thunk's encoding failed and
/// it passed an empty string, or the value's type changed since the app was built) has no value to
/// stand in for it: the read traps, and the SDK demotes the view to its native body for the epoch
/// (§5.2), which reads the value itself.
func _patchJSONToken<Value: _PatchJSONCodable>(_ key: StaticString, as type: Value.Type) -> Value {
    let since1970 = _patchDatesSince1970
    _patchDatesSince1970 = false
    defer {
        _patchDatesSince1970 = since1970
        // The member cache points into the token's text, which is freed on return: the next
        // text may be allocated at the same address. (The cache exists only where the view glue
        // reads inputs, `PATCH_VIEWS`; the DSL's own tests compile without it.)
        #if PATCH_VIEWS
        _patchLastMember = nil
        #endif
    }
    guard let inputs = _patchTokenInputs, let text = try? inputs.member(key).string() else {
        fatalError("a JSON host token is missing from the view's inputs")
    }
    let buffer = text.buffer
    guard let parsed = try? _PatchJSONReader.parse(buffer.baseAddress, Int32(buffer.count)), let value = try? Value(_patchJSON: parsed) else {
        fatalError("a JSON host token does not decode as the type the view reads")
    }
    return value
}
