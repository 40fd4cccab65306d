import DrawingTestSupport
import Foundation
import GeometryTestSupport
import TestExpectations
import Testing
@testable import UIKit

/// A window, a manual clock and one view in it, for animation tests.
@MainActor
private func animationScene(frame: CGRect = CGRect(x: 0, y: 0, width: 100, height: 100)) -> (UIWindow, UIView, ManualClock) {
    let window = makeWindow()
    let clock = UIApplication.shared.runLoop.useManualClock()
    let view = UIView(frame: frame)
    view.backgroundColor = .red
    window.addSubview(view)
    UIApplication.shared.runLoop.runUntilIdle()
    return (window, view, clock)
}

/// Moves the clock on by `seconds`: the display refreshes on the way.
@MainActor
private func advance(_ seconds: TimeInterval) {
    UIApplication.shared.runLoop.advance(by: seconds)
}

/// The time what is shown is worked out for: the last refresh's target.
@MainActor
private var shownTime: TimeInterval { AnimationEngine.current.frameTime }

@MainActor
@Suite struct ViewAnimationTests {
    @Test func theModelChangesAtOnceAndThePresentationFollowsTheCurve() throws {
        let (_, view, _) = animationScene()
        var completions: [Bool] = []
        UIView.animate(withDuration: 0.5, animations: { view.center.x = 250 }, completion: { completions.append($0) })
        expectEqual(view.center.x, 250)
        expectEqual(view.frame.origin.x, 200)
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)  // the default option, curveEaseInOut
        for _ in 1...5 {
            advance(0.07)
            let shown = try #require(view.layer.presentation()).position.x
            // additive: model + (old − new) · (1 − curve(t / duration))
            let expected = 250 + (50 - 250) * (1 - curve.value(at: shownTime / 0.5))
            #expect(abs(shown - expected) < 1e-9, "at \(shownTime)")
        }
        #expect(completions.isEmpty)
        advance(0.2)
        expectEqual(completions, [true])
        #expect(view.layer.animationKeys() == nil)
        #expect(!AnimationEngine.current.hasRunningAnimations)
    }

    @Test func animatableViewPropertiesEachAnimate() throws {
        let (_, view, _) = animationScene()
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            view.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
            view.alpha = 0.5
            view.transform = CGAffineTransform(rotationAngle: .pi / 2)
            view.backgroundColor = .blue
        }
        expectEqual(Set(view.layer.animationKeys() ?? []), ["position", "bounds", "opacity", "transform", "backgroundColor"])
        advance(0.49)
        let t = shownTime
        let shown = try #require(view.layer.presentation())
        #expect(abs(shown.opacity - Float(1 - 0.5 * t)) < 1e-6)
        #expect(approximately(shown.bounds.size.width, 100 - 40 * t))
        // A half-way rotation is a rotation (transforms interpolate by their parts).
        let angle = atan2(shown.affineTransform().b, shown.affineTransform().a)
        #expect(abs(angle - .pi / 2 * t) < 1e-9)
    }

    /// UIKit's `UIView.AnimationOptions`: without `.overrideInheritedDuration`
    /// a block inside another "inherits the remaining duration of the
    /// in-flight animation", and without `.overrideInheritedCurve` its curve;
    /// `.overrideInheritedOptions` keeps all of its own.
    @Test func aNestedBlockTakesTheOuterDurationAndCurveUnlessItOverridesThem() throws {
        let (window, outer, _) = animationScene()
        let views = (0..<4).map { _ in UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10)) }
        for view in views { window.addSubview(view) }
        UIApplication.shared.runLoop.runUntilIdle()
        var inherited: [TimeInterval] = [UIView.inheritedAnimationDuration]
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            outer.alpha = 0
            inherited.append(UIView.inheritedAnimationDuration)
            UIView.animate(withDuration: 0.2, delay: 0, options: .curveEaseIn) {
                inherited.append(UIView.inheritedAnimationDuration)
                views[0].alpha = 0
            }
            UIView.animate(withDuration: 0.2, delay: 0, options: [.curveEaseIn, .overrideInheritedDuration]) {
                inherited.append(UIView.inheritedAnimationDuration)
                views[1].alpha = 0
            }
            UIView.animate(withDuration: 0.2, delay: 0, options: [.curveEaseIn, .overrideInheritedCurve]) { views[2].alpha = 0 }
            UIView.animate(withDuration: 0.2, delay: 0, options: [.curveEaseIn, .overrideInheritedOptions]) { views[3].alpha = 0 }
        }
        inherited.append(UIView.inheritedAnimationDuration)
        expectEqual(inherited, [0, 1, 1, 0.2, 0])
        advance(0.1)
        let t = shownTime
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        // alpha 1 → 0: what is shown is 1 − curve(t / duration).
        let expected = [1 - t, 1 - t / 0.2, 1 - easeIn.value(at: t), 1 - easeIn.value(at: t / 0.2)]
        for (index, view) in views.enumerated() {
            let shown = try #require(view.layer.presentation()).opacity
            #expect(abs(Double(shown) - expected[index]) < 1e-6, "view \(index) at \(t): \(shown), expected \(expected[index])")
        }
    }

    @Test func anAnimationWithNothingToAnimateCompletesAfterTheTurnFinished() {
        let (_, view, _) = animationScene()
        var log: [String] = []
        UIView.animate(withDuration: 0.3, animations: { view.tag = 4 }, completion: { log.append("completion \($0)") })
        log.append("after call")
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log, ["after call", "completion true"])
        UIView.animate(withDuration: 0, animations: { view.alpha = 0.3 }, completion: { log.append("zero \($0)") })
        #expect(view.layer.animationKeys() == nil)  // a zero duration changes at once
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log.last, "zero true")
    }

    @Test func aSecondAnimationAddsToTheFirstSoNothingJumpsAndBothFinish() throws {
        let (_, view, _) = animationScene()
        var log: [String] = []
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.center.x = 150 }, completion: { log.append("first \($0)") })
        advance(0.49)
        let before = try #require(view.layer.presentation()).position.x
        let t0 = shownTime
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { view.center.x = 300 }, completion: { log.append("second \($0)") })
        let after = try #require(view.layer.presentation()).position.x
        #expect(abs(before - after) < 1e-9)  // retargeting starts from what is shown
        expectEqual(view.layer.animationKeys(), ["position", "position-2"])
        advance(0.3)
        // Both run: 300 + (50 − 150)(1 − t) + (150 − 300)(1 − (t − t0))
        let t = shownTime
        let expected = 300 - 100 * (1 - t) - 150 * (1 - (t - t0))
        #expect(abs(try #require(view.layer.presentation()).position.x - expected) < 1e-9)
        advance(0.3)
        expectEqual(log, ["first true"])
        advance(0.5)
        expectEqual(log, ["first true", "second true"])
    }

    @Test func removingTheAnimationsCompletesWithFinishedFalse() {
        let (_, view, _) = animationScene()
        var log: [Bool] = []
        UIView.animate(withDuration: 1, animations: { view.alpha = 0.2 }, completion: { log.append($0) })
        advance(0.2)
        view.layer.removeAllAnimations()
        #expect(log.isEmpty)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(log, [false])
    }

    @Test func aDelayShowsTheOldValueUntilTheAnimationStarts() throws {
        let (_, view, _) = animationScene()
        UIView.animate(withDuration: 0.5, delay: 0.5, options: .curveLinear, animations: { view.alpha = 0 })
        advance(0.3)
        try expectEqual(#require(view.layer.presentation()).opacity, 1)
        advance(0.45)
        let t = shownTime - 0.5
        #expect(abs(try #require(view.layer.presentation()).opacity - Float(1 - t / 0.5)) < 1e-6)
    }

    @Test func aSpringBlockFollowsTheDampedOscillatorAndSettlesInItsDuration() throws {
        let (_, view, _) = animationScene()
        var finished = false
        UIView.animate(withDuration: 0.6, delay: 0, usingSpringWithDamping: 0.4, initialSpringVelocity: 0, options: [], animations: {
            view.center.y = 350
        }, completion: { finished = $0 })
        let spring = SpringParameters(dampingRatio: 0.4, settlingIn: 0.6)
        #expect(abs(spring.dampingRatio - 0.4) < 1e-9)
        #expect(abs(spring.settlingDuration - 0.6) < 0.01)
        var overshot = false
        for _ in 1...20 {
            advance(1.0 / 60)
            let y = try #require(view.layer.presentation()).position.y
            // y = 350 − 300 · x(t), x the spring's displacement (SpringParameters.displacement's closed form)
            #expect(abs(y - (350 - 300 * spring.displacement(at: shownTime))) < 1e-6)
            if y > 350 { overshot = true }
        }
        #expect(overshot)  // ζ = 0.4 bounces past the end
        advance(0.4)
        #expect(finished)
    }

    /// iOS 17's spring block: a spring that feels 0.4 s long with a bounce
    /// of 0.2 (damping ratio 1 − bounce = 0.8, SpringParameters' mapping of
    /// Apple's duration and bounce), run until it settles.
    @Test func aSpringBlockFromDurationAndBounceFollowsItsSpringUntilItSettles() throws {
        let (_, view, _) = animationScene()
        var finished: [Bool] = []
        let start = shownTime
        UIView.animate(springDuration: 0.4, bounce: 0.2) { view.center.x = 250 } completion: { finished.append($0) }
        let spring = SpringParameters(perceptualDuration: 0.4, bounce: 0.2)
        #expect(abs(spring.dampingRatio - 0.8) < 1e-9)
        var overshot = false
        while shownTime - start < spring.settlingDuration - 1.0 / 60 {
            advance(1.0 / 60)
            let x = try #require(view.layer.presentation()).position.x
            // x = 250 − 200 · d(t), d the spring's displacement in closed form
            #expect(abs(x - (250 - 200 * spring.displacement(at: shownTime - start))) < 1e-6)
            if x > 250 { overshot = true }
        }
        #expect(overshot, "a bounce of 0.2 passes the end")
        expectEqual(finished, [])
        advance(2.0 / 60)
        expectEqual(finished, [true])
    }

    @Test func keyframesRunInTheirPartsOfTheDurationPacedByEaseInOutAsInUIKit() throws {
        let (_, view, _) = animationScene()
        var done = false
        UIView.animateKeyframes(withDuration: 1, delay: 0, options: [], animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.center.x = 150 }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.center.x = 50 }
        }, completion: { done = $0 })
        expectEqual(view.center.x, 50)
        expectEqual(view.layer.animationKeys(), ["position"])  // one keyframe animation for the property
        // UIKit paces the whole keyframe animation by ease-in-out unless the
        // options carry another curve: the keyframes are reached at
        // u = curve(t), straight between them.
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        advance(0.24)
        var u = curve.value(at: shownTime)
        #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 100 * u / 0.5)) < 1e-9)
        advance(0.5)
        u = curve.value(at: shownTime)
        #expect(abs(try #require(view.layer.presentation()).position.x - (150 - 100 * (u - 0.5) / 0.5)) < 1e-9)
        advance(0.3)
        #expect(done)
    }

    /// Runs keyframes for `view.center.x` from 50: to 150 over the first
    /// quarter, to 100 over the second, then (after nothing) to 300 over
    /// the last 0.4, paced linearly overall; returns the time shown and the
    /// shown x every `step` seconds until `end`.
    private func keyframeXs(_ mode: UIView.KeyframeAnimationOptions, every step: TimeInterval = 0.05,
                            until end: TimeInterval = 0.95) throws -> [(t: TimeInterval, x: CGFloat)] {
        let (_, view, _) = animationScene()
        let linear = UIView.KeyframeAnimationOptions(rawValue: UIView.AnimationOptions.curveLinear.rawValue)
        UIView.animateKeyframes(withDuration: 1, delay: 0, options: [mode, linear], animations: {
            UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { view.center.x = 150 }
            UIView.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.25) { view.center.x = 100 }
            UIView.addKeyframe(withRelativeStartTime: 0.6, relativeDuration: 0.4) { view.center.x = 300 }
        })
        let start = shownTime
        var shown: [(t: TimeInterval, x: CGFloat)] = []
        while shownTime - start < end - 1e-9 {
            advance(step)
            guard shownTime - start < 1 else { break }
            shown.append((shownTime - start, try #require(view.layer.presentation()).position.x))
        }
        #expect(shown.count >= Int(end / step) - 1)
        return shown
    }

    // The keyframes above as Core Animation sees them (key times where
    // keyframes start and end).
    private let keyTimes: [Double] = [0, 0.25, 0.5, 0.6, 1]
    private let keyValues: [Double] = [50, 150, 100, 100, 300]

    /// The segment of `keyTimes` that `t` is in, and how far along it.
    private func segment(at t: Double) -> (index: Int, s: Double) {
        let index = (0..<4).last { keyTimes[$0] <= t } ?? 0
        return (index, (t - keyTimes[index]) / (keyTimes[index + 1] - keyTimes[index]))
    }

    @Test func linearKeyframesAreStraightBetweenTheirTimes() throws {
        for (t, x) in try keyframeXs(.calculationModeLinear) {
            let (i, s) = segment(at: t)
            #expect(abs(Double(x) - (keyValues[i] + (keyValues[i + 1] - keyValues[i]) * s)) < 1e-6, "at \(t)")
        }
    }

    @Test func discreteKeyframesJumpToEachValueAtTheEndOfItsKeyframe() throws {
        // Each value from its key time: 50 until 0.25, 150 until 0.5, then
        // 100 (from 0.5 and 0.6) until the end, when the model's 300 shows.
        for (t, x) in try keyframeXs(.calculationModeDiscrete) {
            expectEqual(Double(x), keyValues[segment(at: t).index], "at \(t)")
        }
    }

    @Test func pacedKeyframesMoveAtOneSpeedThroughEveryValue() throws {
        // Travel 100 + 50 + 0 + 200 = 350 points at one speed, times ignored.
        for (t, x) in try keyframeXs(.calculationModePaced) {
            var left = 350 * t, expected = keyValues[0]
            for i in 0..<4 {
                let length = abs(keyValues[i + 1] - keyValues[i])
                let part = min(left, length)
                expected = keyValues[i] + (keyValues[i + 1] > keyValues[i] ? part : -part)
                left -= part
                if left <= 0 { break }
            }
            #expect(abs(Double(x) - expected) < 1e-6, "at \(t)")
        }
    }

    @Test func cubicKeyframesFollowACatmullRomCurveThroughTheValuesAtTheirTimes() throws {
        var offTheStraightLine = false
        for (t, x) in try keyframeXs(.calculationModeCubic) {
            // Catmull-Rom on a segment p₁→p₂ with neighbours p₀, p₃ (the end
            // values stand in for missing ones), at s:
            // ½(2p₁ + (p₂ − p₀)s + (2p₀ − 5p₁ + 4p₂ − p₃)s² + (−p₀ + 3p₁ − 3p₂ + p₃)s³)
            let (i, s) = segment(at: t)
            let p0 = keyValues[max(0, i - 1)], p1 = keyValues[i], p2 = keyValues[i + 1], p3 = keyValues[min(4, i + 2)]
            let expected = 0.5 * (2 * p1 + (p2 - p0) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s + (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s)
            #expect(abs(Double(x) - expected) < 1e-6, "at \(t)")
            if abs(Double(x) - (p1 + (p2 - p1) * s)) > 1 { offTheStraightLine = true }
        }
        #expect(offTheStraightLine)
    }

    @Test func cubicPacedKeyframesCoverEqualLengthsOfTheCurveInEqualTimes() throws {
        let xs = try keyframeXs(.calculationModeCubicPaced)
        // In one dimension the curve's length is the distance travelled
        // both ways: the speed |Δx| / Δt is the same between samples, except
        // where the curve turns back between two of them.
        let speeds = zip([(t: 0.0, x: CGFloat(50))] + xs, xs).map { abs(Double($1.x - $0.x)) / ($1.t - $0.t) }
        let top = speeds.max()!
        let even = speeds.filter { $0 > top * 0.995 }
        #expect(even.count >= speeds.count - 4, "\(speeds)")
        #expect(xs.last!.x > 250 && xs.last!.x < 300)
    }

    @Test func performWithoutAnimationAndTheViewsOwnLayerHaveNoActionsOutsideABlock() {
        let (_, view, _) = animationScene()
        view.alpha = 0.5
        view.layer.cornerRadius = 4
        #expect(view.layer.animationKeys() == nil)  // a view's layer: no implicit animation
        UIView.animate(withDuration: 1) {
            view.alpha = 0.2
            UIView.performWithoutAnimation { view.center = CGPoint(x: 10, y: 10) }
        }
        expectEqual(view.layer.animationKeys(), ["opacity"])
        let sublayer = CALayer()
        view.layer.addSublayer(sublayer)
        UIApplication.shared.runLoop.runUntilIdle()
        sublayer.opacity = 0.5  // a standalone sublayer does animate implicitly
        expectEqual(sublayer.animationKeys(), ["opacity"])
    }

    /// UIKit's `performWithoutAnimation` turns animations off for its
    /// block and back to what they were (UIView.h, annotated: it checks
    /// whether animations are enabled, disables them, runs the block, then
    /// enables them again).
    @Test func animationsAreOffInsidePerformWithoutAnimationAndBackAfter() {
        _ = animationScene()
        var inside: Bool?
        UIView.performWithoutAnimation { inside = UIView.areAnimationsEnabled }
        expectEqual(inside, false)
        #expect(UIView.areAnimationsEnabled)
        UIView.setAnimationsEnabled(false)
        UIView.performWithoutAnimation {}
        #expect(!UIView.areAnimationsEnabled, "left as it was")
        UIView.setAnimationsEnabled(true)
    }

    @Test func showHideTransitionViewsHidesAndShowsInsteadOfRemovingAndAdding() {
        let (window, view, _) = animationScene()
        let next = UIView(frame: view.frame)
        next.isHidden = true
        window.addSubview(next)
        var done: Bool?
        UIView.transition(from: view, to: next, duration: 0.3, options: [.transitionCrossDissolve, .showHideTransitionViews]) { done = $0 }
        #expect(view.superview === window && next.superview === window)
        #expect(view.isHidden && !next.isHidden)
        expectEqual(window.layer.animationKeys(), ["transition"])
        advance(0.35)
        expectEqual(done, true)
        #expect(view.superview === window && view.isHidden)
    }

    @Test func aCrossDissolveTransitionRunsAndCompletes() {
        let (window, view, _) = animationScene()
        let next = UIView(frame: view.frame)
        var done: Bool?
        UIView.transition(from: view, to: next, duration: 0.3, options: .transitionCrossDissolve) { done = $0 }
        #expect(next.superview === window && view.superview == nil)
        expectEqual(window.layer.animationKeys(), ["transition"])
        advance(0.35)
        expectEqual(done, true)
    }
}


/// UIKit's flips turn the view over about its centre line (Apple: "the left
/// side of the view moves towards the front and right side towards the
/// back"), the new look on its back, in perspective (m34 = −1/500, the view
/// drawn smaller so that its nearer edge keeps its height:
/// QuartzCore's FlipProjection).
@MainActor
@Suite struct FlipTransitionTests {
    private func isOrange(_ p: [UInt8]) -> Bool { p[0] > 200 && p[2] < 60 && p[3] == 255 }
    private let white: [UInt8] = [255, 255, 255, 255]
    private let blue = [0, 0, 255], orange = [255, 128, 0]

    /// Whether `p` is `colour` (R G B) on the turning face, darkened by half
    /// the sine of its turn `angle` as the compositor darkens it
    /// (QuartzCore's LayerProjection.flipShade: c·k/256, k = (1 − shade)·256).
    private func onFace(_ p: [UInt8], _ colour: [Int], turnedBy angle: Double) -> Bool {
        let keep = Int(((1 - 0.5 * abs(sin(angle))) * 256).rounded())
        return p[3] == 255 && zip(p.prefix(3), colour).allSatisfy { abs(Int($0) - (($1 * keep + 128) >> 8)) <= 1 }
    }

    @Test func aFlipBetweenTwoViewsShowsTheOldUntilHalfWayThenTheNewTurnedInPerspective() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 80))
        _ = UIApplication.shared.runLoop.useManualClock()
        window.backgroundColor = .white
        let card = UIView(frame: CGRect(x: 20, y: 10, width: 80, height: 60))
        let front = UIView(frame: card.bounds)
        front.backgroundColor = .blue
        front.layer.cornerRadius = 10
        let back = UIView(frame: card.bounds)
        back.backgroundColor = .orange
        back.layer.cornerRadius = 10
        card.addSubview(front)
        window.addSubview(card)
        UIApplication.shared.runLoop.runUntilIdle()
        var done: Bool?
        UIView.transition(from: front, to: back, duration: 1, options: [.transitionFlipFromRight, .curveLinear]) { done = $0 }
        #expect(back.superview === card && front.superview == nil)  // the model changes at once
        let flip = try #require(card.layer.animation(forKey: "transition") as? CATransition)
        #expect(flip.type.rawValue == "oglFlip" && flip.subtype == .fromRight)
        // 0.3 of the way (0.3π): the front, its right side toward the
        // viewer, from x 39.3 (the far edge, 52.7 pt high) to 83.5 (the
        // near one, the full 60 high).
        advance(17.0 / 60 + 0.001)
        let early = shownTime - flip.beginTime
        #expect(abs(early - 0.3) < 1e-9)
        var image = snapshot(of: window)
        #expect(rgba(image, 2 * 38, 80) == white && rgba(image, 2 * 85, 80) == white, "turned")
        let early3 = 0.3 * Double.pi
        #expect(onFace(rgba(image, 2 * 42, 80), blue, turnedBy: early3) && onFace(rgba(image, 2 * 80, 80), blue, turnedBy: early3), "darkened")
        // In perspective: 12 pt from the centre line toward the far side the
        // top is at y 12.9, toward the near side at 11.0.
        #expect(rgba(image, 2 * 48, 2 * 12) == white && onFace(rgba(image, 2 * 72, 2 * 12), blue, turnedBy: early3), "the nearer side taller")
        expectMatchesReference(image, named: "flip-transition-early", tolerance: 2)
        // 0.7 of the way: the back coming round, its left side now nearer.
        advance(24.0 / 60)
        #expect(abs(shownTime - flip.beginTime - 0.7) < 1e-9)
        image = snapshot(of: window)
        #expect(rgba(image, 2 * 35, 80) == white && rgba(image, 2 * 82, 80) == white)
        #expect(onFace(rgba(image, 2 * 40, 80), orange, turnedBy: -early3) && onFace(rgba(image, 2 * 78, 80), orange, turnedBy: -early3))
        #expect(onFace(rgba(image, 2 * 48, 2 * 12), orange, turnedBy: -early3) && rgba(image, 2 * 72, 2 * 12) == white)
        #expect(done == nil)
        advance(0.35)
        #expect(done == true && card.layer.animationKeys() == nil)
        image = snapshot(of: window)
        #expect(isOrange(rgba(image, 2 * 23, 80)) && isOrange(rgba(image, 2 * 97, 80)))
    }

    /// The picture of the old look that the flip turns is taken at the
    /// screen's scale, as iOS's render server draws the layer: on a 3×
    /// screen a 90 × 40 pt view's is 270 × 120 pixels (it was a fixed 2×,
    /// scaled up on screen).
    @Test func theOldLookIsPicturedAtTheScreensScale() throws {
        defer { UIScreen.main.scale = 3 }
        for scale in [3, 2, 1] as [CGFloat] {
            let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 80))
            UIScreen.main.scale = scale
            let card = UIView(frame: CGRect(x: 10, y: 20, width: 90, height: 40))
            card.backgroundColor = .blue
            window.addSubview(card)
            UIApplication.shared.runLoop.runUntilIdle()
            UIView.transition(with: card, duration: 0.5, options: .transitionFlipFromLeft) { card.backgroundColor = .orange }
            let picture = try #require(card.layer.animationList?.transitionSnapshot)
            expectEqual([picture.width, picture.height], [Int(90 * scale), Int(40 * scale)], "at \(scale)×")
        }
    }

    @Test func aFlipFromTheTopTurnsTheViewAboutItsHorizontalAxis() throws {
        let (window, view, _) = animationScene()
        view.backgroundColor = .blue
        UIApplication.shared.runLoop.runUntilIdle()
        UIView.transition(with: view, duration: 1, options: [.transitionFlipFromTop, .curveLinear]) {
            view.backgroundColor = .orange
        }
        let flip = try #require(view.layer.animation(forKey: "transition") as? CATransition)
        expectEqual(flip.subtype, .fromTop)
        // A quarter: from y 14.6 (the top edge, nearer, the full 100 pt wide)
        // to 80.7 (the bottom one, 86.8 wide); 92.9 wide through the centre.
        advance(14.0 / 60 + 0.001)
        var image = snapshot(of: window)
        #expect(rgba(image, 100, 2 * 12)[3] == 0 && rgba(image, 100, 2 * 83)[3] == 0)
        let quarter = Double.pi * (shownTime - flip.beginTime)
        #expect(onFace(rgba(image, 100, 2 * 20), blue, turnedBy: quarter) && onFace(rgba(image, 2 * 2, 2 * 20), blue, turnedBy: quarter)
                && onFace(rgba(image, 2 * 98, 2 * 20), blue, turnedBy: quarter))
        #expect(rgba(image, 2 * 2, 100)[3] == 0 && onFace(rgba(image, 2 * 5, 100), blue, turnedBy: quarter), "narrower toward the far edge")
        advance(30.0 / 60)  // three quarters: the new colour, its bottom edge now nearer
        image = snapshot(of: window)
        let threeQuarters = Double.pi * (shownTime - flip.beginTime) - Double.pi
        #expect(rgba(image, 100, 2 * 17)[3] == 0 && onFace(rgba(image, 100, 2 * 22), orange, turnedBy: threeQuarters)
                && onFace(rgba(image, 2 * 2, 2 * 80), orange, turnedBy: threeQuarters))
    }

    @Test func curlsAreCoreAnimationsPageCurlsAndTheCrossDissolveAFade() throws {
        let (_, view, _) = animationScene()
        for (option, type) in [(UIView.AnimationOptions.transitionCurlUp, "pageCurl"), (.transitionCurlDown, "pageUnCurl"), (.transitionCrossDissolve, "fade")] {
            UIView.transition(with: view, duration: 0.3, options: option) { view.alpha = 0.9 }
            let transition = try #require(view.layer.animation(forKey: "transition") as? CATransition)
            expectEqual(transition.type.rawValue, type)
            advance(0.35)
        }
    }
}

