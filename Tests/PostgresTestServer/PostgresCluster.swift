import Foundation
import Logging
import PostgresNIO

/// A real PostgreSQL server of its own for one test: `initdb` in a temporary directory, then
/// `postgres` on 127.0.0.1 and a free port (its socket in the same directory), trust
/// authentication for the user `patchcli`. `stop` and `start` take the server away and bring it
/// back on the same port and data; `remove` stops it and deletes everything.
///
/// The server binaries are Debian's (`postgresql`, installed by scripts/setup.sh): on PATH, or in
/// /usr/lib/postgresql/<version>/bin where the package puts them. PostgreSQL refuses to run as
/// root, so under root (CI) the cluster runs as the package's `postgres` user.
public final class PostgresCluster: @unchecked Sendable {
    public let directory: URL
    public let port: Int
    private let binaries: URL
    private var server: Process?
    public static let user = "patchcli"

    /// Where `initdb` and `postgres` are, nil when PostgreSQL is not installed.
    public static let binaryDirectory: URL? = {
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { debian.appendingPathComponent($0).appendingPathComponent("bin") }
        return candidates.first { directory in
            ["initdb", "postgres"].allSatisfy { FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent($0).path) }
        }
    }()

    /// Tests run where PostgreSQL is installed, and always under CI (`CI=true`), where a missing
    /// server fails them (scripts/setup.sh should have installed it) instead of skipping.
    public static var enabled: Bool { binaryDirectory != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws {
        guard let binaries = Self.binaryDirectory else {
            throw Failure(description: "PostgreSQL's server binaries (initdb, postgres) are not installed: run scripts/setup.sh (apt's postgresql)")
        }
        self.binaries = binaries
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("patchpg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        if geteuid() == 0 {
            guard let account = getpwnam("postgres") else { throw Failure(description: "running as root and there is no postgres user to run PostgreSQL as") }
            chown(directory.path, account.pointee.pw_uid, account.pointee.pw_gid)
        }
        try run("initdb", ["-D", dataDirectory, "-U", Self.user, "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"])
        try start()
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// `postgres://patchcli@127.0.0.1:PORT/DATABASE`.
    public func url(_ database: String) -> String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    /// Starts the server (again) and waits until it accepts connections.
    public func start() throws {
        let process = try launch("postgres", [
            "-D", dataDirectory, "-k", directory.path, "-p", String(port), "-h", "127.0.0.1",
            "-c", "fsync=off", "-c", "max_connections=50", "-c", "shared_buffers=16MB",
        ])
        server = process
        // pg_ctl's way: the server writes its pid file with "ready" on its last line once it takes connections.
        let pidFile = directory.appendingPathComponent("data/postmaster.pid")
        for _ in 0..<600 {
            guard process.isRunning else { throw Failure(description: "postgres exited at start (status \(process.terminationStatus))") }
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), text.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "ready" {
                return
            }
            usleep(50_000)
        }
        throw Failure(description: "postgres did not become ready in 30 s")
    }

    /// Stops the server at once (fast shutdown: open connections are closed) and waits for it.
    public func stop() {
        guard let server, server.isRunning else { return }
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        self.server = nil
    }

    public func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Creates a database and returns its URL.
    public func createDatabase(_ name: String) async throws -> String {
        try await withConnection(database: "postgres") { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        return url(name)
    }

    /// A statement on the database `name`, e.g. to look at what a store wrote.
    public func rows<Row: PostgresDecodable & Sendable>(_ sql: String, database: String, as type: Row.Type) async throws -> [Row] {
        try await withConnection(database: database) { connection, logger in
            var rows: [Row] = []
            for try await (row,) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode((Row,).self) { rows.append(row) }
            return rows
        }
    }

    /// A connection to `database` for `body`, closed after it whatever happens (PostgresNIO
    /// asserts that every connection is closed before it goes away).
    private func withConnection<Value>(database: String, _ body: (PostgresConnection, Logger) async throws -> Value) async throws -> Value {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: port, username: Self.user, password: nil, database: database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection, logger)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = try launch(tool, arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("\(tool).log"), encoding: .utf8)) ?? ""
            throw Failure(description: "\(tool) failed (\(process.terminationStatus)): \(log)")
        }
    }

    /// Starts a server binary, as the postgres user under root (setpriv execs it: the process is
    /// the server itself, so a signal reaches it), its output in `<tool>.log`.
    private func launch(_ tool: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        let binary = binaries.appendingPathComponent(tool).path
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=postgres", "--regid=postgres", "--clear-groups", "--", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        let log = directory.appendingPathComponent("\(tool).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw Failure(description: "cannot create \(log.path)") }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.currentDirectoryURL = directory
        try process.run()
        return process
    }

    /// A port nothing listens on now: bound to 0 and released.
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
