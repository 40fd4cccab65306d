/// Recognizes a quick stroke in an allowed direction (discrete): the
/// fingers must travel ``GestureThresholds/swipeMinimumDistance`` within
/// ``GestureThresholds/swipeMaximumDuration`` of landing, mostly along one
/// axis.
@preconcurrency @MainActor
open class UISwipeGestureRecognizer: UIGestureRecognizer {
    public struct Direction: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The directions that count; UIKit's default is right.
    @exclusivity(unchecked) open var direction: Direction = .right
    @exclusivity(unchecked) open var numberOfTouchesRequired = 1

    @exclusivity(unchecked) private var start: (location: CGPoint, time: TimeInterval)?

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        let down = touchesStillDown.count
        guard down <= numberOfTouchesRequired else {
            state = .failed
            return
        }
        if down == numberOfTouchesRequired {
            start = (screenCentroid(of: touchesStillDown), event.timestamp)
            failAfter(GestureThresholds.swipeMaximumDuration)
        }
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard let start, state == .possible else { return }
        guard event.timestamp - start.time <= GestureThresholds.swipeMaximumDuration else {
            state = .failed
            return
        }
        let now = screenCentroid(of: touchesStillDown)
        let dx = now.x - start.location.x, dy = now.y - start.location.y
        guard hypot(dx, dy) >= GestureThresholds.swipeMinimumDistance else { return }
        let horizontal = abs(dx) >= abs(dy)
        let travelled: Direction = horizontal ? (dx > 0 ? .right : .left) : (dy > 0 ? .down : .up)
        let drift = horizontal ? abs(dy) / abs(dx) : abs(dx) / abs(dy)
        state = direction.contains(travelled) && drift <= GestureThresholds.swipeMaximumDeviation ? .ended : .failed
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible { state = .failed }
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        state = .failed
    }

    open override func reset() {
        super.reset()
        start = nil
    }
}