@MainActor
@Suite struct TouchesDuringAnimationTests {
    @Test func aViewAnimatedByABlockIgnoresTouchesUntilTheEndUnlessAllowed() {
        let (window, view, _) = animationScene()
        let child = UIView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        view.addSubview(child)
        UIView.animate(withDuration: 0.5) { view.alpha = 0.9 }
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === window)
        #expect(window.hitTest(CGPoint(x: 15, y: 15), with: nil) === window)  // its subtree too
        advance(0.6)
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)

        UIView.animate(withDuration: 0.5, delay: 0, options: .allowUserInteraction, animations: { view.alpha = 1 })
        #expect(window.hitTest(CGPoint(x: 15, y: 15), with: nil) === child)
    }

    @Test func aMovingViewIsHitWhereItWillBeNotWhereItIsShown() throws {
        let (window, view, _) = animationScene()
        UIView.animate(withDuration: 1, delay: 0, options: .allowUserInteraction, animations: { view.frame.origin.x = 200 })
        advance(0.5)
        let shown = try #require(view.layer.presentation()).frame
        #expect(shown.contains(CGPoint(x: 150, y: 50)))
        #expect(window.hitTest(CGPoint(x: 150, y: 50), with: nil) === window)  // shown there, but not hit
        #expect(window.hitTest(CGPoint(x: 250, y: 50), with: nil) === view)   // the model is hit

    }

    @Test func aTapOnAnAnimatingViewReachesItOnlyWithAllowUserInteraction() {
        let (window, _, _) = animationScene()
        let target = RecordingView(frame: CGRect(x: 0, y: 200, width: 100, height: 100))
        window.addSubview(target)
        let synthesizer = TouchSynthesizer(window: window)
        UIView.animate(withDuration: 1) { target.center.x = 150 }
        synthesizer.tap(at: CGPoint(x: 150, y: 250))
        #expect(target.phases.isEmpty)
        UIView.animate(withDuration: 1, delay: 0, options: .allowUserInteraction, animations: { target.center.x = 250 })
        synthesizer.tap(at: CGPoint(x: 250, y: 250))
        #expect(target.phases.isEmpty)  // the first block's animation still runs
        advance(1.1)
        synthesizer.tap(at: CGPoint(x: 250, y: 250))
        expectEqual(target.phases, ["began", "ended"])
    }

    @Test func aViewAnimatedBelowAlphaPointZeroOneStopsBeingHitAtOnce() {
        let (window, view, _) = animationScene()
        UIView.animate(withDuration: 1, delay: 0, options: .allowUserInteraction, animations: { view.alpha = 0 })
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === window)
    }
}

