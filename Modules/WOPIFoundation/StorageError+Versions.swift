extension StorageError {
    /// Version `version` of file `id` is not stored (never was, or was removed).
    public static func versionNotFound(_ version: String, of id: ItemID) -> StorageError {
        StorageError(
            .notFound, "File \(id) has no version \(version) (it was never saved, or was removed); list its versions.")
    }

    /// Version `version` is file `id`'s current content, which cannot be deleted.
    public static func currentVersionKept(_ version: String, of id: ItemID) -> StorageError {
        StorageError(
            .unsupported,
            "Version \(version) is the current content of file \(id); restore another version before deleting it.")
    }
}
