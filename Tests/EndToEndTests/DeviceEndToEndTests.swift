#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
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

    /// The touch calls TouchLogger makes when `bytes` are written into a
    /// FIFO the server reads as its device (with `serverArguments` besides).
    private func touchCalls(whenWriting bytes: [UInt8], serverArguments: [String] = []) throws -> [String] {
        try linesAfterActive(whenWriting: bytes, serverArguments: serverArguments) { $0.hasPrefix("right ended") }
    }

    /// What TouchLogger (started with `appArguments`) prints once active,
    /// up to the line `isLast` picks, when `bytes` are written into a FIFO
    /// the server reads as its device. The whole recording arrives at once,
    /// so the application takes every frame as it comes
    /// (`OPENUIKIT_UNBUFFERED_TOUCHES`), for a call per scan to compare,
    /// rather than the moves of a refresh as one.
    private func linesAfterActive(
        whenWriting bytes: [UInt8], serverArguments: [String] = [], appArguments: [String] = [], until isLast: (String) -> Bool
    ) throws -> [String] {
        let fifo = makeTemporaryDirectory() + "/device"
        expectEqual(mkfifo(fifo, 0o600), 0)
        let (server, socket) = try startServer(["--device", fifo] + serverArguments)
        let app = try startApplication("device", socket: socket, appArguments, environment: ["OPENUIKIT_UNBUFFERED_TOUCHES": "1"])
        let writer = open(fifo, O_WRONLY)
        #expect(writer >= 0)
        bytes.withUnsafeBytes { _ = write(writer, $0.baseAddress, $0.count) }
        close(writer)
        app.waitForLine(isLast)
        let lines = Array(app.lines.drop { $0 != "didBecomeActive" }.dropFirst())
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        return lines
    }

    // A touch screen often reports a finger lifting in the same scan as the
    // other finger's move: here finger B lifts in the scan where A makes its
    // last 10 pt move up. UIKit's pan re-bases its centroid on the finger
    // that remains, so the scroll goes on by that move instead of jumping
    // back (it went 10 … 80, then 65, when the translation followed the
    // lifted finger).
    @Test func aTwoFingerScrollWhoseFingerLiftsAsTheOtherMovesDoesNotJumpBack() throws {
        let text = try #require(readFile(Self.recording("two-finger-scroll.evemu")), "the recording is in the repository")
        // A screen without a safe area, so that the content rests at offset 0.
        let lines = try linesAfterActive(whenWriting: text, serverArguments: ["--safe-area", "0,0,0,0"], appArguments: ["--scroll"]) {
            $0 == "end dragging"
        }
        let offsets = lines.prefix { $0 != "end dragging" }.compactMap { line in
            line.hasPrefix("offset ") ? Double(line.dropFirst("offset ".count)) : nil
        }
        // Both fingers move up 10 pt a scan; B joins one scan after A, so
        // the centroid moves 5 pt in that scan. The pan begins 15 pt in
        // (past its 10 pt), and the content follows from there.
        expectEqual(offsets, [10, 20, 30, 40, 50, 60, 70, 80])
    }

    @Test func anEvemuRecordingOfTwoFingersDrivesTheApplication() throws {
        let text = try #require(readFile(Self.recording("two-finger-gesture.evemu")), "the recording is in the repository")
        // Finger 1 lands at (100, 200) on the left, finger 2 at (300, 600) on the right;
        // both move; the first lifts, then the second.
        try expectEqual(touchCalls(whenWriting: text), Self.twoFingerGestureCalls)
    }

    static let twoFingerGestureCalls = [
        "left began 1 (100,200)",
        "right began 1 (300,600)",
        "left moved 1 (110,200)",
        "right moved 1 (290,600)",
        "left moved 1 (110,210)",
        "left ended 1 (110,210)",
        "right ended 1 (290,600)",
    ]

    /// Bare `input_event` records carry no axis ranges: `--device-header`
    /// gives them the ranges of an evemu recording's header. The same
    /// gesture as above, as the kernel's binary records, lands at the same
    /// points; without the header its raw values would be taken as points.
    @Test func bareRecordsTakeTheirAxisRangesFromADeviceHeader() throws {
        let header = Self.recording("two-finger-gesture.evemu")
        let text = try #require(readFile(header), "the recording is in the repository")
        let records = Self.inputEventRecords(fromEvemu: String(decoding: text, as: UTF8.self))
        expectEqual(records.count, 24 * 33, "the recording's 33 E: lines")
        try expectEqual(touchCalls(whenWriting: records, serverArguments: ["--device-header", header]), Self.twoFingerGestureCalls)
    }

    @Test func aDeviceHeaderThatIsNotOneStopsTheServerWithItsMessage() throws {
        let directory = makeTemporaryDirectory()
        let notAHeader = directory + "/empty.evemu"
        let file = try #require(fopen(notAHeader, "w"))
        fputs("# nothing here\n", file)
        fclose(file)
        let socket = directory + "/server.sock"
        let server = try ChildProcess("openuikit-server", ["--socket", socket, "--device", notAHeader, "--device-header", notAHeader])
        expectEqual(server.waitForExit(), 1)
        #expect(server.lines.contains { $0.contains("no evemu device header") })
        #expect(access(socket, F_OK) != 0)
    }

    /// The `E:` lines of an evemu recording as the kernel's 24-byte
    /// `struct input_event` records (x86-64: seconds, microseconds, type,
    /// code, value).
    static func inputEventRecords(fromEvemu text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.dropFirst(3).split { $0 == " " || $0 == "\t" }  // a comment may follow a tab
            let time = fields[0].split(separator: ".")
            func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
            append(Int64(time[0])!)
            append(Int64(time[1])!)
            append(UInt16(fields[1], radix: 16)!)
            append(UInt16(fields[2], radix: 16)!)
            append(Int32(fields[3])!)
        }
        return bytes
    }

    @Test func aDeviceThatCannotBeOpenedIsReportedAndTheServerDoesNotStart() throws {
        let socket = makeTemporaryDirectory() + "/server.sock"
        let server = try ChildProcess("openuikit-server", ["--socket", socket, "--device", "/nonexistent/event7"])
        expectEqual(server.waitForExit(), 1)
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