@MainActor
@Suite struct PropertyAnimatorTests {
    @Test func aRunningAnimatorFollowsItsCurveAndCompletesAtTheEnd() throws {
        let (window, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 1, curve: .easeIn) { view.center.x = 250 }
        animator.addCompletion { positions.append($0) }
        expectEqual(view.center.x, 50)  // the block runs when the animator starts
        animator.startAnimation()
        expectEqual(view.center.x, 250)
        #expect(animator.state == .active && animator.isRunning)
        advance(0.4)
        let t = shownTime
        let curve = CAMediaTimingFunction(name: .easeIn)
        #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 200 * curve.value(at: t))) < 1e-9)
        #expect(window.hitTest(CGPoint(x: 240, y: 50), with: nil) === view)  // touchable by default
        advance(0.7)
        expectEqual(positions, [.end])
        expectEqual(animator.state, .inactive)
        #expect(view.layer.animationKeys() == nil)
    }

    @Test func aPausedAnimatorIsScrubbedLinearlyAndResumesWithoutAJump() throws {
        let (_, view, _) = animationScene()
        let animator = UIViewPropertyAnimator(duration: 1, curve: .easeInOut) { view.alpha = 0 }
        animator.pauseAnimation()
        animator.fractionComplete = 0.3
        #expect(abs(try #require(view.layer.presentation()).opacity - 0.7) < 1e-6)  // linear: 1 − 0.3
        animator.scrubsLinearly = false
        animator.fractionComplete = 0.3
        let curved = 1 - CAMediaTimingFunction(name: .easeInEaseOut).value(at: 0.3)
        #expect(abs(Double(try #require(view.layer.presentation()).opacity) - curved) < 1e-6)
        animator.scrubsLinearly = true
        animator.fractionComplete = 0.3
        animator.startAnimation()
        #expect(abs(try #require(view.layer.presentation()).opacity - 0.7) < 1e-6)  // picked up where shown
        #expect(!AnimationEngine.current.hasRunningAnimations || animator.isRunning)
    }

