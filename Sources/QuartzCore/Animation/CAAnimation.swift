import Foundation

/// What drives an animation instead of the clock: UIKit's property
/// animators, whose progress is paused, scrubbed and reversed by hand.
@MainActor
package protocol AnimationDriver: AnyObject {
    /// The fraction of change to show at media time `time` for an
    /// animation that starts at `start` of the driver's progress.
    func progress(startingAt start: Double, at time: TimeInterval) -> Double
    /// Whether the progress stands still (no refreshes are needed for it).
    var holdsStill: Bool { get }
}

/// Told when an animation starts and stops. Unlike most delegates, an
/// animation's delegate is retained, as in Core Animation.
@preconcurrency @MainActor
public protocol CAAnimationDelegate: AnyObject {
    /// The animation's active time began.
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to its end, false
    /// when it was removed from its layer first.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// What a layer runs when one of its properties changes (an implicit
/// animation, usually). `NSNull` is the action that does nothing, which
/// a delegate returns to stop the search for one.
public protocol CAAction {
    /// Runs the action for `event` (a property's key) on `anObject` (the layer).
    @MainActor func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension NSNull: CAAction {
    @MainActor public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// The base of every animation: its timing (`CAMediaTiming`), timing
/// curve, delegate and whether it leaves its layer when done.
///
/// `layer.add(_:forKey:)` adds a copy: changing an animation after adding it
/// changes nothing on screen. An animation changes only what is shown (the
/// layer's `presentation()`), never the layer's own properties.
@preconcurrency @MainActor
open class CAAnimation: NSObject, CAMediaTiming, CAAction {
    public required override init() {
        super.init()
    }

    /// A new animation; Core Animation's class constructor.
    public class func animation() -> Self { self.init() }

    // The timing and the curve are read at every refresh for every
    // running animation, only on the main actor and never through
    // overlapping inout accesses: dynamic exclusivity checks would only
    // cost time (docs/performance.md; the checked copy of the test suite
    // puts them back).
    @exclusivity(unchecked) public var beginTime: TimeInterval = 0
    @exclusivity(unchecked) public var timeOffset: TimeInterval = 0
    @exclusivity(unchecked) public var speed: Float = 1
    @exclusivity(unchecked) public var duration: TimeInterval = 0
    @exclusivity(unchecked) public var repeatCount: Float = 0
    @exclusivity(unchecked) public var repeatDuration: TimeInterval = 0
    @exclusivity(unchecked) public var autoreverses = false
    @exclusivity(unchecked) public var fillMode: CAMediaTimingFillMode = .removed

    /// The pace of the animation; nil is linear (for an animation added in
    /// a transaction with a timing function, that one).
    @exclusivity(unchecked) public var timingFunction: CAMediaTimingFunction?

    /// Retained, as Core Animation retains it.
    public var delegate: (any CAAnimationDelegate)?

    /// Whether the animation leaves its layer once its active time is over
    /// (true by default). One that stays shows its end value only with a
    /// fill mode that fills forwards.
    public var isRemovedOnCompletion = true

    /// The property animated, for the animations that animate one.
    var animatedKeyPath: String? { nil }

    /// What moves the animation instead of the clock (a property
    /// animator), and where in its progress the animation starts.
    @exclusivity(unchecked) package var driver: (any AnimationDriver)?
    @exclusivity(unchecked) package var driverStartFraction = 0.0
    /// The part of the driver's progress the animation runs over (a
    /// keyframe's part of a keyframe block); before it the animation shows
    /// its start, after it its end.
    @exclusivity(unchecked) package var driverSpan: ClosedRange<Double> = 0...1

    /// A copy with every property, as `layer.add(_:forKey:)` keeps.
    package func duplicate() -> CAAnimation {
        let copy = type(of: self).init()
        copy.copyAttributes(from: self)
        return copy
    }

    /// Copies what the class adds to its superclass; subclasses override
    /// and call super.
    func copyAttributes(from other: CAAnimation) {
        beginTime = other.beginTime
        timeOffset = other.timeOffset
        speed = other.speed
        duration = other.duration
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        delegate = other.delegate
        isRemovedOnCompletion = other.isRemovedOnCompletion
        driver = other.driver
        driverStartFraction = other.driverStartFraction
        driverSpan = other.driverSpan
    }

    /// The animation's timing, as numbers.
    package var timing: MediaTimingModel {
        MediaTimingModel(
            beginTime: beginTime, timeOffset: timeOffset, speed: Double(speed), duration: duration,
            repeatCount: Double(repeatCount), repeatDuration: repeatDuration, autoreverses: autoreverses, fillMode: fillMode)
    }

    /// The fraction of change at `fraction` of a cycle, through the timing curve.
    func progress(atFraction fraction: Double) -> Double {
        if driver != nil { return fraction }
        return timingFunction?.value(at: fraction) ?? fraction
    }

    /// Where the animation is at `time`: its driver's progress, or its timing's.
    func timingPoint(at time: TimeInterval) -> TimingPoint? {
        guard let driver else { return timing.point(at: time) }
        let progress = driver.progress(startingAt: driverStartFraction, at: time)
        guard driverSpan != 0...1 else { return TimingPoint(fraction: progress, iteration: 0) }
        let width = driverSpan.upperBound - driverSpan.lowerBound
        var share = width > 0 ? (progress - driverSpan.lowerBound) / width : (progress >= driverSpan.lowerBound ? 1 : 0)
        // Past a span that ends early, the end holds; past the whole
        // progress (a spring's overshoot) the value goes on.
        share = driverSpan.upperBound < 1 ? min(1, max(0, share)) : max(0, share)
        return TimingPoint(fraction: share, iteration: 0)
    }

    /// Changes `values` as the animation shows them at `time`, the layer's
    /// local time. The base class animates nothing.
    func apply(to values: inout LayerValues, at time: TimeInterval) {}

    /// The properties it animates, to know what to draw again.
    var animatedKeyPaths: [String] { animatedKeyPath.map { [$0] } ?? [] }

    /// Adds a copy of the animation to the layer for `event`: an animation
    /// returned by `action(forKey:)` runs this way.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }
}

/// An animation of one property of a layer, named by its key path:
/// `position`, `position.x`, `bounds`, `bounds.size`, `opacity`,
/// `transform`, `transform.scale`, `transform.rotation.z`,
/// `backgroundColor`, … (the list is in `LayerValues.swift`).
@preconcurrency @MainActor
open class CAPropertyAnimation: CAAnimation {
    /// The key path of the property animated.
    @exclusivity(unchecked) public var keyPath: String? { didSet { resolvedKeyPath = nil } }

    /// `keyPath` read once (nil inside: a key path the layer's values do
    /// not hold), for an animation applied at every refresh.
    @exclusivity(unchecked) private var resolvedKeyPath: LayerKeyPath??

    private var property: LayerKeyPath? {
        if let resolvedKeyPath { return resolvedKeyPath }
        let property = keyPath.flatMap(LayerKeyPath.init)
        resolvedKeyPath = .some(property)
        return property
    }

    /// Whether the animation's value is added to the layer's value (and to
    /// the animations before it) rather than replacing it. Numbers,
    /// points, sizes and colours add; transforms are concatenated.
    @exclusivity(unchecked) public var isAdditive = false

    /// Whether each repetition starts where the last one ended.
    @exclusivity(unchecked) public var isCumulative = false

    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    override var animatedKeyPath: String? { keyPath }

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CAPropertyAnimation else { return }
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
    }

    override func apply(to values: inout LayerValues, at time: TimeInterval) {
        guard let property, let point = timingPoint(at: time) else { return }
        let underlying = values.value(at: property)
        guard var value = value(at: point, underlying: underlying) else { return }
        if isAdditive { value = value.adding(underlying) }
        values.set(value, at: property)
    }

    /// The animation's own value at `point`, before it is added to the
    /// layer's for an additive animation.
    func value(at point: TimingPoint, underlying: AnimatableValue) -> AnimatableValue? { nil }

    /// A cumulative animation's value in later repetitions: the value plus
    /// the whole change, once per repetition before.
    func accumulated(_ value: AnimatableValue, change: @autoclosure () -> AnimatableValue, iteration: Int) -> AnimatableValue {
        guard isCumulative, iteration > 0 else { return value }
        return change().scaled(by: Double(iteration)).adding(value)
    }
}

/// An animation from one value to another.
///
/// Which values it moves between follows Core Animation's rules: from and
/// to; from and from + by; to − by and to; from and the layer's value; the
/// layer's value and to; the layer's value and that plus by (for an
/// additive animation, 0 and by). Values may be any number type, `CGPoint`,
/// `CGSize`, `CGRect`, `CATransform3D` or `CGColor`.
@preconcurrency @MainActor
open class CABasicAnimation: CAPropertyAnimation {
    public var fromValue: Any? { didSet { givenValues = nil } }
    public var toValue: Any? { didSet { givenValues = nil } }
    public var byValue: Any? { didSet { givenValues = nil } }

