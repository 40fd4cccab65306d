/// How a scroll view shares touches with its content.
///
/// A finger that lands on a scroll view's content may be the start of a tap
/// on that content or of a scroll. The scroll view decides with two
/// recognizers of its own, on top of the gesture engine's rules for
/// `delaysTouchesBegan` and `cancelsTouchesInView` (`TouchRouting.swift`):
///
/// 1. `touchesShouldBegin(_:with:in:)`: just before content would receive
///    touches, the scroll view asks; false keeps them from it for good (the
///    scroll view can still scroll with them).
/// 2. `delaysContentTouches` (default true): a touch on content is held back
///    by ``DelayedTouchesBeganGestureRecognizer``, which delays touches began.
///    It gives the touch to the content after
///    ``ScrollViewConstants/contentTouchDelay`` (150 ms, which UIKit does not
///    document), or at once when the finger lifts sooner — then the content
///    receives began and ended together, at the release, so a quick tap still
///    works. A button inside a scroll view therefore highlights only after
///    the delay. With `delaysContentTouches` false (or scrolling disabled)
///    the recognizer holds nothing back and asks step 1 as the touch lands.
/// 3. If a scroll starts first, the content never sees the touch: the delay
///    recognizer recognizes, and the engine drops the touches a recognizer
///    that delays touches began was holding.
/// 4. `canCancelContentTouches` (default true) is the pan's
///    `cancelsTouchesInView`. A drag that starts on content that already has
///    the touch (the delay is over, or there was none) asks
///    `touchesShouldCancel(in:)`; if it says yes, the pan begins and the
///    content receives `touchesCancelled`. If it says no — by default for a
///    control — or `canCancelContentTouches` is false, the pan does not begin
///    (`gestureRecognizerShouldBegin(_:)`), the content keeps the touch and
///    nothing scrolls.
///
/// A touch that lands while the content is coasting only stops it: the
/// content does not receive it (see `UIScrollView+Dragging.swift`).
extension UIScrollView {
    /// The scroll view's recognizers, after a change of `isScrollEnabled`,
    /// `delaysContentTouches` or `canCancelContentTouches` (steps 2 and 4).
    func updateContentTouchHandling() {
        storedPan.isEnabled = isScrollEnabled
        storedPan.cancelsTouchesInView = canCancelContentTouches
        delayedTouchesRecognizer.delaysTouchesBegan = delaysContentTouches && isScrollEnabled
    }

    /// Step 1, for touches about to reach the content: the ones
    /// `touchesShouldBegin(_:with:in:)` refuses never will.
    func admitContentTouches(_ touches: [UITouch]) {
        var byView: [(view: UIView, touches: [UITouch])] = []
        for touch in touches where touch.isDeliveredToView && touch.viewDelivery == .notStarted {
            guard let view = touch.view, view !== self, view.isDescendant(of: self) else { continue }
            if let index = byView.firstIndex(where: { $0.view === view }) {
                byView[index].touches.append(touch)
            } else {
                byView.append((view, [touch]))
            }
        }
        for (view, touches) in byView where !touchesShouldBegin(Set(touches), with: UIApplication.shared.touchesEvent, in: view) {
            for touch in touches { touch.isDeliveredToView = false }
            UIApplication.shared.touchRouter.discardHeldBegan(of: touches)
        }
    }

    /// Step 3: a scroll started with `touches`. Every scroll view's delay
    /// recognizer holding them lets go of them for good, so a scroll started
    /// by an outer scroll view also keeps them from an inner one's content.
    func scrollDidStart(with touches: [UITouch]) {
        var recognizers: [DelayedTouchesBeganGestureRecognizer] = []
        for touch in touches {
            for case let recognizer as DelayedTouchesBeganGestureRecognizer in touch.gestureRecognizerList
            where !recognizers.containsIdentical(recognizer) {
                recognizers.append(recognizer)
            }
        }
        for recognizer in recognizers { recognizer.scrollDidStart() }
    }

    /// Step 4: whether the pan may begin, given what the content already has.
    func contentTouchesLetPanBegin() -> Bool {
        for touch in storedPan.currentTouchesNotIgnored where touch.viewDelivery == .began {
            guard let view = touch.view, view !== self, view.isDescendant(of: self) else { continue }
            if !canCancelContentTouches || !touchesShouldCancel(in: view) { return false }
        }
        return true
    }
}