    @Test func aReversedAnimatorRunsBackAndCompletesAtTheStart() throws {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 150 }
        animator.addCompletion { positions.append($0) }
        animator.startAnimation()
        advance(0.5)
        let shown = try #require(view.layer.presentation()).position.x
        animator.isReversed = true
        #expect(abs(try #require(view.layer.presentation()).position.x - shown) < 1e-9)
        advance(0.2)
        #expect(try #require(view.layer.presentation()).position.x < shown)
        advance(0.5)
        expectEqual(positions, [.start])
        expectEqual(view.center.x, 50)  // the model goes back to the start
    }

    @Test func stoppingLeavesTheViewsWhereTheyAreShown() throws {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 150 }
        animator.addCompletion { positions.append($0) }
        animator.startAnimation()
        advance(0.5)
        let shown = try #require(view.layer.presentation()).position.x
        animator.stopAnimation(false)
        expectEqual(animator.state, .stopped)
        #expect(abs(view.center.x - shown) < 1e-9)
        animator.finishAnimation(at: .current)
        expectEqual(positions, [.current])
        expectEqual(animator.state, .inactive)
    }

    @Test func keyframesInsideAnAnimatorRunInTheirPartsOfItsProgress() throws {
        let (_, view, _) = animationScene()
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) {
            UIView.animateKeyframes(withDuration: 0, delay: 0, options: [], animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.center.x = 150 }
                UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.center.x = 50 }
            })
        }
        animator.pauseAnimation()
        // Scrubbed (linearly): the first keyframe over the first half of the
        // progress, the second over the second half.
        for (fraction, x) in [(0.25, 100.0), (0.5, 150), (0.75, 100)] {
            animator.fractionComplete = fraction
            advance(1.0 / 60)
            #expect(abs(try #require(view.layer.presentation()).position.x - x) < 1e-6, "at \(fraction)")
        }
        // Run back to the start: the model is left where the first keyframe began.
        animator.isReversed = true
        animator.continueAnimation(withTimingParameters: nil, durationFactor: 0)
        advance(1)
        #expect(animator.state == .inactive && view.center.x == 50)
    }

    /// A paused animator continued with other timing: the new curve picks
    /// the views up where they are shown (at the time the curve shows the
    /// scrubbed fraction), and the animator's duration is multiplied by the
    /// factor (Apple: "multiplied by the original duration value to obtain
    /// the new duration"), so the rest of a 1 s animator at factor 2 runs
    /// at half speed.
    @Test func aContinuedAnimatorTakesTheNewCurveAndTheDurationFactor() throws {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 250 }
        animator.addCompletion { positions.append($0) }
        animator.pauseAnimation()
        animator.fractionComplete = 0.5
        expectEqual(try #require(view.layer.presentation()).position.x, 150)
        let easeIn = UICubicTimingParameters(controlPoint1: CGPoint(x: 0.42, y: 0), controlPoint2: CGPoint(x: 1, y: 1))
        animator.continueAnimation(withTimingParameters: easeIn, durationFactor: 2)
        let curve = CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1)
        let resumedAt = curve.time(forValue: 0.5)
        let start = shownTime
        #expect(abs(try #require(view.layer.presentation()).position.x - 150) < 1e-6, "no jump")
        let rest = (1 - resumedAt) * 2
        while shownTime - start < rest - 1.0 / 60 {
            advance(1.0 / 60)
            let fraction = resumedAt + (shownTime - start) / 2
            #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 200 * curve.value(at: fraction))) < 1e-6)
        }
        expectEqual(positions, [])
        advance(2.0 / 60)
        expectEqual(positions, [.end])
        expectEqual(view.center.x, 250)
    }

    @Test func springTimingParametersFromDurationAndBounce() {
        let parameters = UISpringTimingParameters(duration: 0.4, bounce: 0.2)
        let animator = UIViewPropertyAnimator(duration: 5, timingParameters: parameters)
        let spring = SpringParameters(perceptualDuration: 0.4, bounce: 0.2)
        #expect(abs(animator.duration - spring.settlingDuration) < 1e-12)
        #expect(abs(parameters.dampingRatio - 0.8) < 1e-9)
    }

    @Test func aRunningPropertyAnimatorWithoutAllowUserInteractionBlocksTouches() {
        let (window, view, _) = animationScene()
        var done = false
        let animator = UIViewPropertyAnimator.runningPropertyAnimator(withDuration: 0.3, delay: 0, options: [], animations: {
            view.alpha = 0.5
        }, completion: { _ in done = true })
        #expect(!animator.isUserInteractionEnabled)
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === window)
        advance(0.4)
        #expect(done)
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)
    }

    @Test func afterADelayTheAnimatorShowsTheStartThenRunsItsWholeDuration() throws {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 150 }
        animator.addCompletion { positions.append($0) }
        animator.startAnimation(afterDelay: 0.5)
        let start = shownTime
        advance(0.3)
        try expectEqual(#require(view.layer.presentation()).position.x, 50, "still waiting")
        advance(0.5)
        let t = shownTime - start - 0.5
        #expect(t > 0 && t < 1)
        #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 100 * t)) < 1e-9)
        advance(0.75)
        expectEqual(positions, [.end])
    }

    @Test func animationsAddedWithADelayFactorStartThatShareOfTheRemainingTimeLater() throws {
        let (_, view, _) = animationScene()
        let animator = UIViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 150 }
        // Apple: the factor times the remaining duration is the delay; the
        // animations then run over the time that is left.
        animator.addAnimations({ view.alpha = 0 }, delayFactor: 0.5)
        animator.startAnimation()
        let start = shownTime
        advance(0.3)
        try expectEqual(#require(view.layer.presentation()).opacity, 1)
        advance(0.45)
        let t = shownTime - start
        #expect(t > 0.5 && t < 1)
        #expect(abs(Double(try #require(view.layer.presentation()).opacity) - (1 - (t - 0.5) / 0.5)) < 1e-6)
        #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 100 * t)) < 1e-9)
    }

    @Test func pausesOnCompletionHoldsTheEndUntilFinishedByHand() throws {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 0.5, curve: .linear) { view.center.x = 150 }
        animator.pausesOnCompletion = true
        animator.addCompletion { positions.append($0) }
        animator.startAnimation()
        advance(0.7)
        #expect(positions.isEmpty && animator.state == .active && !animator.isRunning)
        expectEqual(animator.fractionComplete, 1)
        try expectEqual(#require(view.layer.presentation()).position.x, 150)
        animator.stopAnimation(false)
        animator.finishAnimation(at: .end)
        #expect(positions == [.end] && animator.state == .inactive)
    }

    @Test func aNonInterruptibleAnimatorIgnoresPauseAndStop() {
        let (_, view, _) = animationScene()
        var positions: [UIViewAnimatingPosition] = []
        let animator = UIViewPropertyAnimator(duration: 0.5, curve: .linear) { view.alpha = 0.5 }
        animator.isInterruptible = false
        animator.addCompletion { positions.append($0) }
        animator.startAnimation()
        advance(0.1)
        animator.pauseAnimation()
        #expect(animator.isRunning)
        animator.stopAnimation(true)
        #expect(animator.state == .active && animator.isRunning)
        advance(0.5)
        expectEqual(positions, [.end])
    }
}

