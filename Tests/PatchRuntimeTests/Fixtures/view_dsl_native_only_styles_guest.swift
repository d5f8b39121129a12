// Does not compile, on purpose (ViewDSLTests): shape styles, strings and formats the IR and the SDK's
// bridges cannot express are unavailable with the reason `build` reports (docs/views.md), as real
// bodies use them (food-truck, backyard-birds, ACHNBrowserUI).

struct DerivedGradient: View {
    var body: some View {
        Rectangle().fill(.indigo.gradient)
    }
}

struct Backgrounds: View {
    var body: some View {
        VStack {
            Divider().background(.background.secondary, in: .rect(cornerRadius: 20))
            Divider().background(.fill.tertiary, in: .circle)
        }
    }
}

struct Localized: View {
    let title: String
    var body: some View {
        VStack {
            Text(NSLocalizedString(title, comment: "").capitalized)
            Text("Show More", bundle: .module)
            Image("donut", bundle: .module)
        }
    }
}

struct Remaining: View {
    let timeFormatter = Duration.TimeFormatStyle(pattern: .hourMinute)
    var body: some View {
        Text("remaining")
            .dynamicTypeSize(...(.xLarge))
    }
}
