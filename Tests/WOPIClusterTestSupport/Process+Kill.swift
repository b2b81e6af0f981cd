import Foundation
import Glibc
import WOPITestSupport

extension Process {
    /// Kills a server a test started in the foreground (nginx, Prometheus) with SIGKILL, waits until it has exited
    /// and stops tracking it: such a child keeps nothing a test needs, and one started from a test process may
    /// ignore SIGTERM (it inherits the runner's signal mask).
    package func killAndWait() async {
        if isRunning { Glibc.kill(processIdentifier, SIGKILL) }
        _ = try? await Polling.until { !isRunning }
        ChildProcesses.unregister(processIdentifier)
    }
}
