import Crypto

/// The hex MD5 of `text`: a single-part object's entity tag.
func md5Hex(_ text: String) -> String {
    Hex.string(Insecure.MD5.hash(data: Array(text.utf8)))
}
