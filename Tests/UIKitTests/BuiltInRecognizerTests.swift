import TestExpectations
import Testing
@testable import UIKit

@MainActor
private func scene() -> (UIWindow, RecordingView, TouchSynthesizer, CallLog) {
    let window = makeWindow()
    let view = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
    view.isMultipleTouchEnabled = true
    window.addSubview(view)
    return (window, view, TouchSynthesizer(window: window), CallLog())
}

@MainActor
@Suite struct TapRecognizerTests {
    @Test func singleTapRecognizesAtTouchUp() {
        let (_, view, synthesizer, log) = scene()
        let tap = UITapGestureRecognizer()
        recordActions(tap, into: log, as: "tap")
        view.addGestureRecognizer(tap)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.1)
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["tap ended"])
        expectEqual(tap.state, .possible)  // reset after the touch lifted
    }

    @Test func aTapFailsWhenHeldTooLongOrMovedTooFar() {
        let (_, view, synthesizer, log) = scene()
        let tap = UITapGestureRecognizer()
        recordActions(tap, into: log, as: "tap")
        view.addGestureRecognizer(tap)
        let held = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 0.76)
        synthesizer.touchUp(held)
        let moved = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(moved, to: CGPoint(x: 56, y: 10))  // 46 pt
        synthesizer.touchUp(moved)
        #expect(log.entries.isEmpty)
        let wobbly = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(wobbly, to: CGPoint(x: 50, y: 10))  // 40 pt: still a tap
        synthesizer.touchUp(wobbly)
        expectEqual(log.entries, ["tap ended"])
    }

    @Test func doubleTapNeedsTheSecondTapSoonAndNearby() {
        let (_, view, synthesizer, log) = scene()
        let double = UITapGestureRecognizer()
        double.numberOfTapsRequired = 2
        recordActions(double, into: log, as: "double")
        view.addGestureRecognizer(double)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.3)
        synthesizer.tap(at: CGPoint(x: 120, y: 110))
        expectEqual(log.entries, ["double ended"])
        // Too slow.
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.4)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        // Too far.
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.1)
        synthesizer.tap(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 1)
        expectEqual(log.entries, ["double ended"])
    }

    @Test func twoFingerTapNeedsBothFingers() {
        let (_, view, synthesizer, log) = scene()
        let tap = UITapGestureRecognizer()
        tap.numberOfTouchesRequired = 2
        recordActions(tap, into: log, as: "two-finger")
        view.addGestureRecognizer(tap)
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        #expect(log.entries.isEmpty)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 40, y: 10)])
        synthesizer.touchUp(fingers[0])
        #expect(log.entries.isEmpty)
        synthesizer.touchUp(fingers[1])
        expectEqual(log.entries, ["two-finger ended"])
        expectEqual(tap.state, .possible)
        // Three fingers are too many.
        synthesizer.advance(by: 1)
        synthesizer.touchUp(synthesizer.touchDown(at: [CGPoint(x: 10, y: 10), CGPoint(x: 40, y: 10), CGPoint(x: 70, y: 10)]))
        expectEqual(log.entries, ["two-finger ended"])
    }
}

