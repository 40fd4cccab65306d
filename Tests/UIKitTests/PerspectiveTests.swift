import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// Views under a 3-D transform with perspective are drawn as Core Animation
/// shows them — each layer's plane projected into its superlayer's through
/// its 4 × 4 transform (QuartzCore's `LayerPlane`), the near side larger —
/// and hit-tested where they are seen: iOS maps a touch through the 3-D
/// transform (Nick Lockwood, iOS Core Animation: Advanced Techniques,
/// ch. 5: "It's not because iOS cannot correctly transform the touch events
/// to match the button position in 3D; it's actually quite capable of doing
/// that"), in the order of the view hierarchy, not of depth, and a view
/// hidden because it faces away is still hit ("views that are hidden
/// because they are facing away from the camera will still intercept touch
/// events").
@MainActor
@Suite struct PerspectiveTests {
    private let white: [UInt8] = [255, 255, 255, 255]
    private func isBlue(_ p: [UInt8]) -> Bool { p[2] > 200 && p[0] < 60 && p[1] < 60 && p[3] == 255 }
    private func isOrange(_ p: [UInt8]) -> Bool { p[0] > 200 && p[2] < 60 && p[3] == 255 }

    /// A turn of `degrees` about the y axis (x when `aboutX`) seen with
    /// m34 = −1/`distance`: the perspective first, as `CATransform3DRotate`
    /// on a matrix with m34 set builds it.
    private func turned(_ degrees: CGFloat, aboutX: Bool = false, distance: CGFloat = 500) -> CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / distance
        return CATransform3DRotate(perspective, degrees * .pi / 180, aboutX ? 1 : 0, aboutX ? 0 : 1, 0)
    }

    /// Where a point (x, y) of a view's plane, about its centre, is seen
    /// after a turn of θ about y with m34 = −1/d: z = −x·sin θ,
    /// w = 1 − z/d… written out: (x·cos θ, y) / (1 + x·sin θ/d).
    private func seen(_ x: CGFloat, _ y: CGFloat, degrees: CGFloat, distance d: CGFloat = 500) -> CGPoint {
        let t = degrees * .pi / 180
        let w = 1 + x * sin(t) / d
        return CGPoint(x: x * cos(t) / w, y: y / w)
    }

    /// A 200 × 160 white window with a 120 × 80 blue card (an orange
    /// square in its top left corner) centred at (100, 80).
    private func cardScene() -> (UIWindow, UIView, UIView) {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 160))
        window.backgroundColor = .white
        let card = UIView(frame: CGRect(x: 40, y: 40, width: 120, height: 80))
        card.backgroundColor = .blue
        card.layer.cornerRadius = 8
        let badge = UIView(frame: CGRect(x: 10, y: 10, width: 30, height: 30))
        badge.backgroundColor = .orange
        card.addSubview(badge)
        window.addSubview(card)
        UIApplication.shared.runLoop.runUntilIdle()
        return (window, card, badge)
    }

    @Test func aViewTurnedAboutYInPerspectiveIsDrawnWithItsNearSideTaller() {
        let (window, card, _) = cardScene()
        card.layer.transform = turned(50)
        UIApplication.shared.runLoop.runUntilIdle()
        let image = snapshot(of: window)
        // The left edge (x −60 about the centre) comes toward the viewer:
        // seen at x −42.5, ±44.0 high; the right one at 35.3, ±36.6.
        let left = seen(-60, 40, degrees: 50), right = seen(60, 40, degrees: 50)
        #expect(abs(left.x + 42.47) < 0.01 && abs(left.y - 44.05) < 0.01 && abs(right.x - 35.32) < 0.01 && abs(right.y - 36.63) < 0.01,
                "\(left) \(right)")
        #expect(rgba(image, 2 * 56, 2 * 80) == white && isBlue(rgba(image, 2 * 59, 2 * 80)), "the near edge")
        #expect(isBlue(rgba(image, 2 * 62, 2 * (80 - 41))) && isBlue(rgba(image, 2 * 62, 2 * (80 + 41))), "taller than the card")
        #expect(isBlue(rgba(image, 2 * 134, 2 * 80)) && rgba(image, 2 * 137, 2 * 80) == white, "the far edge")
        #expect(rgba(image, 2 * 131, 2 * (80 - 38)) == white && isBlue(rgba(image, 2 * 131, 2 * (80 - 33))), "shorter")
        let badge = seen(-35, -15, degrees: 50)
        #expect(isOrange(rgba(image, Int(2 * (100 + badge.x)), Int(2 * (80 + badge.y)))), "the badge turned with the card")
        expectMatchesReference(image, named: "perspective-turned-card", tolerance: 2)
    }

    @Test func aTurnedViewIsHitWhereItIsSeenAndConvertedThroughItsTurn() {
        let (window, card, badge) = cardScene()
        card.layer.transform = turned(50)
        UIApplication.shared.runLoop.runUntilIdle()
        // Inside the card's untransformed frame but beyond its far edge: the window.
        #expect(window.hitTest(CGPoint(x: 150, y: 80), with: nil) === window)
        #expect(window.hitTest(CGPoint(x: 128, y: 80), with: nil) === card)
        // Above the untransformed frame (y 40) on the near side, inside the turned card.
        #expect(window.hitTest(CGPoint(x: 62, y: 39), with: nil) === card)
        // The badge's centre (−35, −15 about the card's centre) is where it is seen.
        let badgeCentre = seen(-35, -15, degrees: 50)
        let point = CGPoint(x: 100 + badgeCentre.x, y: 80 + badgeCentre.y)
        #expect(window.hitTest(point, with: nil) === badge)
        let local = badge.convert(point, from: window)
        #expect(abs(local.x - 15) < 1e-9 && abs(local.y - 15) < 1e-9, "\(local)")
        let back = badge.convert(CGPoint(x: 15, y: 15), to: window)
        #expect(abs(back.x - point.x) < 1e-9 && abs(back.y - point.y) < 1e-9, "\(back)")
    }

    @Test func aSuperviewsSublayerTransformTurnsItsSubviewsInItsPlane() {
        let (window, card, badge) = cardScene()
        // About the card's anchor point (its centre); the badge is turned
        // with the card's plane, the card itself drawn flat.
        card.layer.sublayerTransform = turned(50)
        UIApplication.shared.runLoop.runUntilIdle()
        let image = snapshot(of: window)
        #expect(isBlue(rgba(image, 2 * 45, 2 * 80)) && isBlue(rgba(image, 2 * 155, 2 * 80)), "the card flat")
        let badgeCentre = seen(-35, -15, degrees: 50)
        let point = CGPoint(x: 100 + badgeCentre.x, y: 80 + badgeCentre.y)
        #expect(isOrange(rgba(image, Int(2 * point.x), Int(2 * point.y))))
        #expect(window.hitTest(point, with: nil) === badge)
        // In the badge's untransformed place, left of where it is seen: the card.
        #expect(isBlue(rgba(image, 2 * 55, 2 * 62)) && window.hitTest(CGPoint(x: 55, y: 62), with: nil) === card)
    }

    @Test func aViewThatIsNotDoubleSidedIsNotDrawnFromBehindButStillHit() {
        let (window, card, badge) = cardScene()
        card.layer.transform = turned(160)
        UIApplication.shared.runLoop.runUntilIdle()
        // Double-sided (the default): its back, mirrored — the badge seen on the right.
        var image = snapshot(of: window)
        let badgeCentre = seen(-35, -15, degrees: 160)
        #expect(abs(badgeCentre.x - 33.7) < 0.05, "\(badgeCentre)")
        #expect(isBlue(rgba(image, 2 * 100, 2 * 80)) && isOrange(rgba(image, Int(2 * (100 + badgeCentre.x)), Int(2 * (80 + badgeCentre.y)))))
        card.layer.isDoubleSided = false
        UIApplication.shared.runLoop.runUntilIdle()
        image = snapshot(of: window)
        expectEqual(rgba(image, 2 * 100, 2 * 80), white, "the card's back is not drawn")
        #expect(window.hitTest(CGPoint(x: 100, y: 80), with: nil) === card, "but it is hit")
        // Turned back to face the viewer, it is drawn again.
        card.layer.transform = turned(20)
        UIApplication.shared.runLoop.runUntilIdle()
        image = snapshot(of: window)
        #expect(isBlue(rgba(image, 2 * 100, 2 * 80)))
        #expect(window.hitTest(CGPoint(x: 100 + badgeCentre.x, y: 80 + badgeCentre.y), with: nil) !== badge)
        _ = badge
    }
}
