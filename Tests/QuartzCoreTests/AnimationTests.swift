import Foundation
import GeometryTestSupport
import TestExpectations
import Testing
@testable import QuartzCore

/// A clock the tests move by hand, installed as the animation engine's
/// (an application's run loop installs its own); removed at the end.
@MainActor
final class TestMediaClock {
    var now: TimeInterval = 100

    init() {
        TransactionState.current.reset()
        AnimationEngine.current.reset()
        AnimationEngine.current.clock = { [unowned self] in now }
    }

    func uninstall() {
        AnimationEngine.current.reset()
        AnimationEngine.current.clock = nil
        TransactionState.current.reset()
    }

    /// A refresh shown at `time`: what the display link does each frame.
    func refresh(at time: TimeInterval) {
        now = time - 1.0 / 60
        AnimationEngine.current.refresh(targetTime: time)
    }
}

/// Records what an animation's delegate hears.
@MainActor
final class AnimationLog: CAAnimationDelegate {
    var entries: [String] = []
    let name: String
    init(_ name: String = "a") { self.name = name }
    func animationDidStart(_ anim: CAAnimation) { entries.append("\(name) start") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { entries.append("\(name) stop \(flag)") }
}

/// The cubic Bézier of a timing curve at its parameter s, evaluated
/// directly: B(s) = 3(1−s)²s·P1 + 3(1−s)s²·P2 + s³ (end points 0 and 1).
func bezierPoint(_ p: [Double], _ s: Double) -> (x: Double, y: Double) {
    let u = 1 - s
    return (3 * u * u * s * p[0] + 3 * u * s * s * p[2] + s * s * s, 3 * u * u * s * p[1] + 3 * u * s * s * p[3] + s * s * s)
}

@MainActor
@Suite struct TimingFunctionTests {
    @Test func namedCurvesHaveApplesControlPoints() {
        // Apple's CAMediaTimingFunctionName documentation gives each curve's points.
        let expected: [(CAMediaTimingFunctionName, [Float])] = [
            (.linear, [0, 0, 1, 1]), (.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]), (.default, [0.25, 0.1, 0.25, 1]),
        ]
        for (name, points) in expected {
            let function = CAMediaTimingFunction(name: name)
            var read: [Float] = []
            var pair: [Float] = [0, 0]
            for index in 0...3 {
                function.getControlPoint(at: index, values: &pair)
                read += pair
            }
            expectEqual(read, [0, 0] + points + [1, 1], "\(name.rawValue)")
        }
    }

    @Test func aCurveIsTheCubicBezierSolvedForTime() {
        for name in [CAMediaTimingFunctionName.easeIn, .easeOut, .easeInEaseOut, .default] {
            let function = CAMediaTimingFunction(name: name)
            let points = function.controlPoints
            for step in 1..<50 {
                let (x, y) = bezierPoint(points, Double(step) / 50)
                #expect(abs(function.value(at: x) - y) < 1e-10, "\(name.rawValue) at x \(x)")
            }
        }
        // Ease in-out is symmetric about the middle: y(1 − x) = 1 − y(x).
        let easeInOut = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(easeInOut.value(at: 0.5) - 0.5) < 1e-12)
        #expect(abs(easeInOut.value(at: 0.2) + easeInOut.value(at: 0.8) - 1) < 1e-12)
    }

    @Test func controlPointsOutsideTheUnitSquareOvershootInValueButNotInTime() {
        let overshoot = CAMediaTimingFunction(controlPoints: 0.5, 1.8, -0.2, 1)
        expectEqual(overshoot.controlPoints[2], 0)  // x clamped to 0…1
        let peak = (1...99).map { overshoot.value(at: Double($0) / 100) }.max()!
        #expect(peak > 1)
    }
}

