import Foundation

/// Timing shared by animations and layers: where an object's local time
/// starts in its parent's, how fast it runs, how often it repeats and what
/// it shows outside its active time.
///
/// A child's local time is `(parentTime − beginTime) × speed + timeOffset`.
/// An animation is active for its *active duration*: `repeatDuration` when
/// it is positive, otherwise `duration × repeatCount` (at least once),
/// doubled by `autoreverses`.
@preconcurrency @MainActor
public protocol CAMediaTiming: AnyObject {
    /// When the object starts, in its parent's time; for an animation added
    /// with 0, the time it was added.
    var beginTime: TimeInterval { get set }
    /// Seconds added to the local time: where in its active time the object starts.
    var timeOffset: TimeInterval { get set }
    /// How fast local time runs against the parent's; 0 stops it.
    var speed: Float { get set }
    /// One cycle's length; for an animation, 0 means the transaction's
    /// animation duration (0.25 s by default).
    var duration: TimeInterval { get set }
    /// How many cycles run (fractions allowed, `.infinity` forever); 0 means one.
    var repeatCount: Float { get set }
    /// How long the cycles repeat, instead of a count.
    var repeatDuration: TimeInterval { get set }
    /// Whether each cycle plays forwards, then backwards.
    var autoreverses: Bool { get set }
    /// What is shown before the start and after the end.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// What a timed object shows outside its active time.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Nothing outside the active time (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// The end value after the end.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// The start value before the start.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// Where an animation is at one moment of its parent's time.
package struct TimingPoint: Equatable {
    /// The fraction of the current cycle, 0…1, before any timing curve.
    package var fraction: Double
    /// Which repetition is playing (for cumulative animations).
    package var iteration: Int
}

/// The arithmetic of `CAMediaTiming`, in one place.
package struct MediaTimingModel {
    package var beginTime: TimeInterval
    package var timeOffset: TimeInterval
    package var speed: Double
    package var duration: TimeInterval
    package var repeatCount: Double
    package var repeatDuration: TimeInterval
    package var autoreverses: Bool
    package var fillMode: CAMediaTimingFillMode

    /// One cycle, forwards and (with `autoreverses`) back.
    var cycle: TimeInterval { duration * (autoreverses ? 2 : 1) }

    /// How long the object is active, in its local time.
    package var activeDuration: TimeInterval {
        if repeatDuration > 0 { return repeatDuration }
        return cycle * max(repeatCount, 1)
    }

    /// The local time for `parentTime`, before the active duration clamps it.
    package func localTime(_ parentTime: TimeInterval) -> TimeInterval {
        (parentTime - beginTime) * speed + timeOffset
    }

    /// Whether the active time is over at `parentTime` (never, for a stopped
    /// clock that has not reached the end, or infinite repeats).
    package func hasEnded(at parentTime: TimeInterval) -> Bool {
        let active = activeDuration
        guard active.isFinite else { return false }
        return localTime(parentTime) >= active - 1e-9
    }

    /// Where the object is at `parentTime`; nil when it shows nothing then
    /// (before its start or after its end, without a fill that covers it).
    package func point(at parentTime: TimeInterval) -> TimingPoint? {
        let t = localTime(parentTime)
        let active = activeDuration
        guard duration > 0 else { return fillMode.fillsForwards || t < active ? TimingPoint(fraction: 1, iteration: 0) : nil }
        if t < 0 {
            return fillMode.fillsBackwards ? TimingPoint(fraction: 0, iteration: 0) : nil
        }
        if active.isFinite, t >= active {
            guard fillMode.fillsForwards else { return nil }
            return endPoint
        }
        return pointInside(t)
    }

    private func pointInside(_ t: TimeInterval) -> TimingPoint {
        let cycles = (t / cycle).rounded(.down)
        var inCycle = t - cycles * cycle
        if autoreverses && inCycle > duration { inCycle = cycle - inCycle }
        return TimingPoint(fraction: min(1, max(0, inCycle / duration)), iteration: Int(cycles))
    }

    /// Where the object rests once its active time is over: the end of its
    /// last cycle, or part way into it for a fractional repeat.
    private var endPoint: TimingPoint {
        let active = activeDuration
        let cycles = active / cycle
        let whole = cycles.rounded(.down)
        if cycles - whole < 1e-9 {
            return TimingPoint(fraction: autoreverses ? 0 : 1, iteration: max(0, Int(whole) - 1))
        }
        return pointInside(active)
    }
}