    /// `fromValue`, `toValue` and `byValue` read as animatable values, once:
    /// reading an `Any` is a chain of dynamic casts, and a running animation
    /// is applied at every frame, for every layer it animates.
    @exclusivity(unchecked) private var givenValues: (from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)?

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CABasicAnimation else { return }
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
    }

    /// The two values moved between, given the layer's own value.
    func endpoints(underlying: AnimatableValue) -> (from: AnimatableValue, to: AnimatableValue) {
        let given: (from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        if let givenValues {
            given = givenValues
        } else {
            given = (AnimatableValue(fromValue), AnimatableValue(toValue), AnimatableValue(byValue))
            givenValues = given
        }
        let (from, to, by) = given
        if let from, let to { return (from, to) }
        let base = isAdditive ? underlying.zero : underlying
        switch (from, to, by) {
        case let (f?, nil, b?): return (f, b.adding(f))
        case let (nil, t?, b?): return (t.subtracting(b), t)
        case let (f?, nil, nil): return (f, base)
        case let (nil, t?, nil): return (base, t)
        case let (nil, nil, b?): return (base, b.adding(base))
        default: return (base, base)
        }
    }

    override func value(at point: TimingPoint, underlying: AnimatableValue) -> AnimatableValue? {
        let (from, to) = endpoints(underlying: underlying)
        let value = AnimatableValue.interpolate(from, to, progress(atFraction: point.fraction))
        return accumulated(value, change: to.subtracting(from), iteration: point.iteration)
    }
}

/// Whether a layer moving along a keyframe animation's path turns with it.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Turned to the path's direction.
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    /// Turned to the path's direction, then half a turn more.
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// How a keyframe animation moves between its values.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Straight between neighbouring values, at the key times (the default).
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    /// Each value held until the next key time, no interpolation.
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    /// Straight lines at an even speed; key times and timing functions are ignored.
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    /// A smooth (Catmull-Rom) curve through the values, at the key times.
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    /// The smooth curve at an even speed.
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
}

/// An animation through a list of values (or along a path), each reached
/// at its key time.
///
/// `keyTimes` are fractions of the duration, one per value, from 0 to 1
/// (for `.discrete`, one more than the values, or one per value, the last
/// held to the end); when they are missing or their count is wrong, the
/// values are spread evenly. `timingFunctions` has one curve per segment
/// (one fewer than the values). A `path` (for `position` and other point
/// properties) replaces `values`: the layer moves along it at an even
/// speed.
///
/// How values between keyframes are found (`calculationMode`), as Core
/// Animation's documentation defines each mode:
/// - `.linear`: straight between neighbours, reached at their key times,
///   each segment through its timing function.
/// - `.discrete`: each value from its key time until the next one.
/// - `.paced`: straight lines at one speed for the whole animation; key
///   times, timing functions and the animation's `timingFunction` are
///   ignored.
/// - `.cubic`: the Catmull-Rom spline through the values at their key
///   times, shaped by `tensionValues`, `continuityValues` and `biasValues`
///   in the Kochanek-Bartels form (all 0, the default, is Catmull-Rom).
/// - `.cubicPaced`: that spline at one speed along its length; key times
///   and timing functions ignored as for `.paced`.
@preconcurrency @MainActor
open class CAKeyframeAnimation: CAPropertyAnimation {
    public var values: [Any]?
    public var path: CGPath?
    public var keyTimes: [NSNumber]?
    public var timingFunctions: [CAMediaTimingFunction]?
    public var calculationMode: CAAnimationCalculationMode = .linear
    /// For the cubic modes, how tight the curve is at each value (positive
    /// tighter, negative rounder); a missing value is 0.
    public var tensionValues: [NSNumber]?
    /// For the cubic modes, how sharp the corner at each value is
    /// (positive sharper, negative inverted); a missing value is 0.
    public var continuityValues: [NSNumber]?
    /// For the cubic modes, which way the curve leans at each value
    /// (positive overshoots past it, negative undershoots); a missing value is 0.
    public var biasValues: [NSNumber]?
    /// Whether a layer moving along the path (or through point values)
    /// turns to follow it: nil (the default) does not; `.rotateAuto` turns
    /// the layer's transform by the angle of the path's direction where the
    /// layer is, `.rotateAutoReverse` by that angle plus half a turn.
    public var rotationMode: CAAnimationRotationMode?

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CAKeyframeAnimation else { return }
        values = other.values
        path = other.path
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        tensionValues = other.tensionValues
        continuityValues = other.continuityValues
        biasValues = other.biasValues
        rotationMode = other.rotationMode
    }