@MainActor
@Suite struct LongPressRecognizerTests {
    @Test func beginsAfterTheMinimumDurationChangesWithMovesAndEndsOnLift() {
        let (_, view, synthesizer, log) = scene()
        let press = UILongPressGestureRecognizer()
        recordActions(press, into: log, as: "press")
        view.addGestureRecognizer(press)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 0.49)
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.01)
        expectEqual(log.entries, ["press began"])
        expectEqual(view.phases, ["began", "cancelled"])  // cancelsTouchesInView, at the moment it began
        synthesizer.touchMove(finger, to: CGPoint(x: 100, y: 10))  // any distance once begun
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["press began", "press changed", "press ended"])
        expectEqual(press.location(in: view), CGPoint(x: 100, y: 10))
    }

    @Test func eachGestureSetsTheSameDeadlinesAgain() {
        let (_, view, synthesizer, log) = scene()
        let press = UILongPressGestureRecognizer()
        let tap = UITapGestureRecognizer()
        recordActions(press, into: log, as: "press")
        recordActions(tap, into: log, as: "tap")
        view.addGestureRecognizer(press)
        view.addGestureRecognizer(tap)
        for _ in 0..<50 {
            let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
            synthesizer.advance(by: 0.1)
            synthesizer.touchUp(finger)
            synthesizer.advance(by: 0.1)
        }
        expectEqual(log.entries, Array(repeating: "tap ended", count: 50))
        // One timer per recognizer, set again for each gesture, rather than
        // a new timer per gesture left in the list until it comes due.
        #expect(UIApplication.shared.runLoop.timerListCount <= 2)
        synthesizer.advance(by: 1)
        expectEqual(log.entries.count, 50)
    }

    @Test func aRecognizerKeepsItsDeadlinesAcrossAnApplicationReset() {
        let (_, firstView, firstSynthesizer, log) = scene()
        let press = UILongPressGestureRecognizer()
        recordActions(press, into: log, as: "press")
        firstView.addGestureRecognizer(press)
        firstSynthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        firstSynthesizer.advance(by: 0.1)
        let oldRunLoop = UIApplication.shared.runLoop
        // A new application state, with a new run loop, under the waiting press.
        let (_, view, synthesizer, _) = scene()
        view.addGestureRecognizer(press)
        synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        // The old loop's timer is not the new deadline: running it does nothing.
        oldRunLoop.advance(by: 1)
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.49)
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.01)
        expectEqual(log.entries, ["press began"])
    }

    @Test func movingTooFarOrLiftingEarlyFails() {
        let (_, view, synthesizer, log) = scene()
        let press = UILongPressGestureRecognizer()
        press.allowableMovement = 10
        recordActions(press, into: log, as: "press")
        view.addGestureRecognizer(press)
        let moved = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(moved, to: CGPoint(x: 21, y: 10))
        synthesizer.advance(by: 1)
        synthesizer.touchUp(moved)
        let early = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 0.3)
        synthesizer.touchUp(early)
        synthesizer.advance(by: 1)
        #expect(log.entries.isEmpty)
        expectEqual(view.phases, ["began", "moved", "ended", "began", "ended"])
    }

    @Test func tapThenPress() {
        let (_, view, synthesizer, log) = scene()
        let press = UILongPressGestureRecognizer()
        press.numberOfTapsRequired = 1
        press.minimumPressDuration = 0.3
        recordActions(press, into: log, as: "press")
        view.addGestureRecognizer(press)
        // A press without the tap first does not count.
        let alone = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 1)
        synthesizer.touchUp(alone)
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        synthesizer.advance(by: 0.2)
        let finger = synthesizer.touchDown(at: CGPoint(x: 12, y: 10))
        synthesizer.advance(by: 0.3)
        expectEqual(log.entries, ["press began"])
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["press began", "press ended"])
    }
}

