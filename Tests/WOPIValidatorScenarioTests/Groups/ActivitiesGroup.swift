import Foundation

extension ValidatorGroup {
    /// `AddActivities`: comments with minimal and full data, odd IDs, long IDs, other content actions, unknown
    /// properties at every level, people, unknown activity types and several activities in one request. Each
    /// activity must be answered with its `Id` and a `Status` of 0 (stored) or 3 (type not supported); an
    /// unknown type must get 3.
    static let addActivities = ValidatorGroup(
        name: "AddActivities",
        prerequisites: [Prerequisite.wopiValidator, Prerequisite.fileEditing, Prerequisite.addActivities],
        cases: [
            single(
                "files.AddActivitiesSingleMinimalComment",
                A(id(0x14), timestamp: ("Timestamp", "2017-03-15T13:47:13000000Z"))),
            single(
                "files.AddActivitiesSingleFullComment",
                A(
                    id(0x01),
                    data: [
                        "CommentText": "basic text", "ContentId": "cid123", "NavigationId": "nid123",
                        "ContentAction": "created", "IsReply": true,
                    ])),
            single("files.AddActivitiesAllCapsID", A("00000002-ABCD-ABCD-ABCD-ABCDEFABCDEF")),
            single(
                "files.AddActivitiesMaxLengthContentID",
                A(id(0x04), data: ["ContentId": longIdentifier, "ContentAction": "created"])),
            single(
                "files.AddActivitiesMaxLengthNavigationId",
                A(id(0x05), data: ["ContentId": "cid123", "NavigationId": longIdentifier, "ContentAction": "created"])),
            single(
                "files.AddActivitiesCommentUpdate",
                A(id(0x06), data: ["ContentId": "cid123", "ContentAction": "updated"])
            ),
            single(
                "files.AddActivitiesCommentDelete",
                A(id(0x07), data: ["ContentId": "cid123", "ContentAction": "deleted"])
            ),
            single(
                "files.AddActivitiesWithBonusToplevelProperty",
                A(id(0x08), extra: ["BonusTopLevelProperty": bonusValue])),
            single(
                "files.AddActivitiesWithBonusDataProperty",
                A(id(0x03), data: ["ContentId": "cid123", "ContentAction": "created", "BonusProperty": bonusValue])),
            single("files.AddActivitiesCommentAndPerson", A(id(0x09), people: [john])),
            single(
                "files.AddActivitiesCommentWithThreePeople",
                A(
                    id(0x0a),
                    people: [
                        john,
                        ["Name": "Jane Baker", "Id": "222", "Provider": "wopi-contoso", "InThread": true],
                        [
                            "Name": "Pat Charlie", "Id": "333", "Provider": "wopi-contoso", "InThread": true,
                            "RepliedTo": true,
                        ],
                    ])),
            single(
                "files.AddActivitiesCommentWithPersonBonusProperty",
                A(id(0x0b), people: [john.merging(["BonusProperty": bonusValue]) { $1 }])),
            single(
                "files.AddActivitiesCommentWithNonWopiPerson",
                A(
                    id(0x0c),
                    people: [
                        [
                            "Name": "Don Delta", "Id": "{00000000-0000-0000-0000-000000000000}",
                            "Provider": "Windows Live", "Mentioned": true,
                        ]
                    ])),
            single("files.AddActivitiesUnknownActivityType", A(id(0x0d), type: "unsupported"), status: [3]),
            single("files.AddActivitiesUnknownNoDataActivity", A(id(0x0e), type: "unsupported", data: nil)),
            ValidatorCase("files.AddActivitiesTwoActivitiesOneUnknown") { run in
                let comment = id(0x0f)
                let unknown = id(0x10)
                // The host may answer in any order.
                let ids: [JSONRule] = [
                    .string("ActivityResponses[0].Id", required: true, equals: comment),
                    .string("ActivityResponses[1].Id", required: true, equals: unknown),
                ]
                let swapped: [JSONRule] = [
                    .string("ActivityResponses[0].Id", required: true, equals: unknown),
                    .string("ActivityResponses[1].Id", required: true, equals: comment),
                ]
                try await run.send(
                    .addActivities(json: body([A(comment), A(unknown, type: "unsupported")])),
                    expect: [.anyOf([.json(ids), .json(swapped)]), status(0), status(1)])
            },
            ValidatorCase("files.AddActivitiesThreeComments") { run in
                // The order is free, so only three answered IDs are checked.
                try await run.send(
                    .addActivities(json: body([A(id(0x11)), A(id(0x12)), A(id(0x13))])),
                    expect: [
                        .json((0..<3).map { .string("ActivityResponses[\($0)].Id", required: true) }),
                        status(0), status(1), status(2),
                    ])
            },
        ])

    /// One activity of a request body, as the validator's cases write it.
    private typealias A = ActivityBody

    /// The validator's activity IDs: a GUID whose first group counts the cases.
    private static func id(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + "-0000-0000-0000-000000000000"
    }

    /// A ContentId / NavigationId of over a thousand characters (the validator repeats `0123456789abcdef`; we send
    /// 64 repetitions).
    private static let longIdentifier = String(repeating: "0123456789abcdef", count: 64)
    private static let bonusValue = "future compatibility!"
    private static let john: [String: any Sendable] = [
        "Name": "John Able", "Id": "111", "Provider": "wopi-contoso", "Mentioned": true,
    ]

    /// A request body `{"Activities": [...]}`.
    private static func body(_ activities: [ActivityBody]) -> String {
        let object: [String: Any] = ["Activities": activities.map(\.object)]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `Status` of the `index`th response: 0 (stored) or 3 (unsupported type), as the validator's `Or` allows.
    /// Stricter than the validator: the status must be present.
    private static func status(_ index: Int, _ allowed: [Int64] = [0, 3]) -> ResponseRule {
        .anyOf(allowed.map { .json([.integer("ActivityResponses[\(index)].Status", required: true, equals: $0)]) })
    }

    /// A case with one activity: its response carries its `Id` and one of `status`.
    private static func single(_ name: String, _ activity: ActivityBody, status allowed: [Int64] = [0, 3])
        -> ValidatorCase
    {
        let json = body([activity])
        return ValidatorCase(name) { run in
            try await run.send(
                .addActivities(json: json),
                expect: [
                    .json([.string("ActivityResponses[0].Id", required: true, equals: activity.id)]),
                    status(0, allowed),
                ])
        }
    }
}

/// One activity of an AddActivities body as the validator's cases build it: `Type`, `Id`, a timestamp (`Created`,
/// once `Timestamp`, both in the validator's malformed `…T13:47:13000000Z`), `Data`, `People` and extra properties.
private struct ActivityBody: Sendable {
    var id: String
    var type: String
    var timestamp: (key: String, value: String)
    var data: [String: any Sendable]?
    var people: [[String: any Sendable]]
    var extra: [String: any Sendable]

    init(
        _ id: String, type: String = "comment",
        timestamp: (key: String, value: String) = ("Created", "2017-02-15T13:47:13000000Z"),
        data: [String: any Sendable]? = ["ContentId": "cid123", "ContentAction": "created"],
        people: [[String: any Sendable]] = [], extra: [String: any Sendable] = [:]
    ) {
        self.id = id
        self.type = type
        self.timestamp = timestamp
        self.data = data
        self.people = people
        self.extra = extra
    }

    /// The activity as a JSON object.
    var object: [String: Any] {
        var object: [String: Any] = ["Type": type, "Id": id, timestamp.key: timestamp.value]
        if let data { object["Data"] = data }
        if !people.isEmpty { object["People"] = people }
        object.merge(extra) { $1 }
        return object
    }
}
