#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// An application shaped as Xcode's template since iOS 13 (Tests/Apps/SceneApp):
/// its scene connects after launch, and the server's switching drives the
/// scene's life cycle, not the application delegate's.
@Suite struct SceneEndToEndTests {
    @Test func theSceneConnectsAndFollowsTheServersSwitching() throws {
        let (server, socket) = try startServer()
        let sceneApp = try ChildProcess("SceneApp", [], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "scenes"])
        #expect(sceneApp.waitFor("sceneDidBecomeActive true"))
        #expect(sceneApp.lines == [
            "didFinishLaunching", "configurationForConnecting", "willConnect windows 1 connected 1",
            "sceneWillEnterForeground", "sceneDidBecomeActive true",
        ])

        // The scene's window receives touches.
        let injector = try Injector(serverPath: socket)
        try injector.send([DigitizerContact(identifier: 1, phase: .began, x: 40, y: 60)])
        try injector.send([DigitizerContact(identifier: 1, phase: .ended, x: 40, y: 60)])
        #expect(sceneApp.waitFor("touched 40,60"))

        // Another application comes to the front, then this one again.
        let other = try startApplication("other", socket: socket)
        #expect(sceneApp.waitFor("sceneDidEnterBackground true"))
        let tool = try ChildProcess("openuikit", ["switch", "scenes", "--socket", socket])
        expectEqual(tool.waitForExit(), 0)
        #expect(sceneApp.waitForLine { _ in sceneApp.lines.filter { $0 == "sceneDidBecomeActive true" }.count == 2 } != nil)
        #expect(Array(sceneApp.lines.drop { $0 != "touched 40,60" }) == [
            "touched 40,60", "sceneWillResignActive", "sceneDidEnterBackground true",
            "sceneWillEnterForeground", "sceneDidBecomeActive true",
        ])

        // Termination: the scene resigns and goes to the background first.
        server.signal(SIGTERM)
        #expect(sceneApp.waitFor("applicationWillTerminate"))
        expectEqual(Array(sceneApp.lines.suffix(3)), ["sceneWillResignActive", "sceneDidEnterBackground true", "applicationWillTerminate"])
        #expect(!sceneApp.lines.contains { $0.hasPrefix("application did") })
        _ = other
    }

    /// An application started before its server waits for the socket to appear.
    @Test func anApplicationStartedBeforeItsServerWaitsForIt() throws {
        let socket = makeTemporaryDirectory() + "/server.sock"
        let app = try ChildProcess("TouchLogger", [], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "early"])
        #expect(app.waitForLine { $0.contains("waiting for the event server") } != nil)
        let server = try ChildProcess("openuikit-server", ["--socket", socket])
        #expect(app.waitFor("didBecomeActive"))
        #expect(server.waitForLine { $0.contains("early") } != nil)
        #expect(!app.lines.contains { $0.contains("no event server") })
    }
}
