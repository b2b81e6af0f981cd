import Foundation
import WOPIStorage

/// The editing sessions a host's pages opened on each file, so that the host knows when the last one was closed
/// (``WOPIHost/editingSessionEnded(file:session:)``). A session that is never closed (a browser that crashed)
/// lapses at the time it was opened with.
///
/// It is kept in the process's memory: in a deployment of several host processes, each knows the sessions its
/// pages opened, so a close may find "no other session" while another process's page still edits the file. Such
/// deployments keep ``WOPIHostConfiguration/EndedSessionLocks/expire``, or route a file's pages to one process.
actor EditingSessions {
    private var sessions: [ItemID: [String: Date]] = [:]

    /// `session` edits `file` until `until` at the latest.
    func opened(_ file: ItemID, session: String, until: Date) {
        sessions[file, default: [:]][session] = until
    }

    /// Whether `session` still edits `file` at `now`: it was opened, not closed, and has not lapsed.
    func isOpen(_ file: ItemID, session: String, now: Date) -> Bool {
        sessions[file]?[session].map { $0 > now } ?? false
    }

    /// `session` closed `file`; whether no other unexpired session of the file remains.
    func closed(_ file: ItemID, session: String, now: Date) -> Bool {
        var open = sessions[file] ?? [:]
        open[session] = nil
        open = open.filter { $0.value > now }
        sessions[file] = open.isEmpty ? nil : open
        return open.isEmpty
    }
}
