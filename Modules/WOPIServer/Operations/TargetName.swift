import HTTPTypes
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

/// The name a PutRelativeFile, CreateChildFile or CreateChildContainer request asks for (Docs/wopi-protocol.md §4.9,
/// §7.4, §7.5).
enum TargetName {
    /// `X-WOPI-SuggestedTarget`: the host adjusts the name as needed and never fails with 400 or 409.
    case suggested(String)
    /// `X-WOPI-RelativeTarget`: the exact name; 400 when illegal, 409 when taken unless overwriting.
    case relative(String, overwrite: Bool)

    /// Reads the target headers (UTF-7 decoded leniently).
    ///
    /// Both headers present is answered `501` for every operation: the protocol allows 400 or 501 for
    /// PutRelativeFile and asks 501 for CreateChildFile and CreateChildContainer (§18.6), so one answer serves all.
    init(_ request: WOPIRequest) throws {
        let suggested = request.header(WOPIHeader.suggestedTarget)
        let relative = request.header(WOPIHeader.relativeTarget)
        switch (suggested, relative) {
        case (.some, .some):
            throw WOPIHTTPError.notImplemented(
                "X-WOPI-SuggestedTarget and X-WOPI-RelativeTarget are mutually exclusive; send one.")
        case (let suggested?, nil):
            self = .suggested(UTF7.decodeLeniently(suggested))
        case (nil, let relative?):
            let overwrite = request.header(WOPIHeader.overwriteRelativeTarget)?.lowercased() == "true"
            self = .relative(UTF7.decodeLeniently(relative), overwrite: overwrite)
        case (nil, nil):
            throw WOPIHTTPError.badRequest("Send X-WOPI-SuggestedTarget or X-WOPI-RelativeTarget.")
        }
    }
}

/// Where a new item goes once its name is settled.
struct ResolvedTarget {
    var name: String
    /// The existing file to overwrite (specific mode with overwrite), if any.
    var replacing: ItemID?
}

extension WOPIHost {
    /// Settles the name of a new item in `container`.
    ///
    /// - Parameters:
    ///   - sourceName: the file a PutRelativeFile starts from (its base name completes an extension-only
    ///     suggestion); `nil` for CreateChildFile and containers.
    ///   - isContainer: containers have no extension and use `X-WOPI-InvalidContainerNameError`.
    func resolve(_ target: TargetName, in container: ItemID, sourceName: String?, isContainer: Bool) async throws
        -> ResolvedTarget
    {
        let rules = configuration.fileNameRules
        let siblings = try await storage.children(of: container)
        let taken = Set(siblings.map(\.name))
        let unique: (String) -> String = { name in
            Self.fitToStorage(rules.uniqueName(for: name, isTaken: { taken.contains($0) }))
        }
        switch target {
        case .suggested(let suggestion):
            let wanted =
                isContainer
                ? suggestion
                : rules.suggestedName(
                    from: suggestion, sourceName: sourceName, defaultBaseName: configuration.defaultNewFileBaseName)
            return ResolvedTarget(name: unique(Self.fitToStorage(rules.sanitized(wanted))), replacing: nil)
        case .relative(let name, let overwrite):
            if let problem = rules.problem(with: name) ?? StorageName.problem(with: name) {
                var error = WOPIHTTPError.badRequest("The name cannot be used: \(problem).")
                let header = isContainer ? WOPIHeader.invalidContainerNameError : WOPIHeader.invalidFileNameError
                error.headers[HTTPField.Name(header)!] = problem
                error.headers[.wopiValidRelativeTarget] = UTF7.encode(
                    unique(Self.fitToStorage(rules.sanitized(name))))
                throw error
            }
            guard let existing = siblings.first(where: { $0.name == name }) else {
                return ResolvedTarget(name: name, replacing: nil)
            }
            guard overwrite, !isContainer, case .file(let file) = existing else {
                var error = WOPIHTTPError(.conflict, "An item named \"\(name)\" already exists.")
                error.headers[.wopiValidRelativeTarget] = UTF7.encode(unique(name))
                throw error
            }
            try await applyLockRules(.overwriteTarget, on: file.id)
            return ResolvedTarget(name: name, replacing: file.id)
        }
    }

    /// Shortens a name's base until it fits the storage limit of 255 UTF-8 bytes, keeping the extension.
    static func fitToStorage(_ name: String) -> String {
        guard name.utf8.count > StorageName.maximumUTF8Length else { return name }
        let parts = FileNameRules.split(name)
        let suffix = parts.extension.map { "." + $0 } ?? ""
        var base = parts.base
        while !base.isEmpty, base.utf8.count + suffix.utf8.count > StorageName.maximumUTF8Length {
            base.removeLast()
        }
        return base + suffix
    }
}