/// A view whose subviews' frames come from its `layoutSubviews`.
@MainActor
private final class LayingOutView: UIView {
    let child = UIView()

    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(child)
    }

    required init?(coder: NSCoder) { nil }

    override func layoutSubviews() {
        super.layoutSubviews()
        child.frame = bounds.insetBy(dx: 10, dy: 10)
    }
}

@MainActor
@Suite struct AnimationOptionTests {
    @Test func repeatAndAutoreverseGoThereAndBackForEver() throws {
        let (_, view, _) = animationScene()
        UIView.animate(withDuration: 1, delay: 0, options: [.repeat, .autoreverse, .curveLinear]) { view.center.x = 150 }
        let start = shownTime
        for step in [0.3, 0.6, 0.9, 1.2, 2.7, 4.1] {
            advance(step)
            let cycle = (shownTime - start).truncatingRemainder(dividingBy: 2)
            let there = cycle <= 1 ? cycle : 2 - cycle
            #expect(abs(try #require(view.layer.presentation()).position.x - (50 + 100 * there)) < 1e-9, "at \(shownTime - start) s")
        }
        #expect(view.layer.animationKeys() != nil)
    }

    @Test func layoutSubviewsAnimatesTheLayoutTheChangesCallFor() throws {
        let window = makeWindow()
        _ = UIApplication.shared.runLoop.useManualClock()
        let parent = LayingOutView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(parent)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(parent.child.frame.width, 80)
        UIView.animate(withDuration: 1, delay: 0, options: [.layoutSubviews, .curveLinear]) { parent.frame.size.width = 300 }
        expectEqual(parent.child.frame.width, 280, "laid out inside the block")
        advance(29.0 / 60 + 0.001)
        #expect(abs(try #require(parent.child.layer.presentation()).bounds.width - 180) < 1e-9, "half way")
        advance(0.6)
        // Without the option the layout happens at the end of the turn, outside the block: at once.
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) { parent.frame.size.width = 100 }
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(parent.child.frame.width, 80)
        #expect(parent.child.layer.animation(forKey: "bounds") == nil)
    }
}

