package import NIOCore
package import WOPIModels

extension ChildFile {
    /// This entry of an EnumerateChildren answer written after what `buffer` holds, byte for byte what
    /// `WOPIJSON.encoder` writes for it (``JSONObjectWriter``): a listing writes a thousand of them.
    ///
    /// Keep one line per `CodingKeys` case, in the order of the wire names' UTF-8 bytes. `DirectJSONWriterTests`
    /// compares the bytes with `JSONEncoder`'s.
    package func json(after buffer: consuming ByteBuffer) -> ByteBuffer {
        var object = JSONObjectWriter(after: consume buffer)
        object.member("LastModifiedTime", lastModifiedTime)
        object.member("Name", name)
        object.member("Size", size)
        object.member("Url", url)
        object.member("Version", version)
        return object.finish()
    }
}

extension NamedURL {
    /// This name and URL written after what `buffer` holds, byte for byte what `WOPIJSON.encoder` writes for it.
    package func json(after buffer: consuming ByteBuffer) -> ByteBuffer {
        var object = JSONObjectWriter(after: consume buffer)
        object.member("Name", name)
        object.member("Url", url)
        return object.finish()
    }
}
