/// The numbers behind scrolling, in one place. UIKit documents only the two
/// deceleration rates (`UIScrollView.DecelerationRate`); the delay is the
/// one iOS is observed to use, the rubber-band formula is iOS folklore, and
/// the rest was chosen here to feel like iOS.
public enum ScrollViewConstants {
    /// How long a touch on content is held back while the scroll view decides
    /// whether it is a scroll (`delaysContentTouches`). UIKit does not
    /// document it; 150 ms is the figure iOS is measured to use.
    public static let contentTouchDelay: TimeInterval = 0.15
    /// The c of the rubber-band formula (see ``rubberBand(_:dimension:)``):
    /// the value iOS is widely measured to use.
    public static let rubberBandCoefficient: CGFloat = 0.55
    /// How quickly content springs back into range or onto a page: the
    /// period of the critically damped spring, in seconds. From a screen
    /// away it settles in about 0.45 s, as iOS's bounce appears to.
    public static let springResponse: TimeInterval = 0.3
    /// How long `setContentOffset(_:animated:)`, `scrollRectToVisible(_:animated:)`
    /// (and so a table's `scrollToRow` and a collection view's
    /// `scrollToItem`), `setZoomScale(_:animated:)` and `zoom(to:animated:)`
    /// take, whatever the distance. UIKit does not document it: its scroll
    /// view keeps a private `contentOffsetAnimationDuration` (apps set it
    /// through key-value coding to change the speed), which developers
    /// report as about 0.3 s, the value they fall back on when it cannot be
    /// read. The animation is stepped by the scroll view's own display link
    /// (UIKit's `_smoothScrollDisplayLink:` shows in stack traces; no Core
    /// Animation animation is involved), so the delegate hears
    /// `scrollViewDidScroll` at every frame.
    public static let scrollAnimationDuration: TimeInterval = 0.3
    /// The curve of those animations. Apple's scroll view guide says only
    /// that the content moves "at a constant rate"; what is seen on iOS starts
    /// and ends at rest, so it is Core Animation's ease-in-ease-out curve
    /// (0.42, 0, 0.58, 1), chosen here.
    public static let scrollAnimationCurve = CAMediaTimingFunctionName.easeInEaseOut
    /// With `isDirectionalLockEnabled`, a drag locks to one axis if its
    /// movement along the other is at most this fraction of it (within
    /// about 27° of the axis); steeper diagonals scroll freely.
    public static let directionalLockRatio: CGFloat = 0.5
    /// With paging, a release slower than this (points per second) lands on
    /// the nearest page; a faster one on the next page in its direction.
    public static let minimumPagingVelocity: CGFloat = 200
    /// Closer than this (points) to where it is going, moving content has arrived.
    public static let restingDistance: CGFloat = 0.5

    /// How far past an edge content is shown when it has been dragged
    /// `overshoot` points past it, for a scroll view `dimension` points long
    /// on that axis: the well-known iOS formula
    /// `(1 - 1 / (overshoot * c / dimension + 1)) * dimension`. It follows the
    /// finger at a rate of c at first and never gets a whole dimension away.
    public static func rubberBand(_ overshoot: CGFloat, dimension: CGFloat) -> CGFloat {
        guard overshoot > 0, dimension > 0 else { return 0 }
        return (1 - 1 / (overshoot * rubberBandCoefficient / dimension + 1)) * dimension
    }

    /// The inverse of ``rubberBand(_:dimension:)``: how far past the edge the
    /// finger must be for the content to show `shown` points past it.
    static func dragDistance(showing shown: CGFloat, dimension: CGFloat) -> CGFloat {
        guard shown > 0, dimension > 0 else { return 0 }
        let visible = min(shown, dimension * 0.999)  // the formula never reaches a whole dimension
        return visible * dimension / (rubberBandCoefficient * (dimension - visible))
    }
}

/// How one axis of the content moves on its own once the finger has lifted.
///
/// Coasting is a decay: the velocity is multiplied by the deceleration rate
/// every millisecond, so from velocity v it travels v / k more points, where
/// k = -1000 ln(rate) per second, and it does so exactly whatever the frame
/// times. Coasting past an edge turns into a spring back to the edge (or
/// stops at the edge when the scroll view does not bounce). Springing back
/// and landing on a page is a critically damped spring: it arrives without
/// oscillating, however fast it starts.
struct AxisMotion: Equatable {
    enum Phase: Equatable {
        case resting
        /// Where coasting ends if nothing disturbs it (the delegate's target, say).
        case coasting(to: CGFloat)
        case springing(to: CGFloat)
    }

