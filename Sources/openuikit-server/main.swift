import ArgumentParser
import EventServer

/// The event server: owns the input devices and feeds the foreground
/// application (backboardd's role).
@main
struct OpenUIKitServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openuikit-server",
        abstract: "The event server: reads input devices and sends their events to the foreground application."
    )

    @Option(help: "The Unix-domain socket to listen on.")
    var socket: String?

    @Option(help: "An input device: an evdev node, a file or FIFO of input_event records, or an evemu recording. Repeatable.")
    var device: [String] = []

    func run() throws {
        throw ValidationError("the event server is being built; it does not serve yet")
    }
}
