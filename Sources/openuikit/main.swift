import UIKit

/// `openuikit`: runs OpenUIKit's event path and shows what happens.
let usage = """
    usage: openuikit <command>

    commands:
      trace    build the traced hierarchy of the seed article (scenario B), tap
               it at (56.67, 167), and print every hit-test call and touch
               delivery in order
      help     show this text
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "trace":
    print(TraceCommand.run(), terminator: "")
case nil, "help", "--help", "-h":
    print(usage)
default:
    FileHandle.standardError.write(Data("openuikit: unknown command '\(arguments[0])'\n\n\(usage)\n".utf8))
    exit(64)
}
