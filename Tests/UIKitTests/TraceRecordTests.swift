import Foundation
import HID
import TestExpectations
import Testing
@testable import UIKit

/// The trace (`UIApplication.traceHandler`): every step of an event's way,
/// compared record by record as the JSON lines `openuikit trace --json`
/// writes.
@MainActor
@Suite struct TraceRecordTests {
    /// The JSON lines of everything `body` makes happen.
    private func traceLines(_ body: () -> Void) -> [String] {
        let encoder = TraceJSONEncoder()
        var lines: [String] = []
        UIApplication.shared.traceHandler = { lines.append(encoder.encode($0)) }
        body()
        UIApplication.shared.traceHandler = nil
        return lines
    }

    private func named<View: UIView>(_ view: View, _ name: String) -> View {
        view.accessibilityIdentifier = name
        return view
    }

    /// Seed scenario B: root ← light grey (33,147,240,128), then yellow
    /// (33,303,240,128); light grey ← red (0,0,196,100), then green
    /// (138,57,94,63); a tap at (56.67,167). The hit-test walk in the
    /// article's order (yellow asked first and refusing at (23.67,-136),
    /// light grey accepting at (23.67,20), green refusing at
    /// (-114.33,-37), red accepting), then touchesBegan and touchesEnded
    /// passed from red to light grey to root and on up the chain, which no
    /// one handles.
    @Test func seedScenarioBInTheArticlesOrder() throws {
        let window = named(makeWindow(frame: CGRect(x: 0, y: 0, width: 306, height: 460)), "window")
        let root = named(UIView(frame: window.bounds), "root")
        let lightGrey = named(UIView(frame: CGRect(x: 33, y: 147, width: 240, height: 128)), "light grey")
        let yellow = named(UIView(frame: CGRect(x: 33, y: 303, width: 240, height: 128)), "yellow")
        window.addSubview(root)
        root.addSubview(lightGrey)
        root.addSubview(yellow)
        lightGrey.addSubview(named(UIView(frame: CGRect(x: 0, y: 0, width: 196, height: 100)), "red"))
        lightGrey.addSubview(named(UIView(frame: CGRect(x: 138, y: 57, width: 94, height: 63)), "green"))
        let synthesizer = TouchSynthesizer(window: window)
        UIApplication.shared.runLoop.runUntilIdle()

        let lines = traceLines { synthesizer.tap(at: CGPoint(x: 56.67, y: 167)) }
        expectEqual(lines, Self.seedScenarioB, Comment(rawValue: "\n" + lines.joined(separator: "\n")))
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }

