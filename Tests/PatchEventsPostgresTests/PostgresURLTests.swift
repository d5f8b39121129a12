import PatchEventsPostgres
import Testing

/// `--events postgres://…` as `serve` and `status` parse it, without a server.
struct PostgresURLTests {
    @Test func aURLGivesItsPartsAndHidesItsPassword() throws {
        let url = try PostgresURL(parsing: "postgres://patch%40ci:s3cret@db.internal:6432/events?sslmode=require", environment: [:])
        #expect(url.host == "db.internal" && url.port == 6432 && url.database == "events")
        #expect(url.username == "patch@ci" && url.password == "s3cret" && url.tls == .require)
        #expect(url.description == "postgres://patch@ci@db.internal:6432/events", "no password in messages")
        let plain = try PostgresURL(parsing: "postgresql://patch@localhost/events", environment: ["PGPASSWORD": "from-env"])
        #expect(plain.port == 5432 && plain.tls == .prefer && plain.password == "from-env")
    }

    @Test func badURLsSayWhatIsMissing() {
        for (text, reason) in [
            ("postgres://localhost/events", "no user"),
            ("postgres://patch@localhost", "no database"),
            ("postgres://patch@localhost/a/b", "no database"),
            ("postgres://patch:pw@/events", "no host"),
            ("postgres://patch@localhost/events?sslmode=verify-full", "unknown parameter sslmode=verify-full"),
        ] {
            #expect {
                _ = try PostgresURL(parsing: text, environment: [:])
            } throws: { error in
                guard case let .badURL(url, message)? = error as? PostgresEventStoreError else { return false }
                return message.contains(reason) && !url.contains(":pw@")
            }
        }
        #expect(!PostgresURL.isPostgres("events.sqlite") && PostgresURL.isPostgres("postgresql://u@h/d"))
    }
}
