import CX11
import Foundation
import TestExpectations
import Testing
@testable import EventServer
import HID

/// A private X server (Xvfb) for one test, on a display number it picks
/// itself (`-displayfd`), without TCP, stopped when the test ends.
final class Xvfb {
    /// Whether Xvfb is installed. Where it is not, the tests that need it
    /// say so loudly; under CI (`CI` set) they fail instead of skipping.
    static let path: String? = (["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"] as [String]).first { access($0, X_OK) == 0 }
    static let isAvailable = path != nil
    static let isCI = ProcessInfo.processInfo.environment["CI"] != nil
    /// Enables the test where Xvfb runs; under CI the test runs anyway and fails in ``start``.
    static let enabled = Testing.ConditionTrait.enabled(
        if: isAvailable || isCI,
        "SKIPPED, NOT PASSED: this test needs an X server and Xvfb is not installed (apt-get install xvfb xdotool x11-apps)"
    )

    let processIdentifier: pid_t
    let name: String
    /// The test's own connection, for reading the window back and sending it events.
    let display: OpaquePointer
    private var isRunning = true

    init(extraArguments: [String] = []) throws {
        guard let path = Self.path else {
            Issue.record("Xvfb is not installed, and CI is set: the X window's tests must run here (apt-get install xvfb xdotool x11-apps)")
            throw XvfbFailure.missing
        }
        // Spawned with the signal mask and dispositions reset: the test
        // process blocks signals in some threads, and an Xvfb inheriting
        // that would ignore the SIGTERM that stops it.
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw XvfbFailure.didNotStart }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [path, "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"] + extraArguments
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        guard status == 0 else { throw XvfbFailure.didNotStart }
        processIdentifier = pid
        // Xvfb writes its display number once it accepts connections.
        var number = ""
        var byte: UInt8 = 0
        while read(pipeEnds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            number.append(Character(UnicodeScalar(byte)))
        }
        name = ":" + number
        guard !number.isEmpty, let display = XOpenDisplay(name) else {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            throw XvfbFailure.didNotStart
        }
        self.display = display
    }

    /// Stops the X server (as a crash would, with SIGKILL, when `abruptly`).
    func stop(abruptly: Bool = false) {
        guard isRunning else { return }
        isRunning = false
        kill(processIdentifier, abruptly ? SIGKILL : SIGTERM)
        waitpid(processIdentifier, nil, 0)
    }

    deinit {
        if isRunning { XCloseDisplay(display) }
        stop()
    }

    /// The window's pixels as the X server holds them, as 0xRRGGBB.
    func pixels(of window: Window, width: Int, height: Int) -> [UInt32] {
        XSync(display, 0)
        guard let image = XGetImage(display, window, 0, 0, UInt32(width), UInt32(height), UInt(~0 as UInt32), ZPixmap) else { return [] }
        defer { openuikit_XDestroyImage(image) }
        var result: [UInt32] = []
        result.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                result.append(UInt32(truncatingIfNeeded: openuikit_XGetPixel(image, Int32(x), Int32(y))) & 0xFF_FFFF)
            }
        }
        return result
    }

    /// Runs xdotool on this display; fails the test when it is missing or fails.
    func xdotool(_ arguments: [String]) throws {
        guard let tool = (["/usr/bin/xdotool", "/usr/local/bin/xdotool"] as [String]).first(where: { access($0, X_OK) == 0 }) else {
            Issue.record("xdotool is not installed (apt-get install xdotool)")
            throw XvfbFailure.missing
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ["DISPLAY": name]
        try process.run()
        process.waitUntilExit()
        expectEqual(process.terminationStatus, 0, "xdotool \(arguments.joined(separator: " ")) failed")
    }

    enum XvfbFailure: Error {
        case missing, didNotStart
    }
}

/// Calls the window's event handling as the server's loop does, until
/// `done` says so or `timeout` seconds pass; returns everything it reported.
func pump(_ output: X11Display, timeout: Double = 5, until done: (DisplayEvents) -> Bool) -> DisplayEvents {
    var all = DisplayEvents()
    let deadline = X11Display.now() + timeout
    while X11Display.now() < deadline {
        if !output.hasPendingEvents { waitReadable(output.fileDescriptor, timeout: 0.05) }
        let events = output.handleEvents()
        all.input += events.input
        all.diagnostics += events.diagnostics
        all.isClosed = all.isClosed || events.isClosed
        if done(all) { break }
    }
    return all
}

