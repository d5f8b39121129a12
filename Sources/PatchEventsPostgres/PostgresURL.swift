import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]` URL (also
/// `postgresql://`), as `serve --events` and `status --events` take it. The password may also come
/// from `PGPASSWORD`, so it need not be on a command line.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Whether `text` names a PostgreSQL store rather than a SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresEventStoreError) {
        func bad(_ reason: String) -> PostgresEventStoreError { .badURL(url: Self.redacted(text), reason: reason) }
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw bad("expected postgres://user@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else { throw bad("no host") }
        guard let user = components.user, !user.isEmpty else { throw bad("no user (postgres://USER@host/database)") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name (postgres://user@host/DATABASE)") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let value = item.value, let mode = TLSMode(rawValue: value) else {
                throw bad("unknown parameter \(item.name)=\(item.value ?? ""); only sslmode=disable|prefer|require is read")
            }
            tls = mode
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? user
        self.password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
        self.tls = tls
    }

    /// The URL without its password: what messages and reports show.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// `text` with any password replaced, for messages about a URL that did not parse.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

/// Why the PostgreSQL event store cannot be used. Messages name the URL (never its password).
public enum PostgresEventStoreError: Error, Sendable, CustomStringConvertible {
    case badURL(url: String, reason: String)
    case unreachable(url: String, reason: String)
    case newerSchema(url: String, version: Int, known: Int)

    public var description: String {
        switch self {
        case let .badURL(url, reason): return "\(url): not a PostgreSQL URL (\(reason))"
        case let .unreachable(url, reason): return "\(url): cannot use the PostgreSQL event store (\(reason))"
        case let .newerSchema(url, version, known):
            return "\(url): written by a newer patchcli (schema \(version), this one knows \(known)); upgrade patchcli"
        }
    }
}
