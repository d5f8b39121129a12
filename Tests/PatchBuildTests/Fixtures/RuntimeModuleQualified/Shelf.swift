import Kit
import Shadow

/// Kit's types written with their module (the module's type, a nested type and an alias), as
/// parameters, results and a receiver's stored property.
enum Shelf {
    static func label(for category: Kit.Category) -> String {
        category.rawValue + "!"
    }

    static func next(after category: Kit.Category) -> Kit.Category {
        category == .fish ? .bugs : .fish
    }

    static func count(_ tags: Kit.Tags, style: Kit.Tag.Style) -> Int {
        tags.count + (style.bold ? 10 : 0)
    }
}

struct Progress {
    var category: Kit.Category
    var done: Int

    var summary: String {
        "\(category.rawValue) \(done)"
    }
}
