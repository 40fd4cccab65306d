#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// `openuikit demo` in a real window on a real X server (Xvfb), driven by
/// xdotool as a person with a mouse would: the server, the demo app and
/// the X server are three processes. Where Xvfb is not installed the tests
/// say so loudly, and under CI (`CI` set) they fail instead.
///
/// Every step waits for what it needs to see (a line the demo prints, the
/// window's pixels) rather than for a fixed time: on a loaded machine
/// (CI's two cores running other tests beside these) a debug build of the
/// demo may take seconds to draw a frame. A fixed 300 ms once missed the
/// highlighted button, and a drag begun 300 ms after the tap on the List
/// tab once left no "list offset" line within 10 s. With the demo app
/// stopped 90 ms in every 100 (a trial of starving it), those waits were
/// also what a drag needed to reach the list.
@Suite(.serialized) struct DemoWindowEndToEndTests {
    static let tools = (xvfb: "/usr/bin/Xvfb", xdotool: "/usr/bin/xdotool", xwd: "/usr/bin/xwd")
    static let isAvailable = access(tools.xvfb, X_OK) == 0 && access(tools.xdotool, X_OK) == 0 && access(tools.xwd, X_OK) == 0
    static let enabled = Testing.ConditionTrait.enabled(
        if: isAvailable || getenv("CI") != nil,
        "SKIPPED, NOT PASSED: these tests need Xvfb, xdotool and xwd (apt-get install xvfb xdotool x11-apps)"
    )
    /// The longest a step waits for what it awaits. Waits end as soon as
    /// it comes, so this costs nothing when all goes well.
    static let patience = 60.0

    /// An X server of the test's own, on the display number it picks.
    final class XServer {
        let process: ChildProcess
        let display: String

        init() throws {
            guard DemoWindowEndToEndTests.isAvailable else {
                throw ChildProcessError("CI is set and Xvfb, xdotool or xwd is missing: apt-get install xvfb xdotool x11-apps")
            }
            process = try ChildProcess(DemoWindowEndToEndTests.tools.xvfb, ["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
            guard let number = process.waitForLine(timeout: 10, { Int($0) != nil }) else { throw ChildProcessError("Xvfb did not start") }
            display = ":" + number
        }
    }

    /// A window's pixels, read with xwd: rows of (red, green, blue).
    struct WindowPicture {
        let width: Int
        let height: Int
        let pixels: [[UInt8]]

        init(window: String, display: String) throws {
            let path = makeTemporaryDirectory() + "/window.xwd"
            let dump = try ChildProcess(DemoWindowEndToEndTests.tools.xwd, ["-id", window, "-silent", "-out", path], environment: ["DISPLAY": display])
            guard dump.waitForExit() == 0, let file = fopen(path, "rb") else { throw ChildProcessError("xwd failed: \(dump.lines)") }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            func field(_ index: Int) -> Int {
                (0..<4).reduce(0) { $0 << 8 | Int(bytes[index * 4 + $1]) }
            }
            let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7)
            let bitsPerPixel = field(11), bytesPerLine = field(12), colors = field(19)
            let masks = [field(14), field(15), field(16)]
            guard field(2) == 2, bitsPerPixel == 24 || bitsPerPixel == 32 else { throw ChildProcessError("an xwd dump of \(bitsPerPixel) bits per pixel") }
            let size = bitsPerPixel / 8, start = headerSize + colors * 12
            let shifts = masks.map { $0.trailingZeroBitCount }
            var pixels: [[UInt8]] = []
            for y in 0..<height {
                for x in 0..<width {
                    let offset = start + y * bytesPerLine + x * size
                    var value = 0
                    for byte in 0..<size {
                        value |= Int(bytes[offset + byte]) << (byteOrder == 0 ? 8 * byte : 8 * (size - 1 - byte))
                    }
                    pixels.append(shifts.map { UInt8(truncatingIfNeeded: value >> $0) })
                }
            }
            self.width = width
            self.height = height
            self.pixels = pixels
        }

        func pixel(_ x: Int, _ y: Int) -> [UInt8] { pixels[y * width + x] }

        /// How many pixels of the rectangle differ from `other`'s.
        func pixelsDiffering(from other: WindowPicture, xs: Range<Int>, ys: Range<Int>) -> Int {
            var count = 0
            for y in ys {
                for x in xs where pixel(x, y) != other.pixel(x, y) { count += 1 }
            }
            return count
        }
    }

