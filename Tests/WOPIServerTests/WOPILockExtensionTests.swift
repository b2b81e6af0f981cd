import Foundation
import Testing
import WOPIModels
import WOPIServer
import WOPIStorage
import WOPITestSupport

/// The CSPP Plus extensions of the WOPI lock operations, on a host configured for co-authoring ("wopi-locks"):
/// `X-WOPI-LockExpirationTimeout`, `X-WOPI-LockUserVisible` and the conflict headers.
struct WOPILockExtensionTests {
    static var coauthoring: WOPIHostConfiguration {
        var configuration = WOPIHostConfiguration()
        configuration.coauthoring = CoauthoringConfiguration(
            endpoints: .fixed(
                CoauthoringEndpoints(
                    realTimeChannel: "https://rtc.example.com/", officeCollaborationService: "https://ocs.example.com/")
            ),
            fileGeoLocationCode: "EU")
        return configuration
    }

    @Test func theLockDurationIsSixtyToThreeThousandSixHundredSecondsOnLockRequestsOnly() async throws {
        try await TestHost.run(configuration: Self.coauthoring) { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            let url = wopi.fileURL(file.id)
            for bad in ["59", "3601", "soon"] {
                let reply = try await wopi.post(
                    url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L", "X-WOPI-LockExpirationTimeout": bad])
                #expect(reply.status == 400, "timeout \(bad)")
            }
            let locked = try await wopi.post(
                url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "L", "X-WOPI-LockExpirationTimeout": "60"])
            #expect(locked.status == 200)
            let held = try #require(try await wopi.host.locks.lock(on: file.id))
            #expect(held.expiresAt == wopi.clock.date.addingTimeInterval(60), "60 s on the host's clock")
            #expect(held.holder == "Ana")
            // The header means nothing to PutFile: a stray value does not refuse it.
            let put = try await wopi.post(
                wopi.fileURL(file.id, "/contents"),
                ["X-WOPI-Override": "PUT", "X-WOPI-Lock": "L", "X-WOPI-LockExpirationTimeout": "soon"], body: "v2")
            #expect(put.status == 200)
        }
    }

    @Test func aVisibleLockNamesItsHolderInLaterConflicts() async throws {
        try await TestHost.run(configuration: Self.coauthoring) { wopi in
            let file = try await wopi.seedFile("Plan.docx")
            let url = wopi.fileURL(file.id)
            let visible = try await wopi.post(
                url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "A", "X-WOPI-LockUserVisible": "true"])
            #expect(visible.status == 200)
            // Another session (Ana's other editor) asks for another lock.
            let conflict = try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "B"])
            #expect(conflict.status == 409)
            #expect(conflict.header("X-WOPI-Lock") == "A")
            #expect(conflict.header("X-WOPI-ConflictingLockUsername") == "Ana")
            #expect(conflict.header("X-WOPI-ConflictingMechanism") == "WOPI-Lock")
            // Refreshed without the header, the lock is no longer visible.
            #expect(try await wopi.post(url, ["X-WOPI-Override": "REFRESH_LOCK", "X-WOPI-Lock": "A"]).status == 200)
            let hidden = try await wopi.post(url, ["X-WOPI-Override": "LOCK", "X-WOPI-Lock": "B"])
            #expect(hidden.status == 409 && hidden.header("X-WOPI-ConflictingLockUsername") == nil)
        }
    }
}
