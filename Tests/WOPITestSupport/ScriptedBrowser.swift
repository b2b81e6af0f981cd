public import Foundation

/// `$BROWSER` scripts for driving `wopi login` without a person: curl plays the browser.
public enum ScriptedBrowser {
    /// Writes an executable script to `url` that loads the sign-in page, submits its form (hidden fields and CSRF
    /// cookie included) with `user` and `password`, and follows the redirect to the loopback listener.
    public static func signingIn(user: String, password: String, at url: URL) throws {
        try write(
            """
            #!/bin/sh
            # A scripted user: load the sign-in page, submit its form with the credentials, follow the redirect.
            jar=$(mktemp)
            page=$(curl -s -c "$jar" "$1") || exit 1
            action=$(printf '%s' "$1" | sed 's/?.*//')
            set --
            for pair in $(printf '%s' "$page" | grep -o '<input type="hidden" name="[^"]*" value="[^"]*"' \\
                | sed 's/<input type="hidden" name="\\([^"]*\\)" value="\\([^"]*\\)"/\\1=\\2/'); do
              set -- "$@" --data-urlencode "$pair"
            done
            location=$(curl -s -b "$jar" -o /dev/null -w '%{redirect_url}' "$@" \\
                --data-urlencode username=\(user) --data-urlencode password=\(password) "$action")
            rm -f "$jar"
            [ -n "$location" ] || exit 1
            curl -s -o /dev/null "$location"
            """, to: url)
    }

    /// Writes an executable script to `url` that only follows the authorization endpoint's redirect (for servers
    /// that approve without a page).
    public static func followingRedirect(at url: URL) throws {
        try write(
            """
            #!/bin/sh
            # A scripted browser: fetch the authorization page, then follow its redirect to the loopback listener.
            location=$(curl -s -o /dev/null -w '%{redirect_url}' "$1") || exit 1
            [ -n "$location" ] || exit 1
            curl -s -o /dev/null "$location"
            """, to: url)
    }

    /// The `$BROWSER` value that runs the script at `url` through `/bin/sh`.
    ///
    /// Running the file through the shell instead of executing it avoids `ETXTBSY` (exit status 126): while the
    /// test process forks another child, that child briefly holds the script's write descriptor, and executing a
    /// file open for writing fails.
    public static func command(_ url: URL) -> String {
        "/bin/sh '\(url.path)'"
    }

    private static func write(_ script: String, to url: URL) throws {
        try script.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }
}
