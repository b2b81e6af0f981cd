import Foundation
import HTTPTypes
import NIOCore
public import WOPIModels
import WOPIStorage

extension WOPIClient {
    /// A file's coauth table as the host answered it (CSPP Plus).
    public struct CoauthTable: Sendable, Hashable {
        /// The unexpired coauth locks; `nil` when the host sent none because the version asked with is current.
        public var locks: [CoauthTableResponse.Entry]?
        /// `X-WOPI-CoauthTableVersion`: send it back to ``WOPIClient/getCoauthTable(_:knownVersion:)`` to get no
        /// body while nothing changed.
        public var version: String?
    }

    /// The two kinds of coauth lock.
    public enum CoauthLockType: String, Sendable, Hashable, CaseIterable {
        /// Shared: any number of holders edit together.
        case coauth = "Coauth"
        /// Held by one client, the only one that may write.
        case coauthExclusive = "CoauthExclusive"
    }

    /// GetCoauthLock (`GET_COAUTH_LOCK`): takes or joins a coauth lock under `lockID` for `timeout` (60–3600 s);
    /// returns the table afterwards.
    ///
    /// - Throws: ``WOPIClientError/Code/lockConflict`` when a WOPI lock or an exclusive coauth lock is in the way.
    public func getCoauthLock(
        _ file: WOPIResource, lockID: String, type: CoauthLockType = .coauth, timeout: Duration = .seconds(3600),
        metadata: String? = nil
    ) async throws -> CoauthTable {
        var headers = [WOPIHeader.coauthLockID: lockID, WOPIHeader.coauthLockType: type.rawValue]
        headers[WOPIHeader.coauthLockExpirationTimeout] = String(timeout.components.seconds)
        if let metadata { headers[WOPIHeader.coauthLockMetadata] = metadata }
        return try await coauthCall("GetCoauthLock", WOPIOverride.getCoauthLock, file, headers)
    }

    /// RefreshCoauthLock (`REFRESH_COAUTH_LOCK`): extends lock `lockID` by `timeout`, with new metadata if given.
    public func refreshCoauthLock(
        _ file: WOPIResource, lockID: String, timeout: Duration = .seconds(3600), metadata: String? = nil
    ) async throws -> CoauthTable {
        var headers = [WOPIHeader.coauthLockID: lockID]
        headers[WOPIHeader.coauthLockExpirationTimeout] = String(timeout.components.seconds)
        if let metadata { headers[WOPIHeader.coauthLockMetadata] = metadata }
        return try await coauthCall("RefreshCoauthLock", WOPIOverride.refreshCoauthLock, file, headers)
    }

    /// UnlockCoauthLock (`UNLOCK_COAUTH_LOCK`): leaves the coauth lock `lockID`.
    @discardableResult
    public func unlockCoauthLock(_ file: WOPIResource, lockID: String) async throws -> CoauthTable {
        try await coauthCall(
            "UnlockCoauthLock", WOPIOverride.unlockCoauthLock, file, [WOPIHeader.coauthLockID: lockID])
    }

    /// GetCoauthTable (`GET_COAUTH_TABLE`): the file's coauth locks; with `knownVersion` current, no rows.
    public func getCoauthTable(_ file: WOPIResource, knownVersion: String? = nil) async throws -> CoauthTable {
        var headers: [String: String] = [:]
        if let knownVersion { headers[WOPIHeader.coauthTableVersion] = knownVersion }
        return try await coauthCall("GetCoauthTable", WOPIOverride.getCoauthTable, file, headers)
    }

    private func coauthCall(_ name: String, _ override: String, _ file: WOPIResource, _ headers: [String: String])
        async throws -> CoauthTable
    {
        try requireKind(.file, file, name)
        var call = Call(name, .post, file)
        call.set(WOPIHeader.override, override)
        for (header, value) in headers { call.set(header, value) }
        let response = try await send(call)
        let version = response.headers[HTTPField.Name(WOPIHeader.coauthTableVersion)!]
        guard response.body.knownLength != 0 else {
            await Self.discard(response.body)
            return CoauthTable(locks: nil, version: version)
        }
        let body = try await decode(CoauthTableResponse.self, from: response, call: name)
        return CoauthTable(locks: body.coauthTable, version: version)
    }
}
