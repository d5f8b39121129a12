import ShopCore
import SwiftUI

struct CheckoutScreen: View {
    @Environment(CartViewModel.self) private var cart
    @State private var name = ""
    @State private var email = ""
    @State private var postalCode = ""
    @State private var problems: [CheckoutValidation.Problem] = []

    var body: some View {
        Form {
            Section("Shipping to") {
                TextField("Name", text: $name)
                TextField("Email", text: $email)
                TextField("Postal code", text: $postalCode)
                RegionPicker(region: Bindable(cart).region)
            }
            if !problems.isEmpty {
                Section { ProblemList(problems: problems) }
            }
            Section {
                Button("Place order") {
                    problems = CheckoutValidation.problems(name: name, email: email, postalCode: postalCode, region: cart.region)
                }
            }
        }
        .navigationTitle("Checkout")
    }

    struct RegionPicker: View {
        @Binding var region: Region

        var body: some View {
            Picker("Region", selection: $region) {
                ForEach(Region.allCases, id: \.self) { Text($0.rawValue).tag($0) }
            }
        }
    }

    struct ProblemList: View {
        let problems: [CheckoutValidation.Problem]

        var body: some View {
            get {
                ForEach(problems, id: \.self) { problem in
                    Label(problem.rawValue, systemImage: "exclamationmark.triangle")
                        .foregroundStyle(.orange)
                }
            }
        }
    }
}