    override var animatedKeyPaths: [String] {
        rotationMode == nil ? super.animatedKeyPaths : super.animatedKeyPaths + ["transform"]
    }

    override func value(at point: TimingPoint, underlying: AnimatableValue) -> AnimatableValue? {
        guard let (value, change) = keyframeValue(at: point.fraction) else { return nil }
        return accumulated(value, change: change, iteration: point.iteration)
    }

    /// The value at `fraction` of a cycle, and the whole change from the
    /// first keyframe to the last.
    private func keyframeValue(at cycleFraction: Double) -> (value: AnimatableValue, change: AnimatableValue)? {
        // The paced modes make their own timing: the animation's curve is ignored.
        let fraction = calculationMode.isPaced ? cycleFraction : progress(atFraction: cycleFraction)
        if let path {
            let keyframes = PathKeyframes(path)
            guard let first = keyframes.points.first, let last = keyframes.points.last else { return nil }
            let value = AnimatableValue.point(keyframes.point(at: fraction, mode: calculationMode, keyTimes: keyTimes?.map(\.doubleValue), curves: timingFunctions))
            return (value, .point(CGPoint(x: last.x - first.x, y: last.y - first.y)))
        }
        let frames = (values ?? []).compactMap { AnimatableValue($0) }
        guard let first = frames.first, let last = frames.last else { return nil }
        let shape = SplineShape(tension: tensionValues, continuity: continuityValues, bias: biasValues)
        let value = Self.value(of: frames, at: fraction, mode: calculationMode, keyTimes: keyTimes?.map(\.doubleValue), curves: timingFunctions, shape: shape)
        return (value, last.subtracting(first))
    }

