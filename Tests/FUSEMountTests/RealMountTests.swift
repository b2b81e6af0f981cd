import Testing

/// Every test that mounts for real, run one after the other.
///
/// Serialized on purpose: all mounts live in this one test process, and every `fork`/`exec` (the shell tools
/// the tests run) closes inherited descriptors, which makes FUSE flush files that another test holds open. Run
/// in parallel, a test that hangs its backend would slow down the shell tools of the others.
// Enabled only where /dev/fuse exists and mounting is permitted; FUSEAvailability prints the reason otherwise.
@Suite(
    .serialized,
    .enabled(if: FUSEAvailability.isAvailable, "needs /dev/fuse and permission to mount (see the printed reason)"))
enum RealMountTests {}
