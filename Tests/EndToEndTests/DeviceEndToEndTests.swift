#if canImport(Glibc)
import Glibc
#endif
import HID
import Testing

/// The server reading a touch screen that is not there: an evemu recording
/// of a two-finger gesture written into a FIFO named with --device.
@Suite struct DeviceEndToEndTests {
    /// The recordings the input sources' tests use.
    static func recording(_ name: String) -> String {
        // #filePath is Tests/EndToEndTests/DeviceEndToEndTests.swift.
        var tests = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        tests.removeLast(2)
        return tests.joined(separator: "/") + "/EventServerTests/Recordings/\(name)"
    }

    @Test func anEvemuRecordingOfTwoFingersDrivesTheApplication() throws {
        let directory = makeTemporaryDirectory()
        let fifo = directory + "/touchscreen"
        #expect(mkfifo(fifo, 0o600) == 0)
        let (server, socket) = try startServer(["--device", fifo])
        let app = try startApplication("evemu", socket: socket)

        let text = try #require(readFile(Self.recording("two-finger-gesture.evemu")), "the recording is in the repository")
        let writer = open(fifo, O_WRONLY)
        #expect(writer >= 0)
        text.withUnsafeBytes { _ = write(writer, $0.baseAddress, $0.count) }
        close(writer)

        // Finger 1 lands at (100, 200) on the left, finger 2 at (300, 600) on the right;
        // both move; the first lifts, then the second.
        app.waitForLine { $0.hasPrefix("right ended") }
        let touches = Array(app.lines.drop { $0 != "didBecomeActive" }.dropFirst())
        #expect(touches == [
            "left began 1 (100,200)",
            "right began 1 (300,600)",
            "left moved 1 (110,200)",
            "right moved 1 (290,600)",
            "left moved 1 (110,210)",
            "left ended 1 (110,210)",
            "right ended 1 (290,600)",
        ])
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    @Test func aDeviceThatCannotBeOpenedIsReportedAndTheServerDoesNotStart() throws {
        let socket = makeTemporaryDirectory() + "/server.sock"
        let server = try ChildProcess("openuikit-server", ["--socket", socket, "--device", "/nonexistent/event7"])
        #expect(server.waitForExit() == 1)
        #expect(server.lines.contains { $0.contains("/nonexistent/event7") })
        #expect(access(socket, F_OK) != 0)
    }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}