    override func apply(to values: inout LayerValues, at time: TimeInterval) {
        super.apply(to: &values, at: time)
        guard let rotationMode, let point = timingPoint(at: time), let angle = directionAngle(at: point.fraction) else { return }
        let turn = rotationMode == .rotateAutoReverse ? angle + .pi : angle
        // Turned in the layer's own plane, before its transform.
        values.transform = CATransform3DConcat(CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: turn)), values.transform)
    }

    /// The angle of the direction the point moves in at `fraction` of a
    /// cycle (from a step of a ten-thousandth either side); nil for values
    /// that are not points or when it stands still.
    private func directionAngle(at fraction: Double) -> CGFloat? {
        let step = 1e-4
        let before = max(0, fraction - step), after = min(1, fraction + step)
        guard case .point(let a)? = keyframeValue(at: before)?.value, case .point(let b)? = keyframeValue(at: after)?.value,
              a != b else { return nil }
        return atan2(b.y - a.y, b.x - a.x)
    }

    static func value(of frames: [AnimatableValue], at fraction: Double, mode: CAAnimationCalculationMode, keyTimes given: [Double]?,
                      curves: [CAMediaTimingFunction]?, shape: SplineShape = SplineShape()) -> AnimatableValue {
        if frames.count == 1 { return frames[0] }
        if mode == .discrete { return frames[discreteIndex(at: fraction, count: frames.count, keyTimes: given)] }
        if mode == .cubicPaced {
            let (segment, local) = SplineArcLength(frames, shape: shape).segment(atFractionOfLength: fraction)
            return shape.point(on: frames, segment: segment, at: local)
        }
        let times = mode == .paced ? pacedTimes(frames) : given?.count == frames.count ? given! : evenTimes(frames.count)
        let (segment, local) = segment(at: fraction, times: times, curves: mode == .paced ? nil : curves)
        if mode == .cubic { return shape.point(on: frames, segment: segment, at: local) }
        return AnimatableValue.interpolate(frames[segment], frames[segment + 1], local)
    }

    /// The value `.discrete` shows at `fraction`: the last whose key time
    /// has come (key times one more than the values, or one per value;
    /// otherwise even).
    static func discreteIndex(at fraction: Double, count: Int, keyTimes given: [Double]?) -> Int {
        let times = given.flatMap { $0.count == count + 1 || $0.count == count ? $0 : nil } ?? evenTimes(count + 1)
        var index = 0
        for i in 0..<count where fraction >= times[i] { index = i }
        return index
    }

    /// The segment between key times that `fraction` is in, and how far
    /// along it, through the segment's timing function if there is one.
    static func segment(at fraction: Double, times: [Double], curves: [CAMediaTimingFunction]?) -> (segment: Int, local: Double) {
        var segment = times.count - 2
        for i in 0..<(times.count - 1) where fraction < times[i + 1] {
            segment = i
            break
        }
        let span = times[segment + 1] - times[segment]
        var local = span > 0 ? (fraction - times[segment]) / span : 1
        local = min(1, max(0, local))
        if let curves, segment < curves.count {
            local = curves[segment].value(at: local)
        }
        return (segment, local)
    }

    static func evenTimes(_ count: Int) -> [Double] {
        (0..<count).map { Double($0) / Double(max(1, count - 1)) }
    }

    /// Key times in proportion to the distance covered.
    private static func pacedTimes(_ frames: [AnimatableValue]) -> [Double] {
        var lengths = [0.0]
        for i in 1..<frames.count { lengths.append(lengths[i - 1] + frames[i - 1].distance(to: frames[i])) }
        guard let total = lengths.last, total > 0 else { return evenTimes(frames.count) }
        return lengths.map { $0 / total }
    }
}

/// A keyframe animation's path as keyframes, as Core Animation's
/// documentation of `path` says: the end point of each line or curve is a
/// keyframe value (the path's first point too), the points between are
/// those of the line or curve; a move-to makes no keyframe (the next
/// segment starts where it moved to), and a close is a line back to the
/// subpath's start. The calculation mode then times the keyframes as it
/// times values: linear (evenly, or at `keyTimes`, one per keyframe, with
/// a timing function per segment), discrete (each keyframe held), paced
/// (one speed along the whole path). The cubic modes, which Apple does not
/// define for paths, follow the path's own curves: cubic as linear,
/// cubicPaced as paced.
@MainActor
struct PathKeyframes {
    /// One line or curve of the path: its start, control points and end.
    private enum Segment {
        case line(CGPoint, CGPoint)
        case quad(CGPoint, CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint, CGPoint)

        func point(at t: CGFloat) -> CGPoint {
            switch self {
            case let .line(a, b): CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            case let .quad(a, c, b): quadPoint(a, c, b, t)
            case let .cubic(a, c1, c2, b): cubicPoint(a, c1, c2, b, t)
            }
        }

        var isStraight: Bool {
            if case .line = self { return true }
            return false
        }
    }

    /// The keyframe values: the first point, then each segment's end.
    private(set) var points: [CGPoint] = []
    private var segments: [Segment] = []

    init(_ path: CGPath) {
        var current = CGPoint.zero, start = CGPoint.zero
        var points: [CGPoint] = [], segments: [Segment] = []
        path.applyWithBlock { element in
            let e = element.pointee
            let segment: Segment
            switch e.type {
            case .moveToPoint:
                current = e.points[0]
                start = current
                if points.isEmpty { points.append(current) }
                return
            case .addLineToPoint: segment = .line(current, e.points[0])
            case .addQuadCurveToPoint: segment = .quad(current, e.points[0], e.points[1])
            case .addCurveToPoint: segment = .cubic(current, e.points[0], e.points[1], e.points[2])
            case .closeSubpath: segment = .line(current, start)
            }
            current = segment.point(at: 1)
            segments.append(segment)
            points.append(current)
        }
        self.points = points
        self.segments = segments
    }

    /// The point shown at `fraction` of the animation.
    func point(at fraction: Double, mode: CAAnimationCalculationMode, keyTimes given: [Double]?, curves: [CAMediaTimingFunction]?) -> CGPoint {
        guard !segments.isEmpty else { return points.first ?? .zero }
        if mode == .discrete { return points[CAKeyframeAnimation.discreteIndex(at: fraction, count: points.count, keyTimes: given)] }
        if mode.isPaced { return pacedPoint(at: fraction) }
        let times = given?.count == points.count ? given! : CAKeyframeAnimation.evenTimes(points.count)
        let (segment, local) = CAKeyframeAnimation.segment(at: fraction, times: times, curves: curves)
        return segments[segment].point(at: CGFloat(local))
    }

    /// Curves cut into this many straight pieces to measure their length.
    private static let piecesPerCurve = 16

