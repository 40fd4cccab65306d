import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// A view whose layer is a `CATransformLayer` (`layerClass`) holds a cube of
/// six face views in 3-D: drawn as a cube, the faces in front over those
/// behind, and hit as UIKit hit-tests views in 3-D — where each is seen, in
/// the order of the subviews, not of depth (Nick Lockwood, iOS Core
/// Animation: Advanced Techniques, ch. 5: "touch events are processed
/// according to the order of views within their superview, not their
/// Z-position in 3D space"; "views that are hidden because they are facing
/// away from the camera will still intercept touch events").
@MainActor
@Suite struct TransformLayerViewTests {
    final class CubeView: UIView {
        override class var layerClass: AnyClass { CATransformLayer.self }
    }

    /// A 200 × 200 white window; a container with perspective (m34 =
    /// −1/500) holding a cube of 80-point faces centred at (100, 100),
    /// turned 0.6 about y then −0.45 about x: the front (red), left
    /// (yellow) and top (blue) faces show; the back (cyan), right (green)
    /// and bottom (magenta) faces come after them among the subviews.
    func cubeScene() -> (UIWindow, CubeView, [UIView]) {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        window.backgroundColor = .white
        let container = UIView(frame: window.bounds)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.layer.sublayerTransform = perspective
        window.addSubview(container)
        let cube = CubeView(frame: CGRect(x: 60, y: 60, width: 80, height: 80))
        cube.backgroundColor = .black  // ignored by a transform layer
        cube.layer.transform = CATransform3DConcat(CATransform3DMakeRotation(0.6, 0, 1, 0), CATransform3DMakeRotation(-0.45, 1, 0, 0))
        container.addSubview(cube)
        let places: [(UIColor, CATransform3D)] = [
            (.red, CATransform3DIdentity), (.yellow, CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)),
            (.blue, CATransform3DMakeRotation(.pi / 2, 1, 0, 0)), (.cyan, CATransform3DMakeRotation(.pi, 0, 1, 0)),
            (.green, CATransform3DMakeRotation(.pi / 2, 0, 1, 0)), (.magenta, CATransform3DMakeRotation(-.pi / 2, 1, 0, 0)),
        ]
        let faces = places.map { colour, turn in
            let face = UIView(frame: cube.bounds)
            face.backgroundColor = colour
            face.layer.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 40), turn)
            cube.addSubview(face)
            return face
        }
        UIApplication.shared.runLoop.runUntilIdle()
        return (window, cube, faces)
    }

    /// Where the cube's point `p` (about its centre) is seen in the window:
    /// turned with the cube, then (x, y)/w about (100, 100), w = 1 − z/500.
    func seen(_ p: SIMD3<Double>, _ cube: CubeView) -> CGPoint {
        let t = cube.layer.transform
        let x = p.x * t.m11 + p.y * t.m21 + p.z * t.m31
        let y = p.x * t.m12 + p.y * t.m22 + p.z * t.m32
        let z = p.x * t.m13 + p.y * t.m23 + p.z * t.m33
        let w = 1 - z / 500
        return CGPoint(x: 100 + x / w, y: 100 + y / w)
    }

    @Test func aCubeOfFaceViewsIsDrawnInThreeDimensions() {
        let (window, cube, _) = cubeScene()
        let image = snapshot(of: window)
        let expected: [(String, SIMD3<Double>, [UInt8])] = [
            ("front", SIMD3(0, 0, 40), [255, 0, 0, 255]), ("front corner", SIMD3(32, 32, 40), [255, 0, 0, 255]),
            ("left", SIMD3(-40, 0, 0), [255, 255, 0, 255]), ("top", SIMD3(0, -40, 0), [0, 0, 255, 255]),
            ("top far corner", SIMD3(32, -40, -32), [0, 0, 255, 255]),
        ]
        for (name, point, colour) in expected {
            let p = seen(point, cube)
            let pixel = rgba(image, Int(2 * p.x), Int(2 * p.y))
            #expect(close(pixel, colour, tolerance: 2), "\(name) at \(p): \(pixel)")
        }
        // The cube view's black background is not drawn: no pixel is dark.
        var dark = 0
        for y in 0..<image.height {
            for x in 0..<image.width where rgba(image, x, y)[0...2].allSatisfy({ $0 < 40 }) { dark += 1 }
        }
        expectEqual(dark, 0)
        expectMatchesReference(image, named: "transform-layer-cube", tolerance: 2)
    }

    @Test func faceViewsAreHitWhereSeenInTheOrderOfTheSubviews() throws {
        let (window, cube, faces) = cubeScene()
        let front = seen(SIMD3(0, 0, 40), cube)
        // A face behind the front one, later among the subviews, takes the touch.
        let hit = try #require(window.hitTest(front, with: nil))
        #expect(faces[3...].contains { $0 === hit }, "\(hit)")
        // With the faces behind not taking touches, the front face does; the
        // point on it is its centre.
        for face in faces[3...] { face.isUserInteractionEnabled = false }
        #expect(window.hitTest(front, with: nil) === faces[0])
        let onFace = faces[0].convert(front, from: window)
        #expect(abs(onFace.x - 40) < 1e-6 && abs(onFace.y - 40) < 1e-6, "\(onFace)")
    }
}
