#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HID
import TestExpectations
import Testing
@testable import UIKit

/// The application's side of `openuikit inspect --attach`, with the server
/// played by the test: the inspector's commands come on the application's
/// socket, and its texts go back as inspector reports, in parts.
@MainActor
@Suite struct ServerInspectionTests {
    /// The application connected to a fake server, with a window of `views` subviews.
    private func connect(views: Int = 1) throws -> (server: MessageSocket, window: UIWindow) {
        let application = UIApplication.shared
        application.resetForTesting()
        let (appEnd, serverEnd) = try MessageSocket.makePair()
        application.inputPort.attach(EventServerConnection(socket: appEnd, welcome: .init(
            clientIdentifier: 1, screenWidth: 390, screenHeight: 844, screenScale: 3, isForeground: true)))
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        for index in 0..<views {
            let view = UIView(frame: CGRect(x: 0, y: CGFloat(index % 800), width: 100, height: 1))
            view.accessibilityIdentifier = "view \(index)"
            window.addSubview(view)
        }
        window.isHidden = false
        application.runLoop.runUntilIdle()
        return (serverEnd, window)
    }

    /// The texts the application reported, each put back together from its parts.
    private func texts(from server: MessageSocket, parts: inout Int) throws -> [[String: Any]] {
        var texts: [[String: Any]] = []
        var bytes: [UInt8] = []
        while let message = try server.receiveMessage() {
            guard case .inspectorReport(let report) = try message.get() else { continue }
            parts += 1
            bytes += report.bytes
            if report.isLastPart {
                texts.append(try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]))
                bytes = []
            }
        }
        #expect(bytes.isEmpty, "a text left unfinished")
        return texts
    }

    @Test func startingDescribesTheTreeThenTheEventsAreReportedUntilStopped() throws {
        let (server, window) = try connect()
        defer { withExtendedLifetime(window) {} }
        let application = UIApplication.shared
        try server.sendWaiting(ServerMessage.inspectorCommand(.start).encoded())
        application.runLoop.runUntilIdle()
        var parts = 0
        let started = try texts(from: server, parts: &parts)
        let tree = try #require(started.first { $0["type"] as? String == "tree" })
        #expect((tree["views"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["view 0"])
        #expect(application.traceHandler != nil)

        // A touch from the server: its trace and its chain are reported.
        let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [
            DigitizerContact(identifier: 1, phase: .began, x: 50, y: 0.5),
        ])))
        try server.sendWaiting(ServerMessage.encodeEvent(sequence: 1, readTime: monotonicSeconds(), sendTime: monotonicSeconds(), packet: packet))
        application.runLoop.runUntilIdle()
        let touched = try texts(from: server, parts: &parts)
        let records = touched.filter { $0["type"] as? String == "trace" }.flatMap { $0["records"] as? [[String: Any]] ?? [] }
        #expect(records.contains { $0["step"] as? String == "hidEventReceived" && $0["serverReadTime"] is NSNumber })
        #expect(records.contains { $0["step"] as? String == "touchBound" && ($0["view"] as? [String: Any])?["name"] as? String == "view 0" })
        let chain = try #require(touched.first { $0["type"] as? String == "chain" }?["chain"] as? [[String: Any]])
        expectEqual(chain.compactMap { $0["class"] as? String }, ["UIView", "UIWindow", "UIApplication"])

        try server.sendWaiting(ServerMessage.inspectorCommand(.stop).encoded())
        application.runLoop.runUntilIdle()
        #expect(application.traceHandler == nil)
        _ = try texts(from: server, parts: &parts)
        let moved = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [
            DigitizerContact(identifier: 1, phase: .ended, x: 50, y: 0.5),
        ])))
        try server.sendWaiting(ServerMessage.encodeEvent(sequence: 2, readTime: monotonicSeconds(), sendTime: monotonicSeconds(), packet: moved))
        application.runLoop.runUntilIdle()
        #expect(try texts(from: server, parts: &parts).isEmpty, "nothing is reported once stopped")
    }

    /// A tree longer than one message goes in parts that add up to it.
    @Test func aTreeLongerThanAMessageGoesInParts() throws {
        let (server, window) = try connect(views: 300)
        defer { withExtendedLifetime(window) {} }
        try server.sendWaiting(ServerMessage.inspectorCommand(.start).encoded())
        UIApplication.shared.runLoop.runUntilIdle()
        var parts = 0
        let tree = try #require(try texts(from: server, parts: &parts).first { $0["type"] as? String == "tree" })
        #expect(tree["viewCount"] as? Int == 301)
        #expect(parts >= 2, "about 90 KB of tree")
        try server.sendWaiting(ServerMessage.inspectorCommand(.stop).encoded())
        UIApplication.shared.runLoop.runUntilIdle()
    }
}
