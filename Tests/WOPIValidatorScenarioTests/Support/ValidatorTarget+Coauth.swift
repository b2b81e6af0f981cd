import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import SQLiteStorage
import WOPIModels
import WOPIServer
import WOPIServerHummingbird
import WOPIStorage
import WOPITestSupport

extension ValidatorTarget {
    /// The co-authoring endpoints the test hosts advertise (never called: co-authoring sessions are Office's).
    static let coauthoringEndpoints = CoauthoringEndpoints(
        realTimeChannel: "https://rtc.example.com/rtc", officeCollaborationService: "https://collab.example.com/ocs")

    /// A co-authoring host on SQLite, served over real HTTP on 127.0.0.1, whose locks, tokens and expiries follow
    /// a ``TestClock``: the validator's `Delay`s advance it (``advanceClock``) instead of sleeping. The test file
    /// is `WopiValidator/test.wopitest` of user `demo`, as ``withHost(storage:extraArguments:_:)`` imports it.
    static func withCoauthHost<T: Sendable>(_ body: @Sendable (ValidatorTarget) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var logger = Logger(label: "coauth-validator")
        logger.logLevel = .warning
        let clock = TestClock()
        let database = try SQLiteDatabase(path: directory.url.appendingPathComponent("wopi.sqlite").path)
        let storage = try SQLiteStorage(database: database)
        let users = InMemoryUserDirectory()
        await users.save(WOPIUser(id: "demo", signInName: "demo", displayName: "Demo User", passwordHash: nil))
        var configuration = WOPIHostConfiguration()
        configuration.coauthoring = CoauthoringConfiguration(
            endpoints: .fixed(coauthoringEndpoints), fileGeoLocationCode: "EU")
        let host = WOPIHost(
            storage: storage, locks: try SQLiteLockStore(database: database, now: clock.dateSource), users: users,
            tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), configuration: configuration, logger: logger,
            now: clock.dateSource)
        let seeded = try await seedTestFile(on: host, clock: clock)
        let router = Router()
        WOPIRoutes.add(to: router, host: host)
        return try await LoopbackServer.run(router, logger: logger) { baseURL in
            try await body(coauthoring(seeded, at: baseURL, clock: clock))
        }
    }

    /// The target of the co-authoring groups: the file `seeded` (``seedTestFile(on:clock:)``) served at `baseURL`,
    /// whose `Delay`s advance `clock`.
    static func coauthoring(
        _ seeded: (file: ItemID, token: String, expiresAt: Date), at baseURL: String, clock: TestClock
    ) -> ValidatorTarget {
        var target = ValidatorTarget(
            wopiSrc: "\(baseURL)/wopi/files/\(seeded.file)", accessToken: seeded.token,
            accessTokenTTL: EpochMilliseconds.from(seeded.expiresAt))
        target.coauthoring = true
        target.advanceClock = { seconds in clock.advance(by: .milliseconds(Int64(seconds * 1000))) }
        return target
    }

    /// `WopiValidator/test.wopitest` of user `demo` in `host`'s storage, with a token for it that lasts 10 hours
    /// on `clock`: the file the validator's groups run on.
    static func seedTestFile(on host: WOPIHost, clock: TestClock) async throws -> (
        file: ItemID, token: String, expiresAt: Date
    ) {
        let root = try await host.storage.rootContainer(forUser: "demo")
        let folder = try await host.storage.createContainer(named: "WopiValidator", in: root.id)
        let file = try await host.storage.createFile(
            named: "test.wopitest", in: folder.id, content: ByteStream(buffer: ByteBuffer(string: "wopitest")),
            overwrite: false)
        let expiresAt = clock.date.addingTimeInterval(10 * 60 * 60)
        let token = host.tokens.mint(AccessToken(userID: "demo", resource: .file(file.id), expiresAt: expiresAt))
        return (file.id, token, expiresAt)
    }
}
