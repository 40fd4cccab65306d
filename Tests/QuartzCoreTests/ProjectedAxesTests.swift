import CoreGraphics
import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// A layer turned about a vertical line (a flip from the left or right)
/// maps back with u and w the same in every row, and one turned about a
/// horizontal line with v and w the same along a row, so the compositor
/// works those out once (`Compositor.sharesProjectedAxes`): every pixel
/// must come out as the general loop gives it, at every point of the four
/// flips, with a turning face darkened, over translucent parts and
/// rounded corners, on a screen of scale 3.
@MainActor
@Suite(.serialized) struct ProjectedAxesTests {
    @Test(arguments: [CATransitionSubtype.fromLeft, .fromRight, .fromTop, .fromBottom])
    func sharingWhatRowsOrColumnsShareGivesTheGeneralLoopsPixels(subtype: CATransitionSubtype) throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, shared) = try makeScene(width: 70, height: 60, scale: 3)
        let general = try LayerCompositor(rootLayer: root, pixelWidth: shared.pixelWidth, pixelHeight: shared.pixelHeight, scale: 3)
        general.sharesProjectedAxes = false
        // A card between points, rounded, a translucent band and an opaque
        // spot on it: samples that mix, that are equal, that are partly clear.
        let card = addLayer(to: root, frame: CGRect(x: 9.4, y: 7.7, width: 47, height: 41), color: color(0.9, 0.3, 0.2))
        card.cornerRadius = 7
        card.masksToBounds = true
        addLayer(to: card, frame: CGRect(x: 5, y: 12.3, width: 40, height: 9), color: CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.6)).cornerRadius = 3
        _ = addLayer(to: card, frame: CGRect(x: 30.2, y: 25, width: 6, height: 6), color: color(0, 1, 0))
        CATransaction.flush()
        shared.renderFrame()
        general.renderFrame()
        let flip = CATransition()
        flip.type = .flip
        flip.subtype = subtype
        flip.duration = 1
        flip.timingFunction = CAMediaTimingFunction(name: .linear)
        card.add(flip, forKey: nil)
        CATransaction.setDisableActions(true)
        card.backgroundColor = color(0.2, 0.7, 0.9)
        for time in [100.05, 100.2, 100.35, 100.49, 100.52, 100.7, 100.9] {
            showFrame(at: time, clock, shared)
            general.renderFullFrame()
            shared.renderFullFrame()
            expectEqual(differingPixels(shared, general), 0, "\(subtype.rawValue) at \(time)")
        }
    }

    /// The shortcut's condition holds exactly for the flips' mappings as
    /// the compositor makes them (with a placement of scale 3 between
    /// pixels), so the turned card above is drawn by it.
    @Test func aFlipsMappingBackLeavesOneAxisOutOfTheOther() throws {
        let bounds = CGRect(x: 0, y: 0, width: 47, height: 41)
        let toDevice = CGAffineTransform(scaleX: 3, y: 3).concatenating(CGAffineTransform(translationX: 28.2, y: 23.1))
        for (aboutVerticalAxis, direction) in [(true, -1.0), (true, 1.0), (false, -1.0), (false, 1.0)] {
            for angle in [-1.3, -0.4, 0.2, 1.1] {
                let pose = FlipPose(angle: angle, showsOldLook: angle < 0, aboutVerticalAxis: aboutVerticalAxis, direction: direction)
                let turn = try #require(LayerProjection.flipTurn(pose, bounds: bounds))
                let back = try #require(LayerProjection(matrix: turn, shade: 0).surfaceToFlat(toDevice: toDevice))
                if aboutVerticalAxis {
                    expectEqual([back.m01, back.m21], [0, 0], "u and w free of y at \(angle)")
                } else {
                    expectEqual([back.m10, back.m20], [0, 0], "v and w free of x at \(angle)")
                }
            }
        }
    }
}
