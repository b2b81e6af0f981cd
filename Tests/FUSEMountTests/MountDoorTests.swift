import Crypto
import FUSEMount
import Foundation
import Testing
import WOPIServer
import WOPIStorage

/// A mount of a user's view through the host's door (`WOPIHost.storage(for:)`, what `wopi-host mount` mounts): a
/// change guard's veto reaches the kernel as `EACCES` (a quota's 413 as `EFBIG`), and the store is left unchanged.
@Suite(.serialized) struct MountDoorTests {
    /// Vetoes every change with `veto`.
    struct Refuse: ChangeGuard {
        let veto: ContentVeto
        func willChange(_ change: ContentChange, by user: WOPIUser) async throws { throw veto }
    }

    /// The view of the mount's user through a host whose only guard is `guardian`.
    static func userView(_ guardian: any ChangeGuard) -> @Sendable (InMemoryStorage) -> any StorageBackend {
        { storage in
            let tester = WOPIUser(id: "tester", signInName: "tester", displayName: "Tester", passwordHash: nil)
            let host = WOPIHost(
                storage: storage, locks: InMemoryLockStore(), users: InMemoryUserDirectory([tester]),
                tokens: AccessTokenSigner(key: SymmetricKey(size: .bits256)), changeGuards: [guardian])
            return host.storage(for: tester)
        }
    }

    @Test func aVetoIsEACCESAndChangesNothing() async throws {
        try await withMount(backend: Self.userView(Refuse(veto: .refused("Read-only here.")))) { fixture in
            let mnt = fixture.mountPoint
            let created = try await blocking { POSIX.writeFile(mnt + "/new.txt", Array("hello".utf8)) }
            #expect(created == EACCES)
            let madeFolder = try await blocking { POSIX.call { Int(mkdir(mnt + "/folder", 0o755)) } }
            #expect(madeFolder.error == EACCES)
            #expect(try await fixture.storage.children(of: fixture.root).isEmpty)
        }
    }

    @Test func aQuotaVetoIsEFBIG() async throws {
        try await withMount(backend: Self.userView(Refuse(veto: .tooLarge("The quota is used up.")))) { fixture in
            let created = try await blocking { POSIX.writeFile(fixture.mountPoint + "/new.txt", Array("hello".utf8)) }
            #expect(created == EFBIG)
            #expect(try await fixture.storage.children(of: fixture.root).isEmpty)
        }
    }
}
