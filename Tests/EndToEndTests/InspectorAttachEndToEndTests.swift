#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HID
import Inspector
import TestExpectations
import Testing

/// `openuikit inspect --attach` across three processes: the event server,
/// TouchLogger (its left half red, its right half blue, each view printing
/// its touch calls) and the inspector's session in this process, attached
/// through the server, with a page played by the test.
@MainActor
@Suite struct InspectorAttachEndToEndTests {
    /// What the page received.
    final class Page: @unchecked Sendable {
        // @unchecked: written and read on the main actor only.
        var texts: [String] = []
        var frames: [Data] = []

        var send: @Sendable (InspectorSession.Outgoing) -> Void {
            { [self] outgoing in
                MainActor.assumeIsolated {
                    switch outgoing {
                    case .text(let text): texts.append(text)
                    case .frame(let png): frames.append(png)
                    case .close: break
                    }
                }
            }
        }

        func messages(_ type: String) -> [[String: Any]] {
            texts.compactMap { text in
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                      object["type"] as? String == type else { return nil }
                return object
            }
        }

        /// Every trace record received, in order.
        var records: [[String: Any]] { messages("trace").flatMap { $0["records"] as? [[String: Any]] ?? [] } }
    }

    /// Takes what the server sends until `condition` holds, for at most `timeout` seconds.
    private func pump(_ session: InspectorSession, timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            session.receiveFromServer()
            if condition() { return true }
            var descriptor = pollfd(fd: session.serverDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20)
        }
        return condition()
    }

    @Test func theTreeArrivesAPageTouchReachesTheViewThroughTheServerAndItsTraceArrives() throws {
        let (server, socket) = try startServer(["--screen", "40x20@2"])
        let app = try startApplication("logger", socket: socket)
        let session = try InspectorSession(attachingTo: "logger", serverPath: socket)
        let page = Page()
        let id = session.connect(send: page.send)

        // The tree: the window and TouchLogger's two views.
        let gotTree = pump(session) {
            page.messages("tree").contains { tree in
                ((tree["views"] as? [[String: Any]]) ?? []).filter { $0["class"] as? String == "LoggingView" }.count == 2
            }
        }
        #expect(gotTree, "the page got \(page.texts)")
        let hello = try #require(page.messages("hello").first)
        #expect(hello["scene"] as? String == "logger")
        #expect(((hello["screen"] as? [String: Any])?["width"] as? NSNumber)?.doubleValue == 40)

        // The screen, from the server's display path: at one pixel per point, red on the left, blue on the right.
        #expect(pump(session) { !page.frames.isEmpty }, "no frame; the server said \(server.lines)")
        if let png = page.frames.first {
            let path = makeTemporaryDirectory() + "/frame.png"
            try png.write(to: URL(fileURLWithPath: path))
            let picture = try ScreenEndToEndTests.Picture(path: path)
            #expect(picture.width == 40 && picture.height == 20)
            expectEqual(picture.pixel(5, 10), ScreenEndToEndTests.red)
            expectEqual(picture.pixel(35, 10), ScreenEndToEndTests.blue)
        }

        // A click on the picture's right half: a touch through the server's input to the right view.
        session.receive(#"{"type":"touch","pointer":1,"phase":"began","x":30,"y":10}"#, from: id)
        session.receive(#"{"type":"touch","pointer":1,"phase":"ended","x":30,"y":10}"#, from: id)
        app.waitFor("right began 1 (30,10)")
        app.waitFor("right ended 1 (30,10)")

        // Its trace: received from the server (with the server's read and send times), bound to the view, delivered.
        let delivered = { (phase: String) in
            page.records.contains { record in
                record["step"] as? String == "touchesDelivered" && record["phase"] as? String == phase
                    && (record["view"] as? [String: Any])?["class"] as? String == "LoggingView"
            }
        }
        #expect(pump(session) { delivered("began") && delivered("ended") }, "the page got \(page.texts.suffix(5))")
        // The server read the event, then sent it, then the application got it: one clock, in that order.
        let received = page.records.filter { $0["step"] as? String == "hidEventReceived" }
        let times = received.compactMap { record -> (read: Double, sent: Double, got: Double)? in
            guard let read = record["serverReadTime"] as? Double, let sent = record["serverSendTime"] as? Double,
                  let got = record["t"] as? Double else { return nil }
            return (read, sent, got)
        }
        #expect(!times.isEmpty && times.count == received.count, "records: \(received)")
        #expect(times.allSatisfy { $0.read <= $0.sent && $0.sent <= $0.got }, "read, sent, received: \(times)")
        let chain = try #require(page.messages("chain").first?["chain"] as? [[String: Any]])
        expectEqual(chain.compactMap { $0["class"] as? String }, ["LoggingView", "UIWindow", "UIApplication", "AppDelegate"])

        // The page goes: the application stops reporting, and goes on.
        session.disconnect(id)
        server.signal(SIGTERM)
        expectEqual(server.waitForExit(), 0)
        expectEqual(app.waitForExit(), 0)
    }
}
