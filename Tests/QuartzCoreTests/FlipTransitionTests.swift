import CoreGraphics
import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// A flip (`oglFlip`, the type UIKit's flip transitions use) turns the layer
/// half a turn about its centre line, the old look in front until half way,
/// the new look after, in perspective (FlipProjection: m34 = −1/500, the
/// layer drawn smaller so that its nearer edge keeps its height): the edge
/// coming toward the viewer is taller than the one going away. The turning
/// face is darkened by half the sine of its turn (LayerProjection.flipShade),
/// and its shadow and mask turn with it.
@MainActor
@Suite(.serialized) struct FlipTransitionTests {
    /// A flip from `subtype` of 1 s on a linear curve.
    private func linearFlip(_ subtype: CATransitionSubtype) -> CATransition {
        let flip = CATransition()
        flip.type = .flip
        flip.subtype = subtype
        flip.duration = 1
        flip.timingFunction = CAMediaTimingFunction(name: .linear)
        return flip
    }

    /// A 40 × 40 layer, red with a yellow sublayer on its left half, turning
    /// blue with a green one (changed in the transition's transaction), on a
    /// linear flip of 1 s.
    private func flippingLayer(subtype: CATransitionSubtype) throws -> LayerCompositor {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let half = CALayer()
        half.frame = CGRect(x: 0, y: 0, width: 20, height: 40)
        half.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        root.addSublayer(half)
        let compositor = try LayerCompositor(rootLayer: root, pixelWidth: 40, pixelHeight: 40, scale: 1)
        compositor.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        compositor.renderFrame()
        root.add(linearFlip(subtype), forKey: nil)
        CATransaction.setDisableActions(true)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        half.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        return compositor
    }

    /// The named colour at (x, y), each channel darkened by `shade` as the
    /// turning face is: c·k/256 rounded, k = (1 − shade)·256 rounded.
    private func colour(_ compositor: LayerCompositor, _ x: Int, _ y: Int, shade: Double = 0) -> String {
        let p = compositor.pixel(x: x, y: y)
        if (p.red, p.green, p.blue, p.alpha) == (255, 255, 255, 255) { return "white" }  // the frame's background: nothing drawn
        let keep = Int(((1 - shade) * 256).rounded())
        func dim(_ c: Int) -> UInt8 { UInt8((c * keep + 128) >> 8) }
        for (name, r, g, b) in [("red", 255, 0, 0), ("yellow", 255, 255, 0), ("blue", 0, 0, 255), ("green", 0, 255, 0)]
        where (p.red, p.green, p.blue, p.alpha) == (dim(r), dim(g), dim(b), 255) {
            return name
        }
        return "\(p)"
    }

    /// The darkening of the face at a turn of `angle`: half its sine
    /// (chosen: iOS dims the turning face slightly; Apple gives no figure).
    private func shade(_ angle: Double) -> Double { 0.5 * abs(sin(angle)) }

    /// Where the turned layer's edges are at `angle`, turning from the
    /// left: x of the near (left) and far edges, and how high the far edge
    /// is, by the projection's formula (FlipProjection).
    private func edges(at angle: Double) -> (near: Double, far: Double, farHeight: Double) {
        let d = 500.0, c = cos(angle), s = sin(angle)
        let k = 1 - 20 * s / d
        return (20 - k * 20 * c / (1 - 20 * s / d), 20 + k * 20 * c / (1 + 20 * s / d), k * 40 / (1 + 20 * s / d))
    }

