public import Foundation

/// One activity of an AddActivities request body (`{"Activities": [...]}`): a comment or a mention that a WOPI
/// client reports on a file (https://learn.microsoft.com/en-us/microsoft-365/cloud-storage-partner-program/rest/files/addactivities).
///
/// The known properties are parsed; ``json`` keeps the activity exactly as sent, unknown properties included, so
/// a host can store it without losing what a newer client adds.
public struct FileActivity: Sendable, Hashable {
    /// `comment`, `mention`, or a type this host may not support.
    public var type: String
    /// The client's ID of the activity, echoed in its response.
    public var id: String
    /// When the activity happened, as the client wrote it.
    public var created: String?
    /// The comment's ID in the document (`Data.ContentId`).
    public var contentID: String?
    /// `created`, `updated`, `deleted`, … (`Data.ContentAction`).
    public var contentAction: String?
    /// The people involved (`People`): mentioned, in the thread, replied to.
    public var people: [Person]
    /// The activity object as sent, compact JSON.
    public var json: String

    /// A person named by an activity.
    public struct Person: Sendable, Hashable {
        /// The display name.
        public var name: String?
        /// The person's ID with their provider (for this host's users, the WOPI user ID).
        public var id: String?
        /// Who issued ``id`` (for example the host's provider name).
        public var provider: String?
        /// Whether the activity mentions the person.
        public var mentioned: Bool
    }

    /// The activity types WOPIKit hosts accept; others are answered with ``ActivityResponse/Status/unsupported``.
    public static let supportedTypes: Set<String> = ["comment", "mention"]

    /// Parses an AddActivities body: 400-worthy ``WOPIFormatError`` when it is not `{"Activities": [objects]}` or an
    /// activity lacks `Id` or `Type`.
    public static func parseRequest(_ body: Data) throws(WOPIFormatError) -> [FileActivity] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let list = object["Activities"] as? [Any]
        else { throw WOPIFormatError(.malformed, format: "AddActivities", "The body must be {\"Activities\": [...]}.") }
        var activities: [FileActivity] = []
        for entry in list {
            guard let activity = entry as? [String: Any], let id = activity["Id"] as? String,
                let type = activity["Type"] as? String
            else {
                throw WOPIFormatError(
                    .missingField, format: "AddActivities", "Each activity needs a string Id and Type.")
            }
            let data = activity["Data"] as? [String: Any]
            let people = (activity["People"] as? [[String: Any]] ?? []).map { person in
                Person(
                    name: person["Name"] as? String, id: person["Id"] as? String,
                    provider: person["Provider"] as? String, mentioned: person["Mentioned"] as? Bool ?? false)
            }
            guard let json = try? JSONSerialization.data(withJSONObject: activity, options: [.sortedKeys]) else {
                throw WOPIFormatError(
                    .invalidValue, format: "AddActivities", "An activity could not be read back as JSON.")
            }
            activities.append(
                FileActivity(
                    type: type, id: id, created: activity["Created"] as? String,
                    contentID: data?["ContentId"] as? String, contentAction: data?["ContentAction"] as? String,
                    people: people, json: String(decoding: json, as: UTF8.self)))
        }
        return activities
    }
}

/// The body of AddActivities: one response per activity, in the order received.
public struct AddActivitiesResponse: Codable, Sendable, Hashable {
    /// The responses.
    public var activityResponses: [ActivityResponse]
    /// Creates a body.
    public init(activityResponses: [ActivityResponse]) { self.activityResponses = activityResponses }
    enum CodingKeys: String, CodingKey { case activityResponses = "ActivityResponses" }
}

/// What became of one activity.
public struct ActivityResponse: Codable, Sendable, Hashable {
    /// What became of an activity. WOPI's validator accepts 0 and, for a type the host does not support, 3.
    public enum Status: Int, Codable, Sendable, Hashable {
        /// Stored.
        case success = 0
        /// Not stored: the host failed or its policy refused it (``ActivityResponse/message`` says why).
        case failed = 1
        /// Not stored: the host does not support this activity type.
        case unsupported = 3
    }

    /// The activity's ID, as sent.
    public var id: String
    /// The outcome.
    public var status: Status
    /// Why, when it failed.
    public var message: String?

    /// Creates a response.
    public init(id: String, status: Status, message: String? = nil) {
        self.id = id
        self.status = status
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case id = "Id"
        case status = "Status"
        case message = "Message"
    }
}
