import Foundation
public import WOPIModels
import WOPIStorage

extension WOPIClient {
    /// Office's *Add a Place* once signed in: GetRootContainer through the bootstrapper (the profile, a WOPI
    /// token and the root container in one call).
    ///
    /// Before sign-in, ``bootstrapChallenge()`` tells where to sign in; this call throws
    /// ``WOPIClientError/Code/signInRequired`` (with the challenge) when there is no token provider.
    public func addPlace() async throws -> WOPIPlace {
        let (bootstrap, root) = try await bootstrapRootContainer()
        return WOPIPlace(bootstrap: bootstrap, ecosystem: try WOPIResource(string: bootstrap.ecosystemURL), root: root)
    }

    /// Office's browse step: CheckContainerInfo, then EnumerateChildren.
    public func browse(_ container: WOPIResource, extensions: [String]? = nil) async throws
        -> (info: CheckContainerInfo, children: WOPIChildren)
    {
        let info = try await checkContainerInfo(container)
        return (info, try await enumerateChildren(of: container, extensions: extensions))
    }

    /// Office's open step: CheckFileInfo, GetLock (when supported; a lock held by someone else stops here), Lock
    /// with `lockID`, then GetFile. The returned session keeps the lock fresh until it is closed.
    ///
    /// - Parameters:
    ///   - lockID: the lock ID to hold; a new random one by default.
    ///   - refreshInterval: how often RefreshLock runs while the file is open (locks last 30 minutes).
    ///   - clock: the clock that times the refreshes; tests pass one they move forward by hand.
    /// - Throws: ``WOPIClientError/Code/lockConflict`` with the current lock when someone else holds it;
    ///   ``WOPIClientError/Code/notImplemented`` when the host does not support locks or updates.
    public func openForEditing(
        _ file: WOPIResource, lockID: String = WOPIEditSession.newLockID(), refreshInterval: Duration = .seconds(600),
        clock: any Clock<Duration> = ContinuousClock(), progress: TransferProgress? = nil
    ) async throws -> WOPIEditSession {
        let info = try await checkFileInfo(file)
        guard info.supportsLocks == true, info.supportsUpdate == true, info.userCanWrite == true else {
            throw WOPIClientError(
                .notImplemented,
                "\(info.baseFileName) cannot be edited here (the host does not offer locks and "
                    + "updates, or the user may not write); open it read-only.")
        }
        if info.supportsGetLock == true {
            let current = try await getLock(file)
            if !current.isEmpty, current != lockID { throw WOPIClientError.lockConflict(currentLock: current) }
        }
        try await lock(file, lockID: lockID)
        do {
            let download = try await getFile(file, progress: progress)
            return WOPIEditSession(
                client: self, file: file, info: info, lockID: lockID, content: download,
                refreshInterval: refreshInterval, clock: clock)
        } catch {
            _ = try? await unlock(file, lockID: lockID)
            throw error
        }
    }

    /// Opens a file read-only: CheckFileInfo, then GetFile.
    public func openForViewing(_ file: WOPIResource, progress: TransferProgress? = nil) async throws
        -> (info: CheckFileInfo, content: WOPIDownload)
    {
        let info = try await checkFileInfo(file)
        return (info, try await getFile(file, progress: progress))
    }
}