    @Test func fromTheLeftTheOldLookTurnsAwayInPerspectiveAndTheNewOneComesRound() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let compositor = try flippingLayer(subtype: .fromLeft)
        // A quarter of the way (π/4): the left edge, nearer, at x 5.86 and
        // the full 40 high; the right one, farther, at 33.4 and 38.9 high.
        let quarter = edges(at: .pi / 4)
        #expect(abs(quarter.near - 5.86) < 0.01 && abs(quarter.far - 33.36) < 0.01 && abs(quarter.farHeight - 37.8) < 0.01,
                "\(quarter)")
        showFrame(at: 100.25, clock, compositor)
        let s = shade(.pi / 4)
        #expect(colour(compositor, 4, 20) == "white" && colour(compositor, 35, 20) == "white")
        #expect(colour(compositor, 8, 20, shade: s) == "yellow" && colour(compositor, 18, 20, shade: s) == "yellow")
        #expect(colour(compositor, 22, 20, shade: s) == "red" && colour(compositor, 32, 20, shade: s) == "red")
        // The near edge keeps the layer's height; the far one is shorter.
        #expect(colour(compositor, 7, 1, shade: s) == "yellow" && colour(compositor, 7, 38, shade: s) == "yellow", "the near edge's full height")
        #expect(colour(compositor, 32, 0) == "white" && colour(compositor, 32, 39) == "white", "the far edge, shorter")
        #expect(colour(compositor, 32, 2, shade: s) == "red" && colour(compositor, 32, 37, shade: s) == "red")
        // Half way it is edge on: nothing shows.
        showFrame(at: 100.5, clock, compositor)
        #expect(colour(compositor, 19, 20) == "white" && colour(compositor, 20, 20) == "white")
        // Three quarters: the new look (green half, blue half) coming
        // round, its right edge now the nearer one.
        showFrame(at: 100.75, clock, compositor)
        #expect(colour(compositor, 5, 20) == "white" && colour(compositor, 35, 20) == "white")
        #expect(colour(compositor, 8, 20, shade: s) == "green" && colour(compositor, 32, 20, shade: s) == "blue")
        #expect(colour(compositor, 32, 1, shade: s) == "blue" && colour(compositor, 8, 0) == "white")
        // The end: the new look, whole.
        showFrame(at: 101, clock, compositor)
        #expect(colour(compositor, 1, 20) == "green" && colour(compositor, 38, 20) == "blue")
    }

    @Test func fromTheTopItTurnsAboutTheHorizontalAxis() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let compositor = try flippingLayer(subtype: .fromTop)
        showFrame(at: 100.25, clock, compositor)
        let s = shade(.pi / 4)
        #expect(colour(compositor, 10, 3) == "white" && colour(compositor, 10, 36) == "white")
        #expect(colour(compositor, 2, 20, shade: s) == "yellow" && colour(compositor, 37, 20, shade: s) == "red", "the full width")
        showFrame(at: 100.75, clock, compositor)
        #expect(colour(compositor, 30, 3) == "white" && colour(compositor, 30, 36) == "white")
        #expect(colour(compositor, 2, 20, shade: s) == "green" && colour(compositor, 37, 20, shade: s) == "blue")
    }

    @Test func theTurningFaceDarkensAsItTurnsAwayFrameByFrame() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let compositor = try flippingLayer(subtype: .fromRight)
        // Each refresh of 60 Hz on the linear 1 s flip: the face turned by
        // π·t (the new look's back by π·t − π after half way), darkened by
        // half the sine of that.
        // (Within 4 frames of half way the face is too narrow to reach x 21.)
        for frame in 1..<60 where abs(frame - 30) > 3 {
            let t = Double(frame) / 60
            showFrame(at: 100 + t, clock, compositor)
            let angle = t < 0.5 ? Double.pi * t : Double.pi * t - Double.pi
            let expected = t < 0.5 ? "red" : "blue"
            expectEqual(colour(compositor, 21, 20, shade: shade(angle)), expected, "frame \(frame)")
        }
        showFrame(at: 101, clock, compositor)
        expectEqual(colour(compositor, 21, 20), "blue", "face on again: not darkened")
    }

    /// An 80 × 80 white frame with a 40 × 40 red layer in its middle,
    /// casting a black shadow 10 below it, flipping from the left in 1 s.
    private func flippingLayerWithShadow() throws -> (CALayer, LayerCompositor) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        let card = CALayer()
        card.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        card.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        card.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        card.shadowOpacity = 1
        card.shadowRadius = 0
        card.shadowOffset = CGSize(width: 0, height: 10)
        root.addSublayer(card)
        let compositor = try LayerCompositor(rootLayer: root, pixelWidth: 80, pixelHeight: 80, scale: 1)
        compositor.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        compositor.renderFrame()
        card.add(linearFlip(.fromLeft), forKey: nil)
        return (card, compositor)
    }

    @Test func aFlippingLayersShadowTurnsWithIt() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (_, compositor) = try flippingLayerWithShadow()
        // A quarter: through the centre line the face is 40·k high,
        // k = 1 − 20·sin(π/4)/500, from y 20.6 to 59.4; its shadow, 10 lower
        // in its plane, reaches 40 + 30·k = 69.2.
        showFrame(at: 100.25, clock, compositor)
        let k = 1 - 20 * sin(Double.pi / 4) / 500
        #expect(abs(40 + 30 * k - 69.15) < 0.01)
        expectEqual(colour(compositor, 40, 50, shade: shade(.pi / 4)), "red")
        let shadow = compositor.pixel(x: 40, y: 65)
        #expect(shadow.red == 0 && shadow.green == 0 && shadow.blue == 0 && shadow.alpha == 255, "\(shadow)")
        expectEqual(colour(compositor, 40, 71), "white")
    }

    @Test func aFlippingLayersMaskTurnsWithIt() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (card, compositor) = try flippingLayerWithShadow()
        card.shadowOpacity = 0
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        card.mask = mask
        showFrame(at: 100.25, clock, compositor)
        // Only the top half shows, turned: the centre line from y 20.6 to 40.
        expectEqual(colour(compositor, 40, 30, shade: shade(.pi / 4)), "red")
        #expect(colour(compositor, 40, 45) == "white" && colour(compositor, 40, 55) == "white")
    }

    @Test func theProgressIsTheTurnsAngleOverHalfATurn() {
        let transition = CATransition()
        transition.type = .flip
        for progress in stride(from: 0.0, through: 1, by: 0.125) {
            let shown = transition.flip(at: progress)
            let faceTurn = progress < 0.5 ? Double.pi * progress : Double.pi * progress - Double.pi
            #expect(abs((shown?.angle ?? 99) - faceTurn) < 1e-12)
            #expect(shown?.showsOldLook == (progress < 0.5) && shown?.aboutVerticalAxis == true && shown?.direction == -1)
        }
        transition.subtype = .fromBottom
        #expect(transition.flip(at: 0.2)?.aboutVerticalAxis == false && transition.flip(at: 0.2)?.direction == 1)
        transition.type = .fade
        #expect(transition.flip(at: 0.2) == nil)
    }
}
