import HTTPTypes
import WOPIModels

extension WOPIClient {
    /// The ``WOPIClientError`` for a non-2xx answer to `call`.
    func error(for response: WOPITransportResponse, call: Call) async -> WOPIClientError {
        await error(
            for: response, what: "\(call.name) on \(call.resource.kind) \(call.resource.id ?? "")",
            renewable: canRenew(call.resource))
    }

    /// The ``WOPIClientError`` for a non-2xx answer; `what` names the call, `renewable` says whether a new
    /// token could have been fetched.
    func error(for response: WOPITransportResponse, what: String, renewable: Bool) async -> WOPIClientError {
        let status = response.status.code
        let headers = response.headers
        func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }
        let serverError = header(WOPIHeader.serverError)
        let valid = header(WOPIHeader.validRelativeTarget).map(UTF7.decodeLeniently)
        await Self.discard(response.body)
        switch status {
        case 401:
            return WOPIClientError(
                .unauthorized,
                "\(what): the access token is invalid or expired"
                    + (renewable
                        ? " and the bootstrapper gave none that works; sign in again."
                        : "; get a new one (sign in, or GetNewAccessToken)."),
                status: status, serverError: serverError)
        case 404:
            return WOPIClientError(
                .notFound, "\(what): no such item (or it is not visible to this user); it may have been deleted.",
                status: status, serverError: serverError)
        case 409:
            if let mechanism = header(WOPIHeader.conflictingMechanism), header(WOPIHeader.lock) == nil {
                return WOPIClientError(
                    .lockConflict,
                    "\(what): the file is held under another lock mechanism (\(mechanism)); wait until it is "
                        + "released, or join it with that mechanism.", status: status, currentLock: "",
                    lockFailureReason: header(WOPIHeader.lockFailureReason), serverError: serverError)
            }
            if let lock = header(WOPIHeader.lock) {
                let conflict = WOPIClientError.lockConflict(
                    currentLock: lock, reason: header(WOPIHeader.lockFailureReason), status: status)
                return WOPIClientError(
                    .lockConflict, "\(what): \(conflict.message)", status: status, currentLock: lock,
                    lockFailureReason: conflict.lockFailureReason, serverError: serverError)
            }
            return WOPIClientError(
                .conflict,
                "\(what): the host refused because of a conflict (a name is taken, or a container is not empty)"
                    + (valid.map { "; the host suggests \"\($0)\"" } ?? "") + ".", status: status,
                validRelativeTarget: valid, serverError: serverError)
        case 400:
            if let reason = header(WOPIHeader.invalidFileNameError) ?? header(WOPIHeader.invalidContainerNameError)
                ?? (valid != nil ? serverError : nil)
            {
                return WOPIClientError(
                    .invalidName,
                    "\(what): the host refuses the name: \(reason)" + (valid.map { " Try \"\($0)\"." } ?? ""),
                    status: status, validRelativeTarget: valid, serverError: serverError)
            }
            return WOPIClientError(
                .badRequest, "\(what): the host says the request is malformed.", status: status,
                serverError: serverError)
        case 412 where header(WOPIHeader.sequenceNumber) != nil:
            var conflict = WOPIClientError(
                .sequenceConflict,
                "\(what): the file changed on the host since it was read here (its sequence number is now "
                    + "\(header(WOPIHeader.sequenceNumber) ?? "")); nothing was written. Download it again, merge, "
                    + "and save again.", status: status, serverError: serverError)
            conflict.currentSequenceNumber = header(WOPIHeader.sequenceNumber).flatMap { Int64($0) }
            return conflict
        case 412:
            return WOPIClientError(
                .preconditionFailed, "\(what): the file is larger than the maximum size asked for.", status: status,
                serverError: serverError)
        case 413:
            return WOPIClientError(
                .tooLarge, "\(what): the content is larger than the host accepts.", status: status,
                serverError: serverError)
        case 501:
            return WOPIClientError(
                .notImplemented, "\(what): the host does not implement this operation.", status: status,
                serverError: serverError)
        default:
            return WOPIClientError(
                .server, "\(what): the host failed (HTTP \(status)); retry later or ask its operator.",
                status: status, serverError: serverError)
        }
    }
}
