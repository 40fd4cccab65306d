import CX11
import Foundation
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

    let process: Process
    let name: String
    /// The test's own connection, for reading the window back and sending it events.
    let display: OpaquePointer

    init(extraArguments: [String] = []) throws {
        guard let path = Self.path else {
            Issue.record("Xvfb is not installed, and CI is set: the X window's tests must run here (apt-get install xvfb xdotool x11-apps)")
            throw XvfbFailure.missing
        }
        let output = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"] + extraArguments
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Xvfb writes its display number once it accepts connections.
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw XvfbFailure.didNotStart }
            number += String(decoding: byte, as: UTF8.self)
        }
        name = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let display = XOpenDisplay(name) else { throw XvfbFailure.didNotStart }
        self.display = display
    }

    /// Stops the X server (as a crash would, with SIGKILL when `abruptly`).
    func stop(abruptly: Bool = false) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, abruptly ? SIGKILL : SIGTERM)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { XCloseDisplay(display) }
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
        #expect(process.terminationStatus == 0, "xdotool \(arguments.joined(separator: " ")) failed")
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
