// Guest Foundation layer (Foundation.swift): UserDefaults.

// MARK: - UserDefaults

/// The store `@AppStorage(_:store:)` names. A view never reads it: the host passes the stored
/// value in the view's inputs and writes changes back into the store it belongs to (§5.4).
struct UserDefaults {
    static let standard = UserDefaults()

    private init() {}
    init?(suiteName: String?) {}
}