@MainActor
@Suite struct PanRecognizerTests {
    @Test func beginsAfterTenPointsAndTracksTranslation() {
        let (window, view, synthesizer, log) = scene()
        let pan = UIPanGestureRecognizer()
        var translations: [CGPoint] = []
        pan.addTarget(log) { log in { log.add("pan \(pan.state)"); translations.append(pan.translation(in: view)) } }
        view.addGestureRecognizer(pan)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(finger, to: CGPoint(x: 106, y: 107))  // 9.2 pt
        #expect(log.entries.isEmpty)
        synthesizer.touchMove(finger, to: CGPoint(x: 106, y: 108))  // 10 pt
        synthesizer.touchMove(finger, to: CGPoint(x: 150, y: 120))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["pan began", "pan changed", "pan ended"])
        expectEqual(translations, [CGPoint(x: 6, y: 8), CGPoint(x: 50, y: 20), CGPoint(x: 50, y: 20)])
        _ = window
    }

    @Test func translationIsInTheGivenViewsCoordinatesAndCanBeReset() {
        let (window, view, synthesizer, _) = scene()
        let scaled = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        scaled.transform = CGAffineTransform(scaleX: 2, y: 2)
        window.addSubview(scaled)
        let pan = UIPanGestureRecognizer()
        view.addGestureRecognizer(pan)
        let finger = synthesizer.touchDown(at: CGPoint(x: 300, y: 300))
        synthesizer.touchMove(finger, to: CGPoint(x: 340, y: 300))
        expectEqual(pan.translation(in: view), CGPoint(x: 40, y: 0))
        expectEqual(pan.translation(in: scaled), CGPoint(x: 20, y: 0))
        pan.setTranslation(.zero, in: view)
        synthesizer.touchMove(finger, to: CGPoint(x: 350, y: 310))
        expectEqual(pan.translation(in: view), CGPoint(x: 10, y: 10))
        pan.setTranslation(CGPoint(x: 5, y: 5), in: scaled)
        expectEqual(pan.translation(in: scaled), CGPoint(x: 5, y: 5))
        expectEqual(pan.translation(in: view), CGPoint(x: 10, y: 10))
    }

    @Test func velocityComesFromRecentHistory() {
        let (_, view, synthesizer, _) = scene()
        let pan = UIPanGestureRecognizer()
        var releaseVelocity = CGPoint.zero
        pan.addTarget(view) { _ in { if pan.state == .ended { releaseVelocity = pan.velocity(in: view) } } }
        view.addGestureRecognizer(pan)
        let finger = synthesizer.touchDown(at: CGPoint(x: 0, y: 100))
        // 1000 pt/s for 0.1 s in 10 ms steps, with a jittery sample in the middle.
        for step in 1...10 {
            synthesizer.advance(by: 0.01)
            let jitter: CGFloat = step == 5 ? 3 : 0
            synthesizer.touchMove(finger, to: CGPoint(x: CGFloat(step) * 10 + jitter, y: 100))
        }
        let moving = pan.velocity(in: view)
        #expect(abs(moving.x - 1000) < 30)
        #expect(abs(moving.y) < 1e-9)
        synthesizer.touchUp(finger)
        #expect(abs(releaseVelocity.x - 1000) < 30)

        // A finger that stopped before lifting has (almost) no velocity.
        let second = synthesizer.touchDown(at: CGPoint(x: 0, y: 100))
        synthesizer.advance(by: 0.01)
        synthesizer.touchMove(second, to: CGPoint(x: 50, y: 100))
        synthesizer.advance(by: 0.2)
        synthesizer.touchMove(second, to: CGPoint(x: 50, y: 100))
        synthesizer.advance(by: 0.01)
        synthesizer.touchUp(second)
        #expect(abs(releaseVelocity.x) < 1)
    }

    @Test func touchCountLimits() {
        let (_, view, synthesizer, log) = scene()
        let pan = UIPanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        pan.maximumNumberOfTouches = 2
        recordActions(pan, into: log, as: "pan")
        view.addGestureRecognizer(pan)
        let one = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(one, to: CGPoint(x: 150, y: 100))
        synthesizer.touchUp(one)
        #expect(log.entries.isEmpty)
        let two = synthesizer.touchDown(at: [CGPoint(x: 100, y: 100), CGPoint(x: 120, y: 100)])
        synthesizer.touchMove([(finger: two[0], to: CGPoint(x: 100, y: 130)), (finger: two[1], to: CGPoint(x: 120, y: 130))])
        expectEqual(log.entries, ["pan began"])
        expectEqual(pan.translation(in: view), CGPoint(x: 0, y: 30))
        expectEqual(pan.numberOfTouches, 2)
        let third = synthesizer.touchDown(at: CGPoint(x: 300, y: 300))  // beyond the maximum: ignored
        expectEqual(pan.numberOfTouches, 2)
        expectEqual(pan.translation(in: view), CGPoint(x: 0, y: 30))
        synthesizer.touchUp(two[0])  // below the minimum: ends
        expectEqual(log.entries, ["pan began", "pan ended"])
        synthesizer.touchUp([two[1], third])
    }

    // A touch screen often reports one finger lifting in the same scan as
    // the other's move. UIKit re-bases the centroid on the fingers that
    // remain, at their previous positions: the translation follows only the
    // remaining finger's move and does not jump back.
    @Test func translationStaysContinuousWhenAFingerLiftsInTheSameFrameAsAnotherMoves() {
        let (_, view, synthesizer, _) = scene()
        let pan = UIPanGestureRecognizer()
        var translations: [CGFloat] = []
        pan.addTarget(view) { _ in { translations.append(pan.translation(in: view).y) } }
        view.addGestureRecognizer(pan)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 100, y: 300), CGPoint(x: 200, y: 330)])
        for step in 1...5 {
            let dy = CGFloat(step) * -10
            synthesizer.advance(by: 0.008)
            synthesizer.touchMove([(finger: fingers[0], to: CGPoint(x: 100, y: 300 + dy)), (finger: fingers[1], to: CGPoint(x: 200, y: 330 + dy))])
        }
        synthesizer.advance(by: 0.008)
        synthesizer.touchUp([fingers[1]], moving: [(finger: fingers[0], to: CGPoint(x: 100, y: 240))])
        expectEqual(pan.numberOfTouches, 1)
        synthesizer.advance(by: 0.008)
        synthesizer.touchMove(fingers[0], to: CGPoint(x: 100, y: 230))
        expectEqual(translations, [-10, -20, -30, -40, -50, -60, -70])
        // The velocity saw no jump either: 10 pt every 8 ms, upwards.
        #expect(abs(pan.velocity(in: view).y + 1250) < 40)
        synthesizer.touchUp(fingers[0])
        expectEqual(translations.last, -70)
    }

    // Apple: maximumNumberOfTouches is "the maximum number of fingers that
    // can touch the view for gesture recognition". With more down, the pan
    // does not begin; once enough lift, it may.
    @Test func moreFingersThanTheMaximumKeepThePanFromBeginning() {
        let (_, view, synthesizer, log) = scene()
        let pan = UIPanGestureRecognizer()
        pan.maximumNumberOfTouches = 1
        recordActions(pan, into: log, as: "pan")
        view.addGestureRecognizer(pan)
        let two = synthesizer.touchDown(at: [CGPoint(x: 100, y: 100), CGPoint(x: 150, y: 100)])
        synthesizer.touchMove([(finger: two[0], to: CGPoint(x: 100, y: 140)), (finger: two[1], to: CGPoint(x: 150, y: 140))])
        #expect(log.entries.isEmpty)
        #expect(pan.state == .possible && pan.numberOfTouches == 2)
        synthesizer.touchUp(two[1])
        synthesizer.touchMove(two[0], to: CGPoint(x: 100, y: 160))
        expectEqual(log.entries, ["pan began"])
        expectEqual(pan.numberOfTouches, 1)
        synthesizer.touchUp(two[0])
        expectEqual(log.entries, ["pan began", "pan ended"])
    }

    @Test func translationDoesNotJumpWhenAFingerJoins() {
        let (_, view, synthesizer, _) = scene()
        let pan = UIPanGestureRecognizer()
        view.addGestureRecognizer(pan)
        let first = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(first, to: CGPoint(x: 130, y: 100))
        expectEqual(pan.translation(in: view), CGPoint(x: 30, y: 0))
        let second = synthesizer.touchDown(at: CGPoint(x: 300, y: 300))
        expectEqual(pan.translation(in: view), CGPoint(x: 30, y: 0))
        synthesizer.touchMove([(finger: first, to: CGPoint(x: 140, y: 100)), (finger: second, to: CGPoint(x: 310, y: 300))])
        expectEqual(pan.translation(in: view), CGPoint(x: 40, y: 0))
        synthesizer.touchUp(second)
        expectEqual(pan.translation(in: view), CGPoint(x: 40, y: 0))
    }
}

