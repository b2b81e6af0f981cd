// The JSON bodies of the container, ecosystem and bootstrapper operations.

/// The body of CheckContainerInfo.
public struct CheckContainerInfo: Codable, Sendable, Hashable {
    /// The container's name, no path.
    public var name: String
    /// A web page for the container.
    public var hostURL: String?
    /// A sharing page for the container.
    public var sharingURL: String?
    /// The share URL types GetShareUrl accepts for the container.
    public var supportedShareUrlTypes: [String]?
    public var userCanCreateChildContainer: Bool?
    public var userCanCreateChildFile: Bool?
    public var userCanDelete: Bool?
    public var userCanRename: Bool?
    public var isAnonymousUser: Bool?
    /// Required by Office for iOS/Android; equal for a container, its files and child containers.
    public var isEduUser: Bool?
    /// Required by Office for iOS/Android; equal for a container, its files and child containers.
    public var licenseCheckForEditIsEnabled: Bool?

    public init(name: String) { self.name = name }

    public enum CodingKeys: String, CodingKey, CaseIterable {
        case name = "Name"
        case hostURL = "HostUrl"
        case sharingURL = "SharingUrl"
        case supportedShareUrlTypes = "SupportedShareUrlTypes"
        case userCanCreateChildContainer = "UserCanCreateChildContainer"
        case userCanCreateChildFile = "UserCanCreateChildFile"
        case userCanDelete = "UserCanDelete"
        case userCanRename = "UserCanRename"
        case isAnonymousUser = "IsAnonymousUser"
        case isEduUser = "IsEduUser"
        case licenseCheckForEditIsEnabled = "LicenseCheckForEditIsEnabled"
    }
}

/// A file entry of EnumerateChildren.
public struct ChildFile: Codable, Sendable, Hashable {
    /// The file's `BaseFileName`.
    public var name: String
    /// The file's WOPI URL with an access token.
    public var url: String
    public var size: Int64
    public var version: String
    /// UTC ISO 8601, as in CheckFileInfo.
    public var lastModifiedTime: String?

    public init(name: String, url: String, size: Int64, version: String, lastModifiedTime: String? = nil) {
        self.name = name
        self.url = url
        self.size = size
        self.version = version
        self.lastModifiedTime = lastModifiedTime
    }

    enum CodingKeys: String, CodingKey {
        case name = "Name"
        case url = "Url"
        case size = "Size"
        case version = "Version"
        case lastModifiedTime = "LastModifiedTime"
    }
}

/// The body of EnumerateChildren: both arrays are always present.
public struct EnumerateChildrenResponse: Codable, Sendable, Hashable {
    public var childContainers: [NamedURL]
    public var childFiles: [ChildFile]

    public init(childContainers: [NamedURL], childFiles: [ChildFile]) {
        self.childContainers = childContainers
        self.childFiles = childFiles
    }

    enum CodingKeys: String, CodingKey {
        case childContainers = "ChildContainers"
        case childFiles = "ChildFiles"
    }
}

/// A container pointer with the container's info: the body of GetRootContainer (ecosystem) and
/// CreateChildContainer, and the `RootContainerInfo` of the bootstrapper shortcut.
public struct ContainerPointerResponse: Codable, Sendable, Hashable {
    public var containerPointer: NamedURL
    public var containerInfo: CheckContainerInfo?

    public init(containerPointer: NamedURL, containerInfo: CheckContainerInfo?) {
        self.containerPointer = containerPointer
        self.containerInfo = containerInfo
    }

    enum CodingKeys: String, CodingKey {
        case containerPointer = "ContainerPointer"
        case containerInfo = "ContainerInfo"
    }
}

/// The body of CheckEcosystem.
public struct CheckEcosystemResponse: Codable, Sendable, Hashable {
    public var supportsContainers: Bool?
    public init(supportsContainers: Bool?) { self.supportsContainers = supportsContainers }
    enum CodingKeys: String, CodingKey { case supportsContainers = "SupportsContainers" }
}

/// The user profile the bootstrapper returns.
public struct BootstrapInfo: Codable, Sendable, Hashable {
    /// The ecosystem URL with a WOPI access token.
    public var ecosystemURL: String
    /// Equal to CheckFileInfo `UserId`.
    public var userID: String
    /// Tells the user's accounts apart, often an email address.
    public var signInName: String
    public var userFriendlyName: String?

    public init(ecosystemURL: String, userID: String, signInName: String, userFriendlyName: String?) {
        self.ecosystemURL = ecosystemURL
        self.userID = userID
        self.signInName = signInName
        self.userFriendlyName = userFriendlyName
    }

    enum CodingKeys: String, CodingKey {
        case ecosystemURL = "EcosystemUrl"
        case userID = "UserId"
        case signInName = "SignInName"
        case userFriendlyName = "UserFriendlyName"
    }
}

/// A WOPI access token and its absolute expiry, from GetNewAccessToken.
public struct AccessTokenInfo: Codable, Sendable, Hashable {
    public var accessToken: String
    /// Milliseconds since the Unix epoch; `0` means unknown.
    public var accessTokenExpiry: Int64

    public init(accessToken: String, accessTokenExpiry: Int64) {
        self.accessToken = accessToken
        self.accessTokenExpiry = accessTokenExpiry
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "AccessToken"
        case accessTokenExpiry = "AccessTokenExpiry"
    }
}

/// The body of the bootstrapper: the profile, plus the result of a shortcut operation when one was asked.
public struct BootstrapResponse: Codable, Sendable, Hashable {
    public var bootstrap: BootstrapInfo
    /// GET_ROOT_CONTAINER's result.
    public var rootContainerInfo: ContainerPointerResponse?
    /// GET_NEW_ACCESS_TOKEN's result.
    public var accessTokenInfo: AccessTokenInfo?
    /// GET_WOPI_SRC_WITH_ACCESS_TOKEN's result.
    public var wopiSrcInfo: URLResponse?
    /// CSPP Plus: with GET_NEW_ACCESS_TOKEN, the co-authoring endpoints CheckFileInfo gives.
    public var endPoints: CoauthoringEndpoints?

    public init(
        bootstrap: BootstrapInfo, rootContainerInfo: ContainerPointerResponse? = nil,
        accessTokenInfo: AccessTokenInfo? = nil, wopiSrcInfo: URLResponse? = nil
    ) {
        self.bootstrap = bootstrap
        self.rootContainerInfo = rootContainerInfo
        self.accessTokenInfo = accessTokenInfo
        self.wopiSrcInfo = wopiSrcInfo
    }

    enum CodingKeys: String, CodingKey {
        case bootstrap = "Bootstrap"
        case rootContainerInfo = "RootContainerInfo"
        case accessTokenInfo = "AccessTokenInfo"
        case wopiSrcInfo = "WopiSrcInfo"
        case endPoints = "EndPoints"
    }
}
