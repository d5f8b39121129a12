// Guest view DSL (see ViewDSL.swift): animations and transitions (sdk-contract §5.6.2 IRAnimation,
// §5.6.3 IRTransition, §5.6.5 `animation`/`transition`), schema 2 (the modifier surface, §5.5).
//
// The host animates: `.animation(_:value:)` names the state field whose change animates (the IR's
// `valueKey`, ViewDSL+Lifecycle.swift `_patchWatched`), and `.transition` rides on the node that
// appears or disappears. `withAnimation { }` runs its body; the IR has no field for the animation of
// a dispatch, so the host re-renders the change without it, except where an `.animation(_:value:)`
// watches a field the body changed.

// MARK: - Animation

/// An IRAnimation: a curve and the parameters the IR has. A form SwiftUI has and the IR cannot say
/// (`repeatForever`, `interpolatingSpring(stiffness:damping:)`, a transition's own `.animation`) is
/// not declared, so a body using it stays native rather than animating otherwise.
struct Animation {
    let _curve: StaticString
    var _duration: Double? = nil
    var _response: Double? = nil
    var _dampingFraction: Double? = nil
    var _delay: Double? = nil
    var _speed: Double? = nil
    var _repeatCount: Int? = nil
    var _autoreverses: Bool? = nil

    static let `default` = Animation(_curve: "default")
    static let linear = Animation(_curve: "linear")
    static let easeIn = Animation(_curve: "easeIn")
    static let easeOut = Animation(_curve: "easeOut")
    static let easeInOut = Animation(_curve: "easeInOut")
    static let spring = Animation(_curve: "spring")
    static let interpolatingSpring = Animation(_curve: "interpolatingSpring")
    static let bouncy = Animation(_curve: "bouncy")
    static let smooth = Animation(_curve: "smooth")
    static let snappy = Animation(_curve: "snappy")

    static func linear(duration: Double) -> Animation { Animation(_curve: "linear", _duration: duration) }
    static func easeIn(duration: Double) -> Animation { Animation(_curve: "easeIn", _duration: duration) }
    static func easeOut(duration: Double) -> Animation { Animation(_curve: "easeOut", _duration: duration) }
    static func easeInOut(duration: Double) -> Animation { Animation(_curve: "easeInOut", _duration: duration) }

    // The iOS 17 springs: SwiftUI's `smooth`, `snappy` and `bouncy` are the springs of bounce 0,
    // 0.15 and 0.3 (plus `extraBounce`); with extra bounce, the IR says it as that spring.

    static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        extraBounce == 0 ? Animation(_curve: "smooth", _duration: duration) : spring(duration: duration, bounce: extraBounce)
    }

    static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        extraBounce == 0 ? Animation(_curve: "snappy", _duration: duration) : spring(duration: duration, bounce: 0.15 + extraBounce)
    }

    static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        extraBounce == 0 ? Animation(_curve: "bouncy", _duration: duration) : spring(duration: duration, bounce: 0.3 + extraBounce)
    }

    /// `blendDuration` only blends with an animation already running; the IR has no field for it.
    static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0) -> Animation {
        Animation(_curve: "spring", _response: response, _dampingFraction: dampingFraction)
    }

    /// The iOS 17 form, as the response and damping fraction SwiftUI's `Spring(duration:bounce:)`
    /// equals: the perceptual duration is the response, and a bounce b ≥ 0 is the damping fraction
    /// 1 − b (a negative one, an overdamped spring, 1 / (1 + b)).
    @_disfavoredOverload
    static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        spring(response: duration, dampingFraction: bounce >= 0 ? 1 - bounce : 1 / (1 + bounce), blendDuration: blendDuration)
    }

    /// SwiftUI's interactive spring is a spring with these defaults (`blendDuration` as above).
    static let interactiveSpring = interactiveSpring()

    static func interactiveSpring(response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25) -> Animation {
        spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration)
    }

    func delay(_ delay: Double) -> Animation {
        var animation = self
        animation._delay = delay
        return animation
    }

    func speed(_ speed: Double) -> Animation {
        var animation = self
        animation._speed = speed
        return animation
    }

    func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Animation {
        var animation = self
        animation._repeatCount = repeatCount
        animation._autoreverses = autoreverses
        return animation
    }

    /// The IRAnimation JSON, every key written (null when not set).
    func _write(into ir: inout _PatchIR) {
        ir.raw("{\"curve\":\"")
        ir.raw(_curve)
        ir.raw("\",\"duration\":")
        ir.optionalNumber(_duration)
        ir.raw(",\"response\":")
        ir.optionalNumber(_response)
        ir.raw(",\"dampingFraction\":")
        ir.optionalNumber(_dampingFraction)
        ir.raw(",\"delay\":")
        ir.optionalNumber(_delay)
        ir.raw(",\"speed\":")
        ir.optionalNumber(_speed)
        ir.raw(",\"repeatCount\":")
        if let count = _repeatCount { ir.integer(count) } else { ir.raw("null") }
        ir.raw(",\"autoreverses\":")
        if let autoreverses = _autoreverses { ir.raw(autoreverses ? "true" : "false") } else { ir.raw("null") }
        ir.raw("}")
    }
}