@MainActor
@Suite(.serialized) struct BasicAnimationTests {
    /// A layer committed once, so that it has a presentation.
    func committedLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.position = CGPoint(x: 10, y: 10)
        CATransaction.flush()
        return layer
    }

    @Test func presentationFollowsTheCurveFrameByFrameWhileTheModelStays() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 10
        move.toValue = 110.0
        move.duration = 0.5
        move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        layer.add(move, forKey: "move")
        #expect(layer.animation(forKey: "move")?.beginTime == 100)
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        for frame in 1...29 {
            let time = 100 + Double(frame) / 60
            clock.refresh(at: time)
            let shown = try #require(layer.presentation())
            // x = from + (to − from) · curve(t / duration)
            let expected = 10 + 100 * curve.value(at: (time - 100) / 0.5)
            #expect(abs(shown.position.x - expected) < 1e-9, "frame \(frame)")
            expectEqual(layer.position.x, 10)
            #expect(shown.model() === layer)
        }
        clock.refresh(at: 100 + 31.0 / 60)
        #expect(layer.animationKeys() == nil)
        #expect(layer.presentation()?.position.x == 10)
    }

    @Test func valuesMayBeAnyNumberTypePointSizeRectTransformOrColor() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        func half(_ key: String, _ from: Any, _ to: Any) {
            let animation = CABasicAnimation(keyPath: key)
            animation.fromValue = from
            animation.toValue = to
            animation.duration = 1
            layer.add(animation, forKey: key)
        }
        half("opacity", NSNumber(value: 0), Float(1))
        half("cornerRadius", 0, CGFloat(10))
        half("bounds.size", CGSize(width: 20, height: 20), CGSize(width: 40, height: 60))
        half("position", CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 50))
        half("transform", CATransform3DIdentity, CATransform3DMakeScale(3, 3, 1))
        half("backgroundColor", CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        clock.refresh(at: 100.5)
        let shown = try #require(layer.presentation())
        #expect(abs(shown.opacity - 0.5) < 1e-6)
        #expect(approximately(shown.cornerRadius, 5))
        #expect(approximately(shown.bounds.size, CGSize(width: 30, height: 40)))
        #expect(approximately(shown.position, CGPoint(x: 50, y: 25)))
        #expect(approximately(shown.affineTransform(), CGAffineTransform(scaleX: 2, y: 2)))
        let color = try #require(shown.backgroundColor)
        #expect(approximately(color.red, 0.5) && approximately(color.blue, 0.5))
    }

    @Test func keyPathsIntoTheTransformTurnAndScaleIt() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = Double.pi
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.toValue = 3
        grow.duration = 1
        layer.add(grow, forKey: "grow")
        clock.refresh(at: 100.5)
        let t = try #require(layer.presentation()).affineTransform()
        // A quarter turn (π/2 half way) scaled by 2 (1 → 3 half way).
        #expect(approximately(t, CGAffineTransform(a: 0, b: 2, c: -2, d: 0, tx: 0, ty: 0)))
    }

    @Test func fromByToCombinationsFollowCoreAnimationsRules() {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        func endpoints(from: Any?, to: Any?, by: Any?, additive: Bool = false) -> (Double, Double) {
            let animation = CABasicAnimation(keyPath: "opacity")
            animation.fromValue = from
            animation.toValue = to
            animation.byValue = by
            animation.isAdditive = additive
            let (a, b) = animation.endpoints(underlying: .scalar(0.3))
            guard case .scalar(let x) = a, case .scalar(let y) = b else { return (.nan, .nan) }
            return (x, y)
        }
        #expect(endpoints(from: 0.1, to: 0.9, by: nil) == (0.1, 0.9))
        #expect(endpoints(from: 0.1, to: nil, by: 0.5) == (0.1, 0.6))
        #expect(endpoints(from: nil, to: 0.9, by: 0.5) == (0.4, 0.9))
        #expect(endpoints(from: 0.1, to: nil, by: nil) == (0.1, 0.3))
        #expect(endpoints(from: nil, to: 0.9, by: nil) == (0.3, 0.9))
        #expect(endpoints(from: nil, to: nil, by: 0.5) == (0.3, 0.8))
        #expect(endpoints(from: nil, to: nil, by: 0.5, additive: true) == (0, 0.5))
    }

    @Test func delegateHearsStartThenStopFinishedAndARemovedAnimationStopsUnfinished() {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let log = AnimationLog("one")
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.toValue = 0
        animation.duration = 0.1
        animation.delegate = log
        layer.add(animation, forKey: "fade")
        #expect(log.entries.isEmpty)
        clock.refresh(at: 100 + 1.0 / 60)
        expectEqual(log.entries, ["one start"])
        clock.refresh(at: 100.1)
        expectEqual(log.entries, ["one start", "one stop true"])

        let removed = AnimationLog("two")
        animation.delegate = removed
        layer.add(animation, forKey: "fade")
        clock.refresh(at: 100.12)
        layer.removeAnimation(forKey: "fade")
        expectEqual(removed.entries, ["two start"])  // told after the commit
        CATransaction.flush()
        expectEqual(removed.entries, ["two start", "two stop false"])
    }

    @Test func aReplacedAnimationStopsUnfinished() {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let first = AnimationLog("first")
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.toValue = 0
        animation.delegate = first
        layer.add(animation, forKey: "fade")
        layer.add(CABasicAnimation(keyPath: "opacity"), forKey: "fade")
        CATransaction.flush()
        expectEqual(first.entries, ["first stop false"])
        expectEqual(layer.animationKeys(), ["fade"])
    }

    @Test func fillModeForwardsKeepsTheEndValueOnlyWhenNotRemoved() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let animation = CABasicAnimation(keyPath: "position.y")
        animation.toValue = 200
        animation.duration = 0.2
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "stay")
        clock.refresh(at: 101)
        expectEqual(layer.animationKeys(), ["stay"])
        try expectEqual(#require(layer.presentation()).position.y, 200)
        #expect(!AnimationEngine.current.hasRunningAnimations)

        let delayed = CABasicAnimation(keyPath: "position.x")
        delayed.fromValue = 50
        delayed.toValue = 60
        delayed.beginTime = layer.convertTime(CACurrentMediaTime(), from: nil) + 1
        delayed.fillMode = .backwards
        layer.add(delayed, forKey: "later")
        try expectEqual(#require(layer.presentation()).position.x, 50)
    }

    @Test func repeatsAutoreversesAndCumulativeRepeats() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 100
        animation.duration = 1
        animation.autoreverses = true
        animation.repeatCount = 2
        layer.add(animation, forKey: "bounce")
        // Cycle of 2 s (there and back): at 1.25 s a quarter of the way back.
        clock.refresh(at: 101.25)
        #expect(approximately(try #require(layer.presentation()).position.x, 75))
        clock.refresh(at: 102.5)
        #expect(approximately(try #require(layer.presentation()).position.x, 50))
        clock.refresh(at: 104)
        #expect(layer.animationKeys() == nil)

        let cumulative = CABasicAnimation(keyPath: "position.x")
        cumulative.fromValue = 0
        cumulative.toValue = 10
        cumulative.duration = 1
        cumulative.repeatCount = 3
        cumulative.isCumulative = true
        cumulative.beginTime = 104
        layer.add(cumulative, forKey: "steps")
        clock.refresh(at: 106.5)  // third repetition, half way: 2 × 10 + 5
        #expect(approximately(try #require(layer.presentation()).position.x, 25))
    }

    @Test func aRepeatDurationRepeatsForThatLongThenEnds() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 100
        animation.duration = 1
        animation.repeatDuration = 2.5  // two and a half cycles, then the model
        layer.add(animation, forKey: "run")
        clock.refresh(at: 101.25)  // second cycle, a quarter in
        #expect(approximately(try #require(layer.presentation()).position.x, 25))
        clock.refresh(at: 102.4)  // third cycle, stopped at half of it (2.5 s)
        #expect(approximately(try #require(layer.presentation()).position.x, 40))
        expectEqual(layer.animationKeys(), ["run"])
        clock.refresh(at: 102.6)
        #expect(layer.animationKeys() == nil)
        try expectEqual(#require(layer.presentation()).position.x, 10)  // the model
    }

    @Test func additiveAnimationsAddToTheModelAndToOneAnother() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        for key in ["a", "b"] {
            let nudge = CABasicAnimation(keyPath: "position.x")
            nudge.fromValue = 40
            nudge.toValue = 0
            nudge.duration = 1
            nudge.isAdditive = true
            layer.add(nudge, forKey: key)
        }
        clock.refresh(at: 100.25)
        // model 10 + 30 + 30
        #expect(approximately(try #require(layer.presentation()).position.x, 70))
    }

    @Test func layerTimeScalesItsAnimations() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let parent = CALayer()
        let layer = CALayer()
        parent.addSublayer(layer)
        CATransaction.flush()
        parent.speed = 2
        parent.beginTime = 100
        parent.timeOffset = 3
        // local = (parent − beginTime) × speed + timeOffset
        expectEqual(layer.convertTime(101, from: nil), 5)
        expectEqual(layer.convertTime(5, to: nil), 101)
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = 0
        animation.toValue = 1
        animation.duration = 1
        layer.add(animation, forKey: "fade")
        clock.refresh(at: 100.25)
        #expect(abs(try #require(layer.presentation()).opacity - 0.5) < 1e-6)
    }

    /// An animation is a timing object too (CAMediaTiming): its own time is
    /// (its layer's time − beginTime) × speed + timeOffset, so at speed 2 and
    /// offset 0.25 s a 1 s fade starts a quarter in and ends 0.375 s after it
    /// was added, leaving the model's value.
    @Test func anAnimationsOwnSpeedAndTimeOffsetScaleAndShiftItsTime() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = CALayer()
        CATransaction.flush()
        CATransaction.setDisableActions(true)
        layer.opacity = 0.3
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = 0
        animation.toValue = 1
        animation.duration = 1
        animation.speed = 2
        animation.timeOffset = 0.25
        let log = AnimationLog()
        animation.delegate = log
        layer.add(animation, forKey: "fade")  // at media time 100
        for (time, opacity) in [(100.0 + 1.0 / 60, 0.25 + 2.0 / 60), (100.25, 0.75), (100.3, 0.85)] {
            clock.refresh(at: time)
            #expect(abs(Double(try #require(layer.presentation()).opacity) - opacity) < 1e-6, "at \(time)")
        }
        expectEqual(log.entries, ["a start"])
        clock.refresh(at: 100.4)
        expectEqual(try #require(layer.presentation()).opacity, 0.3)
        expectEqual(log.entries, ["a start", "a stop true"])
    }
}