@MainActor
@Suite struct AnimationPictureTests {
    @Test func aViewHalfWayThroughAnAnimationIsDrawnWhereItIsShown() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 120, height: 60))
        _ = UIApplication.shared.runLoop.useManualClock()
        window.backgroundColor = .white
        let card = UIView(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
        card.backgroundColor = .blue
        card.layer.cornerRadius = 8
        window.addSubview(card)
        UIApplication.shared.runLoop.runUntilIdle()
        UIView.animate(withDuration: 1, delay: 0, options: .curveLinear) {
            card.frame.origin.x = 70
            card.alpha = 0.5
            card.transform = CGAffineTransform(rotationAngle: .pi / 4)
        }
        // Half way at the frame shown: refreshes at k/60, the target is the next one.
        advance(29.0 / 60 + 0.001)
        #expect(abs(shownTime - 0.5) < 1e-9)
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let image = UIGraphicsImageRenderer(size: window.bounds.size, format: format).image { context in
            window.layer.render(in: context.cgContext)
        }.cgImage!
        // The card's centre is at x 60 (half of 30 → 90), alpha 0.75 (half of 1 → 0.5):
        // blue over white, 255 × 0.25 left of red and green.
        #expect(close(rgba(image, 120, 60), [64, 64, 255, 255], tolerance: 3), "\(rgba(image, 120, 60))")
        expectEqual(rgba(image, 40, 60), [255, 255, 255, 255])  // where it was
        expectMatchesReference(image, named: "animation-half-way", tolerance: 2)
    }
}