@MainActor
@Suite struct SwipePinchRotationEdgeTests {
    @Test func swipeInAnAllowedDirection() {
        let (_, view, synthesizer, log) = scene()
        let swipe = UISwipeGestureRecognizer()
        swipe.direction = [.left, .up]
        recordActions(swipe, into: log, as: "swipe")
        view.addGestureRecognizer(swipe)
        func stroke(_ dx: CGFloat, _ dy: CGFloat, seconds: TimeInterval = 0.1) {
            let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 200))
            synthesizer.advance(by: seconds / 2)
            synthesizer.touchMove(finger, to: CGPoint(x: 200 + dx / 2, y: 200 + dy / 2))
            synthesizer.advance(by: seconds / 2)
            synthesizer.touchMove(finger, to: CGPoint(x: 200 + dx, y: 200 + dy))
            synthesizer.touchUp(finger)
            synthesizer.advance(by: 1)
        }
        stroke(-80, 10)
        expectEqual(log.entries, ["swipe ended"])
        stroke(80, 0)             // right: not allowed
        stroke(0, -80, seconds: 0.8)  // up, but too slow
        stroke(-60, -60)          // diagonal: too much drift
        stroke(-30, 0)            // too short
        expectEqual(log.entries, ["swipe ended"])
        stroke(5, -90)
        expectEqual(log.entries, ["swipe ended", "swipe ended"])
    }

    @Test func pinchScaleAndVelocity() {
        let (_, view, synthesizer, log) = scene()
        let pinch = UIPinchGestureRecognizer()
        var scales: [CGFloat] = []
        pinch.addTarget(log) { log in { log.add("pinch \(pinch.state)"); scales.append(pinch.scale) } }
        view.addGestureRecognizer(pinch)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 100, y: 200), CGPoint(x: 200, y: 200)])
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(finger: fingers[0], to: CGPoint(x: 97, y: 200)), (finger: fingers[1], to: CGPoint(x: 203, y: 200))])
        #expect(log.entries.isEmpty)  // 6 pt is under the threshold
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(finger: fingers[0], to: CGPoint(x: 75, y: 200)), (finger: fingers[1], to: CGPoint(x: 225, y: 200))])
        expectEqual(log.entries, ["pinch began"])
        expectEqual(pinch.scale, 1.5)
        // 1.0 at 0, 1.06 at 0.05 s, 1.5 at 0.1 s: mean time 0.05, mean scale 1.18667;
        // slope = (−0.05·−0.18667 + 0.05·0.31333) / (2·0.05²) = 0.025 / 0.005 = 5 per second.
        #expect(abs(pinch.velocity - 5) < 1e-6)
        pinch.scale = 1
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(finger: fingers[0], to: CGPoint(x: 50, y: 200)), (finger: fingers[1], to: CGPoint(x: 250, y: 200))])
        #expect(abs(pinch.scale - 200.0 / 150.0) < 1e-9)
        synthesizer.touchUp(fingers[0])
        expectEqual(log.entries, ["pinch began", "pinch changed", "pinch ended"])
        synthesizer.touchUp(fingers[1])
    }

    @Test func rotationCountsPastAHalfTurn() {
        let (_, view, synthesizer, log) = scene()
        let rotation = UIRotationGestureRecognizer()
        recordActions(rotation, into: log, as: "rotation")
        view.addGestureRecognizer(rotation)
        let center = CGPoint(x: 200, y: 300)
        func positions(_ angle: CGFloat) -> [(finger: Int, to: CGPoint)] {
            [(finger: 1, to: CGPoint(x: center.x - 50 * cos(angle), y: center.y - 50 * sin(angle))),
             (finger: 2, to: CGPoint(x: center.x + 50 * cos(angle), y: center.y + 50 * sin(angle)))]
        }
        let fingers = synthesizer.touchDown(at: positions(0).map(\.to))
        expectEqual(fingers, [1, 2])
        synthesizer.touchMove(positions(0.05))
        #expect(log.entries.isEmpty)
        var angle: CGFloat = 0.05
        while angle < 4 {
            angle += 0.3
            synthesizer.advance(by: 0.01)
            synthesizer.touchMove(positions(angle))
        }
        expectEqual(log.entries.first, "rotation began")
        #expect(abs(rotation.rotation - angle) < 1e-9)
        #expect(abs(rotation.velocity - 30) < 1e-6)  // 0.3 rad every 10 ms
        synthesizer.cancelAllTouches()
        expectEqual(log.entries.last, "rotation cancelled")
    }

    @Test func screenEdgePanStartsOnlyAtTheChosenEdgeAndMovingAway() {
        let (window, _, synthesizer, log) = scene()
        let edgePan = UIScreenEdgePanGestureRecognizer()
        edgePan.edges = .left
        recordActions(edgePan, into: log, as: "edge")
        window.addGestureRecognizer(edgePan)
        func drag(from start: CGPoint, by delta: CGPoint) {
            let finger = synthesizer.touchDown(at: start)
            synthesizer.touchMove(finger, to: CGPoint(x: start.x + delta.x, y: start.y + delta.y))
            synthesizer.touchUp(finger)
        }
        drag(from: CGPoint(x: 100, y: 300), by: CGPoint(x: 50, y: 0))   // not at the edge
        drag(from: CGPoint(x: 5, y: 300), by: CGPoint(x: 5, y: 40))      // along the edge
        drag(from: CGPoint(x: 395, y: 300), by: CGPoint(x: -50, y: 0))  // the right edge is not chosen
        #expect(log.entries.isEmpty)
        drag(from: CGPoint(x: 5, y: 300), by: CGPoint(x: 60, y: 10))
        expectEqual(log.entries, ["edge began", "edge ended"])
    }
}