/// A frame of `width` × `height` pixels whose colour at each pixel is `color(x, y)` (RGBA bytes).
struct TestFrame {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    init(width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        bytes = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = color(x, y)
                bytes += [red, green, blue, 255]
            }
        }
    }

    func withFrame<Result>(_ body: (DisplayFrame) -> Result) -> Result {
        bytes.withUnsafeBytes { body(DisplayFrame(pixels: $0.baseAddress!, width: width, height: height, stride: width * 4)) }
    }

    /// The same frame in a ring of rows whose top row is memory row
    /// `firstRow`, as an application that turned its buffer commits it.
    func withFrame<Result>(firstRow: Int, _ body: (DisplayFrame) -> Result) -> Result {
        let rowBytes = width * 4
        var ring = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<height {
            let memoryRow = (y + firstRow) % height
            ring[memoryRow * rowBytes..<(memoryRow + 1) * rowBytes] = bytes[y * rowBytes..<(y + 1) * rowBytes]
        }
        return ring.withUnsafeBytes { body(DisplayFrame(pixels: $0.baseAddress!, width: width, height: height, stride: rowBytes, firstRow: firstRow)) }
    }

    /// The average of the `factor` × `factor` box at window pixel (x, y), as 0xRRGGBB, rounded.
    func averaged(x: Int, y: Int, factor: Int) -> UInt32 {
        var sums = [0, 0, 0]
        for sourceY in y * factor..<(y + 1) * factor {
            for sourceX in x * factor..<(x + 1) * factor {
                for channel in 0..<3 { sums[channel] += Int(bytes[(sourceY * width + sourceX) * 4 + channel]) }
            }
        }
        let count = factor * factor
        let channels = sums.map { UInt32(($0 + count / 2) / count) }
        return channels[0] << 16 | channels[1] << 8 | channels[2]
    }
}

extension ServerMessage.PixelRect {
    static func whole(_ width: Int, _ height: Int) -> ServerMessage.PixelRect {
        ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(width), height: UInt32(height))
    }
}

/// A list scrolled frame by frame, as an application's frames show it and
/// as it commits them: a header above the list and a footer below it, in
/// colours of their own, and between them content rows from ``offset`` on,
/// whose pixels depend on the content row and the column only, so that a
/// scroll moves them. Each step is the scroll the application passes and
/// its damage: the rows brought into view, and the header when its colour
/// changed.
struct ScrolledList {
    let width: Int
    let height: Int
    /// The list's frame rows.
    let rows: Range<Int>
    var offset = 0
    var headerShade: UInt8 = 30

    var frame: TestFrame {
        TestFrame(width: width, height: height) { [rows, offset, headerShade] x, y in
            if y < rows.lowerBound { return (headerShade, 90, UInt8(truncatingIfNeeded: x)) }
            if y >= rows.upperBound { return (200, UInt8(truncatingIfNeeded: x * 3), 60) }
            let content = y - rows.lowerBound + offset
            return (UInt8(truncatingIfNeeded: x * 7 + content * 3), UInt8(truncatingIfNeeded: content * 5 + 3), UInt8(truncatingIfNeeded: x * content + 40))
        }
    }

    var listRect: ServerMessage.PixelRect {
        ServerMessage.PixelRect(x: 0, y: UInt32(rows.lowerBound), width: UInt32(width), height: UInt32(rows.count))
    }

    /// Scrolls the content up by `distance` rows (down when negative), and
    /// recolours the header when `header` is given: the commit's scroll
    /// and damage.
    mutating func scroll(by distance: Int, header: UInt8? = nil) -> ServerMessage.FrameCommit {
        offset += distance
        var damage = [distance > 0
            ? ServerMessage.PixelRect(x: 0, y: UInt32(rows.upperBound - distance), width: UInt32(width), height: UInt32(distance))
            : ServerMessage.PixelRect(x: 0, y: UInt32(rows.lowerBound), width: UInt32(width), height: UInt32(-distance))]
        if let header {
            headerShade = header
            damage.append(ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(width), height: UInt32(rows.lowerBound)))
        }
        return ServerMessage.FrameCommit(
            commitIdentifier: 1, bufferIdentifier: 1, scrolls: [.init(rect: listRect, dx: 0, dy: Int32(-distance))], damage: damage)
    }
}
