import Foundation
import GeometryTestSupport
import TestExpectations
import Testing
@testable import QuartzCore

/// The cubic Hermite curve between p1 and p2 with tangents d1 (leaving p1)
/// and d2 (arriving at p2), at s: h₀₀p1 + h₁₀d1 + h₀₁p2 + h₁₁d2.
private func hermite(_ p1: Double, _ d1: Double, _ p2: Double, _ d2: Double, _ s: Double) -> Double {
    let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
    let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
    return h00 * p1 + h10 * d1 + h01 * p2 + h11 * d2
}

// Core Animation's calculation modes, as its documentation defines them:
// paced ignores key times and timing functions, the animation's own
// included; cubic is a Catmull-Rom spline shaped by tension, continuity
// and bias in the Kochanek-Bartels form; cubic paced moves along that
// spline at one speed; discrete holds each value from its key time.
@MainActor
@Suite(.serialized) struct KeyframeCalculationModeTests {
    /// A committed layer and a clock at 100, removed by `clock.uninstall()`.
    private func scene() -> (CALayer, TestMediaClock) {
        let clock = TestMediaClock()
        let layer = CALayer()
        CATransaction.flush()
        return (layer, clock)
    }

    @Test func cubicIsCatmullRomAndTensionContinuityAndBiasShapeItAsKochanekBartels() throws {
        let (layer, clock) = scene()
        defer { clock.uninstall() }
        let p = [0.0, 90, 30, 120]
        let plain = CAKeyframeAnimation(keyPath: "position.x")
        plain.values = p
        plain.calculationMode = .cubic
        plain.duration = 3  // even key times: one second per segment
        layer.add(plain, forKey: "plain")
        // Catmull-Rom on the middle segment: ½(2p₁ + (p₂ − p₀)s + (2p₀ − 5p₁ + 4p₂ − p₃)s² + (−p₀ + 3p₁ − 3p₂ + p₃)s³)
        for s in [0.25, 0.5, 0.8] {
            clock.refresh(at: 101 + s)
            let expected = 0.5 * (2 * p[1] + (p[2] - p[0]) * s + (2 * p[0] - 5 * p[1] + 4 * p[2] - p[3]) * s * s
                + (-p[0] + 3 * p[1] - 3 * p[2] + p[3]) * s * s * s)
            #expect(abs(try #require(layer.presentation()).position.x - expected) < 1e-9, "s \(s)")
        }
        layer.removeAllAnimations()

        let shaped = CAKeyframeAnimation(keyPath: "position.x")
        shaped.values = p
        shaped.calculationMode = .cubic
        shaped.tensionValues = [0, 0.5, -0.3]
        shaped.continuityValues = [0, 0.2, 0.4]
        shaped.biasValues = [0, -0.6, 0.1]  // the last keyframe's three are missing: 0
        shaped.duration = 3
        shaped.beginTime = 110
        layer.add(shaped, forKey: "shaped")
        // Tangents of the middle segment (Kochanek & Bartels 1984):
        // D₁ = (1−T)(1+C)(1+B)/2·(p₁−p₀) + (1−T)(1−C)(1−B)/2·(p₂−p₁) with keyframe 1's T, C, B;
        // E₂ = (1−T)(1−C)(1+B)/2·(p₂−p₁) + (1−T)(1+C)(1−B)/2·(p₃−p₂) with keyframe 2's.
        let d1 = 0.5 * 1.2 * 0.4 / 2 * (p[1] - p[0]) + 0.5 * 0.8 * 1.6 / 2 * (p[2] - p[1])
        let e2 = 1.3 * 0.6 * 1.1 / 2 * (p[2] - p[1]) + 1.3 * 1.4 * 0.9 / 2 * (p[3] - p[2])
        for s in [0.25, 0.5, 0.8] {
            clock.refresh(at: 111 + s)
            #expect(abs(try #require(layer.presentation()).position.x - hermite(p[1], d1, p[2], e2, s)) < 1e-9, "s \(s)")
        }
        // The first segment: keyframe 0 stands in for its missing neighbour, so D₀ = ½(p₁ − p₀).
        let e1 = 0.5 * 0.8 * 0.4 / 2 * (p[1] - p[0]) + 0.5 * 1.2 * 1.6 / 2 * (p[2] - p[1])
        clock.refresh(at: 110.5)
        #expect(abs(try #require(layer.presentation()).position.x - hermite(p[0], 0.5 * (p[1] - p[0]), p[1], e1, 0.5)) < 1e-9)
    }