@MainActor
@Suite(.serialized) struct KeyframeSpringAndGroupTests {
    func committedLayer() -> CALayer {
        let layer = CALayer()
        CATransaction.flush()
        return layer
    }

    @Test func keyframesInterpolateBetweenValuesAtTheirKeyTimes() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let frames = CAKeyframeAnimation(keyPath: "position.x")
        frames.values = [0, 100, 40]
        frames.keyTimes = [0, 0.25, 1]
        frames.duration = 1
        layer.add(frames, forKey: "k")
        clock.refresh(at: 100.125)
        #expect(approximately(try #require(layer.presentation()).position.x, 50))
        clock.refresh(at: 100.625)
        #expect(approximately(try #require(layer.presentation()).position.x, 70))

        let steps = CAKeyframeAnimation(keyPath: "opacity")
        steps.values = [0.2, 0.6]
        steps.calculationMode = .discrete
        steps.duration = 1
        steps.beginTime = 101
        layer.add(steps, forKey: "d")
        clock.refresh(at: 101.1)
        #expect(abs(try #require(layer.presentation()).opacity - 0.2) < 1e-6)
        clock.refresh(at: 101.7)
        #expect(abs(try #require(layer.presentation()).opacity - 0.6) < 1e-6)
    }

    @Test func aPacedPathMovesThePointAtAnEvenSpeed() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 30, y: 0))
        path.addLine(to: CGPoint(x: 30, y: 10))
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = path
        along.calculationMode = .paced
        along.duration = 1
        layer.add(along, forKey: "path")
        clock.refresh(at: 100.5)  // 20 of 40 points along
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 20, y: 0)))
        clock.refresh(at: 100.875)
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 30, y: 5)))
    }

    @Test func aPathsLineAndCurveEndsAreItsKeyframesTimedByTheCalculationMode() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        // Apple's `path` documentation: the end of each line or curve is a
        // keyframe value, the points between are the line's or curve's.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 90, y: 0))  // 90 long
        path.addCurve(to: CGPoint(x: 90, y: 40), control1: CGPoint(x: 110, y: 0), control2: CGPoint(x: 110, y: 40))
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = path
        along.duration = 1
        layer.add(along, forKey: "linear")
        // Linear, the default: each of the two segments takes half the time,
        // however long; the curve at parameter s is
        // (1−s)³P₀ + 3(1−s)²sC₁ + 3(1−s)s²C₂ + s³P₁.
        clock.refresh(at: 100.25)
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 45, y: 0)))
        clock.refresh(at: 100.75)  // s = 0.5: x 90·⅛ + 110·⅜ + 110·⅜ + 90·⅛ = 105, y 0 + 0 + 40·⅜ + 40·⅛ = 20
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 105, y: 20)))
        layer.removeAllAnimations()

        let timed = CAKeyframeAnimation(keyPath: "position")
        timed.path = path
        timed.keyTimes = [0, 0.8, 1]  // one per keyframe
        timed.duration = 1
        timed.beginTime = 110
        layer.add(timed, forKey: "timed")
        clock.refresh(at: 110.4)
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 45, y: 0)))

        let steps = CAKeyframeAnimation(keyPath: "position")
        steps.path = path
        steps.calculationMode = .discrete
        steps.duration = 1
        steps.beginTime = 120
        layer.add(steps, forKey: "steps")
        clock.refresh(at: 120.5)  // three keyframes, each a third of the time
        #expect(approximately(try #require(layer.presentation()).position, CGPoint(x: 90, y: 0)))
    }

    @Test func aSpringFollowsTheDampedOscillatorInClosedForm() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let spring = CASpringAnimation(keyPath: "position.x")
        #expect(spring.mass == 1 && spring.stiffness == 100 && spring.damping == 10 && spring.initialVelocity == 0)
        spring.fromValue = 0
        spring.toValue = 100
        spring.duration = spring.settlingDuration
        layer.add(spring, forKey: "spring")
        // m x'' + c x' + k x = 0, m 1, k 100, c 10: ω₀ = 10, ζ = 0.5,
        // ω_d = 10√0.75; x(t) = e^(−5t)(cos ω_d t + 5/ω_d · sin ω_d t).
        let wd = 10 * 0.75.squareRoot()
        for frame in 1...40 {
            let t = Double(frame) / 60
            clock.refresh(at: 100 + t)
            let x = exp(-5 * t) * (cos(wd * t) + 5 / wd * sin(wd * t))
            #expect(abs(try #require(layer.presentation()).position.x - 100 * (1 - x)) < 1e-9, "frame \(frame)")
        }
        // It overshoots (under-damped) and settles: the envelope e^(−5t)·√(1 + B²) falls
        // below 0.1 % by the settling duration.
        #expect(spring.settlingDuration > 1.2 && spring.settlingDuration < 1.5)
    }

    @Test func criticallyAndOverDampedSpringsAndInitialVelocity() {
        // ζ = 1: x = e^(−ω₀t)(1 + (ω₀ − v₀)t)
        let critical = SpringParameters(mass: 1, stiffness: 100, damping: 20, initialVelocity: 4)
        #expect(abs(critical.displacement(at: 0.3) - exp(-3) * (1 + 6 * 0.3)) < 1e-12)
        // ζ = 2: r = −10(2 ∓ √3), C₂ = (−v₀ − r₁)/(r₂ − r₁)
        let over = SpringParameters(mass: 1, stiffness: 100, damping: 40)
        let r1 = -10 * (2 - 3.0.squareRoot()), r2 = -10 * (2 + 3.0.squareRoot())
        let c2 = -r1 / (r2 - r1)
        #expect(abs(over.displacement(at: 0.2) - ((1 - c2) * exp(r1 * 0.2) + c2 * exp(r2 * 0.2))) < 1e-12)
        // Velocity: x′(0) = −v₀, checked by a finite difference.
        let moving = SpringParameters(mass: 1, stiffness: 100, damping: 10, initialVelocity: 7)
        let h = 1e-7
        #expect(abs((moving.displacement(at: h) - moving.displacement(at: 0)) / h + 7) < 1e-4)
    }

    @Test func perceptualDurationAndBounceFollowApplesMapping() {
        // WWDC23 "Animate with springs": stiffness (2π/d)², damping 4π(1 − bounce)/d.
        let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        #expect(abs(spring.stiffness - pow(2 * .pi / 0.5, 2)) < 1e-9)
        #expect(abs(spring.damping - 4 * .pi * 0.7 / 0.5) < 1e-9)
        #expect(abs(spring.perceptualDuration - 0.5) < 1e-12)
        #expect(abs(spring.bounce - 0.3) < 1e-12)
        expectEqual(spring.duration, spring.settlingDuration)
    }

    @Test func aGroupRunsItsAnimationsInItsOwnTime() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 10
        move.duration = 1
        let late = CABasicAnimation(keyPath: "position.y")
        late.fromValue = 0
        late.toValue = 10
        late.beginTime = 1
        late.duration = 1
        let group = CAAnimationGroup()
        group.animations = [move, late]
        group.duration = 2
        let log = AnimationLog("group")
        group.delegate = log
        layer.add(group, forKey: "g")
        clock.refresh(at: 101.5)
        let shown = try #require(layer.presentation())
        #expect(approximately(shown.position, CGPoint(x: 0, y: 5)))  // move is over, late half way
        clock.refresh(at: 102)
        expectEqual(log.entries, ["group start", "group stop true"])
    }
}