    /// The point `fraction` of the whole path's length along it.
    private func pacedPoint(at fraction: Double) -> CGPoint {
        var pieces: [(from: CGPoint, to: CGPoint)] = []
        for segment in segments {
            let count = segment.isStraight ? 1 : Self.piecesPerCurve
            var previous = segment.point(at: 0)
            for step in 1...count {
                let next = segment.point(at: CGFloat(step) / CGFloat(count))
                pieces.append((previous, next))
                previous = next
            }
        }
        let lengths = pieces.map { hypot(Double($0.to.x - $0.from.x), Double($0.to.y - $0.from.y)) }
        let total = lengths.reduce(0, +)
        var left = min(1, max(0, fraction)) * total
        for (piece, length) in zip(pieces, lengths) where length > 0 {
            if left <= length {
                let t = CGFloat(left / length)
                return CGPoint(x: piece.from.x + (piece.to.x - piece.from.x) * t, y: piece.from.y + (piece.to.y - piece.from.y) * t)
            }
            left -= length
        }
        return pieces.last?.to ?? points[0]
    }
}

extension CAAnimationCalculationMode {
    /// Whether the mode makes its own even timing.
    var isPaced: Bool { self == .paced || self == .cubicPaced }
}

/// The cubic modes' spline: Kochanek-Bartels (TCB) with the tension T,
/// continuity C and bias B of each keyframe, which is Catmull-Rom when all
/// three are 0. Between keyframes Pᵢ and Pᵢ₊₁ it is the cubic Hermite curve
/// h₀₀(s)Pᵢ + h₁₀(s)Dᵢ + h₀₁(s)Pᵢ₊₁ + h₁₁(s)Eᵢ₊₁ (s from 0 to 1) with the
/// tangents leaving Pᵢ and arriving at Pᵢ₊₁
///   Dᵢ = (1−Tᵢ)(1+Cᵢ)(1+Bᵢ)/2 · (Pᵢ − Pᵢ₋₁) + (1−Tᵢ)(1−Cᵢ)(1−Bᵢ)/2 · (Pᵢ₊₁ − Pᵢ)
///   Eᵢ₊₁ = (1−Tᵢ₊₁)(1−Cᵢ₊₁)(1+Bᵢ₊₁)/2 · (Pᵢ₊₁ − Pᵢ) + (1−Tᵢ₊₁)(1+Cᵢ₊₁)(1−Bᵢ₊₁)/2 · (Pᵢ₊₂ − Pᵢ₊₁)
/// (Kochanek and Bartels, SIGGRAPH 1984). The first and last keyframes
/// stand in for their missing neighbours.
struct SplineShape {
    var tension: [Double] = []
    var continuity: [Double] = []
    var bias: [Double] = []

    init() {}

    init(tension: [NSNumber]?, continuity: [NSNumber]?, bias: [NSNumber]?) {
        self.tension = tension?.map(\.doubleValue) ?? []
        self.continuity = continuity?.map(\.doubleValue) ?? []
        self.bias = bias?.map(\.doubleValue) ?? []
    }

    private static func parameter(_ list: [Double], _ index: Int) -> Double {
        index < list.count && list[index].isFinite ? list[index] : 0
    }

    /// The point at `s` (0…1) of the segment from `frames[segment]` to the next.
    func point(on frames: [AnimatableValue], segment: Int, at s: Double) -> AnimatableValue {
        let i = segment, last = frames.count - 1
        let t0 = Self.parameter(tension, i), c0 = Self.parameter(continuity, i), b0 = Self.parameter(bias, i)
        let t1 = Self.parameter(tension, i + 1), c1 = Self.parameter(continuity, i + 1), b1 = Self.parameter(bias, i + 1)
        // Dᵢ = a(Pᵢ − Pᵢ₋₁) + b(Pᵢ₊₁ − Pᵢ), Eᵢ₊₁ = c(Pᵢ₊₁ − Pᵢ) + d(Pᵢ₊₂ − Pᵢ₊₁)
        let a = (1 - t0) * (1 + c0) * (1 + b0) / 2, b = (1 - t0) * (1 - c0) * (1 - b0) / 2
        let c = (1 - t1) * (1 - c1) * (1 + b1) / 2, d = (1 - t1) * (1 + c1) * (1 - b1) / 2
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        // The curve as weights of the four keyframes (they add up to 1).
        let w0 = -h10 * a
        let w1 = h00 + h10 * (a - b) - h11 * c
        let w2 = h01 + h10 * b + h11 * (c - d)
        let w3 = h11 * d
        let p0 = frames[max(0, i - 1)], p1 = frames[i], p2 = frames[min(last, i + 1)], p3 = frames[min(last, i + 2)]
        return p0.scaled(by: w0).adding(p1.scaled(by: w1)).adding(p2.scaled(by: w2)).adding(p3.scaled(by: w3))
    }
}

/// The length along a spline through keyframes, measured on short chords,
/// so that `.cubicPaced` can move along it at one speed.
struct SplineArcLength {
    /// Chords per segment: enough that the chords' length is the curve's
    /// to well under a thousandth for the bends of an animation.
    static let chordsPerSegment = 64

    /// The length from the start to the end of each chord, in order.
    private var cumulative: [Double] = [0]

    init(_ frames: [AnimatableValue], shape: SplineShape) {
        for segment in 0..<(frames.count - 1) {
            var previous = frames[segment]
            for step in 1...Self.chordsPerSegment {
                let next = shape.point(on: frames, segment: segment, at: Double(step) / Double(Self.chordsPerSegment))
                cumulative.append(cumulative[cumulative.count - 1] + previous.distance(to: next))
                previous = next
            }
        }
    }

