import ArgumentParser
import HID

/// `openuikit`: runs OpenUIKit's event path and shows what happens.
///
/// Each subcommand is a `ParsableCommand` in a file of its own. To add one,
/// write its type beside the others and list it in `subcommands` below;
/// ArgumentParser then gives it `openuikit help <name>`, `--help` and the
/// error messages for bad arguments.
public struct OpenUIKitCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "openuikit",
        abstract: "Runs OpenUIKit's event path on demo hierarchies and prints what happens, step by step.",
        subcommands: [
            DemoCommand.self,
            TraceCommand.self,
            InspectCommand.self,
            ScrollCommand.self,
            AppsCommand.self,
            SwitchCommand.self,
            RecordCommand.self,
            ReplayCommand.self,
            RenderCommand.self,
        ]
    )

    public init() {}
}

/// `--socket PATH`, shared by every subcommand that talks to the event server.
struct ServerSocketOption: ParsableArguments {
    @Option(help: ArgumentHelp("The event server's socket.", valueName: "path"))
    var socket: String = ServerProtocol.defaultSocketPath()
}
