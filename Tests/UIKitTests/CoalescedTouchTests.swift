#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing
@testable import UIKit

/// Touch moves once per frame: the samples a delivery coalesces
/// (`coalescedTouches(for:)`), the one predicted after them
/// (`predictedTouches(for:)`), and which frames are held for which.
@MainActor
@Suite struct CoalescedTouchTests {
    /// What a view saw of its touch at each call, read during the call
    /// (the coalesced and predicted touches are reused by the next one).
    struct Seen {
        struct Sample: Equatable {
            let location: CGPoint
            let previousLocation: CGPoint
            let timestamp: TimeInterval
            let phase: UITouch.Phase
            let force: CGFloat
        }
        let phase: String
        let touch: Sample
        let touchCount: Int
        let coalesced: [Sample]
        let coalescedViewsAreTheTouchs: Bool
        let predicted: [Sample]
    }

    final class SamplingView: UIView {
        var seen: [Seen] = []

        override init(frame: CGRect) {
            super.init(frame: frame)
            isMultipleTouchEnabled = true
        }

        required init?(coder: NSCoder) { nil }

        /// The sample of `touch` in this view's coordinates.
        func sample(_ touch: UITouch) -> Seen.Sample {
            Seen.Sample(location: touch.location(in: self), previousLocation: touch.previousLocation(in: self),
                        timestamp: touch.timestamp, phase: touch.phase, force: touch.force)
        }

        func record(_ phase: String, _ touches: Set<UITouch>, _ event: UIEvent?) {
            // The touch that began first (the lowest finger): tests move one finger at a time.
            guard let touch = touches.min(by: { $0.fingerIdentifier < $1.fingerIdentifier }), let event else { return }
            let coalesced = event.coalescedTouches(for: touch) ?? []
            seen.append(Seen(
                phase: phase, touch: sample(touch), touchCount: touches.count,
                coalesced: coalesced.map(sample),
                coalescedViewsAreTheTouchs: coalesced.allSatisfy { $0.view === touch.view && $0.window === touch.window && $0.type == touch.type },
                predicted: (event.predictedTouches(for: touch) ?? []).map(sample)))
        }

        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { record("began", touches, event) }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { record("moved", touches, event) }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { record("ended", touches, event) }
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { record("cancelled", touches, event) }
    }

    /// A window with a sampling view at (10, 20), so that locations in the
    /// view differ from those in the window by (-10, -20).
    func makeScene() -> (SamplingView, TouchSynthesizer) {
        let window = makeWindow()
        let view = SamplingView(frame: CGRect(x: 10, y: 20, width: 300, height: 300))
        window.addSubview(view)
        return (view, TouchSynthesizer(window: window))
    }