@MainActor
@Suite struct WhatAlreadyMovesTests {
    @Test func aSwitchsThumbSlidesAndStretchesWhilePressed() throws {
        let window = makeWindow()
        _ = UIApplication.shared.runLoop.useManualClock()
        let toggle = UISwitch(frame: CGRect(x: 20, y: 20, width: 51, height: 31))
        window.addSubview(toggle)
        UIApplication.shared.runLoop.runUntilIdle()
        let thumb = try #require(toggle.layer.sublayers?.first?.sublayers?.last)
        let offX = thumb.position.x
        toggle.setOn(true, animated: true)
        let onX = thumb.position.x
        #expect(onX > offX)  // the model is on the right at once
        advance(0.1)
        let shown = try #require(thumb.presentation()).position.x
        #expect(shown > offX && shown < onX)
        advance(0.2)
        #expect(thumb.animationKeys() == nil)
        toggle.setOn(false, animated: false)
        #expect(thumb.animationKeys() == nil)

        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 45, y: 35))
        advance(0.3)
        expectEqual(thumb.bounds.width, ControlMetrics.switchThumbDiameter + ControlMetrics.switchThumbStretch)
        synthesizer.touchUp(finger)
        #expect(toggle.isOn)
        expectEqual(thumb.bounds.width, ControlMetrics.switchThumbDiameter)
        #expect(thumb.animationKeys() != nil)
    }
}

