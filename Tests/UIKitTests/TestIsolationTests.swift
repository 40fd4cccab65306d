import TestExpectations
import Testing
@testable import UIKit

/// Tests written as users write them — a new window and a new
/// `TouchSynthesizer` each, no reset call — start clean, whatever an earlier
/// test left behind. Each test here resets the application once, plays an
/// "earlier test" that leaves something behind, then a "later test" that
/// must not see it.
@MainActor
@Suite struct TestIsolationTests {
    /// A full-screen window with a control covering it, as a test would make.
    func makeControlScene() -> (UIWindow, UIControl, CallLog) {
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        let control = UIControl(frame: window.bounds)
        window.addSubview(control)
        let log = CallLog()
        recordControlEvents(of: control, into: log)
        return (window, control, log)
    }

    @Test func theFirstTapOfANewWindowAndSynthesizerIsASingleTap() {
        UIApplication.shared.resetForTesting()
        do {
            let (window, _, _) = makeControlScene()
            TouchSynthesizer(window: window).tap(at: CGPoint(x: 100, y: 100))
        }
        // Same place, same clock time (the manual clock carries on).
        let (window, _, log) = makeControlScene()
        var tapCounts: [Int] = []
        let probe = TapCountProbe { tapCounts.append($0) }
        window.addGestureRecognizer(probe)
        TouchSynthesizer(window: window).tap(at: CGPoint(x: 100, y: 100))
        expectEqual(tapCounts, [1])
        expectEqual(log.entries, ["touchDown", "upInside"])
    }

    @Test func aTapInAWindowThatWentAwayIsNotContinued() {
        UIApplication.shared.resetForTesting()
        let (later, _, laterLog) = makeControlScene()
        let synthesizer = TouchSynthesizer(window: later)
        do {
            // An earlier window in front of it, tapped, then released.
            let (earlier, _, earlierLog) = makeControlScene()
            synthesizer.tap(at: CGPoint(x: 100, y: 100))
            expectEqual(earlierLog.entries, ["touchDown", "upInside"])
            _ = earlier
        }
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        expectEqual(laterLog.entries, ["touchDown", "upInside"])
    }

    @Test func aTapInAWindowThatWasHiddenIsNotContinued() {
        UIApplication.shared.resetForTesting()
        let (window, _, log) = makeControlScene()
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        window.isHidden = true
        window.isHidden = false
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        expectEqual(log.entries, ["touchDown", "upInside", "touchDown", "upInside"])
        // In a window that stays shown, the next tap continues the sequence.
        synthesizer.tap(at: CGPoint(x: 100, y: 100))
        expectEqual(log.entries.suffix(3), ["touchDown", "touchDownRepeat", "upInside"])
    }

    @Test func fingersAnEarlierSynthesizerLeftDownAreCancelledAndTheirRecognizersStop() {
        UIApplication.shared.resetForTesting()
        var earlierActions: [UIGestureRecognizer.State] = []
        let earlierView = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        do {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
            window.makeKeyAndVisible()
            window.addSubview(earlierView)
            let press = UILongPressGestureRecognizer()
            press.addTarget(press) { press in { earlierActions.append(press.state) } }
            press.cancelsTouchesInView = false
            earlierView.addGestureRecognizer(press)
            // The earlier test ends with its finger still down, the long press undecided.
            TouchSynthesizer(window: window).touchDown(at: CGPoint(x: 100, y: 100))
        }
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        final class CountingView: RecordingView {
            var touchesOnScreen: [Int] = []
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
                touchesOnScreen.append(event?.allTouches?.count ?? 0)
                super.touchesBegan(touches, with: event)
            }
        }
        let view = CountingView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        expectEqual(earlierView.phases, ["began", "cancelled"])
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 1)  // past the earlier long press's deadline
        synthesizer.touchUp(finger)
        expectEqual(view.phases, ["began", "ended"])
        expectEqual(view.touchesOnScreen, [1])  // the earlier finger is gone
        #expect(earlierActions.isEmpty)
    }

    @Test func aNewKeyWindowTakesPressesFromAnEarlierWindowsFirstResponder() {
        UIApplication.shared.resetForTesting()
        final class KeyView: UIView {
            var presses = 0
            override var canBecomeFirstResponder: Bool { true }
            override func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) { self.presses += 1 }
        }
        let earlierWindow = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        earlierWindow.makeKeyAndVisible()
        let earlier = KeyView(frame: earlierWindow.bounds)
        earlierWindow.addSubview(earlier)
        #expect(earlier.becomeFirstResponder())

        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        let view = KeyView(frame: window.bounds)
        window.addSubview(view)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.pressDown(.select)
        synthesizer.pressUp(.select)
        #expect(window.firstResponder == nil)
        expectEqual(earlier.presses, 0)  // no first responder in the key window: the press goes nowhere
        #expect(view.becomeFirstResponder())
        synthesizer.pressDown(.select)
        #expect(view.presses == 1 && earlier.presses == 0)
        synthesizer.pressUp(.select)
    }

    @Test func aScrollViewThatLeavesItsWindowStopsDecelerating() {
        UIApplication.shared.resetForTesting()
        let log = CallLog()
        let delegate = DecelerationLog(log)
        let list = UIScrollView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        list.contentSize = CGSize(width: 400, height: 10_000)
        list.delegate = delegate
        do {
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
            window.makeKeyAndVisible()
            window.addSubview(list)
            let synthesizer = TouchSynthesizer(window: window)
            let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 600))
            for step in 1...6 {
                synthesizer.advance(by: 0.016)
                synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 600 - 50 * CGFloat(step)))
            }
            synthesizer.touchUp(finger)
            #expect(list.isDecelerating)
        }
        // The window went away while the list coasted; the test still holds the list.
        #expect(!list.isDecelerating)
        expectEqual(log.entries, ["willBeginDecelerating", "didEndDecelerating"])
        let offset = list.contentOffset
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        TouchSynthesizer(window: window).advance(by: 2)
        expectEqual(list.contentOffset, offset)
    }

    @Test func aScrollViewRemovedFromItsWindowStopsDecelerating() {
        let window = makeWindow()
        let log = CallLog()
        let delegate = DecelerationLog(log)
        let list = UIScrollView(frame: window.bounds)
        list.contentSize = CGSize(width: 400, height: 10_000)
        list.delegate = delegate
        window.addSubview(list)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 600))
        for step in 1...6 {
            synthesizer.advance(by: 0.016)
            synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 600 - 50 * CGFloat(step)))
        }
        synthesizer.touchUp(finger)
        #expect(list.isDecelerating)
        list.removeFromSuperview()
        #expect(!list.isDecelerating)
        let offset = list.contentOffset
        synthesizer.advance(by: 2)
        expectEqual(list.contentOffset, offset)
        expectEqual(log.entries, ["willBeginDecelerating", "didEndDecelerating"])
    }
}

/// Reports each touch's tap count as it begins, and never recognizes.
@MainActor
final class TapCountProbe: UIGestureRecognizer {
    let report: (Int) -> Void
    init(report: @escaping (Int) -> Void) {
        self.report = report
        super.init()
        cancelsTouchesInView = false
        delaysTouchesEnded = false
    }
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        for touch in touches { report(touch.tapCount) }
    }
}

@MainActor
final class DecelerationLog: UIScrollViewDelegate {
    let log: CallLog
    init(_ log: CallLog) { self.log = log }
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) { log.add("willBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { log.add("didEndDecelerating") }
}