    private(set) var phase: Phase
    /// Points per second, in the direction the content offset moves.
    private(set) var velocity: CGFloat
    /// The decay constant k, per second.
    private let decay: CGFloat

    static let resting = AxisMotion(phase: .resting, velocity: 0, decay: 1)

    private init(phase: Phase, velocity: CGFloat, decay: CGFloat) {
        self.phase = phase
        self.velocity = velocity
        self.decay = decay
    }

    /// Coasting from `position` at `velocity` with `rate` per millisecond;
    /// resting if that would not move the content visibly.
    static func coasting(from position: CGFloat, velocity: CGFloat, rate: CGFloat) -> AxisMotion {
        let decay = decayConstant(rate)
        guard abs(velocity) / decay >= ScrollViewConstants.restingDistance else { return .resting }
        return AxisMotion(phase: .coasting(to: position + velocity / decay), velocity: velocity, decay: decay)
    }

    /// Coasting that comes to rest exactly at `target`: with the velocity
    /// that decays to zero there.
    static func coasting(from position: CGFloat, to target: CGFloat, rate: CGFloat) -> AxisMotion {
        let decay = decayConstant(rate)
        guard abs(target - position) >= ScrollViewConstants.restingDistance else { return .resting }
        return AxisMotion(phase: .coasting(to: target), velocity: (target - position) * decay, decay: decay)
    }

    /// A spring to `target` starting at `velocity`; resting if it is there already.
    static func springing(from position: CGFloat, to target: CGFloat, velocity: CGFloat) -> AxisMotion {
        let motion = AxisMotion(phase: .springing(to: target), velocity: velocity, decay: 1)
        return motion.isSettled(at: position - target, velocity: velocity) ? .resting : motion
    }

    /// Where free coasting from `position` at `velocity` comes to rest.
    static func restingPoint(from position: CGFloat, velocity: CGFloat, rate: CGFloat) -> CGFloat {
        position + velocity / decayConstant(rate)
    }

    /// Rates outside (0, 1) make no sense as a decay; they are kept inside it.
    private static func decayConstant(_ rate: CGFloat) -> CGFloat {
        -1000 * log(min(max(rate, 0.001), 0.9999))
    }

    /// ω of the springs, per second.
    private static let springFrequency = 2 * CGFloat.pi / ScrollViewConstants.springResponse

    var isResting: Bool { phase == .resting }

    /// Moves `position` on by `seconds` within `range`, the offsets where the
    /// content is fully in place.
    mutating func step(from position: CGFloat, by seconds: TimeInterval, range: ClosedRange<CGFloat>, bounces: Bool) -> CGFloat {
        switch phase {
        case .resting:
            return position
        case .coasting(let target):
            let slower = velocity * exp(-decay * seconds)
            var next = position + (velocity - slower) / decay
            velocity = slower
            if next < range.lowerBound || next > range.upperBound {
                let edge = next < range.lowerBound ? range.lowerBound : range.upperBound
                guard bounces else {
                    self = .resting
                    return edge
                }
                phase = .springing(to: edge)
            } else if abs(velocity) / decay < ScrollViewConstants.restingDistance {
                // Arrived: exactly at the target, unless something else moved the content meanwhile.
                let end = next + velocity / decay
                next = min(max(abs(end - target) < ScrollViewConstants.restingDistance ? target : end, range.lowerBound), range.upperBound)
                self = .resting
            }
            return next
        case .springing(let target):
            // x(t) = (x0 + (v0 + ω x0) t) e^(-ω t), the critically damped solution.
            let omega = Self.springFrequency
            let displacement = position - target
            let c = velocity + omega * displacement
            let fade = exp(-omega * seconds)
            let next = (displacement + c * seconds) * fade
            velocity = (velocity - omega * c * seconds) * fade
            if isSettled(at: next, velocity: velocity) {
                self = .resting
                return target
            }
            return target + next
        }
    }

    /// Close enough, and slow enough that it would not move visibly.
    private func isSettled(at displacement: CGFloat, velocity: CGFloat) -> Bool {
        abs(displacement) < ScrollViewConstants.restingDistance
            && abs(velocity) < Self.springFrequency * ScrollViewConstants.restingDistance
    }
}
