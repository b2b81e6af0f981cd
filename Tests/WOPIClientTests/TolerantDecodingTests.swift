import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
import WOPIClient
import WOPIModels
import WOPITestSupport

/// A host whose JSON has optional members of the wrong type is still read (issue 16): the member is left out,
/// the rest is used. A required member that cannot be read still fails clearly. Real HTTP on 127.0.0.1.
@Suite struct TolerantDecodingTests {
    /// Serves `body` as JSON for every file and container endpoint.
    @discardableResult
    func serving<T: Sendable>(_ body: String, _ test: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        let reply: @Sendable (Request, BasicRequestContext) -> Response = { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("wopi/files/:id", use: reply)
        router.get("wopi/containers/:id/children", use: reply)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return try await LoopbackServer.run(router, logger: logger, test)
    }

    @Test func checkFileInfoWithMalformedOptionalMembersIsRead() async throws {
        let json = #"""
            {"BaseFileName":"a.docx","OwnerId":"o","Size":3,"UserId":"u","Version":"v1",
             "UserCanWrite":"true","SupportsLocks":true,"FileNameMaxLength":"250","LastModifiedTime":17,
             "UserFriendlyName":["not","a","name"]}
            """#
        try await serving(json) { base in
            try await withClient { client in
                let info = try await client.checkFileInfo(
                    try WOPIResource(string: base + "/wopi/files/1?access_token=t"))
                #expect(info.baseFileName == "a.docx" && info.size == 3 && info.version == "v1")
                #expect(info.supportsLocks == true)
                #expect(info.userCanWrite == nil && info.fileNameMaxLength == nil && info.userFriendlyName == nil)
            }
        }
    }

    @Test func aRequiredMemberThatCannotBeReadStillFails() async throws {
        try await serving(#"{"BaseFileName":7,"OwnerId":"o","Size":3,"UserId":"u","Version":"v1"}"#) { base in
            try await withClient { client in
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
        try await serving(json) { base in
            try await withClient { client in
                let children = try await client.enumerateChildren(
                    of: try WOPIResource(string: base + "/wopi/containers/c?access_token=t"))
                #expect(children.files.map(\.name) == ["a.docx"])
            }
        }
    }
}
