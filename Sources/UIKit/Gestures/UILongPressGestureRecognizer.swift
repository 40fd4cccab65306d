/// Recognizes fingers held still for a while (continuous): it begins after
/// ``minimumPressDuration``, changes as the fingers move, and ends when they
/// lift. Moving more than ``allowableMovement`` before it begins fails it.
@preconcurrency @MainActor
open class UILongPressGestureRecognizer: UIGestureRecognizer {
    /// Documented UIKit default: 0.5 s.
    @exclusivity(unchecked) open var minimumPressDuration: TimeInterval = 0.5
    /// Documented UIKit default: 10 points.
    @exclusivity(unchecked) open var allowableMovement: CGFloat = 10
    @exclusivity(unchecked) open var numberOfTouchesRequired = 1
    /// Full taps that must come before the press.
    @exclusivity(unchecked) open var numberOfTapsRequired = 0

    @exclusivity(unchecked) private var tapsCompleted = 0

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        guard state == .possible else { return }
        cancelDeadline()
        let down = touchesStillDown.count
        guard down <= numberOfTouchesRequired else {
            state = .failed
            return
        }
        if tapsCompleted < numberOfTapsRequired {
            failAfter(GestureThresholds.maximumSingleTapDuration)
        } else if down == numberOfTouchesRequired {
            setDeadline(after: minimumPressDuration) { recognizer in
                if recognizer.state == .possible { recognizer.state = .began }
            }
        }
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible {
            if touches.anyMoved(fartherThan: allowableMovement) { state = .failed }
        } else if state == .began || state == .changed {
            state = .changed
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible {
            cancelDeadline()
            guard tapsCompleted < numberOfTapsRequired, touchesStillDown.isEmpty else {
                state = .failed
                return
            }
            tapsCompleted += 1
            failAfter(GestureThresholds.maximumIntervalBetweenTaps)
        } else if state == .began || state == .changed {
            state = .ended
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        state = state == .possible ? .failed : .cancelled
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
    }
}
