/// What pinch and rotation share: they follow the first two fingers
/// (ignoring any more), measure something between them, begin once it has
/// changed by a threshold, and end when a finger lifts. Both inherit
/// `UIGestureRecognizer` directly, as in UIKit, and call these from their
/// touch methods.
@MainActor
protocol TwoFingerMeasuring: UIGestureRecognizer {
    var history: MotionHistory { get set }
    /// The measure (distance, angle) of the pair.
    func measure(_ first: CGPoint, _ second: CGPoint) -> CGFloat
    /// Called when the second finger lands, with the pair's measure.
    func pairDidLand(at value: CGFloat)
    /// Called on each move with the pair's measure; returns whether the change
    /// since landing is enough to begin.
    func pairDidMove(to value: CGFloat) -> Bool
    /// The value whose rate of change is the velocity (scale, rotation).
    var trackedValue: CGFloat { get }
}

extension TwoFingerMeasuring {
    var pair: (UITouch, UITouch)? {
        let touches = touchesStillDown
        return touches.count >= 2 ? (touches[0], touches[1]) : nil
    }

    func pairTouchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        for touch in touchesStillDown.dropFirst(2) { ignore(touch, for: event) }
        guard let (a, b) = pair, touches.contains(a) || touches.contains(b), state == .possible else { return }
        pairDidLand(at: measure(a.screenLocation, b.screenLocation))
        history.removeAll()
        history.add(CGPoint(x: trackedValue, y: 0), at: event.timestamp)
    }

    func pairTouchesMoved(with event: UIEvent) {
        guard let (a, b) = pair else { return }
        let shouldBegin = pairDidMove(to: measure(a.screenLocation, b.screenLocation))
        history.add(CGPoint(x: trackedValue, y: 0), at: event.timestamp)
        if state == .possible {
            if shouldBegin { state = .began }
        } else if state == .began || state == .changed {
            state = .changed
        }
    }

    func pairTouchesEnded() {
        guard touchesStillDown.count < 2 else { return }
        state = (state == .began || state == .changed) ? .ended : .failed
    }

    func pairTouchesCancelled() {
        state = state == .possible ? .failed : .cancelled
    }

    /// Units of the tracked value per second.
    var trackedVelocity: CGFloat { history.velocity.x }
}

/// Recognizes two fingers moving apart or together (continuous). ``scale``
/// is the distance between them over the distance when the second landed.
@preconcurrency @MainActor
open class UIPinchGestureRecognizer: UIGestureRecognizer, TwoFingerMeasuring {
    @exclusivity(unchecked) var history = MotionHistory()
    @exclusivity(unchecked) private var landingDistance: CGFloat = 0
    @exclusivity(unchecked) private var initialDistance: CGFloat = 0
    @exclusivity(unchecked) private var currentDistance: CGFloat = 0

    /// Setting it (often to 1 in an action, for incremental scaling) makes
    /// the current distance stand for that scale.
    open var scale: CGFloat {
        get { initialDistance > 0 ? currentDistance / initialDistance : 1 }
        set { if newValue > 0 && newValue.isFinite && currentDistance > 0 { initialDistance = currentDistance / newValue } }
    }

    /// Scale factor per second.
    open var velocity: CGFloat { trackedVelocity }

    func measure(_ first: CGPoint, _ second: CGPoint) -> CGFloat { first.distance(to: second) }

    func pairDidLand(at value: CGFloat) {
        landingDistance = value
        initialDistance = value
        currentDistance = value
    }

    func pairDidMove(to value: CGFloat) -> Bool {
        currentDistance = value
        return abs(value - landingDistance) >= GestureThresholds.pinchHysteresis
    }

    var trackedValue: CGFloat { scale }
    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesBegan(touches, with: event) }
    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesMoved(with: event) }
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesEnded() }
    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesCancelled() }

    open override func reset() {
        super.reset()
        history.removeAll()
        landingDistance = 0
        initialDistance = 0
        currentDistance = 0
    }
}

/// Recognizes two fingers turning (continuous). ``rotation`` is in radians,
/// positive clockwise on screen, and keeps counting past a half turn.
@preconcurrency @MainActor
open class UIRotationGestureRecognizer: UIGestureRecognizer, TwoFingerMeasuring {
    @exclusivity(unchecked) var history = MotionHistory()
    @exclusivity(unchecked) private var lastAngle: CGFloat = 0
    @exclusivity(unchecked) private var turned: CGFloat = 0
    @exclusivity(unchecked) private var offset: CGFloat = 0

    /// Setting it (often to 0 in an action) makes the current turn stand for that value.
    open var rotation: CGFloat {
        get { turned - offset }
        set { if newValue.isFinite { offset = turned - newValue } }
    }

    /// Radians per second.
    open var velocity: CGFloat { trackedVelocity }

    func measure(_ first: CGPoint, _ second: CGPoint) -> CGFloat {
        atan2(second.y - first.y, second.x - first.x)
    }

    func pairDidLand(at value: CGFloat) {
        lastAngle = value
        turned = 0
        offset = 0
    }

    func pairDidMove(to value: CGFloat) -> Bool {
        var delta = value - lastAngle
        while delta > .pi { delta -= 2 * .pi }
        while delta <= -.pi { delta += 2 * .pi }
        turned += delta
        lastAngle = value
        return abs(turned) >= GestureThresholds.rotationHysteresis
    }

    var trackedValue: CGFloat { rotation }
    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesBegan(touches, with: event) }
    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesMoved(with: event) }
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesEnded() }
    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { pairTouchesCancelled() }

    open override func reset() {
        super.reset()
        history.removeAll()
        lastAngle = 0
        turned = 0
        offset = 0
    }
}
