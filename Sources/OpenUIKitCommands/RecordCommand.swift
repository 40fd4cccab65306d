#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import EventServer
import HID

/// `openuikit record FILE`: what the event server receives, to a HID recording.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Records every input event the event server receives into a HID recording, until interrupted (Ctrl-C) or the server stops."
    )

    @Argument(help: "The recording to write.")
    var file: String

    @OptionGroup var server: ServerSocketOption

    @Option(help: ArgumentHelp("Stop after this many events.", valueName: "n"))
    var count: Int?

    func run() throws {
        // SIGINT and SIGTERM end the recording between events, not in the middle of a write.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let client = try ServerClient(path: server.socket, role: .recorder, name: "openuikit record")
        let writer = try RecordingWriter(path: file)
        var why = "interrupted"
        recording: while count.map({ writer.eventCount < $0 }) ?? true {
            switch try client.receive(timeout: 0.1) {
            case .event(let event)?: try writer.append(event)
            case .serverStopped?: why = "the server stopped"; break recording
            case nil: break
            }
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 {
                // What the server sent before the interruption is kept.
                while count.map({ writer.eventCount < $0 }) ?? true, case .event(let event)? = try client.receive(timeout: 0) {
                    try writer.append(event)
                }
                break
            }
        }
        if let count, writer.eventCount >= count { why = "\(count) events" }
        print("recorded \(writer.eventCount) events to \(file) (\(why))")
    }
}

/// `openuikit replay FILE`: plays a recording into the event server.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Plays a HID recording (or an evemu recording, or a file of input_event records) into the event server, as input."
    )

    @Argument(help: "The recording to play.")
    var file: String

    // Unconditional, so that `--speed -1` reaches validate() and is refused
    // for what it is, rather than read as a missing value and an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Play this many times faster than recorded (0.5 is half speed).", valueName: "n"))
    var speed: Double = 1

    @Flag(help: "Play every event at once, keeping the recorded intervals in the timestamps.")
    var asFastAsPossible = false

    @Option(help: ArgumentHelp(
        "An evemu recording (or evemu-describe output) of the device a file of bare input_event records came from: its axis ranges scale their positions to the screen. Without it, their positions are screen points.",
        valueName: "path"))
    var deviceHeader: String?

    @OptionGroup var server: ServerSocketOption

    func validate() throws {
        guard HIDReplaySchedule.isValid(speed) else { throw ValidationError("--speed must be a finite number greater than 0, not \(speed)") }
    }

    func run() throws {
        let client = try ServerClient(path: server.socket, role: .injector, name: "openuikit replay")
        var problems = 0
        let device: InputDeviceDescription?
        do {
            device = try deviceHeader.map { try InputDeviceDescription.evemuHeader(atPath: $0) }
        } catch {
            throw ServerCommandError(message: "\(error)")
        }
        let played = try replay(
            path: file, into: client, timing: asFastAsPossible ? .asFastAsPossible : .recorded(speed: speed), device: device
        ) { problem in
            problems += 1
            var text = "openuikit replay: \(problem)\n"
            text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
        print("played \(played) events from \(file)")
        if problems > 0 { throw ExitCode.failure }
    }
}