    func expectClose(_ a: TimeInterval, _ b: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(a - b) < 1e-9, "\(a) is not \(b)", sourceLocation: sourceLocation)
    }

    func expectClose(_ a: CGPoint, _ b: CGPoint, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "\(a) is not \(b)", sourceLocation: sourceLocation)
    }

    // MARK: Coalesced touches

    @Test func samplesInOneFrameReachTheViewAsOneMoveWithEverySampleInOrder() throws {
        let (view, synthesizer) = makeScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        synthesizer.advance(by: 0.016)
        let start = synthesizer.now
        synthesizer.touchMove(finger, through: [CGPoint(x: 30, y: 30), CGPoint(x: 40, y: 35), CGPoint(x: 50, y: 45)], sampleInterval: 0.004)
        expectEqual(view.seen.map(\.phase), ["began", "moved"])
        let move = try #require(view.seen.last)
        // The touch is the last sample, and its previous location is where
        // the previous delivery (the landing) left it.
        expectEqual(move.touch.location, CGPoint(x: 40, y: 25))
        expectEqual(move.touch.previousLocation, CGPoint(x: 10, y: 10))
        expectClose(move.touch.timestamp, start + 0.008)
        // Every sample, in order, each with its own time and the sample before it as its previous location.
        expectEqual(move.coalesced.map(\.location), [CGPoint(x: 20, y: 10), CGPoint(x: 30, y: 15), CGPoint(x: 40, y: 25)])
        expectEqual(move.coalesced.map(\.previousLocation), [CGPoint(x: 10, y: 10), CGPoint(x: 20, y: 10), CGPoint(x: 30, y: 15)])
        expectEqual(move.coalesced.count, 3)
        for (index, sample) in move.coalesced.enumerated() { expectClose(sample.timestamp, start + 0.004 * Double(index)) }
        #expect(move.coalesced.allSatisfy { $0.phase == .moved })
        #expect(move.coalescedViewsAreTheTouchs)
        // The last is a copy of the touch.
        let last = try #require(move.coalesced.last)
        #expect(last.location == move.touch.location && last.timestamp == move.touch.timestamp)
        #expect(last.phase == move.touch.phase && last.force == move.touch.force)
    }

    @Test func aMoveOfItsOwnFrameIsItsOwnOneSample() throws {
        let (view, synthesizer) = makeScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        synthesizer.advance(by: 0.01)
        synthesizer.touchMove(finger, to: CGPoint(x: 25, y: 30))
        let move = try #require(view.seen.last)
        expectEqual(move.phase, "moved")
        expectEqual(move.coalesced, [move.touch])
        expectEqual(view.seen[0].coalesced, [view.seen[0].touch], "a landing too")
        synthesizer.touchUp(finger)
        let lift = try #require(view.seen.last)
        #expect(lift.phase == "ended" && lift.coalesced == [lift.touch])
    }

    @Test func aTouchThatIsNotInTheEventHasNoSamples() throws {
        let (view, synthesizer) = makeScene()
        final class Keeper: UIView {
            var kept: UITouch?
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { kept = touches.first }
        }
        let other = Keeper(frame: CGRect(x: 350, y: 20, width: 40, height: 40))
        view.superview?.addSubview(other)
        synthesizer.tap(at: CGPoint(x: 360, y: 30))
        let lifted = try #require(other.kept)
        synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        let event = UIApplication.shared.touchesEvent
        #expect(event.coalescedTouches(for: lifted) == nil)
        #expect(event.predictedTouches(for: lifted) == nil)
        expectEqual(view.seen.count, 1)
    }

    @Test func coalescedTouchesAreReusedFromDeliveryToDelivery() throws {
        let (_, synthesizer) = makeScene()
        final class Collector: UIView {
            var identities: [[ObjectIdentifier]] = []
            override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
                identities.append((event?.coalescedTouches(for: touches.first!) ?? []).map(ObjectIdentifier.init))
            }
        }
        let collector = Collector(frame: CGRect(x: 0, y: 400, width: 200, height: 200))
        synthesizer.window.addSubview(collector)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 410))
        synthesizer.touchMove(finger, through: [CGPoint(x: 20, y: 410), CGPoint(x: 30, y: 410)], sampleInterval: 0.004)
        synthesizer.touchMove(finger, through: [CGPoint(x: 40, y: 410), CGPoint(x: 50, y: 410)], sampleInterval: 0.004)
        expectEqual(collector.identities.count, 2)
        expectEqual(collector.identities[0], collector.identities[1])
    }

    // MARK: Which frames are held

    @Test func aLandingOrLiftIsNeverHeldAndThePendingMovesGoFirst() throws {
        let (view, synthesizer) = makeScene()
        synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        let port = UIApplication.shared.inputPort
        func frame(_ time: TimeInterval, _ contacts: [DigitizerContact]) {
            port.send(.digitizer(DigitizerFrame(timestamp: time, contacts: contacts)))
        }
        // Two moves, a second finger landing, one more move, then both
        // lifting: all before one run-loop turn.
        frame(0.010, [DigitizerContact(identifier: 1, phase: .moved, x: 30, y: 30)])
        frame(0.020, [DigitizerContact(identifier: 1, phase: .moved, x: 40, y: 30)])
        frame(0.030, [DigitizerContact(identifier: 1, phase: .stationary, x: 40, y: 30), DigitizerContact(identifier: 2, phase: .began, x: 100, y: 100)])
        frame(0.040, [DigitizerContact(identifier: 1, phase: .moved, x: 50, y: 30), DigitizerContact(identifier: 2, phase: .stationary, x: 100, y: 100)])
        frame(0.050, [DigitizerContact(identifier: 1, phase: .ended, x: 50, y: 30), DigitizerContact(identifier: 2, phase: .ended, x: 100, y: 100)])
        expectEqual(view.seen.map(\.phase), ["began"], "nothing is delivered before the turn")
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(view.seen.map(\.phase), ["began", "moved", "began", "moved", "ended"])
        expectEqual(view.seen[1].coalesced.map(\.location), [CGPoint(x: 20, y: 10), CGPoint(x: 30, y: 10)])
        expectEqual(view.seen[2].touchCount, 1, "the second finger lands alone")
        expectEqual(view.seen[3].coalesced.map(\.location), [CGPoint(x: 40, y: 10)])
        expectEqual(view.seen[4].touchCount, 2)
    }

    @Test func aMoveOfOneFingerKeepsTheOtherStillAndUnsampled() throws {
        let (view, synthesizer) = makeScene()
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 20, y: 30), CGPoint(x: 200, y: 200)])
        synthesizer.touchMove(fingers[0], through: [CGPoint(x: 30, y: 30), CGPoint(x: 40, y: 30)], sampleInterval: 0.005)
        expectEqual(view.seen.map(\.phase), ["began", "moved"])
        expectEqual(view.seen[1].touchCount, 1, "the still finger is not moved")
        let still = try #require(UIApplication.shared.touchesEvent.touchesInOrder.first { $0.fingerIdentifier == UInt32(fingers[1]) })
        expectEqual(still.phase, .stationary)
        #expect(UIApplication.shared.touchesEvent.coalescedTouches(for: still)?.map { $0.location(in: nil) } == [CGPoint(x: 200, y: 200)])
    }

    // MARK: Predicted touches

    /// Moves 10 points right `interval` seconds after landing; what the
    /// move predicts.
    func predictionAfterMoving(in interval: TimeInterval) throws -> (move: Seen, start: TimeInterval) {
        let (view, synthesizer) = makeScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        let start = synthesizer.now
        synthesizer.advance(by: interval)
        synthesizer.touchMove(finger, to: CGPoint(x: 30, y: 30))
        return (try #require(view.seen.last), start)
    }

    @Test func aTouchIsPredictedHalfItsSampleIntervalAheadAtItsVelocity() throws {
        // 10 pt in 10 ms: 5 ms ahead, 5 pt further.
        let (move, start) = try predictionAfterMoving(in: 0.010)
        let predicted = try #require(move.predicted.first)
        expectEqual(move.predicted.count, 1)
        expectClose(predicted.location, CGPoint(x: 25, y: 10))
        expectEqual(predicted.previousLocation, move.touch.location)
        expectClose(predicted.timestamp, start + 0.015)
        expectEqual(predicted.phase, .moved)
    }

    @Test func aPredictionReachesNoFurtherThanEightMilliseconds() throws {
        // 10 pt in 18 ms: half the interval is 9 ms, so 8 ms ahead (4.44 pt).
        let (move, start) = try predictionAfterMoving(in: 0.018)
        let predicted = try #require(move.predicted.first)
        expectClose(predicted.location, CGPoint(x: 20 + 10 * (8.0 / 18.0), y: 10))
        expectClose(predicted.timestamp, start + 0.026)
    }

    @Test func samplesTooFarApartOrTooCloseGiveNoPrediction() throws {
        #expect(try predictionAfterMoving(in: 0.021).move.predicted.isEmpty, "more than 20 ms")
        #expect(try predictionAfterMoving(in: 0.0015).move.predicted.isEmpty, "less than 2 ms")
        try expectEqual(predictionAfterMoving(in: 0.019).move.predicted.count, 1)
    }

    @Test func aPredictionFollowsTheLastTwoCoalescedSamples() throws {
        let (view, synthesizer) = makeScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 20, y: 30))
        synthesizer.advance(by: 0.1)
        let start = synthesizer.now
        // The last two samples, 4 ms apart, went 6 pt down: 2 ms ahead is 3 pt further.
        synthesizer.touchMove(finger, through: [CGPoint(x: 30, y: 30), CGPoint(x: 40, y: 30), CGPoint(x: 40, y: 36)], sampleInterval: 0.004)
        let move = try #require(view.seen.last)
        let predicted = try #require(move.predicted.first)
        expectClose(predicted.location, CGPoint(x: 30, y: 19))
        expectClose(predicted.timestamp, start + 0.010)
    }

    @Test func aLandingOrAStillTouchIsNotPredicted() throws {
        let (view, synthesizer) = makeScene()
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 20, y: 30), CGPoint(x: 40, y: 30)])
        #expect(view.seen[0].predicted.isEmpty)
        synthesizer.advance(by: 0.01)
        synthesizer.touchMove(fingers[1], to: CGPoint(x: 50, y: 30))
        let still = try #require(UIApplication.shared.touchesEvent.touchesInOrder.first { $0.fingerIdentifier == UInt32(fingers[0]) })
        expectEqual(UIApplication.shared.touchesEvent.predictedTouches(for: still), [])
    }
}

