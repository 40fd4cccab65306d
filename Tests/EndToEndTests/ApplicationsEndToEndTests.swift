#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// The server, applications and the tool as separate processes: gestures,
/// switching, the watchdog and an application killed mid-gesture.
@Suite struct ApplicationsEndToEndTests {
    private func contact(_ id: UInt32, _ phase: DigitizerContact.Phase, _ x: Double, _ y: Double) -> DigitizerContact {
        DigitizerContact(identifier: id, phase: phase, x: x, y: y)
    }

    @Test func aTwoFingerGestureReachesTheViewsAsTouchCalls() throws {
        let (server, socket) = try startServer()
        let app = try startApplication("pinch", socket: socket)
        let injector = try Injector(serverPath: socket)
        // Two fingers land together on the right half, spread apart, then
        // lift one after the other. Each move is sent once the one before
        // reached the view: moves arriving within one refresh would reach
        // it as one.
        try injector.send([contact(1, .began, 250, 400), contact(2, .began, 300, 450)])
        try injector.send([contact(1, .moved, 240, 390), contact(2, .moved, 310, 460)])
        app.waitFor("right moved 2 (240,390) (310,460)")
        try injector.send([contact(1, .stationary, 240, 390), contact(2, .moved, 320, 470)])
        app.waitFor("right moved 1 (320,470)")
        try injector.send([contact(1, .ended, 240, 390), contact(2, .stationary, 320, 470)])
        try injector.send([contact(2, .ended, 320, 470)])
        app.waitFor("right ended 1 (320,470)")
        #expect(Array(app.lines.drop { $0 != "didBecomeActive" }.dropFirst()) == [
            "right began 2 (250,400) (300,450)",
            "right moved 2 (240,390) (310,460)",
            "right moved 1 (320,470)",
            "right ended 1 (240,390)",
            "right ended 1 (320,470)",
        ])
        server.signal(SIGINT)
        expectEqual(server.waitForExit(), 0)
        expectEqual(app.waitForExit(), 0)
    }

    @Test func switchingMidGestureCancelsTheOldApplicationsTouches() throws {
        let (server, socket) = try startServer()
        let first = try startApplication("first", socket: socket)
        let second = try startApplication("second", socket: socket)
        first.waitFor("didEnterBackground")
        let injector = try Injector(serverPath: socket)
        try injector.send([contact(1, .began, 100, 100)])
        second.waitFor("left began 1 (100,100)")

        let unknown = try ChildProcess("openuikit", ["switch", "third", "--socket", socket])
        expectEqual(unknown.waitForExit(), 1)
        expectEqual(unknown.lines, ["Error: no application called \"third\"; connected: first, second"])
        let firstBeforeSwitch = first.lines.count
        let tool = try ChildProcess("openuikit", ["switch", "first", "--socket", socket])
        expectEqual(tool.waitForExit(), 0)
        expectEqual(tool.lines, ["first is in front"])
        second.waitFor("didEnterBackground")
        first.waitFor("didBecomeActive", after: firstBeforeSwitch)
        #expect(Array(second.lines.drop { $0 != "left began 1 (100,100)" }) == [
            "left began 1 (100,100)", "left cancelled 1 (100,100)", "willResignActive", "didEnterBackground",
        ])
        // The cancelled finger goes on to nobody; a new one goes to the new front application.
        try injector.send([contact(1, .moved, 120, 100)])
        try injector.send([contact(1, .ended, 120, 100)])
        try injector.send([contact(2, .began, 300, 100)])
        first.waitFor("right began 1 (300,100)")
        expectEqual(Array(first.lines.drop { $0 != "willEnterForeground" }), ["willEnterForeground", "didBecomeActive", "right began 1 (300,100)"])
        expectEqual(second.lines.last, "didEnterBackground")

        let apps = try ChildProcess("openuikit", ["apps", "--socket", socket])
        expectEqual(apps.waitForExit(), 0)
        expectEqual(apps.lines.count, 3)
        expectEqual(apps.lines.first?.hasPrefix("NAME"), true)
        expectEqual(applicationNames(apps.lines), ["first", "second"])
        #expect(apps.lines[1].contains("foreground") && apps.lines[2].contains("background"))
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func anApplicationThatHangsIsReportedLosesItsTouchesAndComesBack() throws {
        let (server, socket) = try startServer(["--watchdog-timeout", "0.5"])
        // It hangs long enough (2.5 s, the watchdog's timeout is 0.5 s) that
        // the touches below reach the server while it still hangs, even on
        // a loaded machine (with 0.8 s it sometimes woke first). A shorter
        // timeout (0.2 s) was sometimes outlasted by the awake application's
        // next acknowledgement on a machine loaded to 15, which then lost
        // its new touch too (the server's log is in the failure message).
        let app = try startApplication("sleepy", socket: socket, ["--hang-on-began", "2.5"])
        let injector = try Injector(serverPath: socket)
        try injector.send([contact(1, .began, 100, 100)])
        app.waitFor("left hanging for 2.5 s")
        server.waitForLine(timeout: 2) { $0.contains("\"sleepy\"") && $0.contains("is not responding: event 1 unacknowledged for") }
        // While it hangs its finger moves and a new finger lands: none of it is sent to it.
        try injector.send([contact(1, .moved, 110, 100)])
        try injector.send([contact(2, .began, 300, 100)])
        server.waitForLine { $0.contains("is not responding: a new touch sequence was not sent to it") }
        // Once awake it gets the cancellation, acknowledges everything and responds again.
        app.waitFor("left cancelled 1 (100,100)")
        server.waitForLine { $0.contains("\"sleepy\"") && $0.contains("is responding again") }
        try injector.send([contact(1, .ended, 110, 100), contact(2, .ended, 300, 100)])
        try injector.send([contact(3, .began, 200, 100)])
        app.waitFor("right began 1 (200,100)")
        #expect(Array(app.lines.drop { $0 != "left began 1 (100,100)" }) == [
            "left began 1 (100,100)", "left hanging for 2.5 s", "left cancelled 1 (100,100)", "right began 1 (200,100)",
        ], "server: \(server.lines)")
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
    }

    @Test func anApplicationKilledMidGestureIsDroppedAndTheOtherComesToTheFront() throws {
        let (server, socket) = try startServer()
        let survivor = try startApplication("survivor", socket: socket)
        let victim = try startApplication("victim", socket: socket)
        survivor.waitFor("didEnterBackground")
        let injector = try Injector(serverPath: socket)
        try injector.send([contact(1, .began, 100, 100), contact(2, .began, 300, 100)])
        victim.waitFor("left began 1 (100,100)")
        let survivorBeforeKill = survivor.lines.count
        victim.signal(SIGKILL)
        expectEqual(victim.waitForExit(), 128 + SIGKILL)
        server.waitForLine { $0.contains("\"victim\"") && $0.contains("hung up") }
        survivor.waitFor("didBecomeActive", after: survivorBeforeKill)
        // The dead application's fingers go nowhere; the next touch reaches the survivor.
        try injector.send([contact(1, .moved, 120, 100), contact(2, .ended, 300, 100)])
        try injector.send([contact(1, .ended, 120, 100)])
        try injector.send([contact(3, .began, 50, 60)])
        survivor.waitFor("left began 1 (50,60)")
        expectEqual(Array(survivor.lines.drop { $0 != "willEnterForeground" }), ["willEnterForeground", "didBecomeActive", "left began 1 (50,60)"])
        let apps = try ChildProcess("openuikit", ["apps", "--socket", socket])
        expectEqual(apps.waitForExit(), 0)
        expectEqual(applicationNames(apps.lines), ["survivor"])
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        expectEqual(survivor.waitForExit(), 0)
    }
}

/// The NAME column of `openuikit apps` (its first line is the header). A
/// function of its own: inside `#expect` the closure took the type checker
/// a second.
private func applicationNames(_ lines: [String]) -> [String] {
    lines.dropFirst().map { (line: String) -> String in String(line.prefix { $0 != " " }) }
}
