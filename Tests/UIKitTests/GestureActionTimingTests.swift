import TestExpectations
import Testing
@testable import UIKit

/// When a recognizer's actions run: after its touch method has returned and
/// every recognizer has seen the event, not from inside the `state` setter.
@MainActor
@Suite struct GestureActionTimingTests {
    /// A one-finger stand-in for a rotation recognizer, written as real subclasses are:
    /// it sets its state first, then the property its action reads.
    final class AngleRecognizer: UIGestureRecognizer {
        var angle: CGFloat = 0
        var log: CallLog?

        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
            log?.add("\(name ?? "") touchesBegan")
        }

        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
            log?.add("\(name ?? "") touchesMoved")
            let touch = touches.first!
            state = state == .possible ? .began : .changed
            angle = touch.location(in: view).x - touch.previousLocation(in: view).x + angle
        }

        override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
            state = state == .possible ? .failed : .ended
            angle += 1000
        }

        override func reset() { angle = 0 }
    }

    @Test func anActionSeesWhatTheRecognizerSetAfterItsState() {
        let window = makeWindow()
        let view = UIView(frame: window.bounds)
        window.addSubview(view)
        let recognizer = AngleRecognizer()
        var seen: [String] = []
        recognizer.addTarget(recognizer) { recognizer in { seen.append("\(recognizer.state) \(Int(recognizer.angle))") } }
        view.addGestureRecognizer(recognizer)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(finger, to: CGPoint(x: 130, y: 100))
        synthesizer.touchMove(finger, to: CGPoint(x: 150, y: 100))
        synthesizer.touchUp(finger)
        expectEqual(seen, ["began 30", "changed 50", "ended 1050"])
    }

    @Test func actionsWaitUntilEveryRecognizerHasSeenTheEvent() {
        let window = makeWindow()
        let view = UIView(frame: window.bounds)
        window.addSubview(view)
        let log = CallLog()
        let first = AngleRecognizer(), second = AngleRecognizer()
        first.name = "first"
        second.name = "second"
        for recognizer in [first, second] {
            recognizer.log = log
            recognizer.addTarget(log) { log in { log.add("\(recognizer.name!) action \(recognizer.state)") } }
            view.addGestureRecognizer(recognizer)
        }
        // Both recognize together, so neither prevents the other.
        final class Both: UIGestureRecognizerDelegate {
            func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                   shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer) -> Bool { true }
        }
        let delegate = Both()
        first.delegate = delegate
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.touchMove(finger, to: CGPoint(x: 120, y: 100))
        #expect(log.entries == [
            "first touchesBegan", "second touchesBegan",
            "first touchesMoved", "second touchesMoved",
            "first action began", "second action began",
        ])
        synthesizer.touchUp(finger)
    }

    @Test func aTimerThatMovesARecognizerSendsItsActionWhenItIsOver() {
        let window = makeWindow()
        let view = UIView(frame: window.bounds)
        window.addSubview(view)
        var seen: [UIGestureRecognizer.State] = []
        let press = UILongPressGestureRecognizer()
        press.addTarget(press) { press in { seen.append(press.state) } }
        view.addGestureRecognizer(press)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.6)
        expectEqual(seen, [.began])
        synthesizer.touchUp(finger)
        expectEqual(seen, [.began, .ended])
    }
}
