/// Recognizes dragging (continuous): it begins once the centroid of
/// between ``minimumNumberOfTouches`` and ``maximumNumberOfTouches`` fingers
/// has moved ``GestureThresholds/panHysteresis`` points, changes with every
/// move, and ends when fewer than the minimum remain.
@preconcurrency @MainActor
open class UIPanGestureRecognizer: UIGestureRecognizer {
    @exclusivity(unchecked) open var minimumNumberOfTouches = 1
    @exclusivity(unchecked) open var maximumNumberOfTouches = Int.max

    /// Where the translation is measured from, in screen points; moved when
    /// fingers join or leave so that the translation does not jump.
    @exclusivity(unchecked) private var origin = CGPoint.zero
    @exclusivity(unchecked) private var history = MotionHistory()

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        let active = touchesStillDown
        let joining = active.filtered { touches.contains($0) }
        let previousCount = active.count - joining.count
        let room = max(0, maximumNumberOfTouches - previousCount)
        if joining.count > room {
            for touch in joining.dropFirst(room) { ignore(touch, for: event) }
        }
        let centroid = screenCentroid(of: joining.count > room ? touchesStillDown : active)
        if previousCount == 0 {
            origin = centroid
            history.removeAll()
        } else {
            let before = screenCentroid(of: active.filtered { !touches.contains($0) })
            origin.x += centroid.x - before.x
            origin.y += centroid.y - before.y
        }
        history.add(centroid, at: event.timestamp)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        let active = touchesStillDown
        let centroid = screenCentroid(of: active)
        history.add(centroid, at: event.timestamp)
        if state == .possible {
            let count = active.count
            if count >= minimumNumberOfTouches && count <= maximumNumberOfTouches
                && centroid.distance(to: origin) >= GestureThresholds.panHysteresis {
                state = .began
            }
        } else if state == .began || state == .changed {
            state = .changed
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        let remaining = touchesStillDown
        let lifting = currentTouchesNotIgnored.filtered { touches.contains($0) }
        history.add(screenCentroid(of: remaining + lifting), at: event.timestamp)
        if remaining.count < max(1, minimumNumberOfTouches) {
            state = (state == .began || state == .changed) ? .ended : .failed
        } else {
            let before = screenCentroid(of: remaining + lifting), after = screenCentroid(of: remaining)
            origin.x += after.x - before.x
            origin.y += after.y - before.y
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        state = state == .possible ? .failed : .cancelled
    }

    open override func reset() {
        super.reset()
        history.removeAll()
    }

    /// The current centroid in screen points (where the fingers lifted, once they have).
    private var currentCentroid: CGPoint { screenCentroid(of: currentTouchesNotIgnored) }

    /// How far the touches have moved, in `view`'s coordinates (the window's for nil).
    open func translation(in view: UIView?) -> CGPoint {
        let window = self.view?.window
        let current = UITouch.convertFromScreen(currentCentroid, to: view, window: window)
        let start = UITouch.convertFromScreen(origin, to: view, window: window)
        return CGPoint(x: current.x - start.x, y: current.y - start.y)
    }

    /// Makes the translation read `translation` in `view`'s coordinates from now on.
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {
        let window = self.view?.window
        let current = UITouch.convertFromScreen(currentCentroid, to: view, window: window)
        let start = CGPoint(x: current.x - translation.x, y: current.y - translation.y)
        if let view {
            origin = view.layer.convertToRootSpace(start)
        } else if let window {
            origin = window.layer.convertToRootSpace(start)
        } else {
            origin = start
        }
    }

    /// Points per second in `view`'s coordinates, fitted to the last tenth of
    /// a second of movement.
    open func velocity(in view: UIView?) -> CGPoint {
        let velocity = history.velocity
        let window = self.view?.window
        let base = currentCentroid
        let a = UITouch.convertFromScreen(base, to: view, window: window)
        let b = UITouch.convertFromScreen(CGPoint(x: base.x + velocity.x, y: base.y + velocity.y), to: view, window: window)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }
}
