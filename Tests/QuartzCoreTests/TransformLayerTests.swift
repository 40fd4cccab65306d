import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// `CATransformLayer`: its sublayers keep their places in 3-D (a cube of
/// six faces is drawn as a cube), drawn back to front by depth; its own
/// drawing is ignored and its opacity applies to each sublayer on its own;
/// hit-testing passes over it to its sublayers, in their order (Apple's
/// `CATransformLayer` page and Core Animation's header, quoted in the
/// class's documentation).
@MainActor
@Suite struct TransformLayerTests {
    /// The container's perspective: m34 = −1/300.
    static let eye: CGFloat = 300

    struct Cube {
        let container: CALayer
        let cube: CATransformLayer
        /// Front, left, top, back, right, bottom: the three seen first, so
        /// that drawn in their order the hidden ones would cover them.
        let faces: [CALayer]
        /// The cube's turn: 0.6 about y, then −0.45 about x.
        let turn: CATransform3D
    }

    /// A 40-point cube centred at (50, 50) of a 100 × 100 white frame, in
    /// a transform layer (with a black background, a border and a shadow,
    /// all of which it ignores) turned to show its front, left and top
    /// faces, in a container whose sublayer transform adds perspective.
    func cube(in root: CALayer) -> Cube {
        let container = CALayer()
        container.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / Self.eye
        container.sublayerTransform = perspective
        root.addSublayer(container)
        let cube = CATransformLayer()
        cube.bounds = CGRect(x: -50, y: -50, width: 100, height: 100)
        cube.position = CGPoint(x: 50, y: 50)
        cube.backgroundColor = color(0, 0, 0)
        cube.borderColor = color(0, 0, 0)
        cube.borderWidth = 3
        cube.shadowOpacity = 1
        let turn = CATransform3DConcat(CATransform3DMakeRotation(0.6, 0, 1, 0), CATransform3DMakeRotation(-0.45, 1, 0, 0))
        cube.transform = turn
        container.addSublayer(cube)
        // Each face: 40 × 40 about the cube's centre, moved 20 forward, then turned into place.
        let places: [(CGColor, CATransform3D)] = [
            (color(1, 0, 0), CATransform3DIdentity),                          // front, red
            (color(1, 1, 0), CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)),   // left, yellow
            (color(0, 0, 1), CATransform3DMakeRotation(.pi / 2, 1, 0, 0)),    // top, blue
            (color(0, 1, 1), CATransform3DMakeRotation(.pi, 0, 1, 0)),        // back, cyan
            (color(0, 1, 0), CATransform3DMakeRotation(.pi / 2, 0, 1, 0)),    // right, green
            (color(1, 0, 1), CATransform3DMakeRotation(-.pi / 2, 1, 0, 0)),   // bottom, magenta
        ]
        let faces = places.map { colour, turn in
            let face = CALayer()
            face.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            face.position = .zero
            face.backgroundColor = colour
            face.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 20), turn)
            cube.addSublayer(face)
            return face
        }
        return Cube(container: container, cube: cube, faces: faces, turn: turn)
    }

    /// Where the cube's point `p` (about its centre) is seen in the frame:
    /// turned with the cube, then (x, y) / w about the centre (50, 50),
    /// w = 1 − z/300 (the container's m34, about its anchor).
    func seen(_ p: SIMD3<Double>, turn t: CATransform3D) -> CGPoint {
        let x = p.x * t.m11 + p.y * t.m21 + p.z * t.m31
        let y = p.x * t.m12 + p.y * t.m22 + p.z * t.m32
        let z = p.x * t.m13 + p.y * t.m23 + p.z * t.m33
        let w = 1 - z / Self.eye
        return CGPoint(x: 50 + x / w, y: 50 + y / w)
    }

    func isColour(_ pixel: RGBA, _ expected: (Int, Int, Int, Int)) -> Bool { matches(pixel, expected, tolerance: 2) }

    /// The faces seen are the front, left and top ones, each its own colour
    /// at its centre and near its corners, whatever their order among the
    /// sublayers: the back, right and bottom faces, listed after them, lie
    /// behind and are drawn first. The transform layer's black background,
    /// border and shadow are not drawn.
    @Test func aCubeOfSixFacesIsDrawnAsACube() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let scene = cube(in: root)
        CATransaction.flush()
        compositor.renderFrame()
        let samples: [(String, SIMD3<Double>, (Int, Int, Int, Int))] = [
            ("front", SIMD3(0, 0, 20), red), ("front near a corner", SIMD3(15, 15, 20), red),
            ("left", SIMD3(-20, 0, 0), (255, 255, 0, 255)), ("left near a corner", SIMD3(-20, -15, -15), (255, 255, 0, 255)),
            ("top", SIMD3(0, -20, 0), blue), ("top near a corner", SIMD3(15, -20, -15), blue),
        ]
        for (name, point, expected) in samples {
            let p = seen(point, turn: scene.turn)
            let pixel = compositor.pixel(x: Int(p.x), y: Int(p.y))
            #expect(isColour(pixel, expected), "\(name) at \(p): \(pixel)")
        }
        // The transform layer's own background would cover its 100-point
        // bounds: outside the cube the frame stays white.
        for (x, y) in [(2, 2), (97, 2), (2, 97), (97, 97), (50, 3)] {
            expectEqual(isColour(compositor.pixel(x: x, y: y), white), true, "(\(x), \(y)) outside the cube")
        }
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    /// Turned on, frame after frame, the cube shows whichever faces are in
    /// front: a quarter turn more about y brings the right face round to
    /// where the front was, and the front face goes to where the left was.
    @Test func turningTheCubeShowsTheFacesInFront() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let scene = cube(in: root)
        CATransaction.flush()
        compositor.renderFrame()
        let turn = CATransform3DConcat(CATransform3DMakeRotation(0.6 - .pi / 2, 0, 1, 0), CATransform3DMakeRotation(-0.45, 1, 0, 0))
        CATransaction.setDisableActions(true)
        scene.cube.transform = turn
        CATransaction.flush()
        compositor.renderFrame()
        let right = seen(SIMD3(20, 0, 0), turn: turn), front = seen(SIMD3(0, 0, 20), turn: turn)
        #expect(isColour(compositor.pixel(x: Int(right.x), y: Int(right.y)), green), "the right face in front at \(right)")
        #expect(isColour(compositor.pixel(x: Int(front.x), y: Int(front.y)), red), "the front face on the left at \(front)")
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    /// Two squares in a transform layer at opacity 0.5, the far one blue,
    /// the near one red, overlapping: each is drawn at half opacity on its
    /// own ("The opacity property is applied to each sublayer
    /// individually"), so where they overlap the red lies over a blue tint:
    /// white, then blue at 0.5 (128, 128, 255), then red at 0.5 over that
    /// (191, 64, 128); a group would show red over white alone (255, 128, 128).
    @Test func itsOpacityAppliesToEachSublayerOnItsOwn() throws {
        let (root, compositor) = try makeScene(width: 40, height: 40)
        let layer = CATransformLayer()
        layer.frame = root.bounds
        layer.opacity = 0.5
        root.addSublayer(layer)
        let near = addLayer(to: layer, frame: CGRect(x: 5, y: 5, width: 20, height: 20), color: color(1, 0, 0))
        near.zPosition = 10
        _ = addLayer(to: layer, frame: CGRect(x: 15, y: 15, width: 20, height: 20), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(isColour(compositor.pixel(x: 20, y: 20), (191, 64, 128, 255)), "\(compositor.pixel(x: 20, y: 20))")
        #expect(isColour(compositor.pixel(x: 8, y: 8), (255, 128, 128, 255)), "red alone at half")
        #expect(isColour(compositor.pixel(x: 32, y: 32), (128, 128, 255, 255)), "blue alone at half")
    }

    /// Hit-testing passes over the transform layer to its faces, each
    /// tested where it is seen, in the order of the sublayers and not of
    /// depth (as UIKit does: "touch events are processed according to the
    /// order of views within their superview, not their Z-position in 3D
    /// space", Lockwood, ch. 5): at the front face's centre the face where
    /// the line of sight leaves the cube, behind it but later among the
    /// sublayers, is hit. The transform layer is never hit itself, not even inside its
    /// bounds where no face is; conversion into a face goes through the
    /// whole placement.
    @Test func hitTestingPassesOverItToTheFacesInTheirOrder() throws {
        let (root, _) = try makeScene(width: 100, height: 100)
        let scene = cube(in: root)
        CATransaction.flush()
        let front = seen(SIMD3(0, 0, 20), turn: scene.turn)
        let behind = try #require(root.hitTest(front))
        #expect(scene.faces[3...].contains { $0 === behind }, "a face behind the front one, later among the sublayers, where the line of sight leaves the cube")
        let top = seen(SIMD3(0, -20, 0), turn: scene.turn)
        let topHit = try #require(root.hitTest(top))
        #expect(scene.faces.contains { $0 === topHit }, "a face at the top face's centre")
        // Inside the transform layer's bounds, away from the cube: the container.
        #expect(root.hitTest(CGPoint(x: 8, y: 8)) === scene.container)
        // Hidden faces are not hit; a hidden transform layer hides all.
        scene.faces[3].isHidden = true
        scene.faces[5].isHidden = true
        scene.faces[4].isHidden = true
        #expect(root.hitTest(front) === scene.faces[0])
        scene.cube.isHidden = true
        #expect(root.hitTest(front) === scene.container)
        scene.cube.isHidden = false
        // Converting the front face's centre as seen gives (20, 20) on it, and back.
        let onFace = scene.faces[0].convert(front, from: root)
        #expect(abs(onFace.x - 20) < 1e-6 && abs(onFace.y - 20) < 1e-6, "\(onFace)")
        let back = scene.faces[0].convert(CGPoint(x: 20, y: 20), to: root)
        #expect(abs(back.x - front.x) < 1e-6 && abs(back.y - front.y) < 1e-6, "\(back) \(front)")
    }

    /// A sublayer of a transform layer without depth anywhere is drawn
    /// where a plain layer would put it; a transform layer in a transform
    /// layer goes on in 3-D (its faces' places compose).
    @Test func nestedTransformLayersComposeTheirPlacements() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let outer = CATransformLayer()
        outer.frame = root.bounds
        root.addSublayer(outer)
        let plain = addLayer(to: outer, frame: CGRect(x: 2, y: 2, width: 10, height: 10), color: color(0, 0, 1))
        let inner = CATransformLayer()
        inner.frame = outer.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        outer.sublayerTransform = perspective
        inner.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        outer.addSublayer(inner)
        let card = addLayer(to: inner, frame: CGRect(x: 20, y: 20, width: 20, height: 20), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        // The card turned 60° about the vertical line x = 30 under m34 = −1/200:
        // its edges (x ∓10 about the centre) are seen at ∓10·cos 60° / (1 ∓ 10·sin 60°/200).
        let left = 30 - 10 * cos(Double.pi / 3) / (1 - 10 * sin(Double.pi / 3) / 200)
        let right = 30 + 10 * cos(Double.pi / 3) / (1 + 10 * sin(Double.pi / 3) / 200)
        #expect(isColour(compositor.pixel(x: Int(left.rounded(.up)) + 1, y: 30), red), "inside the left edge \(left)")
        #expect(isColour(compositor.pixel(x: Int(left) - 1, y: 30), white), "outside the left edge")
        #expect(isColour(compositor.pixel(x: Int(right) - 1, y: 30), red), "inside the right edge \(right)")
        #expect(isColour(compositor.pixel(x: Int(right.rounded(.up)) + 1, y: 30), white), "outside the right edge")
        // The plain square under the perspective alone, in the plane z = 0: where it was.
        #expect(isColour(compositor.pixel(x: 7, y: 7), blue))
        #expect(root.hitTest(CGPoint(x: 30, y: 30)) === card)
        #expect(root.hitTest(CGPoint(x: 7, y: 7)) === plain)
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }
}