/// Holds back the content's touches began while the scroll view finds out
/// whether the user is scrolling (steps 1–3 above; UIKit has a private
/// recognizer for the same job). It never takes part in arbitration: it
/// prevents nothing and nothing prevents it, so a pan that begins does not
/// make it fail (failing would hand the held touches to the content).
///
/// Every touch-down waits for its own delay, as Apple describes the scroll
/// view delaying "the touch-down gesture": a second finger that lands after
/// the first one's delay is over is held back for a delay of its own. So
/// the recognizer does not fail when a delay ends, which would keep it from
/// later touches until all fingers lift; it stops holding that touch back
/// (`releasedTouches`) and stays undecided until its last finger lifts.
final class DelayedTouchesBeganGestureRecognizer: UIGestureRecognizer {
    /// The touches still held back, each with the clock time its delay ends,
    /// in the order they landed (and so of their deadlines).
    private var waiting: [(touch: UITouch, until: TimeInterval)] = []

    override init() {
        super.init()
        delaysTouchesBegan = true
        delaysTouchesEnded = false
        cancelsTouchesInView = false
    }

    private var scrollView: UIScrollView? { view as? UIScrollView }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard delaysTouchesBegan else {
            // Nothing to wait for: the content gets the touches now, if the scroll view agrees.
            let landed = currentTouchesNotIgnored.filtered { touches.contains($0) }
            scrollView?.admitContentTouches(landed)
            release(landed)
            return
        }
        let until = UIApplication.shared.runLoop.clock.now + ScrollViewConstants.contentTouchDelay
        let startsWaiting = waiting.isEmpty
        for touch in currentTouchesNotIgnored where touches.contains(touch) { waiting.append((touch, until)) }
        if startsWaiting { scheduleNextRelease() }
    }

    /// A finger lifted before its delay was over: the content gets the
    /// touch now, began then ended. Once every finger has lifted the
    /// recognizer is done.
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        let lifted = waiting.filtered { touches.contains($0.touch) }.mapped(\.touch)
        if !lifted.isEmpty {
            waiting.removeEvery { touches.contains($0.touch) }
            admitAndRelease(lifted)
            scheduleNextRelease()
        }
        finishIfNoFingerIsLeft()
    }

    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        waiting.removeEvery { touches.contains($0.touch) }
        finishIfNoFingerIsLeft()
    }

    private func finishIfNoFingerIsLeft() {
        if state == .possible && touchesStillDown.isEmpty { state = .failed }
    }

    /// The deadline of the oldest touch still held back.
    private func scheduleNextRelease() {
        guard let next = waiting.first else { return cancelDeadline() }
        let delay = max(0, next.until - UIApplication.shared.runLoop.clock.now)
        setDeadline(after: delay) { recognizer in
            (recognizer as? DelayedTouchesBeganGestureRecognizer)?.releaseDueTouches()
        }
    }

    /// The delay of one or more touches is over: the content gets them.
    private func releaseDueTouches() {
        guard state == .possible else { return }
        let now = UIApplication.shared.runLoop.clock.now
        let due = waiting.filtered { $0.until <= now }.mapped(\.touch)
        waiting.removeEvery { $0.until <= now }
        admitAndRelease(due)
        scheduleNextRelease()
    }

    private func admitAndRelease(_ touches: [UITouch]) {
        guard state == .possible, !touches.isEmpty else { return }
        scrollView?.admitContentTouches(touches)
        release(touches)
    }

    /// Stops holding `touches` back; the engine delivers what it held of them.
    private func release(_ touches: [UITouch]) {
        for touch in touches { releasedTouches.insert(touch) }
        UIApplication.shared.touchRouter.releaseHeldTouches(touches)
    }

    /// A scroll started: recognizing drops the held touches for good.
    func scrollDidStart() {
        guard state == .possible else { return }
        waiting = []
        state = .ended
    }

    override func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    override func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { false }

    override func reset() {
        super.reset()
        waiting = []
    }
}
