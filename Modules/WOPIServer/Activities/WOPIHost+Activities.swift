import Foundation
import Logging
import NIOCore
import WOPIHTTPEdge
import WOPIModels
import WOPIStorage

extension WOPIHost {
    /// The largest AddActivities body read.
    static let maximumActivitiesBody = 1 << 20

    /// AddActivities: parses the comments and mentions, shows the supported ones to the policy
    /// (``ContentChange/addActivities(_:_:)``), stores them in ``activities``, and answers one status per activity.
    /// A type other than `comment` or `mention` gets ``ActivityResponse/Status/unsupported``; a policy veto or a
    /// store failure gets ``ActivityResponse/Status/failed`` with the reason.
    func addActivities(_ id: ItemID, request: WOPIRequest, context: RequestContext) async throws -> WOPIResponse {
        let file = try await storage.file(id)
        let body = try await request.body.collect(upTo: Self.maximumActivitiesBody)
        let parsed: [FileActivity]
        do {
            parsed = try FileActivity.parseRequest(Data(body.readableBytesView))
        } catch {
            throw WOPIHTTPError.badRequest(error.message)
        }
        let supported = parsed.filter { FileActivity.supportedTypes.contains($0.type) }
        var failure: String?
        if !supported.isEmpty {
            do {
                try await check(.addActivities(file, supported), context: context)
                try await activities.append(supported, on: id, by: context.user.id, at: now())
            } catch let veto as ContentVeto {
                failure = veto.message
            } catch {
                logger.error("AddActivities could not store", metadata: ["file": "\(id)", "error": "\(error)"])
                failure = "The host could not store the activity; try again."
            }
        }
        let responses = parsed.map { activity in
            guard FileActivity.supportedTypes.contains(activity.type) else {
                return ActivityResponse(
                    id: activity.id, status: .unsupported, message: "Activity type \(activity.type) is not supported.")
            }
            return failure.map { ActivityResponse(id: activity.id, status: .failed, message: $0) }
                ?? ActivityResponse(id: activity.id, status: .success)
        }
        return try .json(AddActivitiesResponse(activityResponses: responses))
    }
}