/// Stands for a view: the owner of a tree's root layer. Implicit actions
/// run only in trees that hang from a view's layer.
@MainActor
final class StandInView: CALayerDelegate {
    let layer = CALayer()
    init() { layer.setOwningDelegate(self) }
    isolated deinit { layer.setOwningDelegate(nil) }

    /// A standalone layer added below the stand-in's layer.
    func sublayer() -> CALayer {
        let sublayer = CALayer()
        layer.addSublayer(sublayer)
        return sublayer
    }
}

@MainActor
@Suite(.serialized) struct ImplicitActionTests {
    @Test func aCommittedStandaloneLayerAnimatesAChangeFromWhatItShowed() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let layer = view.sublayer()
        layer.opacity = 1
        #expect(layer.animationKeys() == nil)  // not committed yet: no action
        CATransaction.flush()
        layer.opacity = 0.2
        let animation = try #require(layer.animation(forKey: "opacity") as? CABasicAnimation)
        expectEqual(animation.duration, 0.25)  // Core Animation's default
        expectEqual((animation.fromValue as? CGFloat), 1)
        clock.refresh(at: 100.125)
        #expect(abs(try #require(layer.presentation()).opacity - 0.6) < 1e-6)
    }

    @Test func transactionsSetDurationTimingAndDisableActions() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let layer = view.sublayer()
        CATransaction.flush()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.position = CGPoint(x: 5, y: 5)
        CATransaction.commit()
        #expect(layer.animationKeys() == nil)

        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        layer.position = CGPoint(x: 50, y: 5)
        CATransaction.commit()
        let animation = try #require(layer.animation(forKey: "position"))
        expectEqual(animation.duration, 1)
        expectEqual(animation.timingFunction, CAMediaTimingFunction(name: .easeIn))
    }

    @MainActor final class NoActions: CALayerDelegate {
        func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
            event == "opacity" ? NSNull() : nil
        }
    }

    @MainActor final class RecordingAction: CAAction {
        var runs: [String] = []
        func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { runs.append(event) }
    }

    @Test func theDelegateThenTheActionsDictionaryChooseTheAction() {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let layer = view.sublayer()
        let delegate = NoActions()
        let custom = RecordingAction()
        layer.delegate = delegate
        layer.actions = ["opacity": custom, "cornerRadius": custom, "position": NSNull()]
        CATransaction.flush()
        layer.opacity = 0.5        // the delegate's NSNull wins
        layer.cornerRadius = 4     // the dictionary's action
        layer.position = CGPoint(x: 1, y: 1)  // NSNull in the dictionary
        expectEqual(custom.runs, ["cornerRadius"])
        #expect(layer.animationKeys() == nil)
    }

    /// A layer class with actions of its own: a recorded one for
    /// `cornerRadius`, none (`NSNull`) for `opacity`.
    @MainActor final class LayerWithClassActions: CALayer {
        static let recorded = RecordingAction()
        override class func defaultAction(forKey event: String) -> (any CAAction)? {
            switch event {
            case "cornerRadius": recorded
            case "opacity": NSNull()
            default: nil
            }
        }
    }

    @MainActor final class DelegateAction: CALayerDelegate {
        let action = RecordingAction()
        func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { event == "position" ? action : nil }
    }

    /// Apple's `action(forKey:)`: the delegate, then the `actions`
    /// dictionary, then the class's `defaultAction(forKey:)`, then the
    /// implicit animation of an animatable property; `NSNull` stops the
    /// search with no action.
    @Test func actionForKeyAsksTheDelegateTheDictionaryThenTheClass() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let layer = LayerWithClassActions()
        view.layer.addSublayer(layer)
        #expect(layer.action(forKey: "cornerRadius") as? RecordingAction === LayerWithClassActions.recorded)
        #expect(layer.action(forKey: "opacity") == nil, "the class's NSNull")
        let implicit = try #require(layer.action(forKey: "position") as? CABasicAnimation)
        expectEqual(implicit.keyPath, "position")
        #expect(layer.action(forKey: "noSuchProperty") == nil)
        #expect(CALayer.defaultAction(forKey: "position") == nil)

        let dictionaryAction = RecordingAction()
        layer.actions = ["cornerRadius": NSNull(), "position": dictionaryAction]
        #expect(layer.action(forKey: "cornerRadius") == nil, "the dictionary before the class")
        #expect(layer.action(forKey: "position") as? RecordingAction === dictionaryAction)
        let delegate = DelegateAction()
        layer.delegate = delegate
        #expect(layer.action(forKey: "position") as? RecordingAction === delegate.action, "the delegate first")

        // A change runs what the search found.
        layer.actions = nil
        layer.delegate = nil
        CATransaction.flush()
        LayerWithClassActions.recorded.runs.removeAll()
        layer.cornerRadius = 3
        layer.opacity = 0.5
        expectEqual(LayerWithClassActions.recorded.runs, ["cornerRadius"])
        #expect(layer.animationKeys() == nil, "neither the recorded action nor NSNull animates")
    }

    @Test func aCompletionBlockWaitsForTheTransactionsAnimations() {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let layer = view.sublayer()
        CATransaction.flush()
        var log: [String] = []
        let tracker = AnimationLog("fade")
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("done") }
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0
        fade.duration = 0.5
        fade.delegate = tracker
        layer.add(fade, forKey: "fade")
        CATransaction.commit()
        #expect(log.isEmpty)
        clock.refresh(at: 100.3)
        #expect(log.isEmpty)
        clock.refresh(at: 100.5)
        expectEqual(tracker.entries, ["fade start", "fade stop true"])
        expectEqual(log, ["done"])

        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("no animations") }
        CATransaction.setDisableActions(true)
        layer.zPosition = 1
        CATransaction.commit()
        CATransaction.flush()
        expectEqual(log, ["done", "no animations"])
    }

    @Test func withoutAnApplicationClockOrOutsideAViewsTreeChangesShowAtOnce() {
        TransactionState.current.reset()
        AnimationEngine.current.reset()
        AnimationEngine.current.clock = nil
        let view = StandInView()
        let layer = view.sublayer()
        CATransaction.flush()
        layer.opacity = 0.3
        #expect(layer.animationKeys() == nil)
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let alone = CALayer()
        CATransaction.flush()
        alone.opacity = 0.3
        #expect(alone.animationKeys() == nil)
        layer.opacity = 0.6
        expectEqual(layer.animationKeys(), ["opacity"])
    }
}

