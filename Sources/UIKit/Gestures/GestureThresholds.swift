/// The thresholds of the built-in recognizers that UIKit does not document,
/// in one place. The first group is what iOS is observed to use; the second
/// was chosen here to feel like iOS (Apple says only that a swipe is "far
/// enough" and "mostly" in one direction, and gives no figures for pinch,
/// rotation or screen edges).
public enum GestureThresholds {
    /// How far a finger may move and still tap (also `UITouch.tapCount`).
    public static let tapAllowableMovement: CGFloat = 45
    /// The longest a finger may stay down and still tap.
    public static let maximumSingleTapDuration: TimeInterval = 0.75
    /// The longest pause between the taps of a multi-tap (also `UITouch.tapCount`).
    public static let maximumIntervalBetweenTaps: TimeInterval = 0.35
    /// How far the touches must move before a pan begins.
    public static let panHysteresis: CGFloat = 10

    /// How far a swipe must travel, and within how long of touching down.
    public static let swipeMinimumDistance: CGFloat = 50
    public static let swipeMaximumDuration: TimeInterval = 0.5
    /// The most sideways drift a swipe may have per point of travel (30°).
    public static let swipeMaximumDeviation: CGFloat = 0.577
    /// How much the distance between two fingers must change before a pinch begins.
    public static let pinchHysteresis: CGFloat = 8
    /// How far (radians, about 4°) two fingers must turn before a rotation begins.
    public static let rotationHysteresis: CGFloat = 0.07
    /// How close to a screen edge a touch must land to start an edge pan.
    public static let screenEdgeRegion: CGFloat = 20
    /// How much recent touch history velocities are fitted to.
    public static let velocitySampleWindow: TimeInterval = 0.1
}

/// Recent positions of a moving value, for its velocity: a least-squares
/// line through the samples of the last ``GestureThresholds/velocitySampleWindow``,
/// so that one jittery sample does not decide the result.
struct MotionHistory {
    /// Samples oldest first; those before `firstLive` have left the window
    /// and are dropped in batches, so that adding a sample rarely moves any.
    private var samples: [(time: TimeInterval, value: CGPoint)] = []
    private var firstLive = 0
    private static let capacity = 32

    mutating func add(_ value: CGPoint, at time: TimeInterval) {
        samples.append((time, value))
        let oldest = time - GestureThresholds.velocitySampleWindow
        while firstLive < samples.count && samples[firstLive].time < oldest { firstLive += 1 }
        firstLive = max(firstLive, samples.count - Self.capacity)
        if firstLive >= Self.capacity {
            samples.removeFirst(firstLive)
            firstLive = 0
        }
    }

    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        firstLive = 0
    }

    /// Units per second; zero with fewer than two samples at distinct times.
    var velocity: CGPoint {
        let live = samples[firstLive...]
        guard live.count >= 2 else { return .zero }
        let count = CGFloat(live.count)
        var sumTime: TimeInterval = 0, sumX: CGFloat = 0, sumY: CGFloat = 0
        for sample in live {
            sumTime += sample.time
            sumX += sample.value.x
            sumY += sample.value.y
        }
        let meanTime = sumTime / count, meanX = sumX / count, meanY = sumY / count
        var spread: CGFloat = 0, covarianceX: CGFloat = 0, covarianceY: CGFloat = 0
        for sample in live {
            let dt = sample.time - meanTime
            spread += dt * dt
            covarianceX += dt * (sample.value.x - meanX)
            covarianceY += dt * (sample.value.y - meanY)
        }
        guard spread > 0 else { return .zero }
        return CGPoint(x: covarianceX / spread, y: covarianceY / spread)
    }
}

extension CGPoint {
    func distance(to other: CGPoint) -> CGFloat { hypot(x - other.x, y - other.y) }
}

extension Set<UITouch> {
    /// Whether any of the touches is farther than `limit` (screen points)
    /// from where it began. A recognizer receives each of its touches from
    /// the start, so where the touch began is where the recognizer first saw it.
    @MainActor
    func anyMoved(fartherThan limit: CGFloat) -> Bool {
        anySatisfy { $0.screenLocation.distance(to: $0.startScreenLocation) > limit }
    }
}
