/// How much a user may do with an item's content: the role a share, a link or a policy gives them.
///
/// Ordered, each level allowing what the ones below it allow: `none < secureView < view < comment < review < edit`.
/// The owner is not a level but ``ItemAccess/isOwner`` on top of ``edit``. An access token carries one, so a
/// view-only link stays view-only whoever passes it on; a request gets the lesser of the token's permission and
/// what the ``AccessPolicy`` grants now. Docs/policies-and-sharing.md has the table of what each level sends the
/// editors and may do.
///
/// The raw values are what tokens and share stores keep: they never change, and they are not the order
/// (``secureView``, ``comment`` and ``review`` came after ``edit``).
public enum Permission: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    /// No access: the item does not exist for this user (the host answers 404).
    case none = 0
    /// Read the content and properties.
    case view = 1
    /// Read and change the content (locks, PutFile, and what the abilities of ``ItemAccess`` allow).
    case edit = 2
    /// See the content only in the editor, watermarked, without printing, exporting, copying out or downloading.
    case secureView = 3
    /// Read the content and add comments, through an editor that keeps the user to comments.
    case comment = 4
    /// Read the content, comment, and accept or reject tracked changes, through an editor that keeps the user to that.
    case review = 5

    /// Every level, lowest first.
    public static let allCases: [Permission] = [.none, .secureView, .view, .comment, .review, .edit]

    /// The position in the order, lowest first.
    private var rank: Int {
        switch self {
        case .none: 0
        case .secureView: 1
        case .view: 2
        case .comment: 3
        case .review: 4
        case .edit: 5
        }
    }

    public static func < (lhs: Permission, rhs: Permission) -> Bool { lhs.rank < rhs.rank }

    /// `none`, `secure-view`, `view`, `comment`, `review` or `edit`: what logs, audit entries and error messages say.
    public var description: String {
        switch self {
        case .none: "none"
        case .secureView: "secure-view"
        case .view: "view"
        case .comment: "comment"
        case .review: "review"
        case .edit: "edit"
        }
    }

    /// The role's name as people see it in a share dialog or on the command line: `viewer`, `secure-viewer`,
    /// `commenter`, `reviewer` or `editor` (`none` for ``none``).
    public var roleName: String {
        switch self {
        case .none: "none"
        case .secureView: "secure-viewer"
        case .view: "viewer"
        case .comment: "commenter"
        case .review: "reviewer"
        case .edit: "editor"
        }
    }

    /// The level a role name (``roleName``) or a level name (``description``) stands for; `nil` for any other
    /// string.
    public init?(named name: String) {
        guard let found = Self.allCases.first(where: { $0.roleName == name || $0.description == name }) else {
            return nil
        }
        self = found
    }
}
