import Foundation
import HTTPTypes
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// The largest JSON body GetCoauthLock and RefreshCoauthLock read for their metadata.
    static let maximumCoauthBody = 4 * CoauthLockRules.maximumMetadataBytes

    /// GetCoauthLock, RefreshCoauthLock and UnlockCoauthLock (CSPP Plus), decided by ``CoauthLockRules`` and
    /// applied with one compare-and-swap of the file's coauth table; each answers the table as it is afterwards.
    func changeCoauthLock(
        _ operation: WOPIOperation.CoauthChange, file id: ItemID, request: WOPIRequest,
        context: RequestContext
    ) async throws -> WOPIResponse {
        let coauthRequest: CoauthLockRules.Request
        let lockID = request.header(WOPIHeader.coauthLockID)
        let timeout = request.header(WOPIHeader.coauthLockExpirationTimeout)
        switch operation {
        case .get:
            coauthRequest = .getCoauthLock(
                id: lockID, type: request.header(WOPIHeader.coauthLockType), timeout: timeout,
                metadata: try await coauthMetadata(request))
        case .refresh:
            coauthRequest = .refreshCoauthLock(
                id: lockID, timeout: timeout, metadata: try await coauthMetadata(request))
        case .unlock:
            coauthRequest = .unlockCoauthLock(id: lockID)
        }
        for _ in 0..<16 {
            let wopiLock = try await locks.lock(on: id)
            let table = try await locks.coauthLocks(on: id)
            let state = CoauthLockRules.State(wopiLock: wopiLock, coauthLocks: table.locks)
            switch CoauthLockRules.decide(coauthRequest, state: state, holder: context.user.displayName, now: now()) {
            case .badRequest(let message):
                throw WOPIHTTPError.badRequest(message)
            case .conflict(let conflict):
                throw Self.coauthConflict(conflict)
            case .proceed(nil):
                return try Self.coauthTable(table.locks, knownVersion: nil)
            case .proceed(let new?):
                if case .swapped = try await locks.compareAndSwapCoauth(
                    file: id, expectedRevision: table.revision, new: new)
                {
                    return try Self.coauthTable(new, knownVersion: nil)
                }
            }
        }
        throw WOPIHTTPError(.serviceUnavailable, "The coauth locks on this file change too fast; try again.")
    }

    /// GetCoauthTable (CSPP Plus): the unexpired coauth locks, with no body when the client's
    /// `X-WOPI-CoauthTableVersion` is current. Needs no edit permission.
    func getCoauthTable(_ id: ItemID, request: WOPIRequest) async throws -> WOPIResponse {
        let table = try await locks.coauthLocks(on: id)
        return try Self.coauthTable(table.locks, knownVersion: request.headers[.wopiCoauthTableVersion])
    }

    /// The response carrying a coauth table and its version; without a body when `knownVersion` is current.
    static func coauthTable(_ locks: [CoauthLock], knownVersion: String?) throws -> WOPIResponse {
        let version = CoauthLockRules.tableVersion(of: locks)
        var response: WOPIResponse
        if knownVersion == version {
            response = WOPIResponse(status: .ok)
        } else {
            let rows = locks.map { lock in
                CoauthTableResponse.Entry(
                    coauthLockID: lock.id, coauthLockMetadata: lock.metadata, coauthLockType: lock.type.rawValue,
                    userFriendlyName: lock.holder,
                    coauthLockTime: EpochMilliseconds.from(lock.takenAt))
            }
            response = try .json(CoauthTableResponse(coauthTable: rows))
        }
        response.headers[.wopiCoauthTableVersion] = version
        return response
    }

    /// The metadata of a coauth-lock request: the JSON body's `CoauthLockMetadata` when a body is sent (it wins
    /// over the header, as Microsoft's validator sends one or the other), else `X-WOPI-CoauthLockMetadata`.
    private func coauthMetadata(_ request: WOPIRequest) async throws -> String? {
        let body = try await request.body.collect(upTo: Self.maximumCoauthBody)
        guard body.readableBytes > 0 else { return request.header(WOPIHeader.coauthLockMetadata) }
        do {
            return try WOPIJSON.decoder.decode(CoauthLockMetadataBody.self, from: Data(body.readableBytesView))
                .coauthLockMetadata ?? ""
        } catch {
            throw WOPIHTTPError.badRequest("The body must be JSON: {\"CoauthLockMetadata\": \"...\"}.")
        }
    }
}
