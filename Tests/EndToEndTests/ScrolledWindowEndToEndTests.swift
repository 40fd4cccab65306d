#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// A flung list in a real window on a real X server (Xvfb), through the
/// real path: the server process moves the window's own pixels by the
/// scrolls the application process's commits pass, and converts only what
/// they brought into view (docs/screen.md, "Scrolls reach the outputs").
/// Once the list has stopped, the window must hold exactly what the
/// application draws whole: brought back to the front after another
/// application's frame, it draws a whole frame, which the server shows
/// whole. The list is flung, then dragged by whole points and left there.
/// It is the fling benchmark's (a 1,000-row table on a
/// 390 × 844 screen at 3×, in a 1× window: boxes of 3 × 3 pixels, so a
/// scroll of whole points moves and one of a pixel or two is converted).
@Suite(.serialized) struct ScrolledWindowEndToEndTests {
    typealias Window = DemoWindowEndToEndTests

    /// Pictures of `window` until it has not changed for a second (ten
    /// pictures a tenth of a second apart): the list and its scroll
    /// indicator have stopped, even in an application slowed by a loaded
    /// machine.
    func stillPicture(of window: String, on server: Window.XServer) throws -> Window.WindowPicture? {
        var last = try Window.WindowPicture(window: window, display: server.display)
        var unchanged = 0
        let deadline = monotonicSeconds() + Window.patience
        while monotonicSeconds() < deadline {
            usleep(100_000)
            let next = try Window.WindowPicture(window: window, display: server.display)
            unchanged = next.pixelsDiffering(from: last, xs: 0..<next.width, ys: 0..<next.height) == 0 ? unchanged + 1 : 0
            if unchanged == 10 { return next }
            last = next
        }
        Issue.record("the window never stopped changing")
        return nil
    }

    /// Waits until the list application has printed its `count`-th "fling"
    /// line: a drag ended, and the deceleration after it, if any.
    func waitForFling(_ count: Int, of list: ChildProcess) {
        var seen = 0
        let line = list.waitForLine(timeout: Window.patience) { line in
            if line.hasPrefix("fling") { seen += 1 }
            return seen == count
        }
        #expect(line != nil, "drag \(count) ended")
    }

    /// The offset a fling line of the list reports (`offset=5414`), in points.
    static func offset(in line: String) -> Double? {
        line.split(separator: " ").first { $0.hasPrefix("offset=") }.flatMap { Double($0.dropFirst("offset=".count)) }
    }

    /// An upward flick of 600 points in 50 ms (240 Hz samples), as the fling benchmark's.
    func flick(_ injector: Injector, finger: UInt32) throws {
        for step in 0...12 {
            let phase: DigitizerContact.Phase = step == 0 ? .began : step == 12 ? .ended : .moved
            try injector.send([DigitizerContact(identifier: finger, phase: phase, x: 200, y: 700 - Double(step) * 50)])
            usleep(4_167)
        }
    }

    @Test(Window.enabled) func aFlungListInTheWindowIsTheFrameTheApplicationDrawsWhole() throws {
        let x = try Window.XServer()
        let socket = makeTemporaryDirectory() + "/server.sock"
        let server = try ChildProcess(
            "openuikit-server", ["--socket", socket, "--display", "x11", "--screen", "390x844@3", "--refresh", "60"],
            environment: ["DISPLAY": x.display])
        server.waitForLine { $0.contains("listening at") }
        let list = try ChildProcess("openuikit-latency-app", ["--fling"], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "list"])
        list.waitFor("ready")
        let search = try Window().xdotool(["search", "--sync", "--name", "^list$"], display: x.display)
        let window = try #require(search.lines.first)
        let first = try #require(try stillPicture(of: window, on: x))

        let injector = try Injector(serverPath: socket)
        for finger: UInt32 in 1...2 {
            try flick(injector, finger: finger)
            waitForFling(Int(finger), of: list)
        }
        // A deceleration ends with scrolls of a pixel or two, converted
        // whole; a slow drag by whole points, held still before the finger
        // lifts, ends the list on moved frames. Its first 20 points start
        // the pan and do not move the list; each step after moves it 20.
        // The drag does not leave the rows where the first picture has
        // them (the list at -47, under the 47-point safe area, rows of 44
        // points): there the two pictures differ only in the rows' numbers,
        // about 5,000 pixels, as a run whose second fling ended at 11,621
        // found (5,365), and an earlier one (5,463).
        let flings = list.lines.filter { $0.hasPrefix("fling") }
        let flungTo = try #require(flings.dropFirst().first.flatMap(Self.offset(in:)), "where the second fling left the list: \(flings)")
        let rowPhase = { (steps: Int) in (flungTo - Double(steps - 1) * 20 + 47).truncatingRemainder(dividingBy: 44) }
        let steps = (8...36).contains(rowPhase(8)) ? 8 : 9
        #expect((8...36).contains(rowPhase(steps)))
        try injector.send([DigitizerContact(identifier: 3, phase: .began, x: 200, y: 300)])
        for step in 1...steps {
            usleep(50_000)
            try injector.send([DigitizerContact(identifier: 3, phase: .moved, x: 200, y: 300 + Double(step) * 20)])
        }
        usleep(400_000)
        try injector.send([DigitizerContact(identifier: 3, phase: .ended, x: 200, y: 300 + Double(steps) * 20)])
        waitForFling(3, of: list)
        let flung = try #require(try stillPicture(of: window, on: x))
        let moved = flung.pixelsDiffering(from: first, xs: 0..<390, ys: 0..<844)
        #expect(moved > 10_000, "the list moved: \(moved) pixels differ; the list printed \(list.lines)")

        // Another application in front (TouchLogger: red and blue halves), then the list again, drawn whole.
        let other = try startApplication("other", socket: socket)
        let covered = try #require(try Window().waitForPicture(of: window, on: x, "the other application's frame") { $0.pixel(50, 400) == [255, 0, 0] })
        let switching = try ChildProcess("openuikit", ["switch", "list", "--socket", socket])
        expectEqual(switching.waitForExit(), 0)
        _ = try Window().waitForPicture(of: window, on: x, "the list back in front") { $0.pixelsDiffering(from: covered, xs: 0..<390, ys: 0..<844) > 10_000 }
        let whole = try #require(try stillPicture(of: window, on: x))
        let differing = flung.pixelsDiffering(from: whole, xs: 0..<390, ys: 0..<844)
        expectEqual(differing, 0, "\(differing) of the flung window's pixels differ from the frame drawn whole")
        _ = other
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }
}