@MainActor
@Suite(.serialized) struct AnimatedCompositingTests {
    @Test func theCompositorDrawsPresentationValuesAndDamagesWhereTheLayerWasAndIs() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        card.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(card)
        let compositor = try LayerCompositor(rootLayer: root, pixelWidth: 100, pixelHeight: 20, scale: 1)
        compositor.renderFrame()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 5
        move.toValue = 85
        move.duration = 1
        card.add(move, forKey: "move")
        CATransaction.flush()
        compositor.renderFrame()
        clock.refresh(at: 100.5)
        CATransaction.flush()
        let damage = compositor.renderFrame()
        // Half way: x 45, so the card covers 40..<50; it was at 0..<10.
        expectEqual(compositor.pixel(x: 45, y: 5).red, 255)
        expectEqual(compositor.pixel(x: 5, y: 5).red, 0)
        #expect(damage.contains { $0.minX <= 0 && $0.maxX >= 10 } || damage.contains { $0.contains(CGRect(x: 0, y: 0, width: 10, height: 10)) })
        #expect(damage.contains { $0.intersects(CGRect(x: 40, y: 0, width: 10, height: 10)) })
        #expect(!damage.contains { $0.intersects(CGRect(x: 60, y: 0, width: 40, height: 20)) })
        expectEqual(card.position.x, 5)  // the model never moved
    }

    @Test func aFadeTransitionDrawsTheOldLookOverTheNew() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, compositor) = try redLayerTurningBlue(side: 10, with: CATransition())
        expectEqual(root.animationKeys(), ["transition"])
        showFrame(at: 100.5, clock, compositor)
        let half = compositor.pixel(x: 5, y: 5)
        #expect(half.blue > 100 && half.red > 100)
        showFrame(at: 101, clock, compositor)
        expectEqual(compositor.pixel(x: 5, y: 5).red, 0)
    }
}