    /// The segment and the parameter in it where `fraction` of the whole
    /// length has been covered (on a chord, in proportion along it).
    func segment(atFractionOfLength fraction: Double) -> (segment: Int, local: Double) {
        let chords = cumulative.count - 1
        guard let total = cumulative.last, total > 0 else {
            let position = min(1, max(0, fraction)) * Double(chords) / Double(Self.chordsPerSegment)
            let segment = min(Int(position), chords / Self.chordsPerSegment - 1)
            return (segment, position - Double(segment))
        }
        let target = min(1, max(0, fraction)) * total
        // The first chord whose end reaches the target.
        var low = 1, high = chords
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        let length = cumulative[low] - cumulative[low - 1]
        let within = length > 0 ? (target - cumulative[low - 1]) / length : 1
        let chord = Double(low - 1) + within
        let segment = min((low - 1) / Self.chordsPerSegment, chords / Self.chordsPerSegment - 1)
        return (segment, chord / Double(Self.chordsPerSegment) - Double(segment))
    }
}

/// A basic animation whose progress follows a damped spring: a mass `m`
/// on a spring of stiffness `k` with damping `c`, released from the start
/// value with `initialVelocity` towards the end value, obeys
/// m·x″ + c·x′ + k·x = 0 for its distance x from the end. It is solved in
/// closed form (below, critically and over-damped), not stepped.
///
/// Defaults are Core Animation's: mass 1, stiffness 100, damping 10,
/// initial velocity 0. The animation runs for its `duration` (set it to
/// ``settlingDuration`` to see the spring come to rest).
@preconcurrency @MainActor
open class CASpringAnimation: CABasicAnimation {
    /// The mass on the spring; greater is slower and bouncier. Must be positive.
    public var mass: CGFloat = 1
    /// The spring's stiffness; greater is faster. Must be positive.
    public var stiffness: CGFloat = 100
    /// The friction; greater settles sooner with less bounce.
    public var damping: CGFloat = 10
    /// The speed at the start, in units of the whole change per second;
    /// positive is towards the end value.
    public var initialVelocity: CGFloat = 0
    /// Whether damping above critical may slow the spring further (iOS 17);
    /// when false, a spring that would be over-damped is critically damped.
    public var allowsOverdamping = false

    /// A spring that feels `perceptualDuration` seconds long with `bounce`
    /// (−1…1; 0 is critically damped, higher bounces more), as iOS 17's
    /// `CASpringAnimation(perceptualDuration:bounce:)`. Apple's published
    /// mapping (WWDC23, "Animate with springs"): mass 1, stiffness
    /// (2π ÷ duration)², damping 4π(1 − bounce) ÷ duration for a bounce of 0
    /// or more, 4π ÷ (duration × (1 + bounce)) below 0.
    public convenience init(perceptualDuration: TimeInterval, bounce: CGFloat) {
        self.init()
        let spring = SpringParameters(perceptualDuration: perceptualDuration, bounce: Double(bounce))
        mass = spring.mass
        stiffness = spring.stiffness
        damping = spring.damping
        allowsOverdamping = bounce < 0
        duration = spring.settlingDuration
    }

    /// The duration the spring feels like: 2π ÷ √(k ÷ m).
    public var perceptualDuration: TimeInterval { spring.perceptualDuration }

    /// How much the spring bounces, from the damping ratio: 1 − ζ for
    /// ζ ≤ 1, 1 ÷ ζ − 1 above.
    public var bounce: CGFloat { spring.bounce }

    /// How long the spring takes to come to rest: the time after which it
    /// stays within 0.1 % of the whole change from the end value (the
    /// threshold is chosen here; Apple does not publish its own).
    public var settlingDuration: TimeInterval { spring.settlingDuration }

    var spring: SpringParameters {
        var s = SpringParameters(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
        if !allowsOverdamping { s.damping = min(s.damping, s.criticalDamping) }
        return s
    }

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CASpringAnimation else { return }
        mass = other.mass
        stiffness = other.stiffness
        damping = other.damping
        initialVelocity = other.initialVelocity
        allowsOverdamping = other.allowsOverdamping
    }

    /// The spring's time is the animation's local time in seconds (through
    /// the timing function, when one is set).
    override func progress(atFraction fraction: Double) -> Double {
        if driver != nil { return fraction }
        return spring.progress(at: super.progress(atFraction: fraction) * duration)
    }
}

