import Foundation
import HummingbirdTesting
import NIOCore
import PatchServer
import Testing

/// `GET /metrics` on a listener of its own (`serve --metrics-port`, docs/serve.md "Metrics"), so
/// it need not be reachable where devices are.
struct MetricsListenerTests {
    /// With a metrics address, the update port answers `/metrics` like any unknown path and the
    /// metrics listener answers only `/metrics`, counting what the update port served.
    @Test func aMetricsAddressMovesMetricsOffTheUpdatePort() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        _ = try fixture.publish(answer: 1)
        let server = UpdateServer(
            store: fixture.store, events: fixture.events,
            configuration: ServerConfiguration(metricsAddress: ListenAddress(host: "127.0.0.1", port: 0)))
        try await server.application(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            _ = try await client.check(sdkCheckBody())
            let metrics = try await client.execute(uri: UpdateServer.metricsPath, method: .get)
            #expect(metrics.status == .notFound)
            #expect(String(buffer: metrics.body).contains(#""error":"not_found""#), "the JSON 404 of an unknown path")
            #expect(!String(buffer: metrics.body).contains("patchcli_serve"), "no metric leaks through the update port")
        }
        try await server.metricsApplication(host: "127.0.0.1", port: 0).test(.router) { client async throws in
            let metrics = try await client.execute(uri: UpdateServer.metricsPath, method: .get)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(buffer: metrics.body)
            #expect(text.contains(#"patchcli_serve_checks_total{decision="update_full"} 1"#), "one registry for both listeners: \(text)")
            #expect(try await client.execute(uri: UpdateServer.metricsPath, method: .head).status == .ok)
            #expect(try await client.execute(uri: UpdateServer.checkPath, method: .post).status == .notFound, "devices' routes are not on it")
            let wrongMethod = try await client.execute(uri: UpdateServer.metricsPath, method: .post)
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET, HEAD")
        }
    }

    /// Without one, `/metrics` stays on the update port (the default).
    @Test func withoutAMetricsAddressTheUpdatePortAnswersMetrics() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.application.test(.router) { client async throws in
            #expect(try await client.execute(uri: UpdateServer.metricsPath, method: .get).status == .ok)
        }
    }
}
