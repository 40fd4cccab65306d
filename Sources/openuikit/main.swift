import UIKit

/// `openuikit`: runs OpenUIKit's event path and shows what happens.
let usage = """
    usage: openuikit <command>

    commands:
      trace    build the traced hierarchy of the seed article (scenario B), tap
               it at (56.67, 167), and print every hit-test call and touch
               delivery in order
      trace tap | trace long-press | trace pan
               run that gesture on a demo card with tap, long-press and pan
               recognizers; print each recognizer state change, action and
               touch delivery with its time
      scroll [drag|fling|paging]
               scroll a demo list of 1,000 rows with a synthetic finger and
               print the content offset at every 60 Hz frame, with the
               scroll view's delegate calls (default: fling)
      help     show this text
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "trace" where arguments.count == 1:
    print(TraceCommand.run(), terminator: "")
case "trace" where GestureTraceCommand.gestures.contains(arguments[1]):
    print(GestureTraceCommand.run(arguments[1]), terminator: "")
case "scroll" where arguments.count == 1:
    print(ScrollCommand.run("fling"), terminator: "")
case "scroll" where ScrollCommand.sessions.contains(arguments[1]):
    print(ScrollCommand.run(arguments[1]), terminator: "")
case nil, "help", "--help", "-h":
    print(usage)
default:
    FileHandle.standardError.write(Data("openuikit: unknown command '\(arguments[0])'\n\n\(usage)\n".utf8))
    exit(64)
}
