import CoreGraphics
import Foundation
import Testing
@testable import QuartzCore

/// A flip (`oglFlip`, the type UIKit's flip transitions use) turns the layer
/// half a turn about its centre line, the old look in front until half way,
/// the new look after, in perspective (FlipProjection: m34 = −1/500, the
/// layer drawn smaller so that its nearer edge keeps its height): the edge
/// coming toward the viewer is taller than the one going away.
@MainActor
@Suite(.serialized) struct FlipTransitionTests {
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
        let flip = CATransition()
        flip.type = .flip
        flip.subtype = subtype
        flip.duration = 1
        flip.timingFunction = CAMediaTimingFunction(name: .linear)
        root.add(flip, forKey: nil)
        CATransaction.setDisableActions(true)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        half.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        return compositor
    }

    private func colour(_ compositor: LayerCompositor, _ x: Int, _ y: Int) -> String {
        let p = compositor.pixel(x: x, y: y)
        switch (p.red, p.green, p.blue, p.alpha) {
        case (255, 0, 0, 255): return "red"
        case (255, 255, 0, 255): return "yellow"
        case (0, 0, 255, 255): return "blue"
        case (0, 255, 0, 255): return "green"
        case (255, 255, 255, 255): return "white"  // the frame's background: nothing drawn
        default: return "\(p)"
        }
    }

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
        #expect(colour(compositor, 4, 20) == "white" && colour(compositor, 35, 20) == "white")
        #expect(colour(compositor, 8, 20) == "yellow" && colour(compositor, 18, 20) == "yellow")
        #expect(colour(compositor, 22, 20) == "red" && colour(compositor, 32, 20) == "red")
        // The near edge keeps the layer's height; the far one is shorter.
        #expect(colour(compositor, 7, 1) == "yellow" && colour(compositor, 7, 38) == "yellow", "the near edge's full height")
        #expect(colour(compositor, 32, 0) == "white" && colour(compositor, 32, 39) == "white", "the far edge, shorter")
        #expect(colour(compositor, 32, 2) == "red" && colour(compositor, 32, 37) == "red")
        // Half way it is edge on: nothing shows.
        showFrame(at: 100.5, clock, compositor)
        #expect(colour(compositor, 19, 20) == "white" && colour(compositor, 20, 20) == "white")
        // Three quarters: the new look (green half, blue half) coming
        // round, its right edge now the nearer one.
        showFrame(at: 100.75, clock, compositor)
        #expect(colour(compositor, 5, 20) == "white" && colour(compositor, 35, 20) == "white")
        #expect(colour(compositor, 8, 20) == "green" && colour(compositor, 32, 20) == "blue")
        #expect(colour(compositor, 32, 1) == "blue" && colour(compositor, 8, 0) == "white")
        // The end: the new look, whole.
        showFrame(at: 101, clock, compositor)
        #expect(colour(compositor, 1, 20) == "green" && colour(compositor, 38, 20) == "blue")
    }

    @Test func fromTheTopItTurnsAboutTheHorizontalAxis() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let compositor = try flippingLayer(subtype: .fromTop)
        showFrame(at: 100.25, clock, compositor)
        #expect(colour(compositor, 10, 3) == "white" && colour(compositor, 10, 36) == "white")
        #expect(colour(compositor, 2, 20) == "yellow" && colour(compositor, 37, 20) == "red", "the full width")
        showFrame(at: 100.75, clock, compositor)
        #expect(colour(compositor, 30, 3) == "white" && colour(compositor, 30, 36) == "white")
        #expect(colour(compositor, 2, 20) == "green" && colour(compositor, 37, 20) == "blue")
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