/// A red square layer `side` points wide drawn by a compositor of its own,
/// given `transition` for one second and then turned blue without an
/// implicit animation, so that the transition alone shows the change.
@MainActor
func redLayerTurningBlue(side: Int, with transition: CATransition) throws -> (CALayer, LayerCompositor) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: side, height: side)
    root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let compositor = try LayerCompositor(rootLayer: root, pixelWidth: side, pixelHeight: side, scale: 1)
    compositor.renderFrame()
    transition.duration = 1
    root.add(transition, forKey: nil)
    CATransaction.setDisableActions(true)
    root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    return (root, compositor)
}

/// The refresh shown at `time`: the commit, then the frame composited.
@MainActor
func showFrame(at time: TimeInterval, _ clock: TestMediaClock, _ compositor: LayerCompositor) {
    clock.refresh(at: time)
    CATransaction.flush()
    compositor.renderFrame()
}

/// A moving transition half way, and which look shows in each quarter of a
/// 20 × 20 layer. The old look is red with a green top-left quarter, the
/// new one blue with a yellow top-left quarter, so each quarter tells which
/// look it shows and which part of it: push, moveIn and reveal all put new
/// on the subtype's side and old on the other, and differ in what moved.
struct MovingTransitionCase: CustomTestStringConvertible, Sendable {
    let type: String
    let subtype: String
    /// The looks' colours half way at the quarters' centres, in reading
    /// order (top left, top right, bottom left, bottom right): R and G are
    /// the old look's red and green, B and Y the new look's blue and yellow.
    let quarters: String

    var testDescription: String { "\(type) \(subtype)" }

    // Core Animation's types: push moves the new look in from the subtype's
    // side while the old one moves out the other way; moveIn slides the new
    // one in over the old, which stays; reveal slides the old one away
    // towards the other side, uncovering the new one, which stays. Half way,
    // each moving look has gone half the layer's size: fromLeft, push shows
    // the new look's right half (B, B) beside the old one's left half (G, R);
    // moveIn the new look's right half beside the old one's own right half
    // (R, R); reveal the new look's own left half (Y, B) beside the old one's
    // left half (G, R).
    static let all: [MovingTransitionCase] = [
        MovingTransitionCase(type: "push", subtype: "fromLeft", quarters: "BGBR"),
        MovingTransitionCase(type: "push", subtype: "fromRight", quarters: "RYRB"),
        MovingTransitionCase(type: "push", subtype: "fromTop", quarters: "BBGR"),
        MovingTransitionCase(type: "push", subtype: "fromBottom", quarters: "RRYB"),
        MovingTransitionCase(type: "moveIn", subtype: "fromLeft", quarters: "BRBR"),
        MovingTransitionCase(type: "moveIn", subtype: "fromRight", quarters: "GYRB"),
        MovingTransitionCase(type: "moveIn", subtype: "fromTop", quarters: "BBRR"),
        MovingTransitionCase(type: "moveIn", subtype: "fromBottom", quarters: "GRYB"),
        MovingTransitionCase(type: "reveal", subtype: "fromLeft", quarters: "YGBR"),
        MovingTransitionCase(type: "reveal", subtype: "fromRight", quarters: "RBRB"),
        MovingTransitionCase(type: "reveal", subtype: "fromTop", quarters: "YBGR"),
        MovingTransitionCase(type: "reveal", subtype: "fromBottom", quarters: "RRBB"),
    ]
}