    @Test func pacedModesIgnoreKeyTimesAndEveryTimingFunction() throws {
        let (layer, clock) = scene()
        defer { clock.uninstall() }
        let paced = CAKeyframeAnimation(keyPath: "position.x")
        paced.values = [0, 100, 60, 160]  // 100 + 40 + 100 = 240 points of travel
        paced.keyTimes = [0, 0.1, 0.2, 1]
        paced.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .easeIn)]
        paced.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        paced.calculationMode = .paced
        paced.duration = 1
        layer.add(paced, forKey: "paced")
        clock.refresh(at: 100.25)  // 60 of 240
        #expect(approximately(try #require(layer.presentation()).position.x, 60))
        clock.refresh(at: 100.5)  // 120: 100 out, 20 back
        #expect(approximately(try #require(layer.presentation()).position.x, 80))
        clock.refresh(at: 100.75)  // 180: 140 to the third value, 40 on
        #expect(approximately(try #require(layer.presentation()).position.x, 100))
    }

    @Test func cubicPacedMovesAlongTheCurveAtOneSpeed() throws {
        let (layer, clock) = scene()
        defer { clock.uninstall() }
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 80), CGPoint(x: 140, y: 0), CGPoint(x: 300, y: 40)]
        let along = CAKeyframeAnimation(keyPath: "position")
        along.values = points
        along.keyTimes = [0, 0.7, 0.8, 1]  // ignored
        along.timingFunction = CAMediaTimingFunction(name: .easeIn)  // ignored
        along.calculationMode = .cubicPaced
        along.duration = 1
        layer.add(along, forKey: "along")
        var shown: [CGPoint] = []
        for frame in 0..<20 {
            clock.refresh(at: 100 + Double(frame) / 20)
            shown.append(try #require(layer.presentation()).position)
        }
        // The same distance every twentieth of the time (to half a percent
        // of the distance covered: the straight steps measured here cut the
        // curve's bends), and every point on the Catmull-Rom curve through
        // the values.
        let steps = zip(shown, shown.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }
        let total = steps.reduce(0, +), mean = total / CGFloat(steps.count)
        for (index, step) in steps.enumerated() {
            #expect(abs(step - mean) < total * 0.005, "step \(index): \(step) of \(mean)")
        }
        #expect(approximately(shown[0], points[0]))
        let middle = shown[10]
        // Catmull-Rom's point nearest the middle one, on segment 1 (x from 100 to 140) or its neighbours.
        var nearest = CGFloat.infinity
        for segment in 0..<3 {
            for step in 0...2000 {
                let s = Double(step) / 2000
                func coordinate(_ v: [Double]) -> Double {
                    let p0 = v[max(0, segment - 1)], p1 = v[segment], p2 = v[segment + 1], p3 = v[min(3, segment + 2)]
                    return 0.5 * (2 * p1 + (p2 - p0) * s + (2 * p0 - 5 * p1 + 4 * p2 - p3) * s * s + (-p0 + 3 * p1 - 3 * p2 + p3) * s * s * s)
                }
                let x = coordinate(points.map { Double($0.x) }), y = coordinate(points.map { Double($0.y) })
                nearest = min(nearest, hypot(middle.x - x, middle.y - y))
            }
        }
        #expect(nearest < 0.2, "the middle point is off the curve by \(nearest)")
    }

    @Test func discreteHoldsEachValueFromItsKeyTimeWithOneKeyTimePerValueToo() throws {
        let (layer, clock) = scene()
        defer { clock.uninstall() }
        let steps = CAKeyframeAnimation(keyPath: "position.x")
        steps.values = [10, 20, 30]
        steps.keyTimes = [0, 0.5, 0.75]  // as many as the values: the last holds to the end
        steps.calculationMode = .discrete
        steps.duration = 1
        layer.add(steps, forKey: "steps")
        for (time, expected) in [(100.2, 10.0), (100.6, 20), (100.8, 30), (100.99, 30)] {
            clock.refresh(at: time)
            try expectEqual(#require(layer.presentation()).position.x, CGFloat(expected), "at \(time)")
        }
    }
}

@MainActor
@Suite(.serialized) struct KeyframeRotationModeTests {
    @Test func aLayerMovingAlongAPathTurnsWithItWhenAsked() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let layer = CALayer()
        CATransaction.flush()
        // A quarter circle of radius 100 about (0, 0), from (100, 0) to (0, 100)
        // (y down), as a cubic: at its middle the direction is down-left, 135°.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 100, y: 0))
        let k = 0.5523  // the usual cubic quarter circle's control distance
        path.addCurve(to: CGPoint(x: 0, y: 100), control1: CGPoint(x: 100, y: 100 * k), control2: CGPoint(x: 100 * k, y: 100))
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = path
        along.rotationMode = .rotateAuto
        along.duration = 1
        layer.add(along, forKey: "along")
        clock.refresh(at: 100.5)
        var angle = atan2(Double(try #require(layer.presentation()).transform.m12), Double(try #require(layer.presentation()).transform.m11))
        #expect(abs(angle - 3 * .pi / 4) < 1e-3, "\(angle)")
        clock.refresh(at: 100.0001)  // at the start the direction is straight down: 90°
        angle = atan2(Double(try #require(layer.presentation()).transform.m12), Double(try #require(layer.presentation()).transform.m11))
        #expect(abs(angle - .pi / 2) < 1e-2, "\(angle)")

        let reverse = CAKeyframeAnimation(keyPath: "position")
        reverse.values = [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40)]
        reverse.rotationMode = .rotateAutoReverse
        reverse.duration = 1
        reverse.beginTime = 110
        layer.removeAllAnimations()
        layer.add(reverse, forKey: "reverse")
        clock.refresh(at: 110.5)
        // Straight from (0, 0) to (30, 40): atan2(40, 30), plus half a turn.
        let shown = try #require(layer.presentation()).transform
        #expect(abs(shown.m11 - cos(atan2(40, 30) + .pi)) < 1e-6 && abs(shown.m12 - sin(atan2(40, 30) + .pi)) < 1e-6)
        expectEqual(layer.transform.m11, 1)  // the model never turned
    }
}
