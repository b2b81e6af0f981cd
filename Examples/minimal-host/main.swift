import Foundation
import WOPIDeployment

// A complete WOPI host: WOPI, the CSPP bootstrapper, OAuth sign-in for Office, share links, and the stores in one
// SQLite file below the folder given as the first argument (default ./data).
let folder = CommandLine.arguments.dropFirst().first ?? "data"
let directory = URL(fileURLWithPath: folder, isDirectory: true)
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let stores = try DeploymentStores.sqlite(directory: directory)
// Your own parts plug in here, the rest stays as it is, for example:
//   stores.users = MyUserDirectory(ldap: ldap)      (make `stores` a var)
//   WOPIDeployment(stores: stores, configuration: configuration, policy: MyAccessPolicy(),
//                  decorators: [MyBranding()], changeGuards: [MyQuota()])

var configuration = WOPIDeployment.Configuration()
configuration.port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "8080") ?? 8080
configuration.publicURL = ProcessInfo.processInfo.environment["PUBLIC_URL"]  // https://… behind your TLS proxy

let deployment = try await WOPIDeployment(stores: stores, configuration: configuration)
try await deployment.run { url in FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8)) }