@MainActor
@Suite struct CustomRecognizerTests {
    /// A subclass written as UIKit code would be: a "check mark" made of a
    /// move down-right then up-right.
    final class CheckMarkRecognizer: UIGestureRecognizer {
        private var lowest: CGPoint?
        private var start: CGPoint?
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
            if touches.count != 1 { state = .failed }
            start = touches.first?.location(in: view)
        }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
            guard let point = touches.first?.location(in: view), let start else { return }
            if point.x < start.x { state = .failed; return }
            if lowest == nil || point.y > lowest!.y { lowest = point }
        }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
            guard let point = touches.first?.location(in: view), let lowest, let start,
                  lowest.y > start.y + 20, point.y < lowest.y - 20 else { state = .failed; return }
            state = .recognized
        }
        override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { state = .failed }
        override func reset() {
            super.reset()
            lowest = nil
            start = nil
        }
    }

    @Test func aSubclassWorksAsInUIKit() {
        let (_, view, synthesizer, log) = scene()
        let check = CheckMarkRecognizer()
        recordActions(check, into: log, as: "check")
        view.addGestureRecognizer(check)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(finger, to: CGPoint(x: 130, y: 150))
        synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 60))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["check ended"])
        let wrong = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(wrong, to: CGPoint(x: 80, y: 150))
        synthesizer.touchUp(wrong)
        expectEqual(log.entries, ["check ended"])
    }
}
