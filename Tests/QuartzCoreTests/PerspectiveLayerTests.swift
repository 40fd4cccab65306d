import CoreGraphics
import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// Layers under 3-D transforms: the rotation and inversion functions, and
/// bad input to the projection (LayerPlane, Projection.swift) — a matrix
/// that squashes the plane, non-finite entries, and a layer reaching behind
/// the eye — drawn and hit-tested without a crash, and only where the layer
/// is in front of the eye.
@MainActor
@Suite struct PerspectiveLayerTests {
    @Test func aTurnAboutZIsTheAffineRotationAndATurnAboutYMovesXIntoDepth() {
        let z = CATransform3DMakeRotation(0.3, 0, 0, 2)
        #expect(CATransform3DIsAffine(z))
        let affine = CGAffineTransform(rotationAngle: 0.3), part = CATransform3DGetAffineTransform(z)
        #expect(abs(part.a - affine.a) < 1e-12 && abs(part.b - affine.b) < 1e-12 && abs(part.c - affine.c) < 1e-12 && abs(part.d - affine.d) < 1e-12)
        // About y: (x, 0, 0) goes to (x·cos θ, 0, −x·sin θ).
        let y = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        #expect(abs(y.m11 - cos(.pi / 6)) < 1e-12 && abs(y.m13 + sin(.pi / 6)) < 1e-12 && abs(y.m31 - sin(.pi / 6)) < 1e-12)
        // A zero or non-finite axis turns nothing.
        expectEqual(CATransform3DMakeRotation(1, 0, 0, 0), CATransform3DIdentity)
        expectEqual(CATransform3DMakeRotation(1, .nan, 0, 1), CATransform3DIdentity)
        expectEqual(CATransform3DMakeRotation(.infinity, 0, 0, 1), CATransform3DIdentity)
    }

    @Test func anInverseUndoesATransformAndASingularOneIsReturnedAsItIs() {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let t = CATransform3DTranslate(CATransform3DRotate(perspective, 0.7, 1, 1, 0), 5, -3, 2)
        let product = CATransform3DConcat(t, CATransform3DInvert(t))
        let entries = [product.m11 - 1, product.m12, product.m13, product.m14, product.m21, product.m22 - 1, product.m23, product.m24,
                       product.m31, product.m32, product.m33 - 1, product.m34, product.m41, product.m42, product.m43, product.m44 - 1]
        #expect(entries.allSatisfy { abs($0) < 1e-12 }, "\(entries)")
        let flat = CATransform3DMakeScale(1, 1, 0)
        expectEqual(CATransform3DInvert(flat), flat)
    }

    /// A 100 × 40 green layer centred in a 200 × 100 white frame at scale 1.
    private func scene() throws -> (CALayer, CALayer, LayerCompositor) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let card = CALayer()
        card.frame = CGRect(x: 50, y: 30, width: 100, height: 40)
        card.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        root.addSublayer(card)
        let compositor = try LayerCompositor(rootLayer: root, pixelWidth: 200, pixelHeight: 100, scale: 1)
        compositor.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        compositor.renderFrame()
        return (root, card, compositor)
    }

    private func isGreen(_ compositor: LayerCompositor, _ x: Int, _ y: Int) -> Bool {
        let p = compositor.pixel(x: x, y: y)
        return p.green == 255 && p.red == 0 && p.alpha == 255
    }

    private func isWhite(_ compositor: LayerCompositor, _ x: Int, _ y: Int) -> Bool {
        let p = compositor.pixel(x: x, y: y)
        return p.red == 255 && p.green == 255 && p.blue == 255
    }

    @Test func aTransformThatSquashesThePlaneDrawsAndHitsNothing() throws {
        let (root, card, compositor) = try scene()
        var squash = CATransform3DMakeScale(0, 1, 1)
        squash.m14 = 0.001
        card.transform = squash
        CATransaction.flush()
        compositor.renderFrame()
        #expect(isWhite(compositor, 100, 50) && isWhite(compositor, 60, 50))
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) === root)
        // Perspective that divides every point by zero.
        var nothing = CATransform3DIdentity
        nothing.m44 = 0
        card.transform = nothing
        CATransaction.flush()
        compositor.renderFrame()
        #expect(isWhite(compositor, 100, 50))
        #expect(root.hitTest(CGPoint(x: 100, y: 50)) === root)
    }

    @Test func nonFiniteTransformsAreRefusedAndTheLastOneKept() throws {
        let (_, card, compositor) = try scene()
        var turned = CATransform3DMakeRotation(0.5, 0, 1, 0)
        turned.m34 = -1.0 / 500
        card.transform = turned
        var bad = turned
        bad.m14 = .nan
        card.transform = bad
        expectEqual(card.transform, turned)
        bad = turned
        bad.m34 = .infinity
        card.superlayer?.sublayerTransform = bad
        expectEqual(card.superlayer?.sublayerTransform, CATransform3DIdentity)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(isGreen(compositor, 100, 50))
    }

    @Test func whatLiesBehindTheEyeIsNeitherDrawnNorHit() throws {
        let (root, card, compositor) = try scene()
        card.frame = CGRect(x: -100, y: 25, width: 400, height: 50)
        // Turned 80° about y with the eye 100 points away: a point x about
        // the centre is seen at x·cos θ / w, w = 1 + x·sin θ / 100, so the
        // left part (x < −101.5) is behind the eye, the right edge (x 200)
        // is seen at 11.7, and toward x −101.5 the card grows without end.
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 100
        card.transform = CATransform3DRotate(perspective, 80 * .pi / 180, 0, 1, 0)
        CATransaction.flush()
        compositor.renderFrame()
        let theta = 80 * Double.pi / 180
        let rightEdge = 200 * cos(theta) / (1 + 200 * sin(theta) / 100)
        #expect(abs(rightEdge - 11.69) < 0.01)
        #expect(isGreen(compositor, 100 + 10, 50) && isWhite(compositor, 100 + 13, 50))
        #expect(isGreen(compositor, 2, 2) && isGreen(compositor, 2, 97), "magnified near the eye: the whole height")
        #expect(root.hitTest(CGPoint(x: 2, y: 2)) === card && root.hitTest(CGPoint(x: 110, y: 50)) === card)
        // 150 right of the centre, the point of the card's plane is x −115:
        // inside its bounds but behind the eye, so nothing of the card is there.
        let x = 150 / (cos(theta) - 150 * sin(theta) / 100)
        #expect(abs(x + 115.1) < 0.1 && 1 + x * sin(theta) / 100 < 0)
        #expect(isWhite(compositor, 100 + 50, 50) && isWhite(compositor, 199, 50))
        #expect(root.hitTest(CGPoint(x: 100 + 50, y: 50)) === root && root.hitTest(CGPoint(x: 199, y: 50)) === root)
        let far = card.convert(CGPoint(x: 199, y: 50), from: root)
        #expect(far.x.isNaN && far.y.isNaN)
    }
}