/// Held moves when the application is connected to an event server with a
/// display: they wait for its refresh, and are acknowledged once delivered.
@MainActor
@Suite struct TouchesOncePerRefreshTests {
    final class CountingView: UIView {
        var calls: [String] = []
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("began") }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
            calls.append("moved \(event?.coalescedTouches(for: touches.first!)?.count ?? 0)")
        }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("ended") }
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { calls.append("cancelled") }
    }

    struct Setup {
        let application: UIApplication
        let server: MessageSocket
        let view: CountingView
        let window: UIWindow
        var sequence: UInt64 = 0

        mutating func send(_ phase: DigitizerContact.Phase, x: Double) throws {
            sequence += 1
            let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: Double(sequence) * 0.004, contacts: [
                DigitizerContact(identifier: 1, phase: phase, x: x, y: 10),
            ])))
            try server.sendWaiting(ServerMessage.encodeEvent(sequence: sequence, readTime: monotonicSeconds(), sendTime: monotonicSeconds(), packet: packet))
        }

        func refresh() throws {
            try server.sendWaiting(ServerMessage.frameSignal(.init(sequence: 1, time: monotonicSeconds(), refreshInterval: 1.0 / 60, startTime: 0)).encoded())
        }

        /// The acknowledgements (sequence, handled) and whether a frame was
        /// asked for, among what the application sent since last asked.
        func received() throws -> (acknowledged: [[UInt64]], requestedFrame: Bool) {
            var acknowledged: [[UInt64]] = []
            var requestedFrame = false
            while let message = try server.receiveMessage() {
                switch try message.get() {
                case .acknowledgement(let ack): acknowledged.append([ack.sequence, ack.handled ? 1 : 0])
                case .requestFrame: requestedFrame = true
                default: break
                }
            }
            return (acknowledged, requestedFrame)
        }
    }

    /// The application connected to a fake server, whose end the test holds,
    /// with a 40 × 20 point screen that a counting view fills.
    func connect(unbuffered: Bool = false) throws -> Setup {
        let application = UIApplication.shared
        application.resetForTesting()
        let serverEnd = try application.connectToFakeServer(screenWidth: 40, screenHeight: 20, scale: 1)
        application.deliversEveryTouchFrame = unbuffered
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        let view = CountingView(frame: window.bounds)
        window.addSubview(view)
        window.isHidden = false
        application.runLoop.runUntilIdle()
        let setup = Setup(application: application, server: serverEnd, view: view, window: window)
        // The window's first frame asked for a refresh: it comes, the frame
        // is drawn, and nothing is asked for after it.
        try setup.refresh()
        application.runLoop.runUntilIdle()
        _ = try setup.received()
        return setup
    }

    @Test func movesWaitForTheRefreshAndAreAcknowledgedWhenDelivered() throws {
        var setup = try connect()
        _ = try setup.received()
        try setup.send(.began, x: 10)
        try setup.send(.moved, x: 12)
        try setup.send(.moved, x: 14)
        try setup.send(.moved, x: 16)
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began"])
        let before = try setup.received()
        expectEqual(before.acknowledged, [[1, 1]], "the moves are not acknowledged while held")
        #expect(before.requestedFrame, "the held moves ask for the next refresh")

        try setup.refresh()
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "moved 3"])
        try expectEqual(setup.received().acknowledged, [[2, 1], [3, 1], [4, 1]])

        // A lift is never held: the pending move goes first, then the lift, at once.
        try setup.send(.moved, x: 18)
        try setup.send(.ended, x: 18)
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "moved 3", "moved 1", "ended"])
        try expectEqual(setup.received().acknowledged, [[5, 1], [6, 1]])
    }

    /// Logs each display-link callback into the view's calls.
    @MainActor final class LinkLogger {
        let view: CountingView
        init(view: CountingView) { self.view = view }
        func fired(_ link: CADisplayLink) { view.calls.append("display link") }
    }

    /// UIKit's update loop: in the turn of a refresh, the touches that came
    /// before it are delivered first, then the display links fire; a move
    /// that comes after the refresh's signal waits for the next refresh.
    @Test func theTouchesBeforeARefreshReachViewsBeforeItsDisplayLinksFire() throws {
        var setup = try connect()
        let logger = LinkLogger(view: setup.view)
        let link = CADisplayLink(target: logger, selector: LinkLogger.fired)
        link.add(to: .main, forMode: .common)
        defer { link.invalidate() }
        try setup.refresh()
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["display link"])

        try setup.send(.began, x: 10)
        try setup.send(.moved, x: 12)
        try setup.send(.moved, x: 14)
        try setup.refresh()
        try setup.send(.moved, x: 16)
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["display link", "began", "moved 2", "display link"])

        try setup.refresh()
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["display link", "began", "moved 2", "display link", "moved 1", "display link"])
    }

    @Test func aChangeOfStateDeliversTheHeldMovesFirst() throws {
        var setup = try connect()
        try setup.send(.began, x: 10)
        try setup.send(.moved, x: 12)
        try setup.server.sendWaiting(ServerMessage.appState(.background).encoded())
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "moved 1", "cancelled"])
    }

    @Test func unbufferedTouchesDeliverEveryFrameAsItArrives() throws {
        var setup = try connect(unbuffered: true)
        try setup.send(.began, x: 10)
        try setup.send(.moved, x: 12)
        try setup.send(.moved, x: 14)
        setup.application.runLoop.runUntilIdle()
        expectEqual(setup.view.calls, ["began", "moved 1", "moved 1"])
    }
}