    static let seedScenarioB: [String] = [
        // The finger lands: source1 reads the frame, source0 queues it, the queue hands it out.
        #"{"t":0,"event":null,"touches":[],"step":"hidEventReceived","kind":"digitizer","serverReadTime":null,"serverSendTime":null}"#,
        #"{"t":0,"event":null,"touches":[],"step":"eventQueued","type":"touches","queueLength":1}"#,
        #"{"t":0,"event":1,"touches":[],"step":"eventDelivery","type":"touches","touchCount":1}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":1,"class":"UIWindow","name":"window"},"point":[56.67,167]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":1,"class":"UIWindow","name":"window"},"point":[56.67,167],"result":true}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":2,"class":"UIView","name":"root"},"point":[56.67,167]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":2,"class":"UIView","name":"root"},"point":[56.67,167],"result":true}"#,
        // The article's walk: yellow (added last) first, refusing; light grey; green refusing; red.
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":3,"class":"UIView","name":"yellow"},"point":[23.67,-136]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":3,"class":"UIView","name":"yellow"},"point":[23.67,-136],"result":false}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":3,"class":"UIView","name":"yellow"},"result":null}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":4,"class":"UIView","name":"light grey"},"point":[23.67,20]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":4,"class":"UIView","name":"light grey"},"point":[23.67,20],"result":true}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":5,"class":"UIView","name":"green"},"point":[-114.33,-37]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":5,"class":"UIView","name":"green"},"point":[-114.33,-37],"result":false}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":5,"class":"UIView","name":"green"},"result":null}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":6,"class":"UIView","name":"red"},"point":[23.67,20]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":6,"class":"UIView","name":"red"},"point":[23.67,20],"result":true}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":6,"class":"UIView","name":"red"},"result":{"id":6,"class":"UIView","name":"red"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":4,"class":"UIView","name":"light grey"},"result":{"id":6,"class":"UIView","name":"red"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":2,"class":"UIView","name":"root"},"result":{"id":6,"class":"UIView","name":"red"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":1,"class":"UIWindow","name":"window"},"result":{"id":6,"class":"UIView","name":"red"}}"#,
        // Red is the touch's view; touchesBegan goes to it and up the chain, which nobody handles.
        #"{"t":0,"event":1,"touches":[1],"step":"touchBound","view":{"id":6,"class":"UIView","name":"red"},"window":{"id":1,"class":"UIWindow","name":"window"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesDelivered","phase":"began","view":{"id":6,"class":"UIView","name":"red"},"touchCount":1}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesPassedToNext","phase":"began","from":{"id":6,"class":"UIView","name":"red"},"to":{"id":4,"class":"UIView","name":"light grey"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesPassedToNext","phase":"began","from":{"id":4,"class":"UIView","name":"light grey"},"to":{"id":2,"class":"UIView","name":"root"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesPassedToNext","phase":"began","from":{"id":2,"class":"UIView","name":"root"},"to":{"id":1,"class":"UIWindow","name":"window"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesPassedToNext","phase":"began","from":{"id":1,"class":"UIWindow","name":"window"},"to":{"id":7,"class":"UIApplication"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"touchesPassedToNext","phase":"began","from":{"id":7,"class":"UIApplication"},"to":null}"#,
        #"{"t":0,"event":null,"touches":[],"step":"hidEventReceived","kind":"digitizer","serverReadTime":null,"serverSendTime":null}"#,
        #"{"t":0,"event":null,"touches":[],"step":"eventQueued","type":"touches","queueLength":1}"#,
        // The finger lifts: touchesEnded the same way.
        #"{"t":0,"event":2,"touches":[],"step":"eventDelivery","type":"touches","touchCount":1}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesDelivered","phase":"ended","view":{"id":6,"class":"UIView","name":"red"},"touchCount":1}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesPassedToNext","phase":"ended","from":{"id":6,"class":"UIView","name":"red"},"to":{"id":4,"class":"UIView","name":"light grey"}}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesPassedToNext","phase":"ended","from":{"id":4,"class":"UIView","name":"light grey"},"to":{"id":2,"class":"UIView","name":"root"}}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesPassedToNext","phase":"ended","from":{"id":2,"class":"UIView","name":"root"},"to":{"id":1,"class":"UIWindow","name":"window"}}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesPassedToNext","phase":"ended","from":{"id":1,"class":"UIWindow","name":"window"},"to":{"id":7,"class":"UIApplication"}}"#,
        #"{"t":0,"event":2,"touches":[1],"step":"touchesPassedToNext","phase":"ended","from":{"id":7,"class":"UIApplication"},"to":null}"#,
    ]

    /// A button in a scroll view whose tap recognizer would take the tap:
    /// the scroll view delays the button's touchesBegan (150 ms), the
    /// button claims the tap from the recognizer (which fails, its
    /// should-begin check denied), the scroll view's pan fails as the
    /// finger lifts without moving, the delayed touchesBegan reaches the
    /// button, and its touchUpInside sends the action.
    @Test func tapOnAButtonInAScrollViewWithATapRecognizerOnIt() throws {
        let window = named(makeWindow(), "window")
        let scrollView = named(UIScrollView(frame: window.bounds), "scroll view")
        scrollView.contentSize = CGSize(width: 400, height: 4000)
        let button = named(UIButton(frame: CGRect(x: 100, y: 100, width: 200, height: 60)), "button")
        var actions = 0
        button.addAction(UIAction(title: "count") { _ in actions += 1 }, for: .touchUpInside)
        let tap = UITapGestureRecognizer()
        tap.name = "parent's tap"
        scrollView.addGestureRecognizer(tap)
        scrollView.panGestureRecognizer.name = "scroll view's pan"
        scrollView.addSubview(button)
        window.addSubview(scrollView)
        let synthesizer = TouchSynthesizer(window: window)
        UIApplication.shared.runLoop.runUntilIdle()

        let lines = traceLines {
            let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 130))
            synthesizer.advance(by: 0.08)
            synthesizer.touchUp(finger)
        }
        expectEqual(actions, 1)
        expectEqual(lines, Self.buttonInScrollView, Comment(rawValue: "\n" + lines.joined(separator: "\n")))
        for line in lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }

    static let buttonInScrollView: [String] = [
        #"{"t":0,"event":null,"touches":[],"step":"hidEventReceived","kind":"digitizer","serverReadTime":null,"serverSendTime":null}"#,
        #"{"t":0,"event":null,"touches":[],"step":"eventQueued","type":"touches","queueLength":1}"#,
        #"{"t":0,"event":1,"touches":[],"step":"eventDelivery","type":"touches","touchCount":1}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":1,"class":"UIWindow","name":"window"},"point":[200,130]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":1,"class":"UIWindow","name":"window"},"point":[200,130],"result":true}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":2,"class":"UIScrollView","name":"scroll view"},"point":[200,130]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":2,"class":"UIScrollView","name":"scroll view"},"point":[200,130],"result":true}"#,
        // The button is found (its label and image views take no touches).
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":3,"class":"UIButton","name":"button"},"point":[100,30]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"pointInside","view":{"id":3,"class":"UIButton","name":"button"},"point":[100,30],"result":true}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":4,"class":"UILabel"},"point":[0,0]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":4,"class":"UILabel"},"result":null}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":5,"class":"UIImageView"},"point":[0,0]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":5,"class":"UIImageView"},"result":null}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTest","view":{"id":6,"class":"UIImageView"},"point":[100,30]}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":6,"class":"UIImageView"},"result":null}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":3,"class":"UIButton","name":"button"},"result":{"id":3,"class":"UIButton","name":"button"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":2,"class":"UIScrollView","name":"scroll view"},"result":{"id":3,"class":"UIButton","name":"button"}}"#,
        #"{"t":0,"event":1,"touches":[1],"step":"hitTestResult","view":{"id":1,"class":"UIWindow","name":"window"},"result":{"id":3,"class":"UIButton","name":"button"}}"#,
        // Bound to the button; the scroll view holds its touchesBegan back (the content delay).
        #"{"t":0,"event":1,"touches":[1],"step":"touchBound","view":{"id":3,"class":"UIButton","name":"button"},"window":{"id":1,"class":"UIWindow","name":"window"}}"#,
        // 80 ms later the finger lifts, before the 150 ms delay is over.
        #"{"t":0.08,"event":null,"touches":[],"step":"hidEventReceived","kind":"digitizer","serverReadTime":null,"serverSendTime":null}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"eventQueued","type":"touches","queueLength":1}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"eventDelivery","type":"touches","touchCount":1}"#,
        // The pan fails (the finger lifted without moving): the held touchesBegan reaches the button.
        #"{"t":0.08,"event":2,"touches":[1],"step":"gestureStateChanged","recognizer":{"id":7,"class":"ScrollViewPanGestureRecognizer","name":"scroll view's pan"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"possible","to":"failed","reason":"requested","other":null}"#,
        #"{"t":0.08,"event":2,"touches":[1],"step":"touchesDelivered","phase":"began","view":{"id":3,"class":"UIButton","name":"button"},"touchCount":1}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"controlEvents","control":{"id":3,"class":"UIButton","name":"button"},"events":["touchDown"]}"#,
        #"{"t":0.08,"event":2,"touches":[1],"step":"gestureStateChanged","recognizer":{"id":8,"class":"DelayedTouchesBeganGestureRecognizer"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"possible","to":"failed","reason":"requested","other":null}"#,
        // The tap would recognize, but the button claims its own tap: should-begin is denied.
        #"{"t":0.08,"event":2,"touches":[1],"step":"gestureStateChanged","recognizer":{"id":9,"class":"UITapGestureRecognizer","name":"parent's tap"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"possible","to":"failed","reason":"shouldBeginDenied","other":null}"#,
        // With the tap failed, the touchesEnded it held back is delivered: touchUpInside, the action.
        #"{"t":0.08,"event":2,"touches":[1],"step":"touchesDelivered","phase":"ended","view":{"id":3,"class":"UIButton","name":"button"},"touchCount":1}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"controlEvents","control":{"id":3,"class":"UIButton","name":"button"},"events":["touchUpInside"]}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"actionSent","control":{"id":3,"class":"UIButton","name":"button"},"action":"UIAction count","target":null}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"controlEvents","control":{"id":3,"class":"UIButton","name":"button"},"events":["primaryActionTriggered"]}"#,
        // The gesture is over: every recognizer is reset.
        #"{"t":0.08,"event":2,"touches":[],"step":"gestureStateChanged","recognizer":{"id":7,"class":"ScrollViewPanGestureRecognizer","name":"scroll view's pan"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"failed","to":"possible","reason":"reset","other":null}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"gestureStateChanged","recognizer":{"id":8,"class":"DelayedTouchesBeganGestureRecognizer"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"failed","to":"possible","reason":"reset","other":null}"#,
        #"{"t":0.08,"event":2,"touches":[],"step":"gestureStateChanged","recognizer":{"id":9,"class":"UITapGestureRecognizer","name":"parent's tap"},"view":{"id":2,"class":"UIScrollView","name":"scroll view"},"from":"failed","to":"possible","reason":"reset","other":null}"#,
        // The end of the turn: the highlight's change is laid out, drawn and committed.
        #"{"t":0.08,"event":null,"touches":[],"step":"commit"}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"layout","view":{"id":3,"class":"UIButton","name":"button"}}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"layout","view":{"id":6,"class":"UIImageView"}}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"layout","view":{"id":5,"class":"UIImageView"}}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"layout","view":{"id":4,"class":"UILabel"}}"#,
        #"{"t":0.08,"event":null,"touches":[],"step":"display","view":{"id":4,"class":"UILabel"}}"#,
    ]

    /// Off, nothing is recorded and the handler is never called; the
    /// recorder keeps only the last events it is sized for.
    /// Seed scenario D: white's `hitTest` override calls `super` and
    /// answers red whenever the point is inside it. Tracing is chosen in
    /// each default `hitTest`, so the walk below an override that calls
    /// `super` is traced too: white's `point(inside:)`, green asked first
    /// and accepting, then white's override replacing green by red.
    @Test func theWalkBelowAnOverrideThatCallsSuperIsTraced() {
        final class White: UIView {
            override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
                super.hitTest(point, with: event) == nil ? nil : subviews[0]
            }
        }
        let window = named(makeWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200)), "window")
        let white = named(White(frame: CGRect(x: 0, y: 0, width: 200, height: 200)), "white")
        window.addSubview(white)
        white.addSubview(named(UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100)), "red"))
        white.addSubview(named(UIView(frame: CGRect(x: 100, y: 100, width: 100, height: 100)), "green"))
        let synthesizer = TouchSynthesizer(window: window)
        UIApplication.shared.runLoop.runUntilIdle()

        var walk: [String] = []
        UIApplication.shared.traceHandler = { record in
            switch record.step {
            case .hitTest(let view, _): walk.append("\(view.accessibilityIdentifier ?? "?").hitTest")
            case .pointInside(let view, _, let inside): walk.append("\(view.accessibilityIdentifier ?? "?").point(inside:) \(inside)")
            case .hitTestResult(let view, let result): walk.append("\(view.accessibilityIdentifier ?? "?") → \(result?.accessibilityIdentifier ?? "nil")")
            default: break
            }
        }
        synthesizer.tap(at: CGPoint(x: 150, y: 150))
        UIApplication.shared.traceHandler = nil
        #expect(walk == [
            "window.hitTest", "window.point(inside:) true",
            "white.hitTest", "white.point(inside:) true",
            "green.hitTest", "green.point(inside:) true", "green → green",
            "white → red",
            "window → red",
        ])
    }

    /// The frame that showed a touch's result: the touch turns the view
    /// green, the application draws and commits a frame at the next
    /// refresh, and when the server says it showed that commit, the
    /// trace's last record names it, with the time the server gave.
    @Test func theServersStepsAndTheFrameThatShowsATouchsResultAreTraced() throws {
        final class TurnsGreen: UIView {
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { backgroundColor = .green }
        }
        let application = UIApplication.shared
        application.resetForTesting()
        let server = try application.connectToFakeServer(screenWidth: 40, screenHeight: 20, scale: 1)
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        window.addSubview(named(TurnsGreen(frame: window.bounds), "view"))
        window.isHidden = false
        /// Gives the refresh the application waits for and returns the commit it then makes.
        func refreshAndTakeCommit() throws -> UInt64? {
            application.runLoop.runUntilIdle()
            try server.sendWaiting(ServerMessage.frameSignal(.init(sequence: 1, time: monotonicSeconds(), refreshInterval: 1.0 / 60, startTime: 0)).encoded())
            application.runLoop.runUntilIdle()
            var commit: UInt64?
            while let message = try server.receiveMessage() {
                if case .commitFrame(let frame) = try message.get() { commit = frame.commitIdentifier }
            }
            return commit
        }
        let firstCommit = try #require(try refreshAndTakeCommit(), "the window's first frame")

        var steps: [String] = []
        application.traceHandler = { record in
            switch record.step {
            case .touchesDelivered(let phase, let view, _): steps.append("\(view.accessibilityIdentifier ?? "?") \(phase == .began ? "began" : "other")")
            case .framePresented(let commit, let time): steps.append("frame \(commit) at \(time)")
            case .commit: steps.append("commit")
            case .hidEventReceived(_, let read, let sent): steps.append("received: read at \(read ?? -1), sent at \(sent ?? -1)")
            default: break
            }
        }
        let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: 1, contacts: [
            DigitizerContact(identifier: 1, phase: .began, x: 10, y: 10),
        ])))
        // The server's two steps travel with the event and come back in its record.
        try server.sendWaiting(ServerMessage.encodeEvent(sequence: 1, readTime: 100.25, sendTime: 100.5, packet: packet))
        let commit = try #require(try refreshAndTakeCommit(), "no frame after the touch")
        #expect(commit > firstCommit)
        try server.sendWaiting(ServerMessage.framePresented(.init(
            commitIdentifier: commit, sequence: 2, time: 1234.5, refreshInterval: 1.0 / 60)).encoded())
        application.runLoop.runUntilIdle()
        application.traceHandler = nil
        expectEqual(steps, ["received: read at 100.25, sent at 100.5", "view began", "commit", "frame \(commit) at 1234.5"])
        application.resetForTesting()
    }

    @Test func recorderKeepsTheLastEvents() {
        let window = makeWindow()
        let synthesizer = TouchSynthesizer(window: window)
        let recorder = TraceRecorder(eventCapacity: 3)
        UIApplication.shared.traceHandler = recorder.record
        for _ in 0..<4 { synthesizer.tap(at: CGPoint(x: 10, y: 10)) }
        UIApplication.shared.traceHandler = nil
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        // Four taps are eight events (down, up); the last three are kept.
        // The records made before the first event (the first frame read
        // and queued) were a group of their own, dropped with events 1–5.
        expectEqual(recorder.events.map(\.eventID), [6, 7, 8])
        expectEqual(recorder.droppedEventCount, 6)
        #expect(recorder.records.allSatisfy { $0.eventID.map { (6...8).contains($0) } ?? true })
    }

    @Test func recorderCapsTheRecordsOfOneEvent() {
        let window = makeWindow()
        for _ in 0..<50 { window.addSubview(UIView(frame: CGRect(x: 500, y: 500, width: 1, height: 1))) }
        let synthesizer = TouchSynthesizer(window: window)
        let recorder = TraceRecorder(eventCapacity: 2, recordsPerEvent: 10)
        UIApplication.shared.traceHandler = recorder.record
        synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        UIApplication.shared.traceHandler = nil
        let event = recorder.events.last!
        expectEqual(event.records.count, 10)
        #expect(event.droppedCount > 100)  // 50 subviews asked, two records each
    }

    @Test func jsonStringsAndNumbersAreEscapedAndRounded() {
        expectEqual(TraceJSONEncoder.string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"")
        expectEqual(TraceJSONEncoder.number(23.670000000000002), "23.67")
        expectEqual(TraceJSONEncoder.number(-136), "-136")
        expectEqual(TraceJSONEncoder.number(.nan), "null")
        expectEqual(TraceJSONEncoder.names(of: [.touchDown, .touchDownRepeat]), ["touchDown", "touchDownRepeat"])
    }
}
