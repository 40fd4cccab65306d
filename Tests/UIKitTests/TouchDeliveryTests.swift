import TestExpectations
import Testing
import HID
@testable import UIKit

/// The delivery rules of `TouchRouting.swift`, driven through the real input path.
@MainActor
@Suite struct TouchDeliveryTests {
    /// Touches, their sets and events refer to one another while a finger is
    /// down; once it lifts nothing may keep the window, its views or the
    /// touch alive.
    @Test func aFinishedGestureLeavesNothingHoldingTheWindow() {
        weak var weakWindow: UIWindow?
        weak var weakView: UIView?
        weak var weakTouch: UITouch?
        weak var weakRecognizer: UIGestureRecognizer?
        do {
            let window = makeWindow()
            let view = TouchNotingView(frame: window.bounds)
            let pan = UIPanGestureRecognizer()
            view.addGestureRecognizer(pan)
            view.addGestureRecognizer(UITapGestureRecognizer())
            window.addSubview(view)
            let synthesizer = TouchSynthesizer(window: window)
            let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
            weakTouch = view.firstTouch
            #expect(weakTouch != nil)
            for step in 1...5 {
                synthesizer.advance(by: 0.01)
                synthesizer.touchMove(finger, to: CGPoint(x: 100 + CGFloat(step) * 10, y: 100))
            }
            synthesizer.touchUp(finger)
            synthesizer.tap(at: CGPoint(x: 50, y: 50))
            synthesizer.advance(by: 1)
            expectEqual(pan.state, .possible)
            weakWindow = window
            weakView = view
            weakRecognizer = pan
        }
        #expect(weakWindow == nil)
        #expect(weakView == nil)
        #expect(weakTouch == nil)
        #expect(weakRecognizer == nil)
    }

    /// UIKit reuses one touches event for every frame; a finished touch
    /// leaves it, so the event kept between gestures holds no touch.
    @Test func everyFrameComesInTheApplicationsOneTouchesEvent() {
        let window = makeWindow()
        let view = EventNotingView(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.advance(by: 1)
        let first = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 0.5)
        let second = synthesizer.touchDown(at: CGPoint(x: 20, y: 20))
        synthesizer.touchUp([first, second])
        expectEqual(view.calls.map(\.phase), [.began, .began, .ended])
        let event = view.calls[0].event
        #expect(view.calls.allSatisfy { $0.event === event })
        // Each call saw its own frame's time and touches; the kept event shows the last frame's time.
        expectEqual(view.calls.map(\.timestamp), [1, 1.5, 1.5])
        expectEqual(view.calls.map(\.touchCount), [1, 2, 2])
        expectEqual(event?.timestamp, 1.5)
        expectEqual(event?.allTouches?.isEmpty, true)
    }

    @Test func resettingTheApplicationUnderAFingerLetsGoOfItsWindow() {
        weak var weakWindow: UIWindow?
        do {
            let window = makeWindow()
            let view = UIView(frame: window.bounds)
            view.addGestureRecognizer(UIPanGestureRecognizer())
            window.addSubview(view)
            let synthesizer = TouchSynthesizer(window: window)
            let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
            synthesizer.touchMove(finger, to: CGPoint(x: 120, y: 100))
            weakWindow = window
        }
        UIApplication.shared.resetForTesting()
        #expect(weakWindow == nil)
    }

