public enum CheckoutValidation {
    public enum Problem: String, Codable, Sendable {
        case emptyName, invalidEmail, invalidPostalCode
    }

    // @patchable
    public static func problems(name: String, email: String, postalCode: String, region: Region) -> [Problem] {
        var problems: [Problem] = []
        if name.trimmingWhitespace().isEmpty { problems.append(.emptyName) }
        if !isPlausibleEmail(email) { problems.append(.invalidEmail) }
        if region == .domestic, postalCode.count != 5 || !postalCode.allSatisfy(\.isNumber) {
            problems.append(.invalidPostalCode)
        }
        return problems
    }

    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@")
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
