// Does not compile, on purpose (ViewDSLDynamicTests): what a GeometryReader's host does not pass
// (sdk-contract §5.4 passes the size and the local origin) is unavailable with the reason.

struct Inset: View {
    var body: some View {
        GeometryReader { proxy in
            Text("x").padding(.top, proxy.safeAreaInsets.top)
        }
    }
}

struct Global: View {
    var body: some View {
        GeometryReader { proxy in
            Text("x").offset(x: proxy.frame(in: .global).minX)
        }
    }
}
