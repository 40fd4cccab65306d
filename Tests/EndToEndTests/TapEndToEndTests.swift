#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// The event server and an application, each a process of its own: a tap
/// played into the server reaches the application's view.
@Suite struct TapEndToEndTests {
    @Test func aTapReachesTheViewUnderTheFinger() throws {
        let (server, socket) = try startServer()
        let app = try startApplication("tapper", socket: socket)
        expectEqual(app.lines.first, "launched 390x844@3")
        // The default screen's safe area (an iPhone 12–14's), through the welcome to the window.
        expectEqual(app.lines.dropFirst().first, "safe area 47,0,34,0")
        let injector = try Injector(serverPath: socket)
        try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 300, y: 400)])
        try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 300, y: 400)])
        app.waitFor("right ended 1 (300,400)")
        expectEqual(Array(app.lines.suffix(2)), ["right began 1 (300,400)", "right ended 1 (300,400)"])

        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        app.waitFor("willTerminate")
        expectEqual(app.waitForExit(), 0)
        #expect(access(socket, F_OK) != 0, "the server removes its socket file")
    }

    /// `--safe-area` gives the screen the insets asked for, whatever its size.
    @Test func theServersSafeAreaOptionReachesTheApplicationsWindow() throws {
        let (server, socket) = try startServer(["--screen", "400x800@2", "--safe-area", "20,0,10,5"])
        let app = try startApplication("insets", socket: socket)
        expectEqual(Array(app.lines.prefix(2)), ["launched 400x800@2", "safe area 20,0,10,5"])
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        expectEqual(app.waitForExit(), 0)
    }
}