/// Runs `body`: the change it makes is dispatched state like any other (see the top of this file
/// for what the host animates).
func withAnimation<Result, Failure: Error>(_ animation: Animation? = .default,
                                           _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    try body()
}

extension View {
    /// `{"animation":{"_0":<IRAnimation or null>,"valueKey":"<field>"}}` for each state field
    /// `value` reads (`nil` disables animation for its changes). A value that reads no state field
    /// names nothing the host could watch and writes nothing.
    func animation<V: Equatable>(_ animation: Animation?, value: @autoclosure () -> V) -> _PatchModified<Self> {
        let fields = _patchWatched(value).fields
        var modified = _modified(schema: 2) { ir in
            _patchWriteKeyed(fields, into: &ir) { field, ir in
                ir.raw("{\"animation\":{\"_0\":")
                if let animation { animation._write(into: &ir) } else { ir.raw("null") }
                ir.raw(",\"valueKey\":\"")
                ir.raw(field)
                ir.raw("\"}}")
            }
        }
        modified._modifierCount = fields.count
        return modified
    }
}

// MARK: - Transitions

/// An IRTransition (§5.6.3).
struct AnyTransition {
    /// The IRTransition JSON.
    let _ir: [UInt8]

    private init(case name: StaticString, _ fields: (inout _PatchIR) -> Void = { _ in }) {
        var ir = _PatchIR()
        ir.raw("{\"")
        ir.raw(name)
        ir.raw("\":{")
        fields(&ir)
        ir.raw("}}")
        _ir = ir.bytes
    }

    static let identity = AnyTransition(case: "identity")
    static let opacity = AnyTransition(case: "opacity")
    static let slide = AnyTransition(case: "slide")
    static let blurReplace = AnyTransition(case: "blurReplace")
    /// SwiftUI's `.scale` grows the view from nothing: scale 0 about the center.
    static let scale = scale(scale: 0)

    static func scale(scale: Double, anchor: UnitPoint = .center) -> AnyTransition {
        AnyTransition(case: "scale") { ir in
            ir.raw("\"scale\":")
            ir.number(scale)
            ir.raw(",\"anchor\":")
            ir.raw(anchor._ir)
        }
    }

    /// The iOS 17 spelling of `scale(scale:anchor:)`.
    static func scale(_ scale: Double, anchor: UnitPoint = .center) -> AnyTransition {
        AnyTransition.scale(scale: scale, anchor: anchor)
    }

    static func move(edge: Edge) -> AnyTransition {
        AnyTransition(case: "move") { ir in
            ir.raw("\"edge\":\"")
            ir.raw(edge._name)
            ir.raw("\"")
        }
    }

    static func push(from edge: Edge) -> AnyTransition {
        AnyTransition(case: "push") { ir in
            ir.raw("\"edge\":\"")
            ir.raw(edge._name)
            ir.raw("\"")
        }
    }

    static func offset(x: Double = 0, y: Double = 0) -> AnyTransition {
        AnyTransition(case: "offset") { ir in
            ir.raw("\"x\":")
            ir.number(x)
            ir.raw(",\"y\":")
            ir.number(y)
        }
    }

    static func offset(_ offset: CGSize) -> AnyTransition { AnyTransition.offset(x: offset.width, y: offset.height) }

    static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition {
        AnyTransition(case: "asymmetric") { ir in
            ir.raw("\"insertion\":")
            ir.raw(insertion._ir)
            ir.raw(",\"removal\":")
            ir.raw(removal._ir)
        }
    }

    func combined(with other: AnyTransition) -> AnyTransition {
        AnyTransition(case: "combined") { ir in
            ir.raw("\"_0\":[")
            ir.raw(_ir)
            ir.raw(",")
            ir.raw(other._ir)
            ir.raw("]")
        }
    }
}

extension View {
    func transition(_ transition: AnyTransition) -> _PatchModified<Self> {
        _modified(schema: 2) { ir in
            ir.raw("{\"transition\":{\"_0\":")
            ir.raw(transition._ir)
            ir.raw("}}")
        }
    }
}
