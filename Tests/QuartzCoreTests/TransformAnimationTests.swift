import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// A 1 s linear basic animation of `keyPath` from `from` to `to`, for the
/// suites that check each refresh against the linear progress.
@MainActor
func linear(_ keyPath: String, from: Any?, to: Any) -> CABasicAnimation {
    let animation = CABasicAnimation(keyPath: keyPath)
    animation.fromValue = from
    animation.toValue = to
    animation.duration = 1
    animation.timingFunction = CAMediaTimingFunction(name: .linear)
    return animation
}

/// The transform's key paths in 3-D (`transform.rotation.x`, …,
/// `sublayerTransform.*`) and animations of a whole `transform` between
/// turns in depth, checked at every 60 Hz refresh of the manual clock
/// against the formula written beside each check.
@MainActor
@Suite(.serialized) struct TransformAnimationTests {
    func committedLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        CATransaction.flush()
        return layer
    }

    /// Every 60 Hz refresh of a 1 s animation added at 100, with the
    /// linear progress t at it, up to the last before its end (at the end
    /// it is removed and the model shows).
    var refreshes: [(time: Double, t: Double)] { (1...59).map { (100 + Double($0) / 60, Double($0) / 60) } }

    func expectClose(_ a: CATransform3D, _ b: CATransform3D, _ note: String, tolerance: Double = 1e-9) {
        let pairs: [(CGFloat, CGFloat)] = [(a.m11, b.m11), (a.m12, b.m12), (a.m13, b.m13), (a.m14, b.m14), (a.m21, b.m21), (a.m22, b.m22),
                                           (a.m23, b.m23), (a.m24, b.m24), (a.m31, b.m31), (a.m32, b.m32), (a.m33, b.m33), (a.m34, b.m34),
                                           (a.m41, b.m41), (a.m42, b.m42), (a.m43, b.m43), (a.m44, b.m44)]
        let worst = pairs.map { abs($0.0 - $0.1) }.max() ?? 0
        #expect(worst <= tolerance, "\(note): \(a) is not \(b)")
    }

    /// Core Animation's perspective, m34 = −1/500, as most 3-D turns set it.
    var perspective: CATransform3D {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        return t
    }

    /// `transform.rotation.x` and `.y` turn the layer about that axis by the
    /// value in radians (Apple's key-value coding extensions: "the rotation,
    /// in radians, in the x axis"), keeping the model's other parts: the
    /// perspective of a `m34` set on the model stays, as in the usual
    /// `layer.transform.m34 = -1/500` then `transform.rotation.y` card turn.
    @Test func rotationAboutXAndYTurnsTheLayerFrameByFrame() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        layer.add(linear("transform.rotation.y", from: 0, to: Double.pi), forKey: "turn")
        let tilted = committedLayer()
        tilted.transform = perspective
        tilted.add(linear("transform.rotation.x", from: 0, to: Double.pi / 2), forKey: "tilt")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            // θ = π·t about y; φ = (π/2)·t about x, then the perspective.
            expectClose(try #require(layer.presentation()).transform, CATransform3DMakeRotation(.pi * t, 0, 1, 0), "y at \(t)", tolerance: 1e-12)
            expectClose(try #require(tilted.presentation()).transform,
                        CATransform3DConcat(CATransform3DMakeRotation(.pi / 2 * t, 1, 0, 0), perspective), "x at \(t)", tolerance: 1e-12)
        }
        // The model is untouched.
        expectEqual(layer.transform, CATransform3DIdentity)
        expectEqual(tilted.transform, perspective)
    }

    /// `transform.scale.z` and `transform.translation.z` move the z parts;
    /// `transform.scale` is "the average of all three scale factors", and
    /// setting it sets all three.
    @Test func depthPartsScaleAndMoveAlongZ() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        layer.add(linear("transform.translation.z", from: 0, to: 120), forKey: "near")
        layer.add(linear("transform.scale.z", from: 1, to: 3), forKey: "deep")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            // Scale (1, 1, 1 + 2t), then moved by 120·t along z.
            let expected = CATransform3DConcat(CATransform3DMakeScale(1, 1, 1 + 2 * t), CATransform3DMakeTranslation(0, 0, 120 * t))
            expectClose(try #require(layer.presentation()).transform, expected, "at \(t)")
        }
        var values = LayerValues(of: layer)
        values.transform = CATransform3DMakeScale(1, 2, 6)
        expectEqual(values.value(forKeyPath: "transform.scale"), .scalar(3))
        values.set(.scalar(0.5), forKeyPath: "transform.scale")
        expectClose(values.transform, CATransform3DMakeScale(0.5, 0.5, 0.5), "scale sets all three")
    }

    /// The sublayer transform's parts animate as the transform's do
    /// (Apple's extensions are for `CATransform3D` values wherever they
    /// are): the usual spinning cube turns its container's
    /// `sublayerTransform.rotation.y`.
    @Test func sublayerTransformPartsAnimate() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let container = committedLayer()
        container.sublayerTransform = perspective
        container.add(linear("sublayerTransform.rotation.y", from: 0, to: Double.pi), forKey: "spin")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            let shown = try #require(container.presentation())
            expectClose(shown.sublayerTransform, CATransform3DConcat(CATransform3DMakeRotation(.pi * t, 0, 1, 0), perspective), "at \(t)", tolerance: 1e-12)
            expectEqual(shown.transform, CATransform3DIdentity)
        }
    }

    /// The angle between two turns: acos((trace(AᵀB) − 1)/2).
    func angle(between a: CATransform3D, _ b: CATransform3D) -> Double {
        let trace = a.m11 * b.m11 + a.m12 * b.m12 + a.m13 * b.m13 + a.m21 * b.m21 + a.m22 * b.m22 + a.m23 * b.m23
            + a.m31 * b.m31 + a.m32 * b.m32 + a.m33 * b.m33
        return acos(min(1, max(-1, (Double(trace) - 1) / 2)))
    }

    /// A whole `transform` animated between two turns in depth is taken
    /// apart and turns along the shortest great circle at one angular
    /// speed (slerp: the angle from the start grows as t·Ω, Ω the angle
    /// between the ends), the perspective and the other parts straight; a
    /// turn about one axis is therefore that turn at every frame.
    @Test func aTransformBetweenTurnsInDepthTurnsFrameByFrame() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let card = committedLayer()
        let start = CATransform3DConcat(CATransform3DMakeRotation(0.2, 0, 1, 0), perspective)
        let end = CATransform3DConcat(CATransform3DMakeRotation(1.4, 0, 1, 0), perspective)
        card.add(linear("transform", from: start, to: end), forKey: "turn")
        let tumbler = committedLayer()
        let a = CATransform3DMakeRotation(.pi / 2, 1, 0, 0), b = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        tumbler.add(linear("transform", from: a, to: b), forKey: "tumble")
        let omega = angle(between: a, b)
        expectEqual(abs(omega - 2 * .pi / 3) < 1e-12, true, "a quarter turn about x to one about y is a third of a turn apart")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            // 0.2 + 1.2·t about y, then the perspective.
            expectClose(try #require(card.presentation()).transform,
                        CATransform3DConcat(CATransform3DMakeRotation(0.2 + 1.2 * t, 0, 1, 0), perspective), "card at \(t)", tolerance: 1e-12)
            let shown = try #require(tumbler.presentation()).transform
            #expect(abs(angle(between: a, shown) - t * omega) < 1e-9, "tumbler from its start at \(t)")
            #expect(abs(angle(between: shown, b) - (1 - t) * omega) < 1e-9, "tumbler to its end at \(t)")
            // Still a turn: its rows are of length 1 and nothing else is added.
            expectEqual(abs(shown.m11 * shown.m11 + shown.m12 * shown.m12 + shown.m13 * shown.m13 - 1) < 1e-12, true)
            expectEqual([shown.m14, shown.m24, shown.m34, shown.m41, shown.m42, shown.m43, shown.m44], [0, 0, 0, 0, 0, 0, 1])
        }
    }

    /// Turns the same as their ends show none in between, and a turn of
    /// 270° is made as 90° the other way: developers' accounts of Core
    /// Animation's `transform` animations ("if you rotate by -3/2π your
    /// intent is lost and it still rotates by +45°" — by a quarter turn the
    /// short way; a whole turn animated as a transform does not turn).
    @Test func aTransformTurnsTheShortWay() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let whole = committedLayer()
        whole.add(linear("transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(2 * .pi, 0, 1, 0)), forKey: "whole")
        let longWay = committedLayer()
        longWay.add(linear("transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(1.5 * .pi, 1, 0, 0)), forKey: "long")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            expectClose(try #require(whole.presentation()).transform, CATransform3DIdentity, "whole turn at \(t)", tolerance: 1e-9)
            // −(π/2)·t about x.
            expectClose(try #require(longWay.presentation()).transform, CATransform3DMakeRotation(-.pi / 2 * t, 1, 0, 0), "270° at \(t)", tolerance: 1e-9)
        }
    }

    /// A layer growing from nothing (`transform.scale` from 0) is scaled
    /// by t at each frame, and its turn is kept: a zero scale still takes
    /// apart.
    @Test func aScaleFromNothingGrowsAndKeepsTheTurn() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = committedLayer()
        layer.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        layer.add(linear("transform.scale", from: 0, to: 1), forKey: "grow")
        for (time, t) in refreshes {
            clock.refresh(at: time)
            expectClose(try #require(layer.presentation()).transform,
                        CATransform3DConcat(CATransform3DMakeScale(t, t, t), CATransform3DMakeRotation(0.5, 0, 0, 1)), "at \(t)")
        }
        var squashed = LayerValues(of: layer)
        squashed.transform = CATransform3DMakeScale(0, 0, 1)
        squashed.set(.scalar(0.25), forKeyPath: "transform.rotation.x")
        expectClose(squashed.transform, CATransform3DConcat(CATransform3DMakeScale(0, 0, 1), CATransform3DMakeRotation(0.25, 1, 0, 0)),
                    "a part written on a squashed transform")
    }

    /// Taking a transform apart and putting it together again gives it
    /// back, for turns, shears, mirrors and perspective; a matrix that
    /// cannot be taken apart (m44 = 0) is interpolated entry by entry.
    @Test func decompositionRoundTripsAndRefusesWhatItCannotTakeApart() throws {
        var sheared = CATransform3DIdentity
        sheared.m21 = 0.3
        sheared.m31 = -0.2
        sheared.m32 = 0.4
        let samples: [CATransform3D] = [
            CATransform3DIdentity,
            CATransform3DConcat(CATransform3DMakeRotation(0.7, 1, 2, 3), CATransform3DMakeTranslation(5, -6, 7)),
            CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(-2, 3, 0.5), sheared), CATransform3DMakeRotation(2.5, 0, 1, 1)),
            CATransform3DConcat(CATransform3DConcat(CATransform3DMakeRotation(1.1, 0, 1, 0), CATransform3DMakeTranslation(10, 20, 30)), perspective),
        ]
        for sample in samples {
            let parts = try #require(TransformDecomposition(sample))
            // Put together with m44 = 1: the same mapping, every entry over m44.
            let k = 1 / sample.m44
            let normalised = CATransform3D(
                m11: sample.m11 * k, m12: sample.m12 * k, m13: sample.m13 * k, m14: sample.m14 * k,
                m21: sample.m21 * k, m22: sample.m22 * k, m23: sample.m23 * k, m24: sample.m24 * k,
                m31: sample.m31 * k, m32: sample.m32 * k, m33: sample.m33 * k, m34: sample.m34 * k,
                m41: sample.m41 * k, m42: sample.m42 * k, m43: sample.m43 * k, m44: 1)
            expectClose(parts.transform, normalised, "round trip of \(sample)", tolerance: 1e-12)
        }
        var flat = CATransform3DIdentity
        flat.m44 = 0
        #expect(TransformDecomposition(flat) == nil)
        let mixed = TransformDecomposition.interpolate(flat, CATransform3DIdentity, 0.25)
        expectEqual(mixed.m44, 0.25)
    }

    /// An additive animation of a 3-D transform (as a view's animation
    /// block adds) starts from the whole old transform: the difference
    /// uses the 4 × 4 inverse, so the first frame shows the old turn.
    @Test func additiveDifferenceOfTurnsInDepthUsesTheWholeInverse() throws {
        let old = AnimatableValue.transform(CATransform3DConcat(CATransform3DMakeRotation(0.9, 0, 1, 0), perspective))
        let new = AnimatableValue.transform(CATransform3DConcat(CATransform3DMakeRotation(0.1, 1, 0, 0), perspective))
        guard case .transform(let back) = old.subtracting(new).adding(new), case .transform(let expected) = old else {
            Issue.record("not transforms")
            return
        }
        expectClose(back, expected, "difference added back", tolerance: 1e-12)
    }
}