/// The numbers of a damped spring and its closed-form solution.
package struct SpringParameters: Equatable {
    package var mass: Double
    package var stiffness: Double
    package var damping: Double
    package var initialVelocity: Double

    package init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        self.mass = mass.isFinite && mass > 0 ? mass : 1
        self.stiffness = stiffness.isFinite && stiffness > 0 ? stiffness : 100
        self.damping = damping.isFinite && damping >= 0 ? damping : 10
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
    }

    /// iOS 17's perceptual duration and bounce (see `CASpringAnimation`).
    package init(perceptualDuration: TimeInterval, bounce: Double, initialVelocity: Double = 0) {
        let d = perceptualDuration.isFinite && perceptualDuration > 0 ? perceptualDuration : 0.5
        let b = min(1, max(-1, bounce.isFinite ? bounce : 0))
        let stiffness = pow(2 * Double.pi / d, 2)
        let damping = b >= 0 ? 4 * Double.pi * (1 - b) / d : 4 * Double.pi / (d * (1 + max(b, -0.999)))
        self.init(mass: 1, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
    }

    /// A spring with damping ratio ζ whose motion settles in exactly
    /// `duration` seconds: UIKit's `usingSpringWithDamping` and
    /// `UISpringTimingParameters(dampingRatio:)` run their spring over the
    /// animation's duration.
    package init(dampingRatio: Double, settlingIn duration: TimeInterval, initialVelocity: Double = 0) {
        let ratio = dampingRatio.isFinite ? max(0.001, dampingRatio) : 1
        let d = duration.isFinite && duration > 0 ? duration : 0.5
        // For a fixed ζ (and no initial speed) the settling time scales as
        // 1/ω₀: measure it at ω₀ = 1, then pick the ω₀ that makes it d.
        let omega = SpringParameters(mass: 1, stiffness: 1, damping: 2 * ratio).settlingDuration / d
        self.init(mass: 1, stiffness: omega * omega, damping: 2 * ratio * omega, initialVelocity: initialVelocity)
    }

    var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    var criticalDamping: Double { 2 * (stiffness * mass).squareRoot() }
    package var dampingRatio: Double { damping / criticalDamping }

    package var perceptualDuration: TimeInterval { 2 * Double.pi / naturalFrequency }
    package var bounce: Double { dampingRatio <= 1 ? 1 - dampingRatio : 1 / dampingRatio - 1 }

    /// The distance x(t) from the end, in units of the whole change, of
    /// m·x″ + c·x′ + k·x = 0 with x(0) = 1 and x′(0) = −v₀. With ω₀ = √(k/m)
    /// and ζ = c / (2√(km)):
    /// - ζ < 1: x = e^(−ζω₀t) (cos ω_d t + (ζω₀ − v₀)/ω_d · sin ω_d t), ω_d = ω₀√(1 − ζ²)
    /// - ζ = 1: x = e^(−ω₀t) (1 + (ω₀ − v₀) t)
    /// - ζ > 1: x = C₁e^(r₁t) + C₂e^(r₂t), r = −ω₀(ζ ∓ √(ζ² − 1)),
    ///   C₂ = (−v₀ − r₁)/(r₂ − r₁), C₁ = 1 − C₂
    package func displacement(at t: TimeInterval) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if abs(zeta - 1) < 1e-9 {
            return exp(-w0 * t) * (1 + (w0 - v0) * t)
        }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
        let c2 = (-v0 - r1) / (r2 - r1)
        return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// The fraction of the change made at `t` seconds: 1 − x(t).
    package func progress(at t: TimeInterval) -> Double { t <= 0 ? 0 : 1 - displacement(at: t) }

    /// The threshold of ``settlingDuration``: 0.1 % of the change.
    static let settledDisplacement = 0.001

    /// The last moment |x(t)| is above the threshold, found by stepping in
    /// two-hundredths of the period until a bound on |x| is below it for
    /// good: the envelope e^(−ζω₀t)·√(1 + B²) when under-damped; otherwise
    /// x decays without oscillating after at most one crossing, so twenty
    /// periods below the threshold end the search.
    package var settlingDuration: TimeInterval {
        let w0 = naturalFrequency, zeta = dampingRatio
        let step = perceptualDuration / 200
        var last = 0.0, t = 0.0
        var amplitude = 0.0
        if zeta < 1 {
            let b = (zeta * w0 - initialVelocity) / (w0 * (1 - zeta * zeta).squareRoot())
            amplitude = (1 + b * b).squareRoot()
        }
        while t < 1000 * perceptualDuration {
            if abs(displacement(at: t)) > Self.settledDisplacement { last = t + step }
            t += step
            if zeta < 1 {
                if amplitude * exp(-zeta * w0 * t) < Self.settledDisplacement { break }
            } else if t > last + 20 * perceptualDuration {
                break
            }
        }
        return last
    }
}

/// Animations run together, their times inside the group's: each child's
/// `beginTime` counts from the group's start, and the group's duration
/// cuts them off.
@preconcurrency @MainActor
open class CAAnimationGroup: CAAnimation {
    public var animations: [CAAnimation]?

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CAAnimationGroup else { return }
        animations = other.animations?.map { $0.duplicate() }
    }

    override var animatedKeyPaths: [String] { (animations ?? []).flatMap(\.animatedKeyPaths) }

    override func apply(to values: inout LayerValues, at time: TimeInterval) {
        guard let point = timing.point(at: time) else { return }
        let local = progress(atFraction: point.fraction) * duration
        for child in animations ?? [] { child.apply(to: &values, at: local) }
    }
}

/// How a transition brings in the layer's new look.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The new look fades in over the old (the default).
    public static let fade = CATransitionType(rawValue: "fade")
    /// The new look slides in over the old.
    public static let moveIn = CATransitionType(rawValue: "moveIn")
    /// The new look pushes the old out.
    public static let push = CATransitionType(rawValue: "push")
    /// The old look slides away, showing the new one.
    public static let reveal = CATransitionType(rawValue: "reveal")
    /// The layer turns over, the new look on its back: Core Animation's
    /// name for the type UIKit's flip transitions use, not among its public
    /// constants. From the left or right it turns about the vertical axis,
    /// from the top or bottom about the horizontal one.
    package static let flip = CATransitionType(rawValue: "oglFlip")
    /// The old look curls up off the layer from its bottom edge: Core
    /// Animation's name for the type of UIKit's `transitionCurlUp`.
    package static let pageCurl = CATransitionType(rawValue: "pageCurl")
    /// The new look comes down over the old, uncurling from the top: the
    /// type of UIKit's `transitionCurlDown`.
    package static let pageUnCurl = CATransitionType(rawValue: "pageUnCurl")
}

/// Where a moving transition comes from.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let fromRight = CATransitionSubtype(rawValue: "fromRight")
    public static let fromLeft = CATransitionSubtype(rawValue: "fromLeft")
    public static let fromTop = CATransitionSubtype(rawValue: "fromTop")
    public static let fromBottom = CATransitionSubtype(rawValue: "fromBottom")
}

