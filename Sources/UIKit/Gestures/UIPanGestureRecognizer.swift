/// Recognizes dragging (continuous): it begins once the centroid of
/// between ``minimumNumberOfTouches`` and ``maximumNumberOfTouches`` fingers
/// has moved ``GestureThresholds/panHysteresis`` points, changes with every
/// move, and ends when fewer than the minimum remain.
///
/// Fingers may join and leave while it tracks: the translation follows the
/// centroid of the fingers down, re-based whenever that set changes on the
/// positions the fingers had before the change, so it never jumps, even
/// when one finger lifts in the same scan of the screen as another moves.
///
/// ``maximumNumberOfTouches`` is, in Apple's words, "the maximum number of
/// fingers that can touch the view for gesture recognition": while more
/// fingers than that are down, the pan does not begin (it may once enough
/// of them lift); once it has begun, fingers beyond the maximum are ignored,
/// so it goes on following the ones it began with.
@preconcurrency @MainActor
open class UIPanGestureRecognizer: UIGestureRecognizer {
    @exclusivity(unchecked) open var minimumNumberOfTouches = 1
    @exclusivity(unchecked) open var maximumNumberOfTouches = Int.max

    /// Where the translation is measured from, in screen points: the
    /// centroid where the fingers started, moved by every re-basing and by
    /// ``setTranslation(_:in:)``.
    @exclusivity(unchecked) private var origin = CGPoint.zero
    /// The fingers the translation follows, each where it was last seen,
    /// in screen points; empty before the first finger lands.
    @exclusivity(unchecked) private var basis: [(touch: UITouch, location: CGPoint)] = []
    /// What the re-basings have moved the origin by: the history records the
    /// centroid less this, a path that does not jump when fingers join or
    /// leave, and that ``setTranslation(_:in:)`` does not move.
    @exclusivity(unchecked) private var rebasing = CGPoint.zero
    @exclusivity(unchecked) private var history = MotionHistory()

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .began || state == .changed {
            let joining = touchesStillDown.filtered { touches.contains($0) }
            let room = max(0, maximumNumberOfTouches - (touchesStillDown.count - joining.count))
            for touch in joining.dropFirst(room) { ignore(touch, for: event) }
        }
        followFingers(at: event.timestamp)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        followFingers(at: event.timestamp)
        if state == .possible {
            let count = touchesStillDown.count
            if count >= minimumNumberOfTouches && count <= maximumNumberOfTouches
                && trackedCentroid.distance(to: origin) >= GestureThresholds.panHysteresis {
                state = .began
            }
        } else if state == .began || state == .changed {
            state = .changed
        }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if touchesStillDown.count < max(1, minimumNumberOfTouches) {
            history.add(subtracting(rebasing, from: screenCentroid(of: currentTouchesNotIgnored)), at: event.timestamp)
            state = (state == .began || state == .changed) ? .ended : .failed
        } else {
            followFingers(at: event.timestamp)
        }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        state = state == .possible ? .failed : .cancelled
    }

    open override func reset() {
        super.reset()
        basis = []
        history.removeAll()
    }

    /// Brings the basis up to the fingers down now. The first finger sets
    /// the origin; when fingers have joined or left since the last look,
    /// the origin moves by how far that change moved the centroid of where
    /// the fingers were (a finger that joins counts where it landed), so
    /// the translation keeps only the movement of the fingers that stay.
    /// Called again for the same event (a subclass that looks at the
    /// translation before calling super), it changes nothing.
    func followFingers(at time: TimeInterval) {
        let fingers = touchesStillDown
        guard !fingers.isEmpty else { return }
        var sameFingers = fingers.count == basis.count, samePlaces = sameFingers
        for index in fingers.indices where sameFingers {
            sameFingers = fingers[index] === basis[index].touch
            samePlaces = sameFingers && samePlaces && fingers[index].screenLocation == basis[index].location
        }
        if samePlaces { return }
        if basis.isEmpty {
            origin = screenCentroid(of: fingers)
            rebasing = .zero
            history.removeAll()
        } else if !sameFingers {
            var before = CGPoint.zero, after = CGPoint.zero
            for entry in basis {
                before.x += entry.location.x / CGFloat(basis.count)
                before.y += entry.location.y / CGFloat(basis.count)
            }
            for finger in fingers {
                var location = finger.screenLocation
                for entry in basis where entry.touch === finger { location = entry.location }
                after.x += location.x / CGFloat(fingers.count)
                after.y += location.y / CGFloat(fingers.count)
            }
            origin = CGPoint(x: origin.x + after.x - before.x, y: origin.y + after.y - before.y)
            rebasing = CGPoint(x: rebasing.x + after.x - before.x, y: rebasing.y + after.y - before.y)
        }
        basis.removeAll(keepingCapacity: true)
        for finger in fingers { basis.append((finger, finger.screenLocation)) }
        history.add(subtracting(rebasing, from: screenCentroid(of: fingers)), at: time)
    }

    private func subtracting(_ offset: CGPoint, from point: CGPoint) -> CGPoint {
        CGPoint(x: point.x - offset.x, y: point.y - offset.y)
    }

    /// The centroid the translation follows, in screen points: of the
    /// fingers down, or, once all have lifted, of where they lifted.
    private var trackedCentroid: CGPoint {
        let fingers = touchesStillDown
        return screenCentroid(of: fingers.isEmpty ? currentTouchesNotIgnored : fingers)
    }

    /// How far the touches have moved, in `view`'s coordinates (the window's for nil).
    open func translation(in view: UIView?) -> CGPoint {
        let window = self.view?.window
        let current = UITouch.convertFromScreen(trackedCentroid, to: view, window: window)
        let start = UITouch.convertFromScreen(origin, to: view, window: window)
        return CGPoint(x: current.x - start.x, y: current.y - start.y)
    }

    /// Makes the translation read `translation` in `view`'s coordinates from now on.
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {
        let window = self.view?.window
        let current = UITouch.convertFromScreen(trackedCentroid, to: view, window: window)
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
        let base = trackedCentroid
        let a = UITouch.convertFromScreen(base, to: view, window: window)
        let b = UITouch.convertFromScreen(CGPoint(x: base.x + velocity.x, y: base.y + velocity.y), to: view, window: window)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }
}
