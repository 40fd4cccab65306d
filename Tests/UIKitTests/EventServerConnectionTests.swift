#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing
@testable import UIKit

/// The application's side of the event server: events delivered and
/// acknowledged, the life cycle following the server's switching.
@MainActor
@Suite struct EventServerConnectionTests {
    final class Delegate: UIResponder, UIApplicationDelegate {
        var calls: [String] = []
        func applicationWillResignActive(_ application: UIApplication) { calls.append("willResignActive") }
        func applicationDidEnterBackground(_ application: UIApplication) { calls.append("didEnterBackground") }
        func applicationWillEnterForeground(_ application: UIApplication) { calls.append("willEnterForeground") }
        func applicationDidBecomeActive(_ application: UIApplication) { calls.append("didBecomeActive") }
        func applicationWillTerminate(_ application: UIApplication) { calls.append("willTerminate") }
    }

    final class RecordingView: UIView {
        var calls: [String] = []
        var onBegan: () -> Void = {}
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("began"); onBegan() }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("moved") }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("ended") }
        var onCancelled: () -> Void = {}
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("cancelled"); onCancelled() }
    }

    /// The application connected to a fake server, whose end the test holds,
    /// with a window whose left half is a recording view.
    struct Setup {
        let application: UIApplication
        let server: MessageSocket
        let window: UIWindow
        let view: RecordingView
        let delegate: Delegate
        var sequence: UInt64 = 0

        mutating func send(_ phase: DigitizerContact.Phase, x: Double = 50, y: Double = 50) throws {
            sequence += 1
            let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [
                DigitizerContact(identifier: 1, phase: phase, x: x, y: y),
            ])))
            try server.sendWaiting(ServerMessage.encodeEvent(sequence: sequence, readTime: monotonicSeconds(), sendTime: monotonicSeconds(), packet: packet))
        }

        func acknowledgements() throws -> [ServerMessage.Acknowledgement] {
            var result: [ServerMessage.Acknowledgement] = []
            while let message = try server.receiveMessage() {
                if case .acknowledgement(let ack) = try message.get() { result.append(ack) }
            }
            return result
        }
    }

    func connect() throws -> Setup {
        let application = UIApplication.shared
        application.resetForTesting()
        let delegate = Delegate()
        application.delegate = delegate
        let (appEnd, serverEnd) = try MessageSocket.makePair()
        application.inputPort.attach(EventServerConnection(socket: appEnd, welcome: .init(
            clientIdentifier: 1, screenWidth: 390, screenHeight: 844, screenScale: 3, isForeground: true)))
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        let view = RecordingView(frame: CGRect(x: 0, y: 0, width: 195, height: 844))
        window.addSubview(view)
        window.isHidden = false
        return Setup(application: application, server: serverEnd, window: window, view: view, delegate: delegate)
    }

    @Test func eachEventIsAcknowledgedAfterItsDeliveryWithWhetherAViewTookIt() throws {
        var setup = try connect()
        try setup.send(.began)
        try setup.send(.ended)
        let before = monotonicSeconds()
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "ended"])
        let acks = try setup.acknowledgements()
        expectEqual(acks.map(\.sequence), [1, 2])
        expectEqual(acks.map(\.handled), [true, true])
        #expect(acks.allSatisfy { $0.finishTime >= before && $0.finishTime <= monotonicSeconds() })

        // Outside every window nothing takes the touch.
        try setup.send(.began, x: 500, y: 900)
        try setup.send(.ended, x: 500, y: 900)
        setup.application.runLoop.runUntilIdle()
        try expectEqual(setup.acknowledgements().map(\.handled), [false, false])
    }

    @Test func aMalformedEventIsReportedAcknowledgedAndTheNextDelivered() throws {
        var setup = try connect()
        setup.sequence += 1
        try setup.server.sendWaiting(ServerMessage.encodeEvent(sequence: setup.sequence, readTime: 0, sendTime: 0, packet: HIDWireFormat.magic + [9, 1, 0, 0, 0, 0, 0, 0]))
        try setup.send(.began)
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began"])
        try expectEqual(setup.acknowledgements().map { [$0.sequence, $0.handled ? 1 : 0] }, [[1, 0], [2, 1]])
        #expect(setup.application.diagnostics.entries.contains { $0.kind == .malformedHIDPacket && $0.message.contains("unsupported version 9") })
    }

    @Test func goingToTheBackgroundCancelsTouchesAndComingBackMakesTheApplicationActive() throws {
        var setup = try connect()
        try setup.send(.began)
        setup.application.runLoop.runUntilIdle()
        try setup.server.sendWaiting(ServerMessage.appState(.background).encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.delegate.calls, ["willResignActive", "didEnterBackground"])
        expectEqual(setup.view.calls, ["began", "cancelled"])
        expectEqual(setup.application.applicationState, .background)
        // The finger lifting later is not delivered: it was cancelled.
        try setup.send(.ended)
        try setup.server.sendWaiting(ServerMessage.appState(.foreground).encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "cancelled"])
        expectEqual(setup.delegate.calls, ["willResignActive", "didEnterBackground", "willEnterForeground", "didBecomeActive"])
        expectEqual(setup.application.applicationState, .active)
    }

    @Test func eventsBeforeAStateChangeAreDeliveredBeforeIt() throws {
        var setup = try connect()
        try setup.send(.began)
        try setup.send(.moved, x: 60)
        try setup.server.sendWaiting(ServerMessage.appState(.background).encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "moved", "cancelled"])
    }

    @Test func theServerStoppingTerminatesTheApplication() throws {
        let setup = try connect()
        try setup.server.sendWaiting(ServerMessage.shutdown.encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.delegate.calls, ["willTerminate"])
        #expect(setup.application.isTerminating)
        #expect(setup.application.diagnostics.entries.contains { $0.message == "the event server stopped" })
    }

    @Test func aFingerDownWhenTheServerGoesIsCancelledBeforeTheApplicationTerminates() throws {
        var setup = try connect()
        let delegate = setup.delegate
        var terminatedBeforeCancel: [String]?
        setup.view.onCancelled = { terminatedBeforeCancel = delegate.calls }
        try setup.send(.began)
        setup.application.runLoop.runUntilIdle()
        try setup.server.sendWaiting(ServerMessage.shutdown.encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "cancelled"])
        expectEqual(terminatedBeforeCancel, [])  // the delegate had heard nothing yet
        expectEqual(delegate.calls, ["willTerminate"])
    }

    @Test func theServerHangingUpTerminatesTheApplication() throws {
        let setup = try connect()
        setup.server.close()
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.delegate.calls, ["willTerminate"])
        #expect(setup.application.diagnostics.entries.contains { $0.message == "the event server hung up" })
    }

    @Test func theServerGoingWhileAnEventIsHandledTerminatesTheApplication() throws {
        // The acknowledgement finds the connection gone: that ends the application too.
        var setup = try connect()
        let server = setup.server
        setup.view.onBegan = { server.close() }
        try setup.send(.began)
        setup.application.runLoop.runUntilIdle()
        // The finger that began will never lift: it is cancelled as the application ends.
        expectEqual(setup.view.calls, ["began", "cancelled"])
        expectEqual(setup.delegate.calls, ["willTerminate"])
        #expect(setup.application.inputPort.waitDescriptors.isEmpty)
    }

    @Test func noServerAtANamedPathIsReportedAndTheApplicationRunsOnItsOwn() {
        let application = UIApplication.shared
        application.resetForTesting()
        application.connectToEventServer(at: "/nonexistent/openuikit/server.sock", name: "Lonely")
        #expect(application.inputPort.server == nil)
        #expect(application.diagnostics.entries.contains { $0.message.hasPrefix("no event server: cannot connect to the event server at /nonexistent/openuikit/server.sock") })
    }

    @Test func aSocketInADirectoryOfAnotherUserIsNotToldTheApplicationsName() throws {
        // Another user made the directory first (a /tmp one, say) and
        // listens in it: the application looks before it says hello.
        var template = Array("/tmp/openuikit-app-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = system("rm -rf '\(directory)'") }
        let path = directory + "/server.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        defer { close(listener) }
        var address = try #require(UnixSocketAddress(path: path))
        expectEqual(address.withSockaddr { bind(listener, $0, $1) }, 0)
        expectEqual(listen(listener, 4), 0)
        chown(directory, 65534, 65534)

        let application = UIApplication.shared
        application.resetForTesting()
        application.connectToEventServer(at: path, name: "Banking")
        #expect(application.inputPort.server == nil)
        #expect(application.diagnostics.entries.contains {
            $0.message == "no event server: refusing the event server at \(path): its directory \(directory) belongs to user 65534, not to this user (\(getuid()))"
        })
        var polled = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        expectEqual(poll(&polled, 1, 0), 0)  // it never even connected
    }
}
