import TestExpectations
import Testing
@testable import UIKit

/// Logs every action of a recognizer with its state.
@MainActor
func recordActions(_ recognizer: UIGestureRecognizer, into log: CallLog, as name: String) {
    recognizer.addTarget(log) { log in { log.add("\(name) \(recognizer.state)") } }
}

extension CallLog {
    /// An action target for `addTarget`: logs the recognizer's state.
    func record(_ recognizer: UIGestureRecognizer) { add("\(recognizer.name ?? "?") \(recognizer.state)") }
}

@MainActor
private func scene(viewFrame: CGRect = CGRect(x: 0, y: 0, width: 300, height: 300)) -> (UIWindow, RecordingView, TouchSynthesizer) {
    let window = makeWindow()
    let view = RecordingView(frame: viewFrame)
    window.addSubview(view)
    return (window, view, TouchSynthesizer(window: window))
}

@MainActor
@Suite struct GestureEngineTests {
    // MARK: Delivery to recognizers before the view

    @Test func recognizersOfTheHitViewAndItsAncestorsGetTheTouchFirst() {
        let (window, view, synthesizer) = scene()
        let log = CallLog()
        final class Probe: UIGestureRecognizer {
            var log: CallLog?
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { log?.add("\(name!) began") }
            override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { log?.add("\(name!) ended"); state = .failed }
        }
        final class LoggedView: RecordingView {
            var log: CallLog?
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { log?.add("view began") }
            override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { log?.add("view ended") }
        }
        let child = LoggedView(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
        child.log = log
        view.addSubview(child)
        let onChild = Probe(), onParent = Probe(), onWindow = Probe(), elsewhere = Probe()
        for (probe, name) in [(onChild, "child"), (onParent, "parent"), (onWindow, "window"), (elsewhere, "elsewhere")] {
            probe.name = name
            probe.log = log
        }
        child.addGestureRecognizer(onChild)
        view.addGestureRecognizer(onParent)
        window.addGestureRecognizer(onWindow)
        let sibling = UIView(frame: CGRect(x: 200, y: 200, width: 50, height: 50))
        view.addSubview(sibling)
        sibling.addGestureRecognizer(elsewhere)

        let finger = synthesizer.touchDown(at: CGPoint(x: 20, y: 20))
        let touch = window.subviews[0].subviews[0] === child ? UIApplication.shared.touchRouter.touchesOnScreen.first! : nil
        expectEqual(touch?.gestureRecognizers?.map { $0.name! }, ["child", "parent", "window"])
        let event = UIApplication.shared.touchesEvent
        expectEqual(touch.map { event.touches(for: onParent) == [$0] }, true)
        #expect(event.touches(for: elsewhere)?.isEmpty == true)
        synthesizer.touchUp(finger)
        #expect(log.entries == ["child began", "parent began", "window began", "view began",
                                "child ended", "parent ended", "window ended", "view ended"])
    }

    @Test func stateMachineRefusesIllegalTransitions() {
        let (_, view, synthesizer) = scene()
        final class Manual: UIGestureRecognizer {
            var onBegan: ((Manual) -> Void)?
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { onBegan?(self) }
        }
        let recognizer = Manual()
        var seen: [UIGestureRecognizer.State] = []
        recognizer.onBegan = { r in
            r.state = .changed    // illegal from possible
            seen.append(r.state)
            r.state = .began
            seen.append(r.state)
            r.state = .possible   // illegal
            r.state = .failed     // illegal once begun
            seen.append(r.state)
            r.state = .ended
            seen.append(r.state)
            r.state = .changed    // illegal once ended
            seen.append(r.state)
        }
        view.addGestureRecognizer(recognizer)
        let finger = synthesizer.touchDown(at: CGPoint(x: 5, y: 5))
        expectEqual(seen, [.possible, .began, .began, .ended, .ended])
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), Array(repeating: .illegalGestureTransition, count: 4))
        synthesizer.touchUp(finger)
        expectEqual(recognizer.state, .possible)  // reset once its touch lifted
    }

    @Test func actionsByHandlerAndByMethodReferenceOnAWeakTarget() {
        let (_, view, synthesizer) = scene()
        @MainActor final class Target {
            var log: [String] = []
            func didTap() { log.append("didTap") }
            func didTapWith(_ recognizer: UITapGestureRecognizer) { log.append("didTap(\(recognizer.numberOfTapsRequired))") }
        }
        var handled = 0
        let tap = UITapGestureRecognizer { _ in handled += 1 }
        var target: Target? = Target()
        tap.addTarget(target!, action: Target.didTap)
        tap.addTarget(target!, action: Target.didTapWith)
        view.addGestureRecognizer(tap)
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        expectEqual(handled, 1)
        expectEqual(target?.log, ["didTap", "didTap(1)"])

        tap.removeTarget(target)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        expectEqual(handled, 2)
        expectEqual(target?.log.count, 2)

        tap.addTarget(target!, action: Target.didTap)
        target = nil  // held weakly: the action simply goes away
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        expectEqual(handled, 3)
    }

    @Test func targetActionInitializer() {
        let (_, view, synthesizer) = scene()
        @MainActor final class Controller {
            var pans = 0
            func didPan(_ recognizer: UIPanGestureRecognizer) { pans += 1 }
        }
        let controller = Controller()
        view.addGestureRecognizer(UIPanGestureRecognizer(target: controller, action: Controller.didPan))
        let finger = synthesizer.touchDown(at: CGPoint(x: 50, y: 50))
        synthesizer.touchMove(finger, to: CGPoint(x: 80, y: 50))
        synthesizer.touchUp(finger)
        expectEqual(controller.pans, 2)  // began, ended
    }

    // MARK: The three flags

    /// A recognizer that recognizes (discretely) on touch-up, or fails then, as told.
    final class DecidesAtTouchUp: UIGestureRecognizer {
        var recognizes = true
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
            state = recognizes ? .ended : .failed
        }
    }

    /// A recognizer that decides when the finger has moved.
    final class DecidesOnMove: UIGestureRecognizer {
        var recognizes = true
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
            guard state == .possible else { return }
            state = recognizes ? .ended : .failed
        }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
            if state == .possible { state = .failed }
        }
    }

    @Test(arguments: [false, true], [false, true])
    func flagsWhenTheRecognizerRecognizesAtTouchUp(delaysBegan: Bool, cancels: Bool) {
        for delaysEnded in [false, true] {
            let (_, view, synthesizer) = scene()
            let recognizer = DecidesAtTouchUp()
            recognizer.delaysTouchesBegan = delaysBegan
            recognizer.delaysTouchesEnded = delaysEnded
            recognizer.cancelsTouchesInView = cancels
            view.addGestureRecognizer(recognizer)
            let finger = synthesizer.touchDown(at: CGPoint(x: 5, y: 5))
            synthesizer.touchMove(finger, to: CGPoint(x: 6, y: 6))
            synthesizer.touchUp(finger)
            let expected: [String]
            switch (delaysBegan, cancels) {
            case (true, _): expected = []                                      // held, then dropped on recognition
            case (false, true): expected = ["began", "moved", "cancelled"]     // recognized first, then cancelled
            case (false, false): expected = ["began", "moved", "ended"]
            }
            expectEqual(view.phases, expected, "delaysBegan \(delaysBegan) delaysEnded \(delaysEnded) cancels \(cancels)")
        }
    }

    @Test(arguments: [false, true], [false, true])
    func flagsWhenTheRecognizerFails(delaysBegan: Bool, delaysEnded: Bool) {
        for cancels in [false, true] {
            let (_, view, synthesizer) = scene()
            let recognizer = DecidesAtTouchUp()
            recognizer.recognizes = false
            recognizer.delaysTouchesBegan = delaysBegan
            recognizer.delaysTouchesEnded = delaysEnded
            recognizer.cancelsTouchesInView = cancels
            view.addGestureRecognizer(recognizer)
            let finger = synthesizer.touchDown(at: CGPoint(x: 5, y: 5))
            expectEqual(view.phases, (delaysBegan ? [] : ["began"]))
            synthesizer.touchMove(finger, to: CGPoint(x: 6, y: 6))
            expectEqual(view.phases, (delaysBegan ? [] : ["began", "moved"]))
            synthesizer.touchUp(finger)
            // Failing releases everything held, in order.
            expectEqual(view.phases, ["began", "moved", "ended"])
        }
    }

    @Test func delayedTouchesAreReplayedInOrderWhenTheRecognizerFailsMidway() {
        let (_, view, synthesizer) = scene()
        let recognizer = DecidesOnMove()
        recognizer.recognizes = false
        recognizer.delaysTouchesBegan = true
        view.addGestureRecognizer(recognizer)
        let finger = synthesizer.touchDown(at: CGPoint(x: 5, y: 5))
        #expect(view.phases.isEmpty)
        synthesizer.touchMove(finger, to: CGPoint(x: 9, y: 9))  // fails here
        expectEqual(view.phases, ["began", "moved"])
        synthesizer.touchUp(finger)
        expectEqual(view.phases, ["began", "moved", "ended"])
    }

    /// A view that notes where, when and in which phase each touch call finds its touch.
    final class TouchStateView: UIView {
        struct Seen: Equatable { let call: String; let phase: UITouch.Phase; let location: CGPoint; let previous: CGPoint; let timestamp: TimeInterval }
        var seen: [Seen] = []
        private func note(_ call: String, _ touches: Set<UITouch>) {
            let touch = touches.first!
            seen.append(Seen(call: call, phase: touch.phase, location: touch.location(in: self),
                             previous: touch.previousLocation(in: self), timestamp: touch.timestamp))
        }
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { note("began", touches) }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { note("moved", touches) }
        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { note("ended", touches) }
    }

    /// A recognizer that fails on the third move of its touch.
    final class FailsOnThirdMove: UIGestureRecognizer {
        var moves = 0
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
            moves += 1
            if moves == 3 { state = .failed }
        }
        override func reset() { moves = 0 }
    }

    // Apple: when a recognizer that delays touches began fails, the window
    // delivers the touches "in a touchesBegan(_:with:) message (and possibly
    // a follow-up touchesMoved(_:with:) message to inform it of the
    // touches' current locations)". The began comes where and when the
    // finger landed, so a drawing view's line starts there.
    @Test func aHeldBeganIsDeliveredWhereAndWhenTheTouchBeganThenOneMoveToWhereItIs() {
        let window = makeWindow()
        let view = TouchStateView(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        let recognizer = FailsOnThirdMove()
        recognizer.delaysTouchesBegan = true
        view.addGestureRecognizer(recognizer)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        let landed = UIApplication.shared.runLoop.clock.now
        for x in [20, 30, 40] as [CGFloat] {
            synthesizer.advance(by: 0.05)
            synthesizer.touchMove(finger, to: CGPoint(x: x, y: 10))
        }
        let now = UIApplication.shared.runLoop.clock.now
        #expect(view.seen == [
            .init(call: "began", phase: .began, location: CGPoint(x: 10, y: 10), previous: CGPoint(x: 10, y: 10), timestamp: landed),
            .init(call: "moved", phase: .moved, location: CGPoint(x: 40, y: 10), previous: CGPoint(x: 10, y: 10), timestamp: now),
        ])
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove(finger, to: CGPoint(x: 50, y: 10))
        synthesizer.touchUp(finger)
        expectEqual(view.seen.map(\.call), ["began", "moved", "moved", "ended"])
        #expect(view.seen[2].previous == CGPoint(x: 40, y: 10) && view.seen[2].location == CGPoint(x: 50, y: 10))
    }

    @Test func delaysTouchesEndedHoldsTheEndUntilADoubleTapFails() {
        let (_, view, synthesizer) = scene()
        let doubleTap = UITapGestureRecognizer()
        doubleTap.numberOfTapsRequired = 2
        view.addGestureRecognizer(doubleTap)
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        expectEqual(view.phases, ["began"])  // ended held: the double tap may still come
        synthesizer.advance(by: 0.36)       // it does not: the recognizer fails and the end is delivered
        expectEqual(view.phases, ["began", "ended"])
        expectEqual(doubleTap.state, .possible)
    }

    // MARK: Arbitration

    @Test func singleTapWaitsForDoubleTapToFail() {
        let (_, view, synthesizer) = scene()
        let log = CallLog()
        let single = UITapGestureRecognizer()
        let double = UITapGestureRecognizer()
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        recordActions(single, into: log, as: "single")
        recordActions(double, into: log, as: "double")
        view.addGestureRecognizer(single)
        view.addGestureRecognizer(double)

        synthesizer.tap(at: CGPoint(x: 50, y: 50))
        #expect(log.entries.isEmpty)
        expectEqual(single.state, .possible)
        synthesizer.advance(by: 0.2)
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.2)  // the double tap timed out
        expectEqual(log.entries, ["single ended"])
        expectEqual(view.phases, ["began", "cancelled"])

        log.clear()
        view.calls.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 50, y: 50))
        synthesizer.advance(by: 0.1)
        synthesizer.tap(at: CGPoint(x: 52, y: 50))
        expectEqual(log.entries, ["double ended"])
        synthesizer.advance(by: 1)
        expectEqual(log.entries, ["double ended"])  // the single tap failed
        #expect(single.state == .possible && double.state == .possible)
    }

    final class Delegate: UIGestureRecognizerDelegate {
        var simultaneous = false
        var shouldBegin = true
        var receives: (UITouch) -> Bool = { _ in true }
        var requireFailureOf: UIGestureRecognizer?
        var requiredToFailBy: UIGestureRecognizer?
        func gestureRecognizer(_ g: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith o: UIGestureRecognizer) -> Bool { simultaneous }
        func gestureRecognizerShouldBegin(_ g: UIGestureRecognizer) -> Bool { shouldBegin }
        func gestureRecognizer(_ g: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool { receives(touch) }
        func gestureRecognizer(_ g: UIGestureRecognizer, shouldRequireFailureOf o: UIGestureRecognizer) -> Bool { o === requireFailureOf }
        func gestureRecognizer(_ g: UIGestureRecognizer, shouldBeRequiredToFailBy o: UIGestureRecognizer) -> Bool { o === requiredToFailBy }
    }

    @Test(arguments: [false, true])
    func twoPansOnParentAndChild(simultaneous: Bool) {
        let (_, parent, synthesizer) = scene()
        let child = RecordingView(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        parent.addSubview(child)
        let log = CallLog()
        let outer = UIPanGestureRecognizer(), inner = UIPanGestureRecognizer()
        recordActions(outer, into: log, as: "outer")
        recordActions(inner, into: log, as: "inner")
        let delegate = Delegate()
        delegate.simultaneous = simultaneous
        outer.delegate = delegate
        parent.addGestureRecognizer(outer)
        child.addGestureRecognizer(inner)

        let finger = synthesizer.touchDown(at: CGPoint(x: 60, y: 60))
        synthesizer.touchMove(finger, to: CGPoint(x: 75, y: 60))
        synthesizer.touchMove(finger, to: CGPoint(x: 85, y: 60))
        synthesizer.touchUp(finger)
        if simultaneous {
            expectEqual(log.entries, ["inner began", "outer began", "inner changed", "outer changed", "inner ended", "outer ended"])
        } else {
            expectEqual(log.entries, ["inner began", "inner changed", "inner ended"])
        }
        expectEqual(child.phases, ["began", "cancelled"])
        #expect(outer.state == .possible && inner.state == .possible)
    }

    @Test func delegateShouldBeginAndShouldReceive() {
        let (_, view, synthesizer) = scene()
        let delegate = Delegate()
        let tap = UITapGestureRecognizer()
        tap.delegate = delegate
        let log = CallLog()
        recordActions(tap, into: log, as: "tap")
        view.addGestureRecognizer(tap)
        delegate.shouldBegin = false
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        #expect(log.entries.isEmpty)
        expectEqual(view.phases, ["began", "ended"])  // it failed, so the end was released

        delegate.shouldBegin = true
        delegate.receives = { $0.location(in: nil).x > 100 }
        view.calls.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 5, y: 5))
        #expect(log.entries.isEmpty)
        #expect(view.calls.first?.touches.first?.gestureRecognizers == nil)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 150, y: 5))
        expectEqual(log.entries, ["tap ended"])
    }

    @Test func delegateFailureRequirementsInBothDirections() {
        for direction in ["requireFailureOf", "requiredToFailBy"] {
            let (_, view, synthesizer) = scene()
            let log = CallLog()
            let pan = UIPanGestureRecognizer(), swipe = UISwipeGestureRecognizer()
            let delegate = Delegate()
            if direction == "requireFailureOf" {
                pan.delegate = delegate
                delegate.requireFailureOf = swipe
            } else {
                swipe.delegate = delegate
                delegate.requiredToFailBy = pan
            }
            recordActions(pan, into: log, as: "pan")
            recordActions(swipe, into: log, as: "swipe")
            view.addGestureRecognizer(pan)
            view.addGestureRecognizer(swipe)
            // A slow drag: the pan waits for the swipe, which fails when it is too slow.
            let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 100))
            synthesizer.advance(by: 0.1)
            synthesizer.touchMove(finger, to: CGPoint(x: 25, y: 100))
            #expect(log.entries.isEmpty, "\(direction)")
            synthesizer.advance(by: 0.5)
            synthesizer.touchMove(finger, to: CGPoint(x: 40, y: 100))
            synthesizer.touchUp(finger)
            expectEqual(log.entries, ["pan began", "pan changed", "pan ended"], "\(direction)")

            // A quick stroke: the swipe wins and the waiting pan fails.
            log.clear()
            synthesizer.advance(by: 1)
            let quick = synthesizer.touchDown(at: CGPoint(x: 10, y: 100))
            synthesizer.advance(by: 0.05)
            synthesizer.touchMove(quick, to: CGPoint(x: 30, y: 100))
            synthesizer.advance(by: 0.05)
            synthesizer.touchMove(quick, to: CGPoint(x: 80, y: 100))
            synthesizer.touchUp(quick)
            expectEqual(log.entries, ["swipe ended"], "\(direction)")
        }
    }

    @Test func recognizerRemovedWhileTrackingIsCancelledAndTheViewGetsItsTouchesAgain() {
        let (_, view, synthesizer) = scene()
        let log = CallLog()
        let pan = UIPanGestureRecognizer()
        recordActions(pan, into: log, as: "pan")
        pan.delaysTouchesBegan = true
        view.addGestureRecognizer(pan)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        #expect(view.phases.isEmpty)
        view.removeGestureRecognizer(pan)  // undecided: it fails, the held began is delivered
        expectEqual(view.phases, ["began"])
        #expect(pan.view == nil && pan.state == .possible)
        synthesizer.touchMove(finger, to: CGPoint(x: 50, y: 10))
        synthesizer.touchUp(finger)
        #expect(log.entries.isEmpty)
        expectEqual(view.phases, ["began", "moved", "ended"])

        // Removed after it began: cancelled, with an action.
        view.addGestureRecognizer(pan)
        let second = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(second, to: CGPoint(x: 50, y: 10))
        expectEqual(log.entries, ["pan began"])
        view.removeGestureRecognizer(pan)
        expectEqual(log.entries, ["pan began", "pan cancelled"])
        synthesizer.touchUp(second)
        expectEqual(pan.state, .possible)
    }

    @Test func recognizerDisabledWhileTrackingStops() {
        let (_, view, synthesizer) = scene()
        let log = CallLog()
        let pan = UIPanGestureRecognizer()
        recordActions(pan, into: log, as: "pan")
        view.addGestureRecognizer(pan)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(finger, to: CGPoint(x: 50, y: 10))
        pan.isEnabled = false
        synthesizer.touchMove(finger, to: CGPoint(x: 60, y: 10))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["pan began", "pan cancelled"])
        // Disabled: touches pass it by.
        view.calls.removeAll()
        synthesizer.tap(at: CGPoint(x: 10, y: 10))
        expectEqual(view.phases, ["began", "ended"])
        pan.isEnabled = true
        let again = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(again, to: CGPoint(x: 50, y: 10))
        expectEqual(log.entries.last, "pan began")
    }

    @Test func systemCancellationCancelsOrFailsEveryRecognizer() {
        let (_, view, synthesizer) = scene()
        let log = CallLog()
        let pan = UIPanGestureRecognizer(), longPress = UILongPressGestureRecognizer()
        let delegate = Delegate()
        delegate.simultaneous = true
        pan.delegate = delegate
        recordActions(pan, into: log, as: "pan")
        recordActions(longPress, into: log, as: "long press")
        view.addGestureRecognizer(pan)
        view.addGestureRecognizer(longPress)
        let finger = synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        synthesizer.touchMove(finger, to: CGPoint(x: 15, y: 10))
        var states: [UIGestureRecognizer.State] = []
        UIApplication.shared.traceHandler = { record in
            if case .gestureStateChanged(_, _, let to, _, _) = record.step { states.append(to) }
        }
        synthesizer.touchMove(finger, to: CGPoint(x: 40, y: 10))  // long press fails (moved), pan begins
        synthesizer.cancelAllTouches()
        expectEqual(log.entries, ["pan began", "pan cancelled"])
        // The pan (added first) sees the move first and begins; the long press, allowed alongside, then fails.
        expectEqual(states, [.began, .failed, .cancelled, .possible, .possible])
    }

    @Test func ignoredTouchesAreNotDeliveredToTheRecognizer() {
        let (_, view, synthesizer) = scene()
        view.isMultipleTouchEnabled = true
        final class IgnoresSecond: UIGestureRecognizer {
            var seen = 0
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
                seen += touches.count
                if numberOfTouches == 2 { ignore(touches.first!, for: event) }
            }
        }
        let recognizer = IgnoresSecond()
        view.addGestureRecognizer(recognizer)
        synthesizer.touchDown(at: CGPoint(x: 10, y: 10))
        expectEqual(recognizer.numberOfTouches, 1)
        synthesizer.touchDown(at: CGPoint(x: 30, y: 10))
        expectEqual(recognizer.numberOfTouches, 1)
        expectEqual(recognizer.seen, 2)
        expectEqual(recognizer.location(in: view), CGPoint(x: 10, y: 10))
    }

    @Test func aRecognizerIgnoresTouchesOfTypesItDoesNotAllow() {
        let (_, view, synthesizer) = scene()
        let tap = UITapGestureRecognizer()
        expectEqual(tap.allowedTouchTypes.map(\.intValue), [0, 1, 2, 3])  // every type by default
        tap.allowedTouchTypes = [NSNumber(value: UITouch.TouchType.direct.rawValue)]
        tap.cancelsTouchesInView = false
        var taps = 0
        tap.addTarget(view) { _ in { taps += 1 } }
        view.addGestureRecognizer(tap)

        // A mouse click is an indirect-pointer touch: the view gets it, the recognizer does not.
        let click = synthesizer.touchDown(at: CGPoint(x: 50, y: 50), type: .indirectPointer)
        let touch = UIApplication.shared.touchRouter.touchesOnScreen.first
        expectEqual(touch?.type, .indirectPointer)
        #expect(touch?.gestureRecognizers == nil)
        synthesizer.touchUp(click)
        expectEqual(taps, 0)
        expectEqual(view.phases, ["began", "ended"])

        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 50, y: 50))  // a finger
        expectEqual(taps, 1)

        // Allowing the pointer too lets the click through.
        tap.allowedTouchTypes = [UITouch.TouchType.direct, .indirectPointer].map { NSNumber(value: $0.rawValue) }
        synthesizer.advance(by: 1)
        synthesizer.touchUp(synthesizer.touchDown(at: CGPoint(x: 50, y: 50), type: .indirectPointer))
        expectEqual(taps, 2)
        // A stylus is still kept out.
        synthesizer.advance(by: 1)
        synthesizer.touchUp(synthesizer.touchDown(at: CGPoint(x: 50, y: 50), type: .pencil))
        expectEqual(taps, 2)
    }

    @Test func locationIsTheCentroidOfTheTouches() {
        let (window, view, synthesizer) = scene(viewFrame: CGRect(x: 100, y: 100, width: 200, height: 200))
        view.isMultipleTouchEnabled = true
        let recognizer = UIPinchGestureRecognizer()
        view.addGestureRecognizer(recognizer)
        synthesizer.touchDown(at: [CGPoint(x: 110, y: 120), CGPoint(x: 150, y: 160)])
        expectEqual(recognizer.numberOfTouches, 2)
        expectEqual(recognizer.location(in: view), CGPoint(x: 30, y: 40))
        expectEqual(recognizer.location(in: nil), CGPoint(x: 130, y: 140))
        expectEqual(recognizer.location(ofTouch: 1, in: window), CGPoint(x: 150, y: 160))
    }
}

