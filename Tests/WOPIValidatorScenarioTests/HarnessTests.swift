import Testing

/// Checks of the port's own machinery: the encoder must produce what .NET's `Encoding.UTF7` does, JSON types
/// must stay apart, and the test file must sit inside a folder, or every scenario would test the wrong thing.
struct HarnessTests {
    @Test(arguments: [
        ("madeup_name.wopitestfoox", "madeup+AF8-name.wopitestfoox"),
        ("container_name", "container+AF8-name"),
        ("a+b.docx", "a+-b.docx"),
        ("Résumé 2024.docx", "R+AOk-sum+AOk 2024.docx"),
        ("日本.docx", "+ZeVnLA.docx"),
        ("ValidatorTestFileRenamed", "ValidatorTestFileRenamed"),
        ("end_", "end+AF8-"),
    ])
    func utf7MatchesDotNet(_ text: String, _ expected: String) {
        #expect(DotNetUTF7.encode(text) == expected)
    }

    @Test func targetHeadersTurnSpacesIntoPlus() {
        #expect(DotNetUTF7.encodeForTargetHeader("a b.docx") == "a+b.docx")
    }

    @Test func jsonKeepsBooleansAndNumbersApart() throws {
        let value = try #require(JSONValue.parse(Array(#"{"a":true,"b":1,"c":"true","d":null,"e":[{"f":2}]}"#.utf8)))
        #expect(value.select("a") == .bool(true))
        #expect(value.select("b") == .integer(1))
        #expect(value.select("c") == .string("true"))
        #expect(value.select("e[-1:].f") == .integer(2))
        #expect(value.nullPaths() == ["d"])
        #expect(JSONRule.bool("c", required: true).problem(in: value) != nil)
        #expect(JSONRule.long("a", required: true).problem(in: value) != nil)
    }

    @Test func schemaRejectsCsppPlusPropertiesAndWrongTypes() throws {
        let document = try #require(
            JSONValue.parse(
                Array(
                    #"{"BaseFileName":"a.wopitest","OwnerId":"o","Size":"1","UserId":"u","Version":"v","SharingStatus":"Private","HostViewUrl":"/relative"}"#
                        .utf8)))
        let problems = CSPPSchema.problems(in: document)
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func arrayAndIntegerRulesCanFail() throws {
        let value = try #require(
            JSONValue.parse(Array(#"{"Types":["ReadOnly"],"Text":"ReadOnly","R":[{"Status":3}]}"#.utf8)))
        #expect(JSONRule.array("Types", required: true, contains: "readonly").problem(in: value) == nil)
        #expect(JSONRule.array("Types", required: true, contains: "ReadWrite").problem(in: value) != nil)
        #expect(JSONRule.array("Text", required: true).problem(in: value) != nil)
        #expect(JSONRule.array("Missing", required: true).problem(in: value) != nil)
        #expect(JSONRule.integer("R[0].Status", required: true, equals: 3).problem(in: value) == nil)
        #expect(JSONRule.integer("R[0].Status", required: true, equals: 0).problem(in: value) != nil)
        #expect(JSONRule.integer("R[1].Status", required: true).problem(in: value) != nil)
    }

    /// The validator needs the test file inside a folder (its parent container is the target of the container,
    /// child-file and sharing groups): the root is its first ancestor, `WopiValidator` its last.
    @Test(arguments: ValidatorTarget.Storage.allCases)
    func testFileSitsInAFolder(_ storage: ValidatorTarget.Storage) async throws {
        let names = try await ValidatorTarget.withHost(storage: storage) { target in
            let reply = try await CaseRun(target: target).send(.enumerateAncestors)
            guard case .array(let ancestors)? = reply.json?.select("AncestorsWithRootFirst") else { return [String]() }
            return ancestors.map { $0.select("Name")?.stringValue ?? "" }
        }
        #expect(names.count >= 2, "ancestors: \(names)")
        #expect(names.last == "WopiValidator", "ancestors: \(names)")
    }
}