/// An animation of the whole layer from its look when the transition is
/// added to its look afterwards (changes made in the same transaction):
/// the old look is captured at `add(_:forKey:)` and drawn over the layer
/// as the transition goes. Added for the key `transition`, whatever key is given.
@preconcurrency @MainActor
open class CATransition: CAAnimation {
    public var type: CATransitionType = .fade
    /// The side a moving transition comes from; nil is from the left, as
    /// Core Animation's default.
    public var subtype: CATransitionSubtype?
    /// Where in the transition it starts and ends, 0…1.
    public var startProgress: Float = 0
    public var endProgress: Float = 1

    override func copyAttributes(from other: CAAnimation) {
        super.copyAttributes(from: other)
        guard let other = other as? CATransition else { return }
        type = other.type
        subtype = other.subtype
        startProgress = other.startProgress
        endProgress = other.endProgress
    }

    override var animatedKeyPaths: [String] { [LayerValues.transitionKey] }

    override func apply(to values: inout LayerValues, at time: TimeInterval) {
        guard let point = timing.point(at: time) else { return }
        let p = progress(atFraction: point.fraction)
        let start = Double(startProgress), end = Double(endProgress)
        values.transitionProgress = start + (end - start) * p
    }

    /// The part of the old look `image` to draw over the layer at
    /// `progress`, and where that part is in the old look, in fractions of
    /// its size: all of it, except for `moveIn`, whose new look slides in
    /// *over* the old one, so the part under the new look is left out (the
    /// old look is drawn above the layer's content). Nil when none shows.
    package func oldLookShown(_ image: CGImage, at progress: Double) -> (image: CGImage, part: CGRect)? {
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard type == .moveIn else { return (image, unit) }
        let new = placement(at: progress).new
        // The old look at 0, the new one at `new` (one of x and y is 0).
        var part = unit
        if new.x < 0 { part = CGRect(x: 1 + new.x, y: 0, width: -new.x, height: 1) }
        if new.x > 0 { part = CGRect(x: 0, y: 0, width: new.x, height: 1) }
        if new.y < 0 { part = CGRect(x: 0, y: 1 + new.y, width: 1, height: -new.y) }
        if new.y > 0 { part = CGRect(x: 0, y: 0, width: 1, height: new.y) }
        if new == .zero { return nil }
        // Whole pixels of the image, and the part they are.
        let width = CGFloat(image.width), height = CGFloat(image.height)
        let minX = (part.minX * width).rounded(), minY = (part.minY * height).rounded()
        let pixelRect = CGRect(x: minX, y: minY, width: (part.maxX * width).rounded() - minX, height: (part.maxY * height).rounded() - minY)
        guard pixelRect.width >= 1, pixelRect.height >= 1, let cropped = image.cropping(to: pixelRect) else { return nil }
        return (cropped, CGRect(x: pixelRect.minX / width, y: pixelRect.minY / height, width: pixelRect.width / width, height: pixelRect.height / height))
    }

    /// How a flip shows the layer at `progress`; nil for other types.
    ///
    /// The layer turns half a turn, π × `progress`, about its centre line,
    /// the side named by the subtype coming toward the viewer (UIKit's
    /// `transitionFlipFromLeft`: "the left side of the view moves toward
    /// the front and right side toward the back"): the old look in front
    /// for the first quarter turn, then the new one, whose own turn is
    /// π × `progress` − π. The compositor draws it in perspective
    /// (`LayerProjection.flipTurn`).
    package func flip(at progress: Double) -> FlipPose? {
        guard type == .flip else { return nil }
        let aboutVerticalAxis = subtype != .fromTop && subtype != .fromBottom
        let turn = Double.pi * progress
        let showsOldLook = progress < 0.5
        let direction: Double = subtype == .fromRight || subtype == .fromBottom ? 1 : -1
        return FlipPose(angle: showsOldLook ? turn : turn - Double.pi, showsOldLook: showsOldLook,
                        aboutVerticalAxis: aboutVerticalAxis, direction: direction)
    }

    /// How a page curl shows the layer at `progress`; nil for other types.
    /// Curling up, the old look is the page, rolled up from the bottom edge
    /// over the new one until it has left by the top; curling down, the new
    /// look is the page, unrolling from the top over the old one — the
    /// curl up played backward with the looks exchanged.
    package func curl(at progress: Double) -> PageCurlPose? {
        switch type {
        case .pageCurl: PageCurlPose(rolled: progress, pageIsOldLook: true)
        case .pageUnCurl: PageCurlPose(rolled: 1 - progress, pageIsOldLook: false)
        default: nil
        }
    }

    /// Where the new look is drawn, as a fraction of the layer's size, and
    /// where the old one is, at `progress`; and the old one's opacity.
    package func placement(at progress: Double) -> (new: CGPoint, old: CGPoint, oldOpacity: Double) {
        let direction: CGPoint
        switch subtype {
        case .fromRight?: direction = CGPoint(x: 1, y: 0)
        case .fromTop?: direction = CGPoint(x: 0, y: -1)
        case .fromBottom?: direction = CGPoint(x: 0, y: 1)
        default: direction = CGPoint(x: -1, y: 0)
        }
        let rest = 1 - progress
        switch type {
        case .push:
            return (CGPoint(x: direction.x * rest, y: direction.y * rest), CGPoint(x: -direction.x * progress, y: -direction.y * progress), 1)
        case .moveIn:
            return (CGPoint(x: direction.x * rest, y: direction.y * rest), .zero, 1)
        case .reveal:
            return (.zero, CGPoint(x: -direction.x * progress, y: -direction.y * progress), 1)
        default:
            return (.zero, .zero, rest)
        }
    }
}
