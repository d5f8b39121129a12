enum Pricing {
    // @patchable
    static func total(cents: Int, quantity: Int) -> Int {
        cents * quantity
    }
}

// @patchable
func greetingLine(for name: String) -> String {
    "Welcome, \(name)!"
}
