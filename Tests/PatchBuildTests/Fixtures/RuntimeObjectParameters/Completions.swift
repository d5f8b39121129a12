// Modelled on Enchanted's `CompletionInstructionSD` (a SwiftData `@Model` class, a plain final class
// here) and the functions that take one: `CompletionsPanelVM.constructPrompt(completion:selectedText:)`
// and the stores' methods. A completion references its panel, which references it back: a cycle. Each
// write to a panel is recorded, as observation would see it.
nonisolated(unsafe) var writes: [String] = []

final class Completion {
    var name: String
    var instruction: String
    var order: Int
    // Left out of the copy a parameter receives: objects travel one level deep.
    var panel: Panel?

    init(name: String, instruction: String, order: Int) {
        self.name = name
        self.instruction = instruction
        self.order = order
    }
}

final class Panel {
    var sent = 0 { didSet { writes.append("sent") } }
    var last: Completion?

    // @patchable
    static func prompt(for completion: Completion, selectedText: String) -> String {
        completion.instruction + ": " + selectedText
    }

    // @patchable
    func send(_ completion: Completion?) -> String {
        sent += 1
        return completion.map { "\($0.order). \($0.name)" } ?? "nothing"
    }
}
