import Foundation
import Hummingbird
import NIOCore
import Testing
import WOPIClient
import WOPIModels
import WOPIServerHummingbird
import WOPITesting

/// A host whose JSON has optional members of the wrong type is still read (issue 16): the member is left out,
/// the rest is used. A required member that cannot be read still fails clearly. In-process.
@Suite struct TolerantDecodingTests {
    /// Serves `body` as JSON for every file and container endpoint; `test` gets the base URL and a transport to it.
    @discardableResult
    func serving<T: Sendable>(
        _ body: String, _ test: @Sendable (String, WOPITestTransport) async throws -> T
    ) async throws -> T {
        let router = Router(context: WOPIRequestContext.self)
        let reply: @Sendable (Request, WOPIRequestContext) -> Response = { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("wopi/files/:id", use: reply)
        router.get("wopi/containers/:id/children", use: reply)
        return try await WOPITestClient.run(router: router) { client in
            try await test(WOPITestClient.origin, client.transport)
        }
    }

    @Test func checkFileInfoWithMalformedOptionalMembersIsRead() async throws {
        let json = #"""
            {"BaseFileName":"a.docx","OwnerId":"o","Size":3,"UserId":"u","Version":"v1",
             "UserCanWrite":"true","SupportsLocks":true,"FileNameMaxLength":"250","LastModifiedTime":17,
             "UserFriendlyName":["not","a","name"]}
            """#
        try await serving(json) { base, transport in
            try await withClient(over: transport) { client in
                let info = try await client.checkFileInfo(
                    try WOPIResource(string: base + "/wopi/files/1?access_token=t"))
                #expect(info.baseFileName == "a.docx" && info.size == 3 && info.version == "v1")
                #expect(info.supportsLocks == true)
                #expect(info.userCanWrite == nil && info.fileNameMaxLength == nil && info.userFriendlyName == nil)
            }
        }
    }

    @Test func aRequiredMemberThatCannotBeReadStillFails() async throws {
        try await serving(#"{"BaseFileName":7,"OwnerId":"o","Size":3,"UserId":"u","Version":"v1"}"#) {
            base, transport in
            try await withClient(over: transport) { client in
                await #expect(throws: WOPIClientError.self) {
                    try await client.checkFileInfo(try WOPIResource(string: base + "/wopi/files/1?access_token=t"))
                }
            }
        }
    }

    @Test func childrenWithMalformedOptionalMembersAreRead() async throws {
        let json = #"""
            {"ChildContainers":[],"ChildFiles":[{"Name":"a.docx","Url":"http://h/wopi/files/1?access_token=t",
             "Size":3,"Version":"1","LastModifiedTime":false}]}
            """#
        try await serving(json) { base, transport in
            try await withClient(over: transport) { client in
                let children = try await client.enumerateChildren(
                    of: try WOPIResource(string: base + "/wopi/containers/c?access_token=t"))
                #expect(children.files.map(\.name) == ["a.docx"])
            }
        }
    }
}