@MainActor
@Suite(.serialized) struct MovingTransitionTests {
    /// The quarters' centres, in reading order.
    static let centres = [(x: 5, y: 5), (x: 15, y: 5), (x: 5, y: 15), (x: 15, y: 15)]

    /// The letter of the look's colour at a pixel, or the pixel itself when it is none of them.
    static func letter(of pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> String {
        switch (pixel.red, pixel.green, pixel.blue) {
        case (255, 0, 0): "R"
        case (0, 255, 0): "G"
        case (0, 0, 255): "B"
        case (255, 255, 0): "Y"
        default: "\(pixel)"
        }
    }

    @Test(arguments: MovingTransitionCase.all)
    func halfWayTheLooksAreWhereTheTransitionMovesThem(_ expected: MovingTransitionCase) throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let transition = CATransition()
        transition.type = CATransitionType(rawValue: expected.type)
        transition.subtype = CATransitionSubtype(rawValue: expected.subtype)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        root.backgroundColor = color(1, 0, 0)
        let corner = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(0, 1, 0))
        let compositor = try LayerCompositor(rootLayer: root, pixelWidth: 20, pixelHeight: 20, scale: 1)
        compositor.renderFrame()
        transition.duration = 1
        root.add(transition, forKey: nil)
        CATransaction.setDisableActions(true)
        root.backgroundColor = color(0, 0, 1)
        corner.backgroundColor = color(1, 1, 0)

        showFrame(at: 100.5, clock, compositor)
        let halfWay = Self.centres.map { Self.letter(of: compositor.pixel(x: $0.x, y: $0.y)) }.joined()
        expectEqual(halfWay, expected.quarters)
        showFrame(at: 101, clock, compositor)
        let end = Self.centres.map { Self.letter(of: compositor.pixel(x: $0.x, y: $0.y)) }.joined()
        expectEqual(end, "YBBB", "the end shows the new look only")
    }
}