    @Test func aViewGetsOneCallPerEventWithAllItsNewTouches() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 50, y: 50), CGPoint(x: 90, y: 90)])
        expectEqual(view.phases, ["began"])
        expectEqual(view.calls[0].touches.count, 3)
        synthesizer.touchMove([(finger: fingers[0], to: CGPoint(x: 12, y: 12)), (finger: fingers[1], to: CGPoint(x: 52, y: 52))])
        expectEqual(view.phases, ["began", "moved"])
        expectEqual(view.calls[1].touches.count, 2)
        // The third finger did not move: it is in the event, stationary, but not delivered.
        let all = view.calls[1].event!.allTouches!
        expectEqual(all.count, 3)
        expectEqual(all.filter { $0.phase == .stationary }.count, 1)
        synthesizer.touchUp(fingers)
        expectEqual(view.phases, ["began", "moved", "ended"])
        expectEqual(view.calls[2].touches.count, 3)
    }

    @Test func touchesOfDifferentViewsInOneFrameGoToEachViewOnce() {
        let window = makeWindow()
        let left = RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let right = RecordingView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        left.isMultipleTouchEnabled = true
        window.addSubview(left)
        window.addSubview(right)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 150, y: 10), CGPoint(x: 20, y: 20)])
        expectEqual(left.phases, ["began"])
        expectEqual(left.calls[0].touches.count, 2)
        expectEqual(right.phases, ["began"])
        expectEqual(right.calls[0].touches.count, 1)
        #expect(left.calls[0].event === right.calls[0].event)
        #expect(left.calls[0].event?.touches(for: left)?.count == 2)
        #expect(left.calls[0].event?.touches(for: window)?.count == 3)
    }

    @Test func phasesOfOneFrameAreDeliveredBeganMovedEndedInOrder() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let first = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        let second = synthesizer.touchDown(at: CGPoint(x: 20, y: 20))
        view.calls.removeAll()
        // One raw frame: a finger lands, one moves, one lifts.
        UIApplication.shared.inputPort.send(.digitizer(DigitizerFrame(timestamp: synthesizer.now, contacts: [
            DigitizerContact(identifier: UInt32(second), phase: .ended, x: 20, y: 20),
            DigitizerContact(identifier: 99, phase: .began, x: 30, y: 30),
            DigitizerContact(identifier: UInt32(first), phase: .moved, x: 15, y: 15),
        ])))
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(view.phases, ["began", "moved", "ended"])
    }

    @Test func aTouchStaysWithItsViewAfterLeavingIt() {
        let window = makeWindow()
        let small = RecordingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let other = RecordingView(frame: CGRect(x: 100, y: 100, width: 50, height: 50))
        window.addSubview(small)
        window.addSubview(other)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(finger, to: CGPoint(x: 120, y: 120))
        synthesizer.touchUp(finger)
        expectEqual(small.phases, ["began", "moved", "ended"])
        #expect(other.calls.isEmpty)
        let touch = small.calls[0].touches.first!
        #expect(touch.view === small)
        #expect(touch.window === window)
        expectEqual(touch.phase, .ended)
        expectEqual(touch.location(in: small), CGPoint(x: 120, y: 120))
        expectEqual(touch.location(in: other), CGPoint(x: 20, y: 20))
    }

    @Test func locationsConvertToAnyViewAndPreviousLocationIsTheLastEvents() {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 50, y: 50, width: 200, height: 200))
        container.bounds.origin = CGPoint(x: 10, y: 0)  // scrolled by 10
        let view = RecordingView(frame: CGRect(x: 20, y: 20, width: 100, height: 100))
        window.addSubview(container)
        container.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 80, y: 80))
        let touch = view.calls[0].touches.first!
        expectEqual(touch.location(in: nil), CGPoint(x: 80, y: 80))
        expectEqual(touch.location(in: container), CGPoint(x: 40, y: 30))
        expectEqual(touch.location(in: view), CGPoint(x: 20, y: 10))
        expectEqual(touch.previousLocation(in: view), CGPoint(x: 20, y: 10))
        synthesizer.touchMove(finger, to: CGPoint(x: 90, y: 100))
        expectEqual(touch.location(in: view), CGPoint(x: 30, y: 30))
        expectEqual(touch.previousLocation(in: view), CGPoint(x: 20, y: 10))
        expectEqual(touch.phase, .moved)
    }

    @Test func touchCarriesTimestampRadiusForceAndType() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.advance(by: 2)
        let start = synthesizer.now
        UIApplication.shared.inputPort.send(.digitizer(DigitizerFrame(timestamp: start, contacts: [
            DigitizerContact(identifier: 7, phase: .began, x: 5, y: 5, kind: .stylus,
                             majorRadius: 4.5, majorRadiusTolerance: 0.5, force: 2, maximumPossibleForce: 6.6),
        ])))
        UIApplication.shared.runLoop.runUntilIdle()
        let touch = view.calls[0].touches.first!
        expectEqual(touch.timestamp, start)
        expectEqual(touch.majorRadius, 4.5)
        expectEqual(touch.majorRadiusTolerance, 0.5)
        expectEqual(touch.force, 2)
        #expect(abs(touch.maximumPossibleForce - 6.6) < 1e-6)
        expectEqual(touch.type, .pencil)
        expectEqual(view.calls[0].event?.timestamp, start)
    }

    @Test func tapCountGrowsForTapsCloseInTimeAndPlace() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        var counts: [Int] = []
        func tap(_ point: CGPoint) {
            synthesizer.tap(at: point)
            counts.append(view.calls.last!.touches.first!.tapCount)
        }
        tap(CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.2)
        tap(CGPoint(x: 110, y: 105))
        synthesizer.advance(by: 0.34)
        tap(CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.36)  // too late
        tap(CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.1)
        tap(CGPoint(x: 200, y: 200))  // too far
        expectEqual(counts, [1, 2, 3, 1, 1])
    }

    @Test func aViewWithoutMultipleTouchGetsOnlyTheFirstTouch() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        #expect(!view.isMultipleTouchEnabled)
        let synthesizer = TouchSynthesizer(window: window)
        let first = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        let second = synthesizer.touchDown(at: CGPoint(x: 50, y: 50))
        synthesizer.touchMove(second, to: CGPoint(x: 60, y: 60))
        synthesizer.touchUp(second)
        synthesizer.touchUp(first)
        expectEqual(view.phases, ["began", "ended"])
        #expect(view.calls.allSatisfy { $0.touches.count == 1 })
        // Two fingers landing together: still only one.
        view.calls.removeAll()
        synthesizer.touchUp(synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 50, y: 50)]))
        expectEqual(view.phases, ["began", "ended"])
        expectEqual(view.calls[0].touches.count, 1)
    }

    @Test func anExclusiveTouchViewTracksAlone() {
        let window = makeWindow()
        let exclusive = RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        exclusive.isExclusiveTouch = true
        let other = RecordingView(frame: CGRect(x: 200, y: 0, width: 100, height: 100))
        window.addSubview(exclusive)
        window.addSubview(other)
        let synthesizer = TouchSynthesizer(window: window)

        let onExclusive = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        let onOther = synthesizer.touchDown(at: CGPoint(x: 210, y: 10))
        synthesizer.touchUp([onOther, onExclusive])
        expectEqual(exclusive.phases, ["began", "ended"])
        #expect(other.calls.isEmpty)

        exclusive.calls.removeAll()
        let first = synthesizer.touchDown(at: CGPoint(x: 210, y: 10))
        let second = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchUp([first, second])
        expectEqual(other.phases, ["began", "ended"])
        #expect(exclusive.calls.isEmpty)

        // Alone, each view works as usual.
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        expectEqual(exclusive.phases, ["began", "ended"])
    }

    @Test func systemCancellationSendsTouchesCancelledToEveryReceiver() {
        let window = makeWindow()
        let left = RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let right = RecordingView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        window.addSubview(left)
        window.addSubview(right)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 110, y: 10)])
        synthesizer.cancelAllTouches()
        expectEqual(left.phases, ["began", "cancelled"])
        expectEqual(right.phases, ["began", "cancelled"])
        expectEqual(left.calls[1].touches.first?.phase, .cancelled)
        // The fingers are gone: a new touch starts afresh.
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        expectEqual(left.phases, ["began", "cancelled", "began", "ended"])
    }

    @Test func touchOutsideEveryWindowIsDroppedQuietly() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.tap(at: CGPoint(x: 300, y: 300))
        #expect(view.calls.isEmpty)
        synthesizer.tap(at: CGPoint(x: 50, y: 50))
        expectEqual(view.phases, ["began", "ended"])
    }

    // MARK: Windows

    @Test func theHighestLevelWindowAndThenTheLatestShownGetsTheTouch() {
        let normal = makeWindow()
        let normalView = RecordingView(frame: normal.bounds)
        normal.addSubview(normalView)
        let alert = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        alert.windowLevel = .alert
        let alertView = RecordingView(frame: alert.bounds)
        alert.addSubview(alertView)
        alert.isHidden = false
        let later = UIWindow(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let laterView = RecordingView(frame: later.bounds)
        later.addSubview(laterView)
        later.isHidden = false
        let synthesizer = TouchSynthesizer(window: normal)

        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        expectEqual(alertView.phases, ["began", "ended"])
        synthesizer.tap(at: CGPoint(x: 250, y: 250))  // outside the alert: the later normal window
        expectEqual(laterView.phases, ["began", "ended"])
        synthesizer.tap(at: CGPoint(x: 350, y: 350))  // only the first window covers it
        expectEqual(normalView.phases, ["began", "ended"])

        normal.isHidden = true
        normal.isHidden = false  // shown again: now the most recent of its level
        synthesizer.tap(at: CGPoint(x: 250, y: 250))
        expectEqual(normalView.phases, ["began", "ended", "began", "ended"])
        #expect(normal.isKeyWindow)
        #expect(!later.isKeyWindow)
    }

    @Test func aHiddenWindowGetsNoTouches() {
        let window = makeWindow()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        window.isHidden = true
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 10, y: 10))
        #expect(view.calls.isEmpty)
    }

    @Test func applicationAndWindowSendEventSeeEveryTouchEvent() {
        final class WatchingWindow: UIWindow {
            var events = 0
            override func sendEvent(_ event: UIEvent) {
                events += 1
                super.sendEvent(event)
            }
        }
        UIApplication.shared.resetForTesting()
        let window = WatchingWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.makeKeyAndVisible()
        let view = RecordingView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(finger, to: CGPoint(x: 20, y: 20))
        synthesizer.touchUp(finger)
        expectEqual(window.events, 3)
        expectEqual(view.phases, ["began", "moved", "ended"])
    }

    // MARK: Views leaving the window while they handle touches

    final class SelfRemovingView: RecordingView {
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
            super.touchesBegan(touches, with: event)
            removeFromSuperview()
        }
    }

    @Test func aViewRemovedWhileHandlingTouchesBeganGetsTouchesCancelledAndNothingMore() {
        let window = makeWindow()
        let root = RecordingView(frame: window.bounds)
        let view = SelfRemovingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(root)
        root.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        expectEqual(view.phases, ["began", "cancelled"])
        synthesizer.touchMove(finger, to: CGPoint(x: 20, y: 20))
        synthesizer.touchUp(finger)
        expectEqual(view.phases, ["began", "cancelled"])
        #expect(root.calls.isEmpty)
        #expect(UIApplication.shared.touchRouter.touchesOnScreen.isEmpty)
        // The application goes on: the next tap lands on what is there now.
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        expectEqual(root.phases, ["began", "ended"])
    }

    @Test func removingAnAncestorCancelsTheTouchesOfItsSubtree() {
        let window = makeWindow()
        let container = UIView(frame: window.bounds)
        let view = RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(container)
        container.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        container.removeFromSuperview()
        expectEqual(view.phases, ["began", "cancelled"])
        synthesizer.touchUp(finger)
        expectEqual(view.phases, ["began", "cancelled"])
    }
}

/// Notes the first touch it receives without keeping it (a view that kept
/// its touches would itself keep them, and so itself, alive).
private final class EventNotingView: UIView {
    var calls: [(phase: UITouch.Phase, event: UIEvent?, timestamp: TimeInterval?, touchCount: Int?)] = []

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        calls.append((.began, event, event?.timestamp, event?.allTouches?.count))
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        calls.append((.ended, event, event?.timestamp, event?.allTouches?.count))
    }
}

private final class TouchNotingView: UIView {
    weak var firstTouch: UITouch?

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        if firstTouch == nil { firstTouch = touches.first }
    }
}
