public import WOPIStorage

/// How the host pages look: the one part of them a provider restyles.
///
/// ``HostPages`` decides everything else (who is signed in, what they may see, which token the editor gets, which
/// headers protect the page) and hands the renderer a model of each page; the renderer returns the HTML. Escape
/// every string of a model you put in the page (`HTMLEscaping.escape` in `WOPIModels`).
///
/// The example host's `HostPageHTML` is one renderer; copy it to start your own.
public protocol HostPageRenderer: Sendable {
    /// The sign-in form: it posts `username`, `password`, `next` and `form_token` (``SignInPage/formToken``) to
    /// `/signin`.
    func signIn(_ page: SignInPage) -> String

    /// A signed-in user's files in one container, with a sign-out form that posts to `/signout`, and a form that
    /// posts `type` (`docx`, `xlsx` or `pptx`) and `container` to `/new` where ``FileListPage/newDocumentContainer``
    /// is set; with ``FileListPage/templates``, a form that posts `template` (a ``FileListPage/TemplateChoice/id``)
    /// and `container` to `/new`.
    func files(_ page: FileListPage) -> String

    /// The page that frames the WOPI client (Office for the web's host page): it posts `access_token` and
    /// `access_token_ttl` to ``EditorFramePage/actionURL`` in an iframe, and runs ``frameScript``.
    func frame(_ page: EditorFramePage) -> String

    /// The one script ``frame(_:)`` runs: ``HostPages`` allows exactly it, by hash, in the page's
    /// Content-Security-Policy.
    var frameScript: String { get }

    /// The versions of a file (``VersionListPage``): each row with its download and, where
    /// ``VersionListPage/canChange``, forms that post `action` (`restore`, `keep` or `release`) and `version` (the
    /// row's ``FileVersion/id``) to ``VersionListPage/formURL``; a page that frames an editor may also post `session`
    /// (``EditorFramePage/editingSession``).
    func versions(_ page: VersionListPage) -> String

    /// A page with a title and a plain-text message (an error, an expired link).
    func message(title: String, _ text: String) -> String
}

/// The model of the sign-in page.
public struct SignInPage: Sendable, Equatable {
    /// The local path to go to after signing in.
    public var next: String
    /// What went wrong last time, or `nil`.
    public var message: String?
    /// The form token the form must post back as `form_token`.
    public var formToken: String
}

/// The model of a file list.
public struct FileListPage: Sendable, Equatable {
    /// A link of a row.
    public struct Link: Sendable, Equatable {
        /// Its text: `Open`, `View`, `Edit` or `Download`.
        public var title: String
        /// Where it goes.
        public var url: String
    }

    /// One item of the list.
    public struct Row: Sendable, Equatable {
        /// The name as listed (a container's ends with `/`; a shared item's starts with `Shared with me/`).
        public var name: String
        /// What can be done with it.
        public var links: [Link]
    }

    /// The signed-in user's display name.
    public var userName: String
    /// The container's name (`My files` for the user's root).
    public var containerName: String
    /// The parent's list, `nil` at the root.
    public var parentURL: String?
    /// The items.
    public var rows: [Row]
    /// The container new documents go to, `nil` where the user may not create any.
    public var newDocumentContainer: String?
    /// The templates a new document can be made from in ``newDocumentContainer``: empty unless the host has a
    /// `TemplateStore` and the WOPI client's capabilities say it loads `TemplateSource`.
    public var templates: [TemplateChoice] = []

    /// A template the page offers.
    public struct TemplateChoice: Sendable, Equatable {
        /// What the form posts as `template`.
        public var id: String
        /// Its name as users see it.
        public var name: String
    }
}

/// The model of the page that frames the WOPI client.
public struct EditorFramePage: Sendable, Equatable {
    /// The file's name, for the title.
    public var fileName: String
    /// The WOPI client's action URL, with WOPISrc and placeholders filled in.
    public var actionURL: String
    /// The WOPI access token the client gets.
    public var accessToken: String
    /// Its expiry, in epoch milliseconds (`access_token_ttl`).
    public var accessTokenTTL: Int64
    /// The client's favicon, when discovery names one.
    public var favIconURL: String?
    /// The client's origin: the only origin whose PostMessages the page reads.
    public var clientOrigin: String
    /// Where the client's Close goes.
    public var closeURL: String
    /// The page that opens the file for editing, `nil` when the user may only view it.
    public var editURL: String?
    /// The page the client's Share goes to.
    public var shareURL: String
    /// The file's download, `nil` for a secure viewer (who sees the file only in the client).
    public var downloadURL: String?
    /// The file's versions view, `nil` when the storage keeps no versions (the page then says so on the client's
    /// `UI_FileVersions`). `versionsURL?format=json` lists them as JSON, for a panel of the page.
    public var versionsURL: String?
    /// The page's editing session, `nil` when it only views. A restore the page posts to ``versionsURL`` with it
    /// (`session`) passes the editor's WOPI lock: the page sends it after the editor acknowledged the restore
    /// (Collabora Online's `Host_VersionRestore` with `Pre_Restore`, answered by `App_VersionRestore` with
    /// `Pre_Restore_Ack`).
    public var editingSession: String?
}

/// The model of a file's versions view.
public struct VersionListPage: Sendable, Equatable {
    /// One version of the list.
    public struct Row: Sendable, Equatable {
        /// The version.
        public var version: FileVersion
        /// The display name of who saved it, `nil` when nobody is recorded.
        public var savedBy: String?
        /// Its download.
        public var downloadURL: String
        /// The page that opens it read-only in the WOPI client, `nil` without a client that views the file.
        public var openURL: String?
    }

    /// The file's name.
    public var fileName: String
    /// The list of the file's folder.
    public var filesURL: String
    /// Where the forms post.
    public var formURL: String
    /// Whether the user may restore, keep and release versions (they may write the file).
    public var canChange: Bool
    /// The versions, the current one first.
    public var rows: [Row]
}
