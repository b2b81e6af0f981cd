@main
struct WOPICommand {
    static func main() {}
}
