// The vocabulary of the storage protocol's signatures (ItemID, ByteStream, StorageError) lives in WOPIFoundation;
// a backend that imports WOPIStorage sees it without a second import.
@_exported public import WOPIFoundation
