import Foundation
import Testing
import TestExpectations
@testable import QuartzCore

/// A damaged frame gives exactly the pixels of a full frame
/// (docs/compositor.md): a shape layer redrawn inside a damage rectangle
/// that cuts through it gets the very edge pixels it gets drawn whole.
@MainActor
@Suite struct ShapeDamageTests {
    /// A blob of curves (an ellipse, cubic and quadratic arcs) and slanted
    /// lines, filled translucent and stroked with round joins, turned by a
    /// few degrees and placed between pixels, so that almost every edge
    /// pixel is anti-aliased.
    func addShape(to root: CALayer) -> CAShapeLayer {
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 3.3, y: 2.7, width: 21.4, height: 13.9))
        path.move(to: CGPoint(x: 1.2, y: 30.4))
        path.addLine(to: CGPoint(x: 17.9, y: 19.1))
        path.addCurve(to: CGPoint(x: 33.6, y: 41.3), control1: CGPoint(x: 40.2, y: 12.5), control2: CGPoint(x: 2.8, y: 28.7))
        path.addQuadCurve(to: CGPoint(x: 4.1, y: 44.9), control: CGPoint(x: 20.3, y: 55.2))
        path.closeSubpath()
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 4.37, y: 3.61, width: 36, height: 50)
        shape.path = path
        shape.fillColor = color(0.9, 0.2, 0.1, 0.7)
        shape.strokeColor = color(0.1, 0.2, 0.6)
        shape.lineWidth = 1.3
        shape.lineJoin = .round
        shape.setAffineTransform(CGAffineTransform(rotationAngle: 0.07))
        root.addSublayer(shape)
        return shape
    }

    /// A faint layer moved to odd places over the shape damages only its
    /// old and new rectangles, which cut the shape's edges at odd rows and
    /// columns; every frame equals the full frame byte for byte.
    @Test(arguments: [1, 2, 3] as [CGFloat])
    func aShapeCutByDamageRectanglesIsTheFullFrame(scale: CGFloat) throws {
        let (root, compositor) = try makeScene(width: 48, height: 60, scale: scale)
        let shape = addShape(to: root)
        let dab = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 1, height: 1), color: color(0, 0, 0, 0.02))
        CATransaction.flush()
        compositor.renderFrame()
        let places: [CGRect] = [
            CGRect(x: 7, y: 5, width: 3, height: 11), CGRect(x: 13, y: 9, width: 17, height: 5),
            CGRect(x: 21, y: 3, width: 1, height: 1), CGRect(x: 5, y: 29, width: 9, height: 7),
            CGRect(x: 29, y: 23, width: 11, height: 13), CGRect(x: 3, y: 41, width: 15, height: 9),
            CGRect(x: 19, y: 37, width: 5, height: 19), CGRect(x: 33, y: 43, width: 7, height: 3),
            CGRect(x: 11, y: 17, width: 23, height: 1), CGRect(x: 9, y: 31, width: 1, height: 21),
        ]
        for (index, place) in places.enumerated() {
            dab.frame = place
            CATransaction.flush()
            let damage = compositor.renderFrame()
            expectEqual(damage.isEmpty, false, "frame \(index)")
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "frame \(index) at \(place), scale \(scale)")
        }
        withExtendedLifetime(shape) {}
    }
}
