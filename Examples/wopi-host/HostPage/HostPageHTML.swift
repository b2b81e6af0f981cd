import Foundation
import WOPIDeployment
import WOPIModels
import WOPIStorage

/// The HTML of the host pages: the sign-in form, the file list, a file's versions and the page that frames the WOPI
/// client. Restyle
/// it freely: `HostPages` (in WOPIDeployment) decides what each page shows and sets its security headers.
struct HostPageHTML: HostPageRenderer {
    /// A page with a title and a plain-text message.
    func message(title: String, _ text: String) -> String {
        Self.page(title: title, "<p>\(HTMLEscaping.escape(text))</p>")
    }

    /// A simple page (sign-in, file list, errors).
    static func page(title: String, _ body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLEscaping.escape(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0 auto;max-width:44rem;padding:1rem;color:#222}
        h1{font-size:1.4rem} ul{list-style:none;padding:0} li{padding:.5rem 0;border-bottom:1px solid #ddd}
        a{color:#0b57d0} .actions a{margin-left:.8rem} label,input,select,button{display:block;margin:.3rem 0}
        input,select{padding:.4rem;font-size:1rem} button{padding:.4rem 1rem;font-size:1rem}
        .error{color:#b00020} form.inline{display:flex;gap:.5rem;align-items:center}
        form.inline *{display:inline-block}
        </style></head>
        <body>\(body)</body></html>
        """
    }

    /// The sign-in form, posting back to `/signin` with `next` and the form token.
    func signIn(_ page: SignInPage) -> String {
        Self.page(
            title: "Sign in",
            """
            <h1>Sign in to WOPIKit</h1>
            \(page.message.map { "<p class=\"error\" role=\"alert\">\(HTMLEscaping.escape($0))</p>" } ?? "")
            <form method="post" action="/signin">
            <input type="hidden" name="next" value="\(HTMLEscaping.escape(page.next))">
            <input type="hidden" name="form_token" value="\(HTMLEscaping.escape(page.formToken))">
            <label for="username">User name or email</label>
            <input id="username" name="username" autocomplete="username" autocapitalize="none" required autofocus>
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required>
            <button type="submit" id="submit">Sign in</button>
            </form>
            """)
    }

    /// The page that posts the token to the WOPI client into a full-page iframe and handles its PostMessages
    /// (Microsoft's host page: https://learn.microsoft.com/microsoft-365/cloud-storage-partner-program/online/hostpage).
    func frame(_ frame: EditorFramePage) -> String {
        let config: [String: String?] = [
            "clientOrigin": frame.clientOrigin, "closeURL": frame.closeURL, "editURL": frame.editURL,
            "shareURL": frame.shareURL, "downloadURL": frame.downloadURL, "versionsURL": frame.versionsURL,
            "session": frame.editingSession,
        ]
        let json =
            (try? JSONSerialization.data(withJSONObject: config.compactMapValues { $0 }, options: .sortedKeys))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let safeJSON = json.replacingOccurrences(of: "<", with: "\\u003c")
        let favicon = frame.favIconURL.map { "<link rel=\"shortcut icon\" href=\"\(HTMLEscaping.escape($0))\">" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, minimum-scale=1, \
            user-scalable=no">
            \(favicon)
            <title>\(HTMLEscaping.escape(frame.fileName))</title>
            <style>
            body{margin:0;padding:0;overflow:hidden;font-family:system-ui,sans-serif}
            #office_frame{width:100%;height:100%;position:absolute;top:0;left:0;right:0;bottom:0;margin:0;border:none;\
            display:block}
            #notice{position:absolute;top:.5rem;left:50%;transform:translateX(-50%);z-index:1;background:#fff8c5;\
            border:1px solid #d4a72c;padding:.5rem 1rem;border-radius:.4rem;max-width:90%}
            #versions{position:absolute;top:3rem;right:.5rem;z-index:2;background:#fff;border:1px solid #bbb;\
            padding:.5rem 1rem;border-radius:.4rem;max-height:80%;overflow:auto;max-width:30rem}
            #versions .version{padding:.3rem 0;border-bottom:1px solid #ddd} #versions button{margin-left:.5rem}
            </style></head>
            <body>
            <form id="office_form" name="office_form" target="office_frame" action="\(HTMLEscaping.escape(frame.actionURL))" \
            method="post">
            <input name="access_token" value="\(HTMLEscaping.escape(frame.accessToken))" type="hidden">
            <input name="access_token_ttl" value="\(frame.accessTokenTTL)" type="hidden">
            </form>
            <div id="notice" role="status" hidden></div>
            <div id="versions" role="dialog" aria-label="Versions" hidden></div>
            <span id="frameholder"></span>
            <script type="application/json" id="wopi-config">\(safeJSON)</script>
            <script>\(frameScript)</script>
            </body></html>
            """
    }

    /// The framing and PostMessage logic. Messages are JSON strings `{"MessageId", "SendTime", "Values"}`; any
    /// message from an origin other than the WOPI client's is dropped (and counted, for tests).
    ///
    /// `UI_FileVersions` goes to the versions view; from an editor that says `VersionStates` in `App_LoadingStatus`
    /// (Collabora Online), the page lists the versions in a panel instead, and a restore runs Collabora's handshake:
    /// `Host_VersionRestore` with `Pre_Restore`, then, on `App_VersionRestore` with `Pre_Restore_Ack` (the editor
    /// saved, and reloads the document), the restore posted with the page's editing session.
    var frameScript: String { Self.script }

    static let script = """
        (function () {
          var cfg = JSON.parse(document.getElementById('wopi-config').textContent);
          var host = window.wopiHost = { ignored: 0, received: [], restored: [] };
          var versionStates = false, pendingRestore = null;
          var frame = document.createElement('iframe');
          frame.name = 'office_frame';
          frame.id = 'office_frame';
          frame.title = 'Office frame';
          frame.setAttribute('allowfullscreen', 'true');
          frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups ' +
            'allow-top-navigation allow-popups-to-escape-sandbox allow-downloads allow-modals');
          document.getElementById('frameholder').appendChild(frame);
          document.getElementById('office_form').submit();

          function send(id, values) {
            frame.contentWindow.postMessage(
              JSON.stringify({ MessageId: id, SendTime: Date.now(), Values: values || {} }), cfg.clientOrigin);
          }
          function notice(text, link) {
            var box = document.getElementById('notice');
            box.textContent = text + ' ';
            if (link) {
              var a = document.createElement('a');
              a.href = link; a.textContent = link; a.target = '_blank'; a.rel = 'noopener';
              box.appendChild(a);
            }
            box.hidden = false;
            setTimeout(function () { box.hidden = true; }, 15000);
          }
          function showVersions() {
            fetch(cfg.versionsURL + '?format=json', { credentials: 'same-origin' })
              .then(function (r) { if (!r.ok) { throw new Error('status ' + r.status); } return r.json(); })
              .then(function (versions) {
                var panel = document.getElementById('versions');
                panel.textContent = '';
                var close = document.createElement('button');
                close.type = 'button'; close.textContent = 'Close'; close.id = 'versions-close';
                close.addEventListener('click', function () { panel.hidden = true; });
                panel.appendChild(close);
                versions.forEach(function (v) {
                  var row = document.createElement('div');
                  row.className = 'version'; row.dataset.version = v.id;
                  row.textContent = v.savedAt + ' · ' + (v.savedByName || v.savedBy || 'unknown') + ' · ' + v.path +
                    (v.current ? ' · current' : '');
                  if (!v.current) {
                    var button = document.createElement('button');
                    button.type = 'button'; button.textContent = 'Restore';
                    button.dataset.action = 'restore'; button.dataset.version = v.id;
                    button.addEventListener('click', function () {
                      pendingRestore = v.id;
                      notice('Waiting for the editor to save…');
                      send('Host_VersionRestore', { Status: 'Pre_Restore' });
                    });
                    row.appendChild(button);
                  }
                  panel.appendChild(row);
                });
                panel.hidden = false;
              })
              .catch(function (e) { notice('The versions could not be listed (' + e.message + ').'); });
          }
          function restore(version) {
            var body = new URLSearchParams({ action: 'restore', version: version, session: cfg.session });
            fetch(cfg.versionsURL, { method: 'POST', credentials: 'same-origin', body: body })
              .then(function (r) {
                if (!r.ok) { throw new Error('status ' + r.status); }
                document.getElementById('versions').hidden = true;
                host.restored.push(version);
                notice('The version is restored; the editor reloads the document.');
              })
              .catch(function (e) { notice('The restore failed (' + e.message + ').'); });
          }
          window.addEventListener('message', function (event) {
            if (event.origin !== cfg.clientOrigin) { host.ignored += 1; return; }
            var message;
            try { message = typeof event.data === 'string' ? JSON.parse(event.data) : event.data; } catch (e) { return; }
            if (!message || typeof message.MessageId !== 'string') { return; }
            var values = message.Values || {};
            host.received.push(message.MessageId);
            switch (message.MessageId) {
              case 'App_LoadingStatus':
                if (values.Features && values.Features.VersionStates) { versionStates = true; }
                send('Host_PostmessageReady');
                break;
              case 'UI_Close': window.location.assign(cfg.closeURL); break;
              case 'UI_Edit': if (cfg.editURL) { window.location.assign(cfg.editURL); } break;
              case 'UI_Sharing': case 'UI_Share': notice('Share this link with people who have access:', cfg.shareURL); break;
              case 'UI_FileVersions':
                if (cfg.versionsURL && versionStates && cfg.session) { showVersions(); }
                else if (cfg.versionsURL) { window.location.assign(cfg.versionsURL); }
                else if (cfg.downloadURL) { notice('This host keeps only the current version. Download it:', cfg.downloadURL); }
                break;
              case 'App_VersionRestore':
                if (values.Status === 'Pre_Restore_Ack' && pendingRestore) { restore(pendingRestore); }
                pendingRestore = null;
                break;
              case 'File_Rename': if (values.NewName) { document.title = values.NewName; } break;
              case 'Edit_Notification': notice('Someone else is editing this document; your changes are merged.'); break;
            }
          });
        })();
        """

    /// The file list of a container, with open links, the new-document form and the sign-out button.
    func files(_ page: FileListPage) -> String {
        let rows = page.rows.map { row in
            "<li>\(HTMLEscaping.escape(row.name))<span class=\"actions\">"
                + row.links.map { "<a href=\"\(HTMLEscaping.escape($0.url))\">\(HTMLEscaping.escape($0.title))</a>" }
                .joined() + "</span></li>"
        }
        let up = page.parentURL.map { "<p><a href=\"\(HTMLEscaping.escape($0))\">↑ Up</a></p>" } ?? ""
        let create =
            page.newDocumentContainer.map { container in
                """
                <form class="inline" method="post" action="/new">
                <input type="hidden" name="container" value="\(HTMLEscaping.escape(container))">
                <label for="type">New</label>
                <select id="type" name="type"><option value="docx">Word document</option>\
                <option value="xlsx">Excel workbook</option><option value="pptx">PowerPoint presentation</option></select>
                <button type="submit" id="create">Create</button>
                </form>
                """
            } ?? ""
        let templateOptions = page.templates.map {
            "<option value=\"\(HTMLEscaping.escape($0.id))\">\(HTMLEscaping.escape($0.name))</option>"
        }
        let fromTemplate =
            page.templates.isEmpty
            ? ""
            : page.newDocumentContainer.map { container in
                """
                <form class="inline" method="post" action="/new">
                <input type="hidden" name="container" value="\(HTMLEscaping.escape(container))">
                <label for="template">From template</label>
                <select id="template" name="template">\(templateOptions.joined())</select>
                <button type="submit" id="create-from-template">Create</button>
                </form>
                """
            } ?? ""
        return Self.page(
            title: "Files",
            """
            <h1>\(HTMLEscaping.escape(page.containerName))</h1>
            <form class="inline" method="post" action="/signout">
            <span>Signed in as \(HTMLEscaping.escape(page.userName)).</span>
            <button type="submit" id="signout">Sign out</button>
            </form>
            \(up)
            <ul id="files">\(rows.joined(separator: "\n"))</ul>
            \(create)
            \(fromTemplate)
            """)
    }

    /// A file's versions, newest first, each with its download and, for a user who may change the file, a restore
    /// form and a keep or release form (all posting `action` and `version` to ``VersionListPage/formURL``).
    func versions(_ page: VersionListPage) -> String {
        let rows = page.rows.map { row in
            let version = row.version
            let how =
                [version.save.path.rawValue]
                + (version.save.isAutosave ? ["autosave"] : []) + (version.save.isExitSave ? ["on close"] : [])
            var actions =
                row.openURL.map { "<a href=\"\(HTMLEscaping.escape($0))\" data-action=\"open\">Open</a>" } ?? ""
            actions += "<a href=\"\(HTMLEscaping.escape(row.downloadURL))\" data-action=\"download\">Download</a>"
            if page.canChange {
                if !version.isCurrent { actions += Self.versionForm(page, version, action: "restore", "Restore") }
                actions += Self.versionForm(
                    page, version, action: version.isKept ? "release" : "keep", version.isKept ? "Release" : "Keep")
            }
            return """
                <tr data-version="\(HTMLEscaping.escape(version.id))">\
                <td>\(version.isCurrent ? "Current" : "")\(version.isKept ? " Kept" : "")</td>\
                <td>\(HTMLEscaping.escape(version.savedAt.formatted(.iso8601)))</td>\
                <td>\(HTMLEscaping.escape(row.savedBy ?? "unknown"))</td>\
                <td>\(HTMLEscaping.escape(how.joined(separator: ", ")))</td>\
                <td>\(ByteCountFormatter.string(fromByteCount: version.size, countStyle: .file))</td>\
                <td class="actions">\(actions)</td></tr>
                """
        }
        return Self.page(
            title: "Versions of \(page.fileName)",
            """
            <h1>Versions of \(HTMLEscaping.escape(page.fileName))</h1>
            <p><a href="\(HTMLEscaping.escape(page.filesURL))">↑ Back to the folder</a></p>
            <table id="versions"><thead><tr><th></th><th>Saved</th><th>By</th><th>How</th><th>Size</th><th></th></tr>\
            </thead><tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            """)
    }

    /// A one-button form that posts `action` for `version`.
    static func versionForm(_ page: VersionListPage, _ version: FileVersion, action: String, _ title: String)
        -> String
    {
        """
        <form class="inline" method="post" action="\(HTMLEscaping.escape(page.formURL))">\
        <input type="hidden" name="version" value="\(HTMLEscaping.escape(version.id))">\
        <button type="submit" name="action" value="\(action)" data-action="\(action)" \
        data-version="\(HTMLEscaping.escape(version.id))">\(title)</button></form>
        """
    }
}
