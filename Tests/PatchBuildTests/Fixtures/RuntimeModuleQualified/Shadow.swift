/// Another module the app imports that also declares a `Category`, as the Objective-C runtime does on
/// Apple platforms: the app must write Kit's as `Kit.Category`, and so must its thunks.
public struct Category {
    public init() {}
}
