import TestExpectations
import Testing
import QuartzCore
import GeometryTestSupport

@MainActor
func makeLayer(bounds: CGRect, position: CGPoint, anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)) -> CALayer {
    let layer = CALayer()
    layer.bounds = bounds
    layer.position = position
    layer.anchorPoint = anchorPoint
    return layer
}

@MainActor
@Suite struct CALayerGeometryTests {
    @Test func defaults() {
        let layer = CALayer()
        expectEqual(layer.bounds, .zero)
        expectEqual(layer.position, .zero)
        expectEqual(layer.anchorPoint, CGPoint(x: 0.5, y: 0.5))
        #expect(CATransform3DIsIdentity(layer.transform))
        expectEqual(layer.affineTransform(), .identity)
        expectEqual(layer.zPosition, 0)
        expectEqual(layer.frame, .zero)
        #expect(!layer.isHidden && layer.opacity == 1 && !layer.masksToBounds)
        #expect(layer.backgroundColor == nil)
        #expect(layer.superlayer == nil && layer.sublayers == nil)
        #expect(!layer.needsDisplay())
    }

    @Test func frameIsDerivedFromPositionAnchorPointAndBounds() {
        let layer = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100))
        // origin = position - anchor · size = (200 - 0.5·100, 100 - 0.5·50) = (150, 75)
        expectEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))

        layer.anchorPoint = .zero
        // (200 - 0, 100 - 0)
        expectEqual(layer.frame, CGRect(x: 200, y: 100, width: 100, height: 50))

        layer.anchorPoint = CGPoint(x: 1, y: 0.25)
        // (200 - 1·100, 100 - 0.25·50) = (100, 87.5)
        expectEqual(layer.frame, CGRect(x: 100, y: 87.5, width: 100, height: 50))
    }

    @Test func boundsOriginDoesNotMoveTheFrame() {
        let layer = makeLayer(bounds: CGRect(x: 30, y: -40, width: 100, height: 50), position: CGPoint(x: 200, y: 100))
        expectEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    @Test func settingTheFrameSetsPositionAndBoundsSize() {
        let layer = makeLayer(bounds: CGRect(x: 5, y: 6, width: 1, height: 1), position: .zero,
                              anchorPoint: CGPoint(x: 0.25, y: 0.5))
        layer.frame = CGRect(x: 10, y: 20, width: 40, height: 60)
        // position = origin + anchor · size = (10 + 0.25·40, 20 + 0.5·60) = (20, 50)
        expectEqual(layer.position, CGPoint(x: 20, y: 50))
        // The bounds keep their origin and take the size.
        expectEqual(layer.bounds, CGRect(x: 5, y: 6, width: 40, height: 60))
        expectEqual(layer.frame, CGRect(x: 10, y: 20, width: 40, height: 60))
    }

    @Test func settingANegativeSizedFrameStandardisesIt() {
        let layer = CALayer()
        // (50, 80, -40, -60) covers x 10…50, y 20…80.
        layer.frame = CGRect(x: 50, y: 80, width: -40, height: -60)
        expectEqual(layer.bounds.size, CGSize(width: 40, height: 60))
        // (10 + 0.5·40, 20 + 0.5·60)
        expectEqual(layer.position, CGPoint(x: 30, y: 50))
        expectEqual(layer.frame, CGRect(x: 10, y: 20, width: 40, height: 60))
    }

    @Test func frameUnderARotationIsTheBoundingBox() {
        let layer = makeLayer(bounds: CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100))
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        // Corners about the anchor: (±50, ±25) → (x, y) ↦ (-y, x) → (∓25, ±50);
        // plus the position: x 175…225, y 50…150.
        #expect(approximately(layer.frame, CGRect(x: 175, y: 50, width: 50, height: 100)))
        // The untransformed geometry is untouched.
        expectEqual(layer.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        expectEqual(layer.position, CGPoint(x: 200, y: 100))
    }

    @Test func frameUnderAScaleAboutACornerAnchor() {
        let layer = makeLayer(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 5, y: 5), anchorPoint: .zero)
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        // The anchor corner stays at (5, 5); the layer grows to 20 × 30 from there.
        expectEqual(layer.frame, CGRect(x: 5, y: 5, width: 20, height: 30))
        expectEqual(layer.affineTransform(), CGAffineTransform(scaleX: 2, y: 3))
    }

    @Test func settingTheFrameUnderAScaleReadsBackTheSameFrame() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(0.25, 0.75, 1)
        layer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        #expect(approximately(layer.frame, CGRect(x: 50, y: 50, width: 100, height: 100)))
        // The bounds are the frame's size undone by the scale; the position
        // is the frame's centre (the anchor point is the centre).
        #expect(approximately(layer.bounds.size, CGSize(width: 400, height: 100 / 0.75)))
        #expect(approximately(layer.position, CGPoint(x: 100, y: 100)))
    }

    @Test func settingTheFrameUnderAQuarterTurnSwapsTheBoundsSides() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 1, height: 1)
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        layer.frame = CGRect(x: 10, y: 20, width: 60, height: 100)
        #expect(approximately(layer.frame, CGRect(x: 10, y: 20, width: 60, height: 100)))
        #expect(approximately(layer.bounds.size, CGSize(width: 100, height: 60)))
        // The bounds' origin (a scroll offset) is kept and does not move the layer.
        expectEqual(layer.bounds.origin, CGPoint(x: 10, y: 20))
        #expect(approximately(layer.position, CGPoint(x: 40, y: 70)))
    }

    @Test func settingTheFrameUnderAScaleAboutACornerAnchor() {
        let layer = makeLayer(bounds: .zero, position: .zero, anchorPoint: .zero)
        layer.transform = CATransform3DMakeScale(2, 4, 1)
        layer.frame = CGRect(x: 10, y: 10, width: 100, height: 40)
        #expect(approximately(layer.bounds.size, CGSize(width: 50, height: 10)))
        #expect(approximately(layer.position, CGPoint(x: 10, y: 10)))
        #expect(approximately(layer.frame, CGRect(x: 10, y: 10, width: 100, height: 40)))
    }

    @Test func settingTheFrameUnderAnObliqueRotationCoversItAroundTheSameCentre() {
        let layer = CALayer()
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 6))
        let set = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.frame = set
        // No bounds turned by 30° have this frame as bounding box: the bounds
        // are the frame turned back, and the frame read back covers the one set.
        let read = layer.frame
        #expect(read.insetBy(dx: -1e-9, dy: -1e-9).contains(set))
        #expect(approximately(CGPoint(x: read.midX, y: read.midY), CGPoint(x: set.midX, y: set.midY)))
        let turnedBack = set.applying(CGAffineTransform(rotationAngle: -.pi / 6))
        #expect(approximately(layer.bounds.size, turnedBack.size))
    }

    @Test func settingTheFrameUnderASquashingTransformOnlyMovesTheLayer() {
        let layer = makeLayer(bounds: CGRect(x: 0, y: 0, width: 30, height: 30), position: CGPoint(x: 15, y: 15))
        layer.transform = CATransform3DMakeScale(0, 1, 1)
        layer.frame = CGRect(x: 100, y: 200, width: 10, height: 10)
        expectEqual(layer.bounds.size, CGSize(width: 30, height: 30))
        #expect(approximately(layer.position, CGPoint(x: 105, y: 205)))
    }

    @Test func frameUnderATranslation() {
        let layer = makeLayer(bounds: CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 5, y: 5))
        layer.transform = CATransform3DMakeTranslation(7, -3, 0)
        // (0, 0, 10, 10) moved by (7, -3)
        expectEqual(layer.frame, CGRect(x: 7, y: -3, width: 10, height: 10))
    }

    @Test func affineTransformRoundTrips() {
        let layer = CALayer()
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        layer.setAffineTransform(t)
        expectEqual(layer.affineTransform(), t)
        expectEqual(layer.transform, CATransform3DMakeAffineTransform(t))
        layer.transform = CATransform3DIdentity
        expectEqual(layer.affineTransform(), .identity)
    }

    @Test(arguments: [CGFloat.nan, .infinity, -.infinity])
    func nonFiniteGeometryIsRefused(_ bad: CGFloat) {
        let layer = makeLayer(bounds: CGRect(x: 1, y: 2, width: 30, height: 40), position: CGPoint(x: 50, y: 60),
                              anchorPoint: CGPoint(x: 0.25, y: 0.75))
        layer.zPosition = 3
        let transform = CATransform3DMakeScale(2, 2, 1)
        layer.transform = transform

        layer.bounds = CGRect(x: bad, y: 0, width: 10, height: 10)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: bad)
        layer.position = CGPoint(x: 0, y: bad)
        layer.anchorPoint = CGPoint(x: bad, y: 0)
        layer.frame = CGRect(x: 0, y: 0, width: bad, height: 10)
        layer.frame = CGRect(x: bad, y: 0, width: 10, height: 10)
        var badTransform = transform
        badTransform.m41 = bad
        layer.transform = badTransform
        layer.setAffineTransform(CGAffineTransform(a: bad, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        var badDepth = transform
        badDepth.m34 = bad
        layer.transform = badDepth
        layer.zPosition = bad

        expectEqual(layer.bounds, CGRect(x: 1, y: 2, width: 30, height: 40))
        expectEqual(layer.position, CGPoint(x: 50, y: 60))
        expectEqual(layer.anchorPoint, CGPoint(x: 0.25, y: 0.75))
        expectEqual(layer.transform, transform)
        expectEqual(layer.affineTransform(), CGAffineTransform(scaleX: 2, y: 2))
        expectEqual(layer.zPosition, 3)
        // Conversions still work: a point of the bounds maps to a finite point.
        #expect(layer.convertToSuperlayer(CGPoint(x: 1, y: 2)).isFinite)
    }

    @Test func containsIncludesTheMinimumEdgesAndExcludesTheMaximumEdges() {
        let layer = makeLayer(bounds: CGRect(x: 10, y: 20, width: 30, height: 40), position: .zero)
        // Bounds run x 10…40, y 20…60.
        #expect(layer.contains(CGPoint(x: 10, y: 20)))
        #expect(layer.contains(CGPoint(x: 25, y: 40)))
        #expect(layer.contains(CGPoint(x: 39.999, y: 59.999)))
        #expect(!layer.contains(CGPoint(x: 40, y: 30)))
        #expect(!layer.contains(CGPoint(x: 20, y: 60)))
        #expect(!layer.contains(CGPoint(x: 40, y: 60)))
        #expect(!layer.contains(CGPoint(x: 9.999, y: 30)))
        #expect(!layer.contains(CGPoint(x: 20, y: 19.999)))
        #expect(!layer.contains(CGPoint(x: CGFloat.nan, y: 30)))
    }

    @Test func anEmptyLayerContainsNothing() {
        let layer = CALayer()
        #expect(!layer.contains(.zero))
    }

    @Test func appearanceProperties() {
        let layer = CALayer()
        layer.isHidden = true
        layer.opacity = 0.5
        layer.masksToBounds = true
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        #expect(layer.isHidden && layer.opacity == 0.5 && layer.masksToBounds)
        expectEqual(layer.backgroundColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }
}
