import ArgumentParser
import Foundation
import WOPIOAuth

/// `wopi logout`: forgets a place and its tokens.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Forget a place and delete its saved tokens.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let config = ConfigDirectory()
        let place = try config.place(named: options.place)
        try await config.tokenStore.delete(key: place.name)
        var places = try config.loadPlaces()
        places.places[place.name] = nil
        if places.current == place.name { places.current = places.places.keys.sorted().first }
        try config.savePlaces(places)
        var locks = try config.loadLocks()
        locks = locks.filter { !$0.key.hasPrefix(place.name + " ") }
        try config.saveLocks(locks)
        if options.json {
            try Console.json(["loggedOut": place.name])
        } else {
            Console.line("Signed out of \(place.name).")
        }
    }
}
