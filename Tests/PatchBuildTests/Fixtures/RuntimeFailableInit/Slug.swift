/// A failable initializer of a struct and one of an enum, routed under `routing: all`.
struct Slug {
    var text: String
    let source: String

    init?(title: String) {
        guard !title.isEmpty else { return nil }
        source = title
        text = "slug:" + title
    }
}

enum Tier: String {
    case free, pro

    init?(code: Int) {
        switch code {
        case 0: self = .free
        case 1: self = .pro
        default: return nil
        }
    }
}
