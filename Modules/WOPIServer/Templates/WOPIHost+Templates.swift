import Foundation
import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
public import WOPIStorage

extension WOPIHost {
    /// Creates an empty document named `name` (the template's document extension is added when missing; `nil`
    /// picks the first free `New document N` name) in `container` for `user`, made from template `templateID` of
    /// ``WOPIHostConfiguration/templates``: its CheckFileInfo names the template in `TemplateSource` until its first
    /// save. It goes through the door as ``createFile(named:in:content:for:)`` does.
    ///
    /// - Throws: `404` for an unknown template or no template store, or a container the user may not see; `401`
    ///   when `user` may not create files in `container`; a ``ChangeGuard``'s ``ContentVeto``; and what the storage
    ///   throws (a name conflict: `409`).
    public func createDocument(
        fromTemplate templateID: String, named name: String? = nil, in container: ItemID, for user: WOPIUser
    ) async throws -> FileMetadata {
        guard let store = configuration.templates,
            let template = try await store.templates().first(where: { $0.id == templateID })
        else { throw WOPIHTTPError.notFound("No template has this ID.") }
        let ext = "." + template.documentExtension
        let fileName: String
        if let name {
            fileName = name.lowercased().hasSuffix(ext.lowercased()) ? name : name + ext
        } else {
            fileName = try await freeDocumentName(extension: template.documentExtension, in: container)
        }
        let file = try await createFile(named: fileName, in: container, for: user)
        try await store.setTemplate(template.id, of: file.id)
        return file
    }

    /// CheckFileInfo's `TemplateSource` for an empty file made from a template: the template endpoint below the
    /// file, with a token traded from the caller's.
    func templateSource(for file: FileMetadata, context: RequestContext) async throws -> String? {
        guard file.size == 0, let store = configuration.templates, try await store.template(of: file.id) != nil else {
            return nil
        }
        return context.withToken(
            "\(context.fileSrc(file.id))/\(WOPIRoute.FileEndpoint.template.rawValue)", for: .file(file.id),
            signer: tokens)
    }

    /// The template an empty file was made from (`TemplateSource`): the file's access token is checked as for
    /// GetFile, and the proof as for every WOPI request when the client signs it (Collabora Online does; ONLYOFFICE
    /// downloads `TemplateSource` unsigned, as it does `FileUrl`, and a template holds no user data). After the
    /// first save the reference is gone and this answers 404.
    func getTemplate(_ id: ItemID, context: RequestContext) async throws -> WOPIResponse {
        _ = try await context.file(id, in: storage)
        guard let store = configuration.templates, let templateID = try await store.template(of: id),
            let content = try await store.content(of: templateID)
        else { throw WOPIHTTPError.notFound("This file was not made from a template, or was saved since.") }
        var response = WOPIResponse(status: .ok, body: .stream(content))
        response.headers[.contentType] = "application/octet-stream"
        return response
    }

    /// Forgets the template of `file` after its first save.
    func forgetTemplate(of file: ItemID) async throws {
        guard let store = configuration.templates, try await store.template(of: file) != nil else { return }
        try await store.setTemplate(nil, of: file)
    }
}
