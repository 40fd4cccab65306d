import TestExpectations
import Testing
import QuartzCore
import GeometryTestSupport

/// A tree with every kind of geometry, and its mappings worked out by hand.
///
/// A point p of a layer goes to its superlayer as
/// `(p - bounds.origin - anchorPoint · bounds.size) · transform + position`.
///
///     root  bounds (0,0,400,400), position (200,200), anchor (½,½)
///           p ↦ p - (200,200) + (200,200) = p            (root space = root's space)
///     ├─ a  bounds (10,20,100,100), position (150,150), anchor (0,0)
///     │     p ↦ p - (10,20) + (150,150) = p + (140,130)
///     │  └─ b  bounds (0,0,40,20), position (60,70), anchor (½,½), turned a quarter
///     │        p ↦ rot(p - (20,10)) + (60,70), rot(x,y) = (-y,x)
///     │     └─ c  bounds (-5,-5,10,10), position (30,15), anchor (0,0), scaled (2,3)
///     │           p ↦ ((p.x + 5)·2, (p.y + 5)·3) + (30,15)
///     └─ d  bounds (0,0,50,50), position (300,300), anchor (1,1), scaled (½,½)
///           p ↦ (p - (50,50))·½ + (300,300)
@MainActor
struct ConversionTree {
    let root = makeLayer(bounds: CGRect(x: 0, y: 0, width: 400, height: 400), position: CGPoint(x: 200, y: 200))
    let a = makeLayer(bounds: CGRect(x: 10, y: 20, width: 100, height: 100), position: CGPoint(x: 150, y: 150), anchorPoint: .zero)
    let b = makeLayer(bounds: CGRect(x: 0, y: 0, width: 40, height: 20), position: CGPoint(x: 60, y: 70))
    let c = makeLayer(bounds: CGRect(x: -5, y: -5, width: 10, height: 10), position: CGPoint(x: 30, y: 15), anchorPoint: .zero)
    let d = makeLayer(bounds: CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 300, y: 300), anchorPoint: CGPoint(x: 1, y: 1))

    init() {
        b.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        c.setAffineTransform(CGAffineTransform(scaleX: 2, y: 3))
        d.setAffineTransform(CGAffineTransform(scaleX: 0.5, y: 0.5))
        root.addSublayer(a)
        a.addSublayer(b)
        b.addSublayer(c)
        root.addSublayer(d)
    }
}

@MainActor
@Suite struct CALayerConversionTests {
    let tree = ConversionTree()

    // c's point (1,1):
    //   in b:    ((1+5)·2, (1+5)·3) + (30,15) = (12,18) + (30,15) = (42,33)
    //   in a:    rot((42,33) - (20,10)) + (60,70) = rot(22,23) + (60,70) = (-23,22) + (60,70) = (37,92)
    //   in root: (37,92) + (140,130) = (177,222), which is also root space
    //   in d:    ((177,222) - (300,300))·2 + (50,50) = (-246,-156) + (50,50) = (-196,-106)
    let pointInC = CGPoint(x: 1, y: 1)
    let inB = CGPoint(x: 42, y: 33)
    let inA = CGPoint(x: 37, y: 92)
    let inRoot = CGPoint(x: 177, y: 222)
    let inD = CGPoint(x: -196, y: -106)

    @Test func oneLevelUpAndDown() {
        expectEqual(tree.c.convertToSuperlayer(pointInC), inB)
        #expect(approximately(tree.b.convertToSuperlayer(inB), inA))
        expectEqual(tree.a.convertToSuperlayer(inA), inRoot)
        #expect(approximately(tree.c.convertFromSuperlayer(inB), pointInC))
        #expect(approximately(tree.b.convertFromSuperlayer(inA), inB))
        expectEqual(tree.a.convertFromSuperlayer(inRoot), inA)
    }

    @Test func toAndFromTheSuperlayerAndASublayer() {
        expectEqual(tree.c.convert(pointInC, to: tree.b), inB)
        expectEqual(tree.b.convert(pointInC, from: tree.c), inB)
        #expect(approximately(tree.c.convert(inB, from: tree.b), pointInC))
        #expect(approximately(tree.b.convert(inB, to: tree.c), pointInC))
    }

    @Test func throughSeveralLevels() {
        #expect(approximately(tree.c.convert(pointInC, to: tree.a), inA))
        #expect(approximately(tree.a.convert(pointInC, from: tree.c), inA))
        #expect(approximately(tree.c.convert(pointInC, to: tree.root), inRoot))
        #expect(approximately(tree.root.convert(pointInC, from: tree.c), inRoot))
        #expect(approximately(tree.c.convert(inRoot, from: tree.root), pointInC))
        #expect(approximately(tree.root.convert(inRoot, to: tree.c), pointInC))
        #expect(approximately(tree.c.convert(inA, from: tree.a), pointInC))
    }