/// The animatable values by key path: each key path is read from its
/// string once (`LayerKeyPath`), and the values of each shape are combined
/// part by part without building arrays. Both must give what the plain
/// definitions give.
@MainActor
@Suite struct LayerValuesKeyPathTests {
    /// Every key path reads back what was set through it, and changes no
    /// other property.
    @Test func everyKeyPathReadsAndWritesItsOwnProperty() throws {
        let layer = CALayer()
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.position = CGPoint(x: 5, y: 6)
        let base = LayerValues(of: layer)
        let cases: [(String, AnimatableValue)] = [
            ("position", .point(CGPoint(x: 7, y: 8))), ("position.x", .scalar(9)), ("position.y", .scalar(10)),
            ("bounds", .rect(CGRect(x: 11, y: 12, width: 13, height: 14))), ("bounds.origin", .point(CGPoint(x: 15, y: 16))),
            ("bounds.origin.x", .scalar(17)), ("bounds.origin.y", .scalar(18)), ("bounds.size", .size(CGSize(width: 19, height: 20))),
            ("bounds.size.width", .scalar(21)), ("bounds.size.height", .scalar(22)),
            ("anchorPoint", .point(CGPoint(x: 0.1, y: 0.2))), ("anchorPoint.x", .scalar(0.3)), ("anchorPoint.y", .scalar(0.4)),
            ("transform", .transform(CATransform3DMakeScale(2, 3, 1))), ("sublayerTransform", .transform(CATransform3DMakeTranslation(4, 5, 0))),
            ("zPosition", .scalar(23)), ("opacity", .scalar(0.5)), ("cornerRadius", .scalar(6)), ("borderWidth", .scalar(2)),
            ("shadowOpacity", .scalar(0.25)), ("shadowRadius", .scalar(7)), ("shadowOffset", .size(CGSize(width: 1, height: 2))),
            ("backgroundColor", .color(red: 1, green: 0, blue: 0, alpha: 1)), ("borderColor", .color(red: 0, green: 1, blue: 0, alpha: 1)),
            ("shadowColor", .color(red: 0, green: 0, blue: 1, alpha: 0.5)),
            ("transform.scale", .scalar(2)), ("transform.scale.x", .scalar(3)), ("transform.scale.y", .scalar(4)),
            ("transform.rotation", .scalar(0.5)), ("transform.rotation.z", .scalar(0.75)),
            ("transform.translation", .size(CGSize(width: 8, height: 9))), ("transform.translation.x", .scalar(10)),
            ("transform.translation.y", .scalar(11)),
            ("transform.scale.z", .scalar(5)), ("transform.rotation.x", .scalar(0.3)), ("transform.rotation.y", .scalar(0.4)),
            ("transform.translation.z", .scalar(12)),
            ("sublayerTransform.scale", .scalar(2)), ("sublayerTransform.scale.x", .scalar(3)), ("sublayerTransform.scale.y", .scalar(4)),
            ("sublayerTransform.scale.z", .scalar(5)), ("sublayerTransform.rotation", .scalar(0.5)),
            ("sublayerTransform.rotation.x", .scalar(0.3)), ("sublayerTransform.rotation.y", .scalar(0.4)),
            ("sublayerTransform.rotation.z", .scalar(0.75)), ("sublayerTransform.translation", .size(CGSize(width: 8, height: 9))),
            ("sublayerTransform.translation.x", .scalar(10)), ("sublayerTransform.translation.y", .scalar(11)),
            ("sublayerTransform.translation.z", .scalar(12)),
        ]
        for (path, value) in cases {
            let resolved = try #require(LayerKeyPath(path), "\(path)")
            var values = base
            values.set(value, forKeyPath: path)
            let read = try #require(values.value(forKeyPath: path))
            #expect(read.distance(to: value) < 1e-9, "\(path): \(read)")
            expectEqual(values.value(at: resolved), read, "\(path)")
            // Set back to what it was, the values are the base's again.
            values.set(try #require(base.value(forKeyPath: path)), forKeyPath: path)
            for (other, _) in cases {
                let now = try #require(values.value(forKeyPath: other)), was = try #require(base.value(forKeyPath: other))
                #expect(now.distance(to: was) < 1e-9, "\(path) changed \(other)")
            }
        }
        #expect(LayerKeyPath("position.z") == nil && LayerKeyPath("contents") == nil)
        var values = base
        values.set(.scalar(3), forKeyPath: "position")
        expectEqual(values.position, base.position, "a value of another shape is ignored")
    }

    /// An animation reads its key path again when it is changed.
    @Test func anAnimationFollowsAChangedKeyPath() {
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 10
        animation.toValue = 20
        animation.duration = 1
        var values = LayerValues(of: CALayer())
        animation.apply(to: &values, at: 0.5)
        expectEqual(values.position, CGPoint(x: 15, y: 0))
        animation.keyPath = "position.y"
        values = LayerValues(of: CALayer())
        animation.apply(to: &values, at: 0.5)
        expectEqual(values.position, CGPoint(x: 0, y: 15))
        animation.keyPath = "no such property"
        values = LayerValues(of: CALayer())
        animation.apply(to: &values, at: 0.5)
        expectEqual(values.position, .zero)
    }

    /// Interpolation, sums and differences part by part, for every shape:
    /// the formula applied to each number.
    @Test func valuesCombinePartByPart() {
        let t = 0.3
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        let a = CGRect(x: 1, y: 2, width: 3, height: 4), b = CGRect(x: 10, y: 20, width: 30, height: 40)
        expectEqual(AnimatableValue.interpolate(.scalar(1), .scalar(3), t), .scalar(mix(1, 3)))
        expectEqual(AnimatableValue.interpolate(.point(a.origin), .point(b.origin), t), .point(CGPoint(x: mix(1, 10), y: mix(2, 20))))
        expectEqual(AnimatableValue.interpolate(.size(a.size), .size(b.size), t), .size(CGSize(width: mix(3, 30), height: mix(4, 40))))
        #expect(AnimatableValue.interpolate(.rect(a), .rect(b), t)
            == .rect(CGRect(x: mix(1, 10), y: mix(2, 20), width: mix(3, 30), height: mix(4, 40))))
        #expect(AnimatableValue.interpolate(.color(red: 0, green: 0.2, blue: 0.4, alpha: 1), .color(red: 1, green: 0.6, blue: 0, alpha: 0.5), t)
            == .color(red: mix(0, 1), green: mix(0.2, 0.6), blue: mix(0.4, 0), alpha: mix(1, 0.5)))
        expectEqual(AnimatableValue.rect(b).adding(.rect(a)), .rect(CGRect(x: 11, y: 22, width: 33, height: 44)))
        expectEqual(AnimatableValue.rect(b).subtracting(.rect(a)), .rect(CGRect(x: 9, y: 18, width: 27, height: 36)))
        expectEqual(AnimatableValue.point(b.origin).subtracting(.point(a.origin)), .point(CGPoint(x: 9, y: 18)))
        #expect(AnimatableValue.color(red: 0.5, green: 0.25, blue: 0, alpha: 1).adding(.color(red: 0.25, green: 0.5, blue: 1, alpha: 0))
            == .color(red: 0.75, green: 0.75, blue: 1, alpha: 1))
        // A negative rectangle keeps its own origin and size (not standardised).
        let flipped = CGRect(x: 5, y: 5, width: -2, height: -3)
        expectEqual(AnimatableValue.rect(flipped).adding(.rect(.zero)), .rect(flipped))
        // Shapes that differ: interpolation jumps half way, sums keep the first.
        expectEqual(AnimatableValue.interpolate(.scalar(1), .point(.zero), 0.4), .scalar(1))
        expectEqual(AnimatableValue.scalar(1).adding(.point(.zero)), .scalar(1))
        let turned = AnimatableValue.interpolate(.transform(CATransform3DIdentity), .transform(CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))), 0.5)
        guard case .transform(let half) = turned else { Issue.record("not a transform"); return }
        #expect(abs(half.m11 - cos(.pi / 4)) < 1e-9 && abs(half.m12 - sin(.pi / 4)) < 1e-9)
    }
}
