import ArgumentParser
import TestExpectations
import Testing
@testable import OpenUIKitCommands
import HID

/// The tool's command line: what each argument list parses to, and the
/// errors and help that bad or missing arguments get.
@Suite struct CommandParsingTests {
    @Test func traceWithoutAGestureIsTheHitTestTrace() throws {
        let command = try OpenUIKitCommand.parseAsRoot(["trace"])
        let trace = try #require(command as? TraceCommand)
        #expect(trace.gesture == nil)
    }

    @Test(arguments: [("tap", TraceCommand.Gesture.tap), ("long-press", .longPress), ("pan", .pan)])
    func traceTakesAGesture(argument: String, gesture: TraceCommand.Gesture) throws {
        let trace = try #require(try OpenUIKitCommand.parseAsRoot(["trace", argument]) as? TraceCommand)
        expectEqual(trace.gesture, gesture)
    }

    @Test func scrollFlingsByDefault() throws {
        let scroll = try #require(try OpenUIKitCommand.parseAsRoot(["scroll"]) as? ScrollCommand)
        expectEqual(scroll.session, .fling)
    }

    @Test(arguments: [("drag", ScrollCommand.Session.drag), ("fling", .fling), ("paging", .paging)])
    func scrollTakesASession(argument: String, session: ScrollCommand.Session) throws {
        let scroll = try #require(try OpenUIKitCommand.parseAsRoot(["scroll", argument]) as? ScrollCommand)
        expectEqual(scroll.session, session)
    }

    @Test func anUnknownGestureNamesItAndTheChoices() {
        let message = errorMessage(["trace", "wiggle"])
        #expect(message.contains("'wiggle'"))
        for choice in ["tap", "long-press", "pan"] { #expect(message.contains("'\(choice)'")) }
    }

    @Test func anUnknownSessionNamesItAndTheChoices() {
        let message = errorMessage(["scroll", "zoom"])
        #expect(message.contains("'zoom'"))
        for choice in ["drag", "fling", "paging"] { #expect(message.contains("'\(choice)'")) }
    }

    @Test func anUnknownCommandIsNamed() {
        #expect(errorMessage(["render-everything"]).contains("render-everything"))
    }

    @Test func extraArgumentsAreRefused() {
        #expect(errorMessage(["scroll", "drag", "fling"]).contains("'fling'"))
        #expect(errorMessage(["trace", "tap", "--speed", "2"]).contains("--speed"))
    }

    @Test func aReplaySpeedThatIsNotPositiveIsRefusedForWhatItIs() {
        for speed in ["-1", "0", "nan"] {
            #expect(errorMessage(["replay", "in.hid", "--speed", speed]).contains("--speed must be a finite number greater than 0"), "\(speed)")
        }
    }

    @Test func badArgumentsExitWithTheUsageCode() {
        do {
            _ = try OpenUIKitCommand.parseAsRoot(["trace", "wiggle"])
            Issue.record("a bad gesture parsed")
        } catch {
            expectEqual(OpenUIKitCommand.exitCode(for: error), .validationFailure)
            expectEqual(OpenUIKitCommand.exitCode(for: error).rawValue, 64)
        }
    }

    @Test func theRootHelpListsEverySubcommandWithItsAbstract() {
        // The help wraps long abstracts; compare with the wrapping undone.
        let help = OpenUIKitCommand.helpMessage().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for subcommand in OpenUIKitCommand.configuration.subcommands {
            let name = subcommand.configuration.commandName ?? ""
            #expect(help.contains(" \(name) \(subcommand.configuration.abstract)"))
        }
    }

    @Test func eachSubcommandHasHelpOfItsOwn() {
        let trace = OpenUIKitCommand.helpMessage(for: TraceCommand.self)
        #expect(trace.contains("USAGE: openuikit trace [<gesture>]"))
        #expect(trace.contains("tap"))
        #expect(trace.contains("long-press"))
        let scroll = OpenUIKitCommand.helpMessage(for: ScrollCommand.self)
        #expect(scroll.contains("USAGE: openuikit scroll [<session>]"))
        #expect(scroll.contains("default: fling"))
    }

    /// Every subcommand that talks to the event server takes the same
    /// `--socket PATH`, defaulting to where applications look.
    @Test func theServerSubcommandsShareTheSocketOption() throws {
        let apps = try #require(try OpenUIKitCommand.parseAsRoot(["apps"]) as? AppsCommand)
        expectEqual(apps.server.socket, ServerProtocol.defaultSocketPath())
        let switched = try #require(try OpenUIKitCommand.parseAsRoot(["switch", "Maps", "--socket", "/tmp/a.sock"]) as? SwitchCommand)
        #expect(switched.server.socket == "/tmp/a.sock" && switched.name == "Maps")
        let record = try #require(try OpenUIKitCommand.parseAsRoot(["record", "out.hid", "--socket", "/tmp/b.sock"]) as? RecordCommand)
        expectEqual(record.server.socket, "/tmp/b.sock")
        let replay = try #require(try OpenUIKitCommand.parseAsRoot(["replay", "in.hid", "--socket", "/tmp/c.sock"]) as? ReplayCommand)
        expectEqual(replay.server.socket, "/tmp/c.sock")
        for subcommand in [AppsCommand.self, SwitchCommand.self, RecordCommand.self, ReplayCommand.self] as [any ParsableCommand.Type] {
            #expect(OpenUIKitCommand.helpMessage(for: subcommand).contains("--socket <path>"))
        }
    }

    /// An application chooses its name: `openuikit apps` shows its control
    /// characters escaped, so that no name can add rows or reach the terminal.
    @Test func theApplicationsTableEscapesNames() {
        let rows = [ServerMessage.ApplicationStatus(
            clientIdentifier: 1, processIdentifier: 7, name: "Evil\nBank          1  foreground  0\u{1B}]0;pwned\u{7}",
            isForeground: true, isResponding: true, unacknowledgedCount: 0)]
        let table = AppsCommand.table(rows)
        expectEqual(table.split(separator: "\n").count, 2)
        #expect(!table.contains("\u{1B}") && !table.contains("\u{7}"))
        #expect(table.contains("Evil\\nBank          1  foreground  0\\u{1B}]0;pwned\\u{7}  7"))
    }

    private func errorMessage(_ arguments: [String]) -> String {
        do {
            let command = try OpenUIKitCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed as \(command)")
            return ""
        } catch {
            return OpenUIKitCommand.fullMessage(for: error)
        }
    }
}