    @Test func betweenBranches() {
        #expect(approximately(tree.c.convert(pointInC, to: tree.d), inD))
        #expect(approximately(tree.d.convert(pointInC, from: tree.c), inD))
        #expect(approximately(tree.d.convert(inD, to: tree.c), pointInC))
        // d's point (10,20) in root: (10-50, 20-50)·½ + (300,300) = (280,285),
        // in a: (280,285) - (140,130) = (140,155).
        expectEqual(tree.d.convert(CGPoint(x: 10, y: 20), to: tree.a), CGPoint(x: 140, y: 155))
        expectEqual(tree.a.convert(CGPoint(x: 140, y: 155), to: tree.d), CGPoint(x: 10, y: 20))
    }

    @Test func withNilMeaningRootSpace() {
        #expect(approximately(tree.c.convert(pointInC, to: nil), inRoot))
        #expect(approximately(tree.c.convert(inRoot, from: nil), pointInC))
        #expect(approximately(tree.c.convertToRootSpace(pointInC), inRoot))
        #expect(approximately(tree.c.convertFromRootSpace(inRoot), pointInC))
        expectEqual(tree.d.convert(CGPoint(x: 10, y: 20), to: nil), CGPoint(x: 280, y: 285))
        expectEqual(tree.d.convert(CGPoint(x: 280, y: 285), from: nil), CGPoint(x: 10, y: 20))
    }

    @Test func rootSpaceIncludesTheRootsOwnGeometry() {
        let root = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 60, y: 70))
        // p ↦ p - (50,50) + (60,70) = p + (10,20)
        expectEqual(root.convert(CGPoint(x: 0, y: 0), to: nil), CGPoint(x: 10, y: 20))
        expectEqual(root.convert(CGPoint(x: 10, y: 20), from: nil), CGPoint(x: 0, y: 0))
        // The root is the layer's own space when converting to itself.
        expectEqual(root.convert(CGPoint(x: 3, y: 4), to: root), CGPoint(x: 3, y: 4))
        expectEqual(root.convert(CGPoint(x: 3, y: 4), from: root), CGPoint(x: 3, y: 4))
    }

    @Test func betweenSeparateTreesThroughTheSharedRootSpace() {
        // Two windows' trees: x ↦ p + (10,20) (as above), y ↦ p - (25,25) + (100,0) = p + (75,-25).
        let x = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 60, y: 70))
        let y = makeLayer(bounds: CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 100, y: 0))
        // (0,0) in x → (10,20) in root space → (10-75, 20+25) = (-65,45) in y.
        expectEqual(x.convert(CGPoint(x: 0, y: 0), to: y), CGPoint(x: -65, y: 45))
        expectEqual(y.convert(CGPoint(x: -65, y: 45), to: x), CGPoint(x: 0, y: 0))
    }

    @Test func aLayerToItself() {
        expectEqual(tree.c.convert(pointInC, to: tree.c), pointInC)
        expectEqual(tree.c.convert(pointInC, from: tree.c), pointInC)
    }

    @Test func rectanglesBecomeBoundingBoxes() {
        // c's bounds (-5,-5,10,10) in b: corners ↦ ((x+5)·2 + 30, (y+5)·3 + 15):
        //   x -5…5 → 30…50, y -5…5 → 15…45.
        expectEqual(tree.b.convert(tree.c.bounds, from: tree.c), CGRect(x: 30, y: 15, width: 20, height: 30))
        expectEqual(tree.c.frame, CGRect(x: 30, y: 15, width: 20, height: 30))
        // Then into a: (x,y) - (20,10) = (10…30, 5…35), turned (-y,x) = (-35…-5, 10…30),
        //   plus (60,70) = (25…55, 80…100).
        #expect(approximately(tree.a.convert(tree.c.bounds, from: tree.c), CGRect(x: 25, y: 80, width: 30, height: 20)))
        #expect(approximately(tree.c.convert(tree.c.bounds, to: tree.a), CGRect(x: 25, y: 80, width: 30, height: 20)))
        // And back: the bounding box of that rectangle in c is c's bounds again
        // (a quarter turn and a scale keep rectangles rectangles).
        #expect(approximately(tree.c.convert(CGRect(x: 25, y: 80, width: 30, height: 20), from: tree.a), tree.c.bounds))
        // b's frame in a: corners (±20, ±10) turned → (∓10, ±20), plus (60,70): x 50…70, y 50…90.
        #expect(approximately(tree.b.frame, CGRect(x: 50, y: 50, width: 20, height: 40)))
    }

    @Test func aSingularTransformMapsEveryPointToNaN() {
        let root = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 50, y: 50))
        let flat = makeLayer(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 50, y: 50))
        flat.setAffineTransform(CGAffineTransform(scaleX: 0, y: 1))
        root.addSublayer(flat)
        let converted = flat.convert(CGPoint(x: 50, y: 50), from: root)
        #expect(converted.x.isNaN && converted.y.isNaN)
        // The other way is still defined: every point lands on the line x = 50.
        expectEqual(flat.convert(CGPoint(x: 7, y: 2), to: root), CGPoint(x: 50, y: 47))
    }
}
