import Foundation
import WOPIModels

extension FuzzTarget {
    /// CheckFileInfo bodies, as the client reads them from a host, with the time stamp the mount shows.
    static let checkFileInfo = FuzzTarget(name: "check-file-info") { input in
        guard let info = try? WOPIJSON.decoder.decode(CheckFileInfo.self, from: input.data) else { return }
        if let time = info.lastModifiedTime { _ = WOPIJSON.date(from: time) }
    }

    /// The container and ecosystem bodies (CheckContainerInfo, EnumerateChildren, the pointers, CheckEcosystem,
    /// the bootstrapper's answer), as the client reads them; the selector byte picks the type.
    static let containerJSON = FuzzTarget(name: "container-json") { input in
        let (choice, rest) = input.selector
        let decoder = WOPIJSON.decoder
        switch choice % 6 {
        case 0: _ = try? decoder.decode(CheckContainerInfo.self, from: rest.data)
        case 1:
            let children = try? decoder.decode(EnumerateChildrenResponse.self, from: rest.data)
            for file in children?.childFiles ?? [] { _ = file.lastModifiedTime.flatMap(WOPIJSON.date(from:)) }
        case 2: _ = try? decoder.decode(ContainerPointerResponse.self, from: rest.data)
        case 3: _ = try? decoder.decode(CheckEcosystemResponse.self, from: rest.data)
        case 4: _ = try? decoder.decode(BootstrapResponse.self, from: rest.data)
        default: _ = try? decoder.decode(ChildFile.self, from: rest.data)
        }
    }
}
