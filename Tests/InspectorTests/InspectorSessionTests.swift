import Foundation
import HID
import TestExpectations
import Testing
@testable import Inspector
import UIKit

/// The inspector's application side, with pages played by the test: what
/// a page is sent, what its touches do to the views, and what happens
/// when the page misbehaves or goes away.
@MainActor
@Suite struct InspectorSessionTests {
    /// A view that counts its touch methods.
    final class CountingView: UIView {
        var calls: [String] = []
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("began") }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("moved") }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("ended") }
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("cancelled") }
    }

    /// What a page received.
    @MainActor final class Page {
        var texts: [String] = []
        var frames: [Data] = []
        var closed: String?

        var send: @Sendable (InspectorSession.Outgoing) -> Void {
            { [self] outgoing in
                MainActor.assumeIsolated {
                    switch outgoing {
                    case .text(let text): texts.append(text)
                    case .frame(let png): frames.append(png)
                    case .close(let reason): closed = reason
                    }
                }
            }
        }

        /// The messages of `type`, parsed.
        func messages(_ type: String) -> [[String: Any]] {
            texts.compactMap { text in
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      object["type"] as? String == type else { return nil }
                return object
            }
        }
    }

    /// A session on a one-view scene (the view at (50,100,200,100)), its application reset first.
    private func makeSession() throws -> (InspectorSession, CountingView) {
        UIApplication.shared.resetForTesting()
        UIApplication.shared.diagnostics.handler = nil
        let view = CountingView(frame: CGRect(x: 50, y: 100, width: 200, height: 100))
        view.accessibilityIdentifier = "target"
        let scene = InspectorSession.Scene(name: "one view", summary: "a view at (50,100,200,100)") {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            window.addSubview(view)
            return window
        }
        let empty = InspectorSession.Scene(name: "empty", summary: "nothing") { UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844)) }
        let session = try InspectorSession(scenes: [scene, empty], initialScene: "one view")
        UIApplication.shared.runLoop.runUntilIdle()
        return (session, view)
    }

    /// What the run loop does after the page's messages: the events, whose
    /// trace the session then sends.
    private func settle(_ session: InspectorSession) {
        UIApplication.shared.runLoop.runUntilIdle()
    }

    @Test func aPageIsWelcomedWithTheScenesTheTreeAndAFrame() throws {
        let (session, view) = try makeSession()
        let page = Page()
        _ = session.connect(send: page.send)
        let hello = try #require(page.messages("hello").first)
        #expect(hello["scene"] as? String == "one view")
        #expect((hello["scenes"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["one view", "empty"])
        let tree = try #require(page.messages("tree").first)
        let views = try #require(tree["views"] as? [[String: Any]])
        expectEqual(views.map { $0["class"] as? String }, ["UIWindow", "CountingView"])
        #expect(views[1]["name"] as? String == "target")
        #expect(views[1]["screen"] as? [Double] == [50, 100, 200, 100])
        #expect(views[1]["parent"] as? Int == views[0]["id"] as? Int)
        // A PNG, at one pixel per point.
        let frame = try #require(page.frames.first)
        expectEqual(frame.prefix(8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        expectEqual(page.frames.count, 1)
        // The next frame waits until the page showed this one.
        view.backgroundColor = .red
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(page.frames.count, 1)
        session.receive(#"{"type":"frameShown"}"#, from: 1)
        expectEqual(page.frames.count, 2)
    }

    @Test func aClickIsATouchThroughTheInputPortAndItsWayIsSent() throws {
        let (session, view) = try makeSession()
        let page = Page()
        let id = session.connect(send: page.send)
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: id)
        settle(session)
        session.receive(#"{"type":"touch","pointer":1,"phase":"ended","x":100,"y":150}"#, from: id)
        settle(session)
        expectEqual(view.calls, ["began", "ended"])
        let records = page.messages("trace").flatMap { ($0["records"] as? [[String: Any]]) ?? [] }
        let bound = try #require(records.first { $0["step"] as? String == "touchBound" })
        #expect((bound["view"] as? [String: Any])?["name"] as? String == "target")
        let delivered = records.filter { $0["step"] as? String == "touchesDelivered" }.compactMap { $0["phase"] as? String }
        expectEqual(delivered, ["began", "ended"])
        let chain = try #require(page.messages("chain").first?["chain"] as? [[String: Any]])
        expectEqual(chain.compactMap { $0["class"] as? String }, ["CountingView", "UIWindow", "UIApplication"])
    }

    @Test func malformedMessagesAreAnsweredAndChangeNothing() throws {
        let (session, view) = try makeSession()
        let page = Page()
        let id = session.connect(send: page.send)
        let before = page.texts.count
        for bad in [
            "not json", "[1,2]", #"{"no":"type"}"#, #"{"type":"dance"}"#,
            #"{"type":"touch","phase":"wiggle","x":1,"y":1}"#, #"{"type":"touch","phase":"began","x":"1","y":1}"#,
            #"{"type":"touch","phase":"moved","x":1,"y":1}"#, #"{"type":"scene","name":"nowhere"}"#,
            String(repeating: " ", count: 5_000),
        ] {
            session.receive(bad, from: id)
        }
        session.receiveBinary(byteCount: 12, from: id)
        settle(session)
        let errors = page.messages("error").compactMap { $0["message"] as? String }
        expectEqual(errors.count, 10)
        #expect(errors[0].hasPrefix("malformed message: not JSON"))
        expectEqual(errors[3], "unknown message type \"dance\" (touch, scene, frameShown, tree)")
        #expect(errors[6].contains("was the page reloaded mid-gesture?"))
        #expect(errors[7].hasPrefix("no scene named \"nowhere\""))
        expectEqual(page.texts.count, before + 10)
        #expect(view.calls.isEmpty)
        expectEqual(session.sceneName, "one view")
    }

    @Test func aSecondPageTakesOverAndTheFirstIsToldWhy() throws {
        let (session, view) = try makeSession()
        let first = Page(), second = Page()
        let firstID = session.connect(send: first.send)
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: firstID)
        settle(session)
        // A reload: the new page connects before the old socket closes.
        let secondID = session.connect(send: second.send)
        settle(session)
        #expect(first.messages("error").first?["message"] as? String
                == "another page connected to the inspector; this one is no longer live (reload it to take over)")
        expectEqual(first.closed, "replaced by a newer page")
        // The finger the first page held down is lifted, as cancelled.
        expectEqual(view.calls, ["began", "cancelled"])
        // The old page is no longer heard; the new one is.
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: firstID)
        session.disconnect(firstID)
        settle(session)
        expectEqual(view.calls, ["began", "cancelled"])
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: secondID)
        settle(session)
        expectEqual(view.calls, ["began", "cancelled", "began"])
    }

    @Test func aSocketClosedMidGestureCancelsItsTouches() throws {
        let (session, view) = try makeSession()
        let page = Page()
        let id = session.connect(send: page.send)
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: id)
        session.receive(#"{"type":"touch","pointer":1,"phase":"moved","x":110,"y":150}"#, from: id)
        settle(session)
        session.disconnect(id)
        settle(session)
        expectEqual(view.calls, ["began", "moved", "cancelled"])
        // The application goes on: a new page's tap works.
        let next = Page()
        let nextID = session.connect(send: next.send)
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":100,"y":150}"#, from: nextID)
        session.receive(#"{"type":"touch","pointer":1,"phase":"ended","x":100,"y":150}"#, from: nextID)
        settle(session)
        expectEqual(view.calls, ["began", "moved", "cancelled", "began", "ended"])
    }

    @Test func thePickerSwitchesScenes() throws {
        let (session, _) = try makeSession()
        let page = Page()
        let id = session.connect(send: page.send)
        session.receive(#"{"type":"scene","name":"empty"}"#, from: id)
        settle(session)
        expectEqual(session.sceneName, "empty")
        #expect(page.messages("hello").last?["scene"] as? String == "empty")
        let views = try #require(page.messages("tree").last?["views"] as? [[String: Any]])
        expectEqual(views.count, 1)
    }

    /// 10,000 views, 100 rows of 100: the tree is described and sent whole
    /// (docs/performance.md has the time it takes).
    @Test func aTreeOfTenThousandViewsIsSentWhole() throws {
        UIApplication.shared.resetForTesting()
        let scene = InspectorSession.Scene(name: "10,000 views", summary: "100 rows of 100 views") {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            for row in 0..<100 {
                let rowView = UIView(frame: CGRect(x: 0, y: CGFloat(row) * 8, width: 390, height: 8))
                for column in 0..<99 {
                    rowView.addSubview(UIView(frame: CGRect(x: CGFloat(column) * 3.9, y: 0, width: 3.9, height: 8)))
                }
                window.addSubview(rowView)
            }
            return window
        }
        let session = try InspectorSession(scenes: [scene], initialScene: scene.name)
        let page = Page()
        _ = session.connect(send: page.send)
        let tree = try #require(page.messages("tree").last)
        #expect(tree["viewCount"] as? Int == 10_001)
        #expect((tree["views"] as? [Any])?.count == 10_001)
        let measured = try #require(session.lastTreeMeasurement)
        expectEqual(measured.views, 10_001)
        print("inspector: a tree of \(measured.views) views described in \(String(format: "%.1f", measured.milliseconds)) ms, \(page.texts.last { $0.contains("\"tree\"") }!.utf8.count) bytes")
    }

    @Test func requestsFromAnotherSiteAreTurnedAway() {
        let names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        #expect(InspectorServer.isSameOrigin(host: "127.0.0.1:8420", origin: nil, names: names))
        #expect(InspectorServer.isSameOrigin(host: "localhost:8420", origin: "http://localhost:8420", names: names))
        #expect(InspectorServer.isSameOrigin(host: "[::1]:8420", origin: "http://[::1]:8420", names: names))
        #expect(!InspectorServer.isSameOrigin(host: "evil.example:8420", origin: nil, names: names))
        #expect(!InspectorServer.isSameOrigin(host: "127.0.0.1:8420", origin: "http://evil.example", names: names))
        #expect(!InspectorServer.isSameOrigin(host: nil, origin: nil, names: names))
    }
}