@MainActor
private final class PresentationLog: UIViewControllerTransitioningDelegate {
    var interaction: UIPercentDrivenInteractiveTransition?
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        interaction
    }
}

@MainActor
private final class FadeAnimator: UIViewControllerAnimatedTransitioning {
    var ended: [Bool] = []
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.2 }
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let view = transitionContext.view(forKey: .to)!
        view.alpha = 0
        UIView.animate(withDuration: 0.2, animations: { view.alpha = 1 }, completion: { _ in transitionContext.completeTransition(true) })
    }
    func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

@MainActor
private final class FadingPresentation: UIViewControllerTransitioningDelegate {
    let animator = FadeAnimator()
    var calls = 0
    func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        calls += 1
        return animator
    }
}

@MainActor
@Suite struct PresentationAnimationTests {
    private func scene() -> (UIWindow, UIViewController, UIViewController) {
        let root = UIViewController()
        let (window, _) = makeScene(root)
        _ = UIApplication.shared.runLoop.useManualClock()
        UIApplication.shared.runLoop.runUntilIdle()
        return (window, root, UIViewController())
    }

    @Test func presentingSlidesUpAndTheTransitionViewTakesNoTouchesUntilTheEnd() throws {
        let (window, root, presented) = scene()
        var done = false
        root.present(presented, animated: true) { done = true }
        // The default style, a page sheet: the view fills a card that
        // rests SheetMetrics.topGap below the (here empty) safe-area top.
        let view = presented.view!
        let card = try #require(view.superview)
        let rest = CGRect(x: 0, y: SheetMetrics.topGap, width: window.bounds.width, height: window.bounds.height - SheetMetrics.topGap)
        expectEqual(card.frame, rest)  // the model is at its end at once
        expectEqual(view.frame, card.bounds)
        let container = try #require(card.superview)
        #expect(window.hitTest(CGPoint(x: 200, y: 400), with: nil) !== view)
        advance(0.25)
        let shownY = try #require(card.layer.presentation()).frame.minY
        #expect(shownY > rest.minY && shownY < window.bounds.height)  // half way up, on the curve
        #expect(!done)
        advance(0.3)
        #expect(done)
        #expect(window.hitTest(CGPoint(x: 200, y: 400), with: nil) === view)
        #expect(container.superview === window)
    }

    @Test func dismissingSlidesDownThenRemovesTheTransitionView() throws {
        let (window, root, presented) = scene()
        root.present(presented, animated: false)
        let card = try #require(presented.view.superview)  // a page sheet's
        let container = try #require(card.superview)
        var done = false
        root.dismiss(animated: true) { done = true }
        #expect(root.presentedViewController === presented)  // until the slide ends
        advance(0.25)
        #expect(try #require(card.layer.presentation()).frame.minY > SheetMetrics.topGap)
        advance(0.3)
        #expect(done)
        #expect(root.presentedViewController == nil)
        #expect(container.superview == nil)
        _ = window
    }

    @Test func aTransitioningDelegatesAnimatorMovesTheViews() throws {
        let (window, root, presented) = scene()
        defer { withExtendedLifetime(window) {} }
        let delegate = FadingPresentation()
        presented.transitioningDelegate = delegate
        presented.modalPresentationStyle = .fullScreen  // the animator is given the presented view itself
        root.present(presented, animated: true)
        expectEqual(delegate.calls, 1)
        expectEqual(presented.view.layer.animationKeys(), ["opacity"])
        advance(0.1)
        let alpha = try #require(presented.view.layer.presentation()).opacity
        #expect(alpha > 0 && alpha < 1)
        advance(0.2)
        expectEqual(delegate.animator.ended, [true])
    }

    @Test func aPercentDrivenDismissalFollowsTheFractionAndCanBeCancelled() throws {
        let (window, root, presented) = scene()
        presented.modalPresentationStyle = .fullScreen  // the slide covers the whole height
        root.present(presented, animated: false)
        let delegate = PresentationLog()
        let interaction = UIPercentDrivenInteractiveTransition()
        delegate.interaction = interaction
        presented.transitioningDelegate = delegate
        var dismissed = false
        root.dismiss(animated: true) { dismissed = true }
        interaction.update(0.5)
        advance(1.0 / 60)
        // The slide's ease-in-out curve at half its time: y = height × curve(0.5).
        let height = window.bounds.height
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(try #require(presented.view.layer.presentation()).frame.minY - height * curve.value(at: 0.5)) < 1e-6)
        advance(1)  // the gesture holds still: nothing moves
        #expect(abs(try #require(presented.view.layer.presentation()).frame.minY - height * curve.value(at: 0.5)) < 1e-6)
        interaction.cancel()
        advance(0.5)
        #expect(!dismissed)
        #expect(root.presentedViewController === presented)
        expectEqual(presented.view.frame.minY, 0)
        #expect(window.hitTest(CGPoint(x: 200, y: 400), with: nil) === presented.view)

        let second = UIPercentDrivenInteractiveTransition()
        delegate.interaction = second
        root.dismiss(animated: true) { dismissed = true }
        second.update(0.3)
        second.finish()
        advance(0.5)
        #expect(dismissed)
        #expect(root.presentedViewController == nil)
    }
}
