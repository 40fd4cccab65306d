/// Recognizes one or more taps of one or more fingers (discrete).
///
/// Each tap must lift within ``GestureThresholds/maximumSingleTapDuration``
/// and move less than ``GestureThresholds/tapAllowableMovement``; the next
/// tap must land within ``GestureThresholds/maximumIntervalBetweenTaps`` and
/// that distance of the first.
@preconcurrency @MainActor
open class UITapGestureRecognizer: UIGestureRecognizer {
    @exclusivity(unchecked) open var numberOfTapsRequired = 1
    @exclusivity(unchecked) open var numberOfTouchesRequired = 1

    @exclusivity(unchecked) private var tapsCompleted = 0
    @exclusivity(unchecked) private var touchesInCurrentTap = 0
    @exclusivity(unchecked) private var firstTapLocation: CGPoint?

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        cancelDeadline()
        for touch in touches {
            if let first = firstTapLocation, touch.screenLocation.distance(to: first) > GestureThresholds.tapAllowableMovement {
                state = .failed
                return
            }
        }
        let down = touchesStillDown.count
        guard down <= numberOfTouchesRequired else {
            state = .failed
            return
        }
        touchesInCurrentTap = max(touchesInCurrentTap, down)
        failAfter(GestureThresholds.maximumSingleTapDuration)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        if movedTooFar(touches) { state = .failed }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        guard !movedTooFar(touches) else {
            state = .failed
            return
        }
        guard touchesStillDown.isEmpty else { return }
        cancelDeadline()
        guard touchesInCurrentTap == numberOfTouchesRequired else {
            state = .failed
            return
        }
        tapsCompleted += 1
        touchesInCurrentTap = 0
        if firstTapLocation == nil { firstTapLocation = screenCentroid(of: Array(touches)) }
        if tapsCompleted >= numberOfTapsRequired {
            state = .ended
        } else {
            failAfter(GestureThresholds.maximumIntervalBetweenTaps)
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        state = .failed
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        touchesInCurrentTap = 0
        firstTapLocation = nil
    }

    private func movedTooFar(_ touches: Set<UITouch>) -> Bool {
        touches.anyMoved(fartherThan: GestureThresholds.tapAllowableMovement)
    }
}