@MainActor
@Suite struct GesturePressTests {
    final class FocusView: UIView {
        var received: [String] = []
        override var canBecomeFirstResponder: Bool { true }
        override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) { received.append("began") }
        override func pressesEnded(_ presses: Set<UIPress>, with event: UIPressesEvent?) { received.append("ended") }
    }

    /// Recognizes a press of the select button (as tvOS's select tap does).
    final class SelectRecognizer: UIGestureRecognizer {
        var log: [String] = []
        override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent) {
            log.append("began \(presses.count)")
            if event.presses(for: self) != presses { log.append("presses(for:) disagrees") }
        }
        override func pressesEnded(_ presses: Set<UIPress>, with event: UIPressesEvent) {
            log.append("ended")
            state = presses.contains { $0.type == .select } ? .recognized : .failed
        }
    }

    final class PressFilter: UIGestureRecognizerDelegate {
        func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive press: UIPress) -> Bool {
            press.type != .menu
        }
    }

    @Test func recognizersOfTheResponderAndItsAncestorsReceivePressesFirst() {
        let window = makeWindow()
        let container = UIView(frame: window.bounds)
        let focus = FocusView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(container)
        container.addSubview(focus)
        #expect(focus.becomeFirstResponder())
        let recognizer = SelectRecognizer()
        let filter = PressFilter()
        recognizer.delegate = filter
        var recognized = 0
        recognizer.addTarget(window) { _ in { recognized += 1 } }
        container.addGestureRecognizer(recognizer)
        let synthesizer = TouchSynthesizer(window: window)

        synthesizer.pressDown(.select)
        expectEqual(recognizer.log, ["began 1"])
        expectEqual(focus.received, ["began"])
        synthesizer.pressUp(.select)
        expectEqual(recognizer.log, ["began 1", "ended"])
        expectEqual(recognized, 1)
        expectEqual(focus.received, ["began", "ended"])
        expectEqual(recognizer.state, .possible)

        // The delegate hides the menu button from it.
        synthesizer.pressDown(.menu)
        synthesizer.pressUp(.menu)
        expectEqual(recognizer.log, ["began 1", "ended"])
        expectEqual(focus.received, ["began", "ended", "began", "ended"])
    }

    @Test func aRecognizerReceivesOnlyThePressTypesItAllows() {
        let window = makeWindow()
        let focus = FocusView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(focus)
        #expect(focus.becomeFirstResponder())
        let recognizer = SelectRecognizer()
        focus.addGestureRecognizer(recognizer)
        let synthesizer = TouchSynthesizer(window: window)
        // Until set, every press reaches it, a keyboard key's too.
        expectEqual(recognizer.allowedPressTypes.map(\.intValue), [0, 1, 2, 3, 4, 5, 6])
        synthesizer.pressDown(UIPress.PressType(keyboardKey: .keyboardA))
        synthesizer.pressUp(UIPress.PressType(keyboardKey: .keyboardA))
        expectEqual(recognizer.log, ["began 1", "ended"])

        recognizer.allowedPressTypes = [NSNumber(value: UIPress.PressType.select.rawValue)]
        recognizer.log = []
        synthesizer.pressDown(.playPause)
        synthesizer.pressUp(.playPause)
        synthesizer.pressDown(UIPress.PressType(keyboardKey: .keyboardA))
        synthesizer.pressUp(UIPress.PressType(keyboardKey: .keyboardA))
        #expect(recognizer.log.isEmpty)
        synthesizer.pressDown(.select)
        synthesizer.pressUp(.select)
        expectEqual(recognizer.log, ["began 1", "ended"])
        // The responder got every press all the same.
        expectEqual(focus.received.count, 8)

        recognizer.allowedPressTypes = []
        synthesizer.pressDown(.select)
        synthesizer.pressUp(.select)
        expectEqual(recognizer.log, ["began 1", "ended"])
    }
}
