#if canImport(Glibc)
import Glibc
#endif
import CPNG
import HID
import TestExpectations
import Testing

/// The screen through the real path: the server process shows the
/// application process's frames, headless, writing each as a PNG file.
/// TouchLogger's left half is red, its right half blue, and a half turns
/// white while a finger is on it.
@Suite struct ScreenEndToEndTests {
    /// A PNG file's pixels, RGBA.
    struct Picture {
        let width: Int
        let height: Int
        let bytes: [UInt8]

        init(path: String) throws {
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_file(&image, path) != 0 else { throw ChildProcessError("cannot read \(path)") }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            let width = Int(image.width), height = Int(image.height)
            self.width = width
            self.height = height
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            let finished = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
            png_image_free(&image)
            guard finished != 0 else { throw ChildProcessError("cannot decode \(path)") }
            self.bytes = bytes
        }

        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            let offset = (y * width + x) * 4
            return Array(bytes[offset..<offset + 4])
        }
    }

    func frames(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("frame-") { names.append(name) }
        }
        return names.sorted()
    }

    /// Waits up to 5 s for at least `count` frames in `directory`.
    func waitForFrames(_ count: Int, in directory: String) -> [String] {
        let deadline = monotonicSeconds() + 5
        while monotonicSeconds() < deadline {
            let names = frames(in: directory)
            if names.count >= count { return names }
            usleep(10_000)
        }
        return frames(in: directory)
    }

    static let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], white: [UInt8] = [255, 255, 255, 255]

    @Test func theServerShowsTheApplicationsFramesAndNoneWhileNothingChanges() throws {
        let directory = makeTemporaryDirectory()
        let (server, socket) = try startServer(["--display", "headless", "--frames", directory, "--screen", "40x20@2"])
        let app = try startApplication("painter", socket: socket, ["--highlight"])
        let first = waitForFrames(1, in: directory)
        try #require(first.count == 1, "the launch's frame; server said \(server.lines)")
        let launch = try Picture(path: "\(directory)/\(first[0])")
        #expect(launch.width == 80 && launch.height == 40)
        expectEqual(launch.pixel(10, 20), Self.red)
        expectEqual(launch.pixel(70, 20), Self.blue)

        // Nothing changes: no frame is made.
        usleep(300_000)
        expectEqual(frames(in: directory).count, 1)

        let injector = try Injector(serverPath: socket)
        try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 30, y: 10)])
        app.waitFor("right began 1 (30,10)")
        let touched = waitForFrames(2, in: directory)
        try #require(touched.count == 2)
        let highlighted = try Picture(path: "\(directory)/\(touched[1])")
        expectEqual(highlighted.pixel(70, 20), Self.white, "the right half under the finger")
        expectEqual(highlighted.pixel(10, 20), Self.red, "the left half kept from the frame before")

        try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 30, y: 10)])
        app.waitFor("right ended 1 (30,10)")
        let lifted = waitForFrames(3, in: directory)
        try #require(lifted.count == 3)
        try expectEqual(Picture(path: "\(directory)/\(lifted[2])").pixel(70, 20), Self.blue)
        usleep(200_000)
        expectEqual(frames(in: directory).count, 3)

        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        expectEqual(app.waitForExit(), 0)
    }

    /// Touch moves reach views once per refresh: five moves that arrive
    /// between two refreshes reach the view as one `touchesMoved`, whose
    /// touch is at the last and whose coalesced touches are all five.
    @Test func movesBetweenTwoRefreshesReachTheViewAsOneMoveWithEverySample() throws {
        let directory = makeTemporaryDirectory()
        let (server, socket) = try startServer(["--display", "headless", "--frames", directory, "--screen", "40x20@1"])
        let app = try startApplication("coalescing", socket: socket, ["--coalesced", "--highlight"])
        try #require(waitForFrames(1, in: directory).count == 1, "the launch's frame; server said \(server.lines)")
        let injector = try Injector(serverPath: socket)
        try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 22, y: 10)])
        app.waitFor("right began 1 (22,10)")
        // The landing's frame is shown; nothing is asked for after it.
        try #require(waitForFrames(2, in: directory).count == 2, "server said \(server.lines)")
        // The application is stopped while the moves are sent, so that all
        // five wait at its socket when it runs again, however loaded the
        // machine: it holds them for the refresh it then asks for.
        app.signal(SIGSTOP)
        for step in 1...5 {
            try injector.send([DigitizerContact(identifier: 1, phase: .moved, x: 22 + Double(step) * 2, y: 10)])
        }
        usleep(300_000)
        app.signal(SIGCONT)
        app.waitFor("right coalesced 5 (24,10) (26,10) (28,10) (30,10) (32,10)")
        try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 32, y: 10)])
        app.waitFor("right ended 1 (32,10)")
        #expect(app.lines.filter { $0.hasPrefix("right ") } == [
            "right began 1 (22,10)",
            "right moved 1 (32,10)",
            "right coalesced 5 (24,10) (26,10) (28,10) (30,10) (32,10)",
            "right ended 1 (32,10)",
        ])
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        expectEqual(app.waitForExit(), 0)
    }

    /// An animation in a connected application runs on the display's
    /// refreshes and ends with its duration: a 0.25 s slide at 60 Hz spans
    /// 15 refreshes, counted by the display link's timestamps (the
    /// server's refresh times, not the machine's wall time), however long
    /// each frame took to draw. The slid view clips its sublayers, as a
    /// list does, and sits between pixels on the way.
    @Test func anAnimationInAConnectedApplicationEndsAfterItsDurationInRefreshes() throws {
        let (server, socket) = try startServer(["--display", "headless", "--screen", "40x20@2", "--refresh", "60"])
        let app = try startApplication("sliding", socket: socket, ["--animate", "0.25"])
        let injector = try Injector(serverPath: socket)
        try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 5, y: 10)])
        let line = try #require(app.waitForLine { $0.hasPrefix("animation finished after ") }, "app said \(app.lines)")
        let numbers = line.split(separator: " ").compactMap { Int($0.filter(\.isNumber)) }
        try #require(numbers.count == 2, "\(line)")
        let (frames, refreshes) = (numbers[0], numbers[1])
        // From the first refresh after the start (up to two later) to the one the end falls before.
        #expect((13...17).contains(refreshes), "\(line)")
        #expect(frames >= 2 && frames <= refreshes, "\(line)")
        try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 5, y: 10)])
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func anApplicationInTheBackgroundGetsNoRefreshesUntilItIsBackInFront() throws {
        let (server, socket) = try startServer(["--display", "headless", "--screen", "40x20@1"])
        let ticking = try ChildProcess("TouchLogger", ["--display-link"], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "ticking"])
        ticking.waitFor("didBecomeActive")
        ticking.waitFor("display link 20")
        let other = try startApplication("other", socket: socket)
        ticking.waitFor("didEnterBackground")
        ticking.collect(for: 0.1)
        let countInBackground = ticking.lines.count
        ticking.collect(for: 0.4)
        let ticksWhileAway = ticking.lines.dropFirst(countInBackground).filter { $0.hasPrefix("display link") }
        #expect(ticksWhileAway.isEmpty, "24 refreshes passed in the background: \(ticksWhileAway)")

        let tool = try ChildProcess("openuikit", ["switch", "ticking", "--socket", socket])
        expectEqual(tool.waitForExit(), 0)
        let ticks = { (line: String) -> Int in line.hasPrefix("display link ") ? Int(line.dropFirst(13)) ?? 0 : 0 }
        let before = ticking.lines.map(ticks).max() ?? 0
        #expect(ticking.waitForLine { ticks($0) > before } != nil, "the display link runs again in front")
        _ = other
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    /// An application brought back to the front draws a whole frame at
    /// once, though nothing in it changed: the server gave its buffers back
    /// when it went away and would go on showing the other one's frame.
    @Test func anApplicationBackInFrontIsShownAgainWithoutChangingAnything() throws {
        let directory = makeTemporaryDirectory()
        let (server, socket) = try startServer(["--display", "headless", "--frames", directory, "--screen", "40x20@2"])
        let painter = try startApplication("painter", socket: socket)
        try #require(waitForFrames(1, in: directory).count == 1, "the painter's first frame; server said \(server.lines)")
        let other = try startApplication("other", socket: socket, ["--scroll"])
        painter.waitFor("didEnterBackground")
        let covered = waitForFrames(2, in: directory)
        try #require(covered.count == 2, "the other application's first frame")
        let otherPixel = try Picture(path: "\(directory)/\(covered[1])").pixel(10, 20)
        #expect(otherPixel != Self.red, "the other application's frame is shown: \(otherPixel)")

        let tool = try ChildProcess("openuikit", ["switch", "painter", "--socket", socket])
        expectEqual(tool.waitForExit(), 0)
        let back = waitForFrames(3, in: directory)
        try #require(back.count == 3, "a frame of the painter's after the switch; server said \(server.lines)")
        let shown = try Picture(path: "\(directory)/\(back[2])")
        expectEqual(shown.pixel(10, 20), Self.red)
        expectEqual(shown.pixel(70, 20), Self.blue)
        _ = other
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    /// Without `--display` and without `DISPLAY`, the server takes the frame
    /// buffer if /dev/fb0 opens, else goes headless, and says which.
    @Test func withoutADisplayTheServerSaysWhichOutputItChose() throws {
        let socket = makeTemporaryDirectory() + "/server.sock"
        let server = try ChildProcess("openuikit-server", ["--socket", socket, "--screen", "40x20@1"], environment: ["DISPLAY": ""])
        server.waitForLine { $0.contains("listening at") }
        let expected = access("/dev/fb0", R_OK | W_OK) == 0
            ? "no DISPLAY, and /dev/fb0 opens: frames go to the frame buffer"
            : "no DISPLAY and no frame buffer: headless (frames are counted; --frames DIR writes them as PNG files)"
        #expect(server.lines.contains { $0.hasSuffix(expected) }, "\(server.lines)")
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func theDemoRunsTheServerAndItsAppAsTwoProcessesAndShowsItsFirstPage() throws {
        let directory = makeTemporaryDirectory()
        let demo = try ChildProcess("openuikit", ["demo", "--frames", directory, "--screen", "390x844@1", "--seconds", "3"], environment: ["DISPLAY": ""])
        demo.waitFor("demo ready")
        let shown = waitForFrames(1, in: directory)
        try #require(!shown.isEmpty)
        let page = try Picture(path: "\(directory)/\(shown[0])")
        #expect(page.width == 390 && page.height == 844)
        expectEqual(page.pixel(100, 150), [0, 122, 255, 255], "the blue button (systemBlue)")
        expectEqual(demo.waitForExit(), 0)
        #expect(demo.lines.contains { $0.contains("\"OpenUIKit demo\"") && $0.contains("connected") }, "the server logs the demo app connecting")
    }
}
