#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// `openuikit record` and `openuikit replay` against a server process.
@Suite struct RecordReplayEndToEndTests {
    @Test func whatIsRecordedReplaysIntoAnApplication() throws {
        let file = makeTemporaryDirectory() + "/tap.hidrec"
        do {
            let (server, socket) = try startServer()
            let app = try startApplication("recorded", socket: socket)
            let recorder = try ChildProcess("openuikit", ["record", file, "--count", "3", "--socket", socket])
            server.waitForLine { $0.contains("recorder \"openuikit record\"") && $0.contains("connected") }
            let injector = try Injector(serverPath: socket)
            try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 100, y: 100)])
            try injector.send([DigitizerContact(identifier: 1, phase: .moved, x: 110, y: 120)])
            try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 110, y: 120)])
            app.waitFor("left ended 1 (110,120)")
            expectEqual(recorder.waitForExit(), 0)
            expectEqual(recorder.lines, ["recorded 3 events to \(file) (3 events)"])
            server.signal(SIGTERM)
            expectEqual(server.waitForExit(), 0)
        }
        let (events, error) = HIDRecording.decode(try #require(readFile(file)))
        #expect(error == nil)
        expectEqual(events.count, 3)

        let (server, socket) = try startServer()
        let app = try startApplication("replayed", socket: socket)
        let replay = try ChildProcess("openuikit", ["replay", file, "--as-fast-as-possible", "--socket", socket])
        expectEqual(replay.waitForExit(), 0)
        expectEqual(replay.lines, ["played 3 events from \(file)"])
        app.waitFor("left ended 1 (110,120)")
        #expect(Array(app.lines.drop { $0 != "didBecomeActive" }.dropFirst()) == [
            "left began 1 (100,100)", "left moved 1 (110,120)", "left ended 1 (110,120)",
        ])
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func aDamagedRecordingPlaysUpToTheDamageAndSaysWhere() throws {
        let events = [DigitizerContact.Phase.began, .ended].map { phase in
            HIDEvent.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 1, phase: phase, x: 300, y: 300)]))
        }
        var bytes = HIDRecording.encode(events + [events[1]])
        bytes.removeLast(5)  // the third record is cut short
        let file = makeTemporaryDirectory() + "/cut.hidrec"
        let writer = open(file, O_WRONLY | O_CREAT, 0o600)
        bytes.withUnsafeBytes { _ = write(writer, $0.baseAddress, $0.count) }
        close(writer)

        let (server, socket) = try startServer()
        let app = try startApplication("damaged", socket: socket)
        let replay = try ChildProcess("openuikit", ["replay", file, "--socket", socket])
        expectEqual(replay.waitForExit(), 1)
        #expect(replay.lines.contains("played 2 events from \(file)"))
        #expect(replay.lines.contains { $0.hasPrefix("openuikit replay: \(file): ") && $0.contains("record 2") })
        app.waitFor("right ended 1 (300,300)")
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func replayWithoutAServerSaysHowToStartOne() throws {
        let socket = makeTemporaryDirectory() + "/none.sock"
        let replay = try ChildProcess("openuikit", ["replay", "/dev/null", "--socket", socket])
        #expect(replay.waitForExit() != 0)
        #expect(replay.lines.contains { $0.contains("no event server is listening at \(socket); start one with `openuikit-server`") })
    }
}