    /// Pictures of `window` until one satisfies `condition`, for at most
    /// ``patience`` seconds: that one, or nil after recording that
    /// `expected` never came.
    func waitForPicture(
        of window: String, on server: XServer, _ expected: String,
        sourceLocation: SourceLocation = #_sourceLocation, _ condition: (WindowPicture) -> Bool
    ) throws -> WindowPicture? {
        let deadline = monotonicSeconds() + Self.patience
        while true {
            let picture = try WindowPicture(window: window, display: server.display)
            if condition(picture) { return picture }
            guard monotonicSeconds() < deadline else {
                Issue.record("\(expected): not in the window after \(Self.patience) s", sourceLocation: sourceLocation)
                return nil
            }
            usleep(50_000)
        }
    }

    func xdotool(_ arguments: [String], display: String) throws -> ChildProcess {
        let tool = try ChildProcess(Self.tools.xdotool, arguments, environment: ["DISPLAY": display])
        expectEqual(tool.waitForExit(), 0, "xdotool \(arguments.joined(separator: " ")): \(tool.lines)")
        return tool
    }

    /// Starts the demo on `server`'s display and returns it with its
    /// window's id and the window's picture once the app's first frame is
    /// in it (the window is black until then).
    func startDemo(on server: XServer) throws -> (demo: ChildProcess, window: String, first: WindowPicture) {
        let demo = try ChildProcess("openuikit", ["demo", "--display", "x11", "--screen", "390x844@1"], environment: ["DISPLAY": server.display])
        demo.waitFor("demo ready", timeout: Self.patience)
        let search = try xdotool(["search", "--sync", "--name", "OpenUIKit demo"], display: server.display)
        let window = try #require(search.lines.first)
        let first = try #require(try waitForPicture(of: window, on: server, "the app's first frame") { picture in
            picture.pixels.contains { $0 != [0, 0, 0] }
        })
        return (demo, window, first)
    }

    /// Clicks the tab bar item centred at `x` (four items across 390 points:
    /// Controls 49, List 146, Canvas 244, Card 341) and waits until its page
    /// is in the window: the app has handled the tap and drawn the page (the
    /// tab bar is its items' 49 points at the bottom of a screen without a
    /// safe area, 795-844).
    @discardableResult
    func showTab(at x: Int, in window: String, on server: XServer, after first: WindowPicture) throws -> WindowPicture? {
        _ = try xdotool(["mousemove", "--window", window, String(x), "820", "click", "1"], display: server.display)
        return try waitForPicture(of: window, on: server, "the page of the tab at \(x)") { $0.pixelsDiffering(from: first, xs: 0..<390, ys: 100..<700) > 0 }
    }

    func showTheList(in window: String, on server: XServer, after first: WindowPicture) throws {
        try showTab(at: 146, in: window, on: server, after: first)
    }

    @Test(enabled) func theWindowShowsExactlyTheFrameTheAppDrew() throws {
        let frames = makeTemporaryDirectory()
        let headless = try ChildProcess("openuikit", ["demo", "--display", "headless", "--frames", frames, "--screen", "390x844@1", "--seconds", "3"])
        expectEqual(headless.waitForExit(), 0)
        let frame = try ScreenEndToEndTests.Picture(path: frames + "/frame-000001.png")

        let server = try XServer()
        let (demo, _, shown) = try startDemo(on: server)
        #expect(shown.width == 390 && shown.height == 844)
        var differing = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width where Array(frame.pixel(x, y).prefix(3)) != shown.pixel(x, y) { differing += 1 }
        }
        expectEqual(differing, 0, "\(differing) of the window's pixels differ from the app's frame")
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }

    @Test(enabled) func aClickHighlightsTheButtonAndSendsItsAction() throws {
        let server = try XServer()
        let (demo, window, before) = try startDemo(on: server)
        _ = try xdotool(["mousemove", "--window", window, "60", "152", "mousedown", "1"], display: server.display)
        _ = try waitForPicture(of: window, on: server, "the button highlighted while the mouse button is down") {
            $0.pixelsDiffering(from: before, xs: 20..<180, ys: 130..<174) > 0
        }
        #expect(!demo.lines.contains("button tapped 1"), "no action before the button comes up")
        _ = try xdotool(["mouseup", "1"], display: server.display)
        demo.waitFor("button tapped 1", timeout: Self.patience)
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }

    @Test(enabled) func aDragScrollsTheList() throws {
        let server = try XServer()
        let (demo, window, first) = try startDemo(on: server)
        try showTheList(in: window, on: server, after: first)
        // The list's pan begins once the finger has moved past its
        // hysteresis, and the content follows the finger from there on, as
        // UIKit's does. So the drag waits for it to begin: a starved app
        // (stopped 90 ms in every 100, in a trial) otherwise got the whole
        // drag as one move, which began the pan and moved nothing (offset
        // -44, its rest under the bar).
        _ = try xdotool(["mousemove", "--window", window, "200", "600", "mousedown", "1", "mousemove", "--window", window, "200", "570"], display: server.display)
        #expect(demo.waitForLine(timeout: Self.patience) { $0.hasPrefix("list dragging from ") } != nil)
        var drag: [String] = []
        for step in 2...10 { drag += ["mousemove", "--window", window, "200", String(600 - step * 30), "sleep", "0.02"] }
        drag += ["mouseup", "1"]
        _ = try xdotool(drag, display: server.display)
        let line = try #require(demo.waitForLine(timeout: Self.patience) { $0.hasPrefix("list offset ") })
        let offset = Double(line.dropFirst("list offset ".count).prefix { $0 != "," }) ?? 0
        #expect(offset > 100, "the list followed the drag: \(line)")
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }

    /// The canvas draws through the pointer's path: a drag along y = 400
    /// leaves a stroke of systemIndigo (0x5856D6), 4 points wide, there and
    /// nowhere else, with the samples the moves coalesced.
    @Test(enabled) func aDragOnTheCanvasDrawsAStrokeUnderThePointer() throws {
        let server = try XServer()
        let (demo, window, first) = try startDemo(on: server)
        let blank = try #require(try showTab(at: 244, in: window, on: server, after: first))
        expectEqual(blank.pixel(200, 400), [255, 255, 255])
        var drag = ["mousemove", "--window", window, "100", "400", "mousedown", "1"]
        for x in stride(from: 120, through: 300, by: 20) { drag += ["mousemove", "--window", window, String(x), "400", "sleep", "0.01"] }
        drag += ["mouseup", "1"]
        _ = try xdotool(drag, display: server.display)
        let line = try #require(demo.waitForLine(timeout: Self.patience) { $0.hasPrefix("stroke of ") })
        let points = Int(line.dropFirst("stroke of ".count).prefix { $0 != " " }) ?? 0
        #expect((2...11).contains(points), "the landing and up to one sample a move: \(line)")
        let drawn = try #require(try waitForPicture(of: window, on: server, "the stroke") { $0.pixel(300, 400) != [255, 255, 255] })
        for x in [110, 200, 290] { expectEqual(drawn.pixel(x, 400), [0x58, 0x56, 0xD6], "on the stroke at x \(x)") }
        expectEqual(drawn.pixel(200, 404), [255, 255, 255], "beyond the stroke's half width")
        expectEqual(drawn.pixel(90, 400), [255, 255, 255], "before its start")
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }

    /// The card page's card (systemOrange, 200 × 280 points in the middle)
    /// follows a drag with the pointer, and a long press changes its colour.
    @Test(enabled) func theCardFollowsADragAndALongPressChangesItsColour() throws {
        let server = try XServer()
        let (demo, window, first) = try startDemo(on: server)
        let page = try #require(try showTab(at: 341, in: window, on: server, after: first))
        expectEqual(page.pixel(195, 422), [0xFF, 0x95, 0x00])
        var drag = ["mousemove", "--window", window, "195", "422", "mousedown", "1"]
        for step in 1...10 { drag += ["mousemove", "--window", window, String(195 + step * 5), String(422 + step * 5), "sleep", "0.02"] }
        drag += ["mouseup", "1"]
        _ = try xdotool(drag, display: server.display)
        let line = try #require(demo.waitForLine(timeout: Self.patience) { $0.hasPrefix("card moved to ") })
        let centre = line.dropFirst("card moved to ".count).split(separator: ",").compactMap { Double($0) }
        try #require(centre.count == 2, "\(line)")
        // The pointer went 50 points right and down; the pan counts from where it began (past its hysteresis).
        #expect((235...245).contains(centre[0]) && (462...472).contains(centre[1]), "\(line)")
        // The window shows the card where the pan left it: its old top left corner is bare, and
        // inside its new bottom right corner is the card's.
        _ = try waitForPicture(of: window, on: server, "the card where the pan left it") {
            $0.pixel(100, 290) != [0xFF, 0x95, 0x00] && $0.pixel(Int(centre[0]) + 90, Int(centre[1]) + 130) == [0xFF, 0x95, 0x00]
        }

        _ = try xdotool(["mousemove", "--window", window, String(Int(centre[0])), String(Int(centre[1])), "mousedown", "1", "sleep", "0.8", "mouseup", "1"],
                        display: server.display)
        #expect(demo.waitFor("card pressed", timeout: Self.patience))
        _ = try waitForPicture(of: window, on: server, "the card's next colour") { $0.pixel(Int(centre[0]), Int(centre[1])) != [0xFF, 0x95, 0x00] }
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }

    /// Closing the window (here destroyed by xdotool, as a window manager's
    /// close does when the client ignores WM_DELETE_WINDOW) stops the
    /// server; its application is told (it hangs up) and terminates.
    @Test(enabled) func closingTheWindowStopsTheServerAndEndsTheApp() throws {
        let server = try XServer()
        let (demo, window, _) = try startDemo(on: server)
        _ = try xdotool(["windowclose", window], display: server.display)
        #expect(demo.waitFor("demo ends", timeout: Self.patience), "applicationWillTerminate")
        expectEqual(demo.waitForExit(), 0)
    }

    /// Without `--display`, a set `DISPLAY` means a window, and the server says so.
    @Test(enabled) func withDisplaySetTheServerOpensAWindowAndSaysSo() throws {
        let server = try XServer()
        let socket = makeTemporaryDirectory() + "/server.sock"
        let eventServer = try ChildProcess("openuikit-server", ["--socket", socket, "--screen", "40x20@1"], environment: ["DISPLAY": server.display])
        eventServer.waitForLine { $0.contains("listening at") }
        #expect(eventServer.lines.contains { $0.hasSuffix("DISPLAY is set: frames go to a window (--display headless to write them as files instead)") },
                "\(eventServer.lines)")
        let search = try xdotool(["search", "--sync", "--name", "OpenUIKit"], display: server.display)
        expectEqual(search.lines.count, 1, "one window")
        eventServer.signal(SIGTERM)
        expectEqual(eventServer.waitForExit(), 0)
    }

    @Test(enabled) func aTappedRowPushesItsScreenAndTheBackButtonPopsIt() throws {
        let server = try XServer()
        let (demo, window, first) = try startDemo(on: server)
        try showTheList(in: window, on: server, after: first)
        // The list reaches under the 44-point navigation bar and rests with its first row below it: y 200 is in row 4.
        _ = try xdotool(["mousemove", "--window", window, "200", "200", "click", "1"], display: server.display)
        #expect(demo.waitFor("list row 4 tapped", timeout: Self.patience) && demo.waitFor("row 4 shown", timeout: Self.patience))
        _ = try xdotool(["mousemove", "--window", window, "30", "22", "click", "1"], display: server.display)
        #expect(demo.waitFor("row 4 gone", timeout: Self.patience), "the back button pops the row's screen once the slide has ended")
        demo.signal(SIGTERM)
        expectEqual(demo.waitForExit(), 0)
    }
}
