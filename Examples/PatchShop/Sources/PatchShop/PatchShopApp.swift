import PatchSDK
import ShopCore
import SwiftUI

@main
struct PatchShopApp: App {
    @State private var cart = CartViewModel()

    var body: some Scene {
        WindowGroup {
            RootTabs()
                .environment(cart)
        }
    }
}

struct RootTabs: View {
    var body: some View {
        TabView {
            NavigationStack { CatalogScreen() }
                .tabItem { Label("Shop", systemImage: "bag") }
            NavigationStack { CartScreen() }
                .tabItem { Label("Cart", systemImage: "cart") }
            NavigationStack { WishlistScreen() }
                .tabItem { Label("Wish list", systemImage: "heart") }
            NavigationStack { GiftOptionsScreen() }
                .tabItem { Label("Gifts", systemImage: "gift") }
            NavigationStack { SettingsScreen() }
                .tabItem { Label("Settings", systemImage: "gear") }
        }
    }
}
