import Foundation

/// Whether this machine can run the real-mount tests, and if not, why.
enum FUSEAvailability {
    /// Why real mounts cannot be tested here, or `nil` when they can.
    static let unavailableReason: String? = {
        let reason: String?
        if access("/dev/fuse", R_OK | W_OK) != 0 {
            reason = "/dev/fuse is missing or not accessible (\(String(cString: strerror(errno))))"
        } else if geteuid() != 0 && access("/usr/bin/fusermount3", X_OK) != 0 {
            reason = "not root and /usr/bin/fusermount3 is missing, so mounting is not permitted"
        } else {
            reason = nil
        }
        if let reason {
            print("⚠️ FUSEMountTests: REAL-MOUNT TESTS ARE DISABLED: \(reason). Only unit tests ran.")
        }
        return reason
    }()

    /// `true` when real mounts can be tested.
    static var isAvailable: Bool { unavailableReason == nil }
}
