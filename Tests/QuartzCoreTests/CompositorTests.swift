import TestExpectations
import Testing
@testable import QuartzCore

typealias RGBA = (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)

@MainActor
func color(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat = 1) -> CGColor {
    CGColor(red: r, green: g, blue: b, alpha: a)
}

/// Whether every channel is within `tolerance` of the expected value.
func matches(_ pixel: RGBA, _ expected: (Int, Int, Int, Int), tolerance: Int = 0) -> Bool {
    abs(Int(pixel.red) - expected.0) <= tolerance && abs(Int(pixel.green) - expected.1) <= tolerance
        && abs(Int(pixel.blue) - expected.2) <= tolerance && abs(Int(pixel.alpha) - expected.3) <= tolerance
}

/// How many pixels of `a`'s frame differ from `b`'s, in any channel.
@MainActor
func differingPixels(_ a: LayerCompositor, _ b: LayerCompositor) -> Int {
    var differing = 0
    for y in 0..<a.pixelHeight {
        for x in 0..<a.pixelWidth {
            let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
            if p.red != q.red || p.green != q.green || p.blue != q.blue || p.alpha != q.alpha { differing += 1 }
        }
    }
    return differing
}

/// The frame's pixels as they are, then how many differ from the same
/// committed tree drawn whole (which the frame then holds).
@MainActor
func pixelsDifferingFromFullFrame(_ compositor: LayerCompositor) -> Int {
    let drawn = compositor.withUnsafeBytes { Array($0) }
    compositor.renderFullFrame()
    return compositor.withUnsafeBytes { full in
        var differing = 0
        for index in Swift.stride(from: 0, to: full.count, by: 4)
        where !drawn[index..<index + 4].elementsEqual(full[index..<index + 4]) {
            differing += 1
        }
        return differing
    }
}

/// A root layer filling a `width`×`height` point frame, white, and a compositor for it.
@MainActor
func makeScene(width: Int = 40, height: Int = 40, scale: CGFloat = 1) throws -> (CALayer, LayerCompositor) {
    TransactionState.current.reset()
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: width, height: height)
    root.backgroundColor = color(1, 1, 1)
    let compositor = try LayerCompositor(
        rootLayer: root, pixelWidth: Int(CGFloat(width) * scale), pixelHeight: Int(CGFloat(height) * scale), scale: scale)
    return (root, compositor)
}

@MainActor
func addLayer(to parent: CALayer, frame: CGRect, color c: CGColor?) -> CALayer {
    let layer = CALayer()
    layer.frame = frame
    layer.backgroundColor = c
    parent.addSublayer(layer)
    return layer
}

let white = (255, 255, 255, 255), red = (255, 0, 0, 255), blue = (0, 0, 255, 255), green = (0, 255, 0, 255)

@MainActor
@Suite struct CompositorPropertyTests {
    @Test func aBackgroundFillsItsBoundsExactlyAndHalfPixelsHalfway() throws {
        let (root, compositor) = try makeScene()
        _ = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        _ = addLayer(to: root, frame: CGRect(x: 25.5, y: 10, width: 5, height: 5), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        #expect(matches(compositor.pixel(x: 19, y: 19), red))
        #expect(matches(compositor.pixel(x: 9, y: 10), white))
        #expect(matches(compositor.pixel(x: 20, y: 19), white))
        // The blue square starts half way into pixel 25: half blue, half white.
        #expect(matches(compositor.pixel(x: 25, y: 12), (128, 128, 255, 255), tolerance: 2))
        #expect(matches(compositor.pixel(x: 26, y: 12), blue))
        #expect(matches(compositor.pixel(x: 30, y: 12), (128, 128, 255, 255), tolerance: 2))
    }

    @Test func theScreenScaleMultipliesEveryPoint() throws {
        let (root, compositor) = try makeScene(width: 20, height: 20, scale: 3)
        _ = addLayer(to: root, frame: CGRect(x: 2, y: 2, width: 4, height: 4), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(compositor.pixelWidth, 60)
        #expect(matches(compositor.pixel(x: 6, y: 6), red))
        #expect(matches(compositor.pixel(x: 17, y: 17), red))
        #expect(matches(compositor.pixel(x: 18, y: 17), white))
        #expect(matches(compositor.pixel(x: 5, y: 6), white))
    }

    @Test func cornerRadiusRoundsOnlyTheMaskedCorners() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        layer.cornerRadius = 10
        layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 0, y: 0), white))       // rounded away
        #expect(matches(compositor.pixel(x: 39, y: 39), white))
        #expect(matches(compositor.pixel(x: 39, y: 0), red))        // square corners
        #expect(matches(compositor.pixel(x: 0, y: 39), red))
        #expect(matches(compositor.pixel(x: 5, y: 5), red))         // inside the arc
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        // Row 1 crosses the arc near x = 4.7. Pixel 4's centre is 0.12 px
        // outside the arc (covered 0.38), pixel 5's 0.38 px inside (0.88).
        let partial = (0..<10).filter { compositor.pixel(x: $0, y: 1).green > 10 && compositor.pixel(x: $0, y: 1).green < 245 }
        expectEqual(partial, [4, 5])
        #expect(abs(Int(compositor.pixel(x: 4, y: 1).green) - 158) <= 8)
        #expect(abs(Int(compositor.pixel(x: 5, y: 1).green) - 31) <= 8)
    }

    @Test func theBorderIsInsetAndDrawnAboveSublayers() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.borderWidth = 3
        layer.borderColor = color(0, 0, 1)
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(0, 1, 0))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 15), blue))   // the border, over the green sublayer
        #expect(matches(compositor.pixel(x: 12, y: 15), blue))
        #expect(matches(compositor.pixel(x: 13, y: 15), green))  // the sublayer, inside the border
        #expect(matches(compositor.pixel(x: 25, y: 25), red))
        #expect(matches(compositor.pixel(x: 29, y: 20), blue))
        #expect(matches(compositor.pixel(x: 30, y: 20), white))  // the border does not grow the layer
        #expect(matches(compositor.pixel(x: 9, y: 20), white))
    }

    @Test func opacityAppliesToTheLayerAndItsSublayersAsOneGroup() throws {
        let (root, compositor) = try makeScene()
        let parent = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        _ = addLayer(to: parent, frame: CGRect(x: 10, y: 0, width: 20, height: 20), color: color(0, 0, 1))
        parent.opacity = 0.5
        CATransaction.flush()
        compositor.renderFrame()
        // Where blue covers red, the group is blue at half opacity over white: no red shows through.
        #expect(matches(compositor.pixel(x: 15, y: 5), (128, 128, 255, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 5, y: 5), (255, 128, 128, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 25, y: 5), (128, 128, 255, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 35, y: 5), white))
    }

    @Test func aHiddenLayerDrawsNothingAndNeitherDoItsSublayers() throws {
        let (root, compositor) = try makeScene()
        let parent = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        _ = addLayer(to: parent, frame: CGRect(x: 5, y: 5, width: 30, height: 30), color: color(0, 0, 1))
        parent.isHidden = true
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 2, y: 2), white))
        #expect(matches(compositor.pixel(x: 30, y: 30), white))
    }

    @Test func masksToBoundsClipsSublayersToTheRoundedBounds() throws {
        let (root, compositor) = try makeScene()
        let parent = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 20, height: 20), color: nil)
        parent.masksToBounds = true
        _ = addLayer(to: parent, frame: CGRect(x: -5, y: -5, width: 40, height: 40), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 4, y: 10), white))
        #expect(matches(compositor.pixel(x: 5, y: 5), blue))
        #expect(matches(compositor.pixel(x: 24, y: 24), blue))
        #expect(matches(compositor.pixel(x: 25, y: 24), white))
        parent.cornerRadius = 8
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), white))    // the corner is clipped round
        #expect(matches(compositor.pixel(x: 15, y: 5), blue))
        #expect(matches(compositor.pixel(x: 24, y: 24), white))
    }

    @Test func aRotationTurnsTheLayerAboutItsAnchorPointWithSmoothEdges() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        CATransaction.flush()
        compositor.renderFrame()
        // A diamond about (20, 20): its tips reach 20 ± 14.1.
        #expect(matches(compositor.pixel(x: 20, y: 20), red))
        #expect(matches(compositor.pixel(x: 20, y: 7), red))
        #expect(matches(compositor.pixel(x: 10, y: 10), white))  // a corner of the unrotated square
        #expect(matches(compositor.pixel(x: 20, y: 4), white))
        // Along an edge, pixels are partly covered.
        var partial = 0
        for x in 6..<20 where compositor.pixel(x: x, y: 14).green > 10 && compositor.pixel(x: x, y: 14).green < 245 { partial += 1 }
        #expect(partial >= 1)

        layer.anchorPoint = CGPoint(x: 0, y: 0)
        layer.position = CGPoint(x: 10, y: 10)
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 2))
        CATransaction.flush()
        compositor.renderFrame()
        // Turned a quarter about its top-left corner: it now lies left of x = 10.
        #expect(matches(compositor.pixel(x: 5, y: 15), red))
        #expect(matches(compositor.pixel(x: 15, y: 15), white))
    }

    @Test func sublayerTransformMovesTheSublayersAboutTheAnchorPoint() throws {
        let (root, compositor) = try makeScene()
        let parent = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        _ = addLayer(to: parent, frame: CGRect(x: 20, y: 20, width: 5, height: 5), color: color(0, 0, 1))
        parent.sublayerTransform = CATransform3DMakeAffineTransform(CGAffineTransform(scaleX: 2, y: 2))
        CATransaction.flush()
        compositor.renderFrame()
        // Scaled ×2 about (20, 20): the sublayer covers 20..<30.
        #expect(matches(compositor.pixel(x: 21, y: 21), blue))
        #expect(matches(compositor.pixel(x: 29, y: 29), blue))
        #expect(matches(compositor.pixel(x: 30, y: 30), white))
    }

    @Test func zPositionOrdersSiblingsWhateverTheirOrder() throws {
        let (root, compositor) = try makeScene()
        let front = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        _ = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 15, y: 15), blue))
        front.zPosition = 1
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 15, y: 15), red))
    }

    @Test func aShadowFallsAtItsOffsetAndIsBlurredByItsRadius() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = CGSize(width: 10, height: 10)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 35, y: 35), (0, 0, 0, 255)))  // sharp black shadow
        #expect(matches(compositor.pixel(x: 15, y: 15), red))              // under the layer
        #expect(matches(compositor.pixel(x: 41, y: 35), white))
        layer.shadowRadius = 4
        layer.shadowOpacity = 0.5
        CATransaction.flush()
        compositor.renderFrame()
        // Blurred: the edge is half as dark as the middle, and the shadow reaches beyond it.
        let middle = compositor.pixel(x: 30, y: 30), edge = compositor.pixel(x: 40, y: 30), beyond = compositor.pixel(x: 43, y: 30)
        #expect(middle.red > 120 && middle.red < 140)   // half opacity, unblurred there
        #expect(edge.red > middle.red && edge.red < 230)
        #expect(beyond.red > edge.red && beyond.red < 255)
    }

    @Test func aShadowPathCastsItsOwnShapeEvenWithoutABackground() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: nil)
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = .zero
        // A triangle in the layer's coordinates: its right-angle corner at the
        // top left, its long side from (40, 0) to (0, 20).
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 0, y: 0))
        triangle.addLine(to: CGPoint(x: 40, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 20))
        triangle.closeSubpath()
        layer.shadowPath = triangle
        triangle.addLine(to: CGPoint(x: 40, y: 40))   // later changes to the path change nothing
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 12, y: 12), (0, 0, 0, 255)))   // inside the triangle
        #expect(matches(compositor.pixel(x: 40, y: 12), (0, 0, 0, 255)))   // beyond the bounds, inside the triangle
        #expect(matches(compositor.pixel(x: 28, y: 28), white))            // inside the bounds, outside the triangle
        #expect(matches(compositor.pixel(x: 45, y: 45), white))
        // The long side is anti-aliased: a pixel it crosses is partly dark.
        let edge = compositor.pixel(x: 29, y: 20)
        #expect(edge.red > 40 && edge.red < 215 && edge.red == edge.green && edge.green == edge.blue)
        // Another path draws again, where the old shadow was and where the new one is.
        layer.shadowPath = CGPath(rect: CGRect(x: 30, y: 30, width: 10, height: 10), transform: nil)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 12, y: 12), white))
        #expect(matches(compositor.pixel(x: 45, y: 45), (0, 0, 0, 255)))
        // Nil: the background's bounds again; there is none, so no shadow.
        layer.shadowPath = nil
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 45, y: 45), white))
        #expect(matches(compositor.pixel(x: 15, y: 15), white))
    }

    @Test func aShadowPathThatIsNotAShapeCastsNothing() throws {
        let (root, compositor) = try makeScene(width: 30, height: 30)
        let layer = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 20, height: 20), color: color(1, 0, 0))
        layer.shadowOpacity = 1
        layer.shadowRadius = 2
        for path in [CGMutablePath(), {
            let p = CGMutablePath()
            p.move(to: CGPoint(x: CGFloat.nan, y: 0)); p.addLine(to: CGPoint(x: 1e300, y: CGFloat.infinity)); p.addLine(to: CGPoint(x: 3, y: 3))
            return p
        }()] {
            layer.shadowPath = path
            CATransaction.flush()
            compositor.renderFrame()
            #expect(matches(compositor.pixel(x: 15, y: 15), red))
            #expect(matches(compositor.pixel(x: 2, y: 2), white))
        }
    }
}

@MainActor
@Suite struct CompositorDamageTests {
    @Test func onlyWhatChangedIsDrawnAgainAndNothingWhenNothingChanged() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let a = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        _ = addLayer(to: root, frame: CGRect(x: 60, y: 60, width: 10, height: 10), color: color(0, 0, 1))
        CATransaction.flush()
        expectEqual(compositor.renderFrame(), [CGRect(x: 0, y: 0, width: 100, height: 100)])
        #expect(compositor.renderFrame().isEmpty)
        a.backgroundColor = color(0, 1, 0)
        CATransaction.flush()
        let damage = compositor.renderFrame()
        expectEqual(damage.count, 1)
        #expect(damage[0].contains(CGRect(x: 10, y: 10, width: 10, height: 10)))
        #expect(damage[0].width <= 12 && damage[0].height <= 12)
        #expect(matches(compositor.pixel(x: 15, y: 15), green))
        #expect(matches(compositor.pixel(x: 65, y: 65), blue))
    }

    @Test func movingALayerDamagesWhereItWasAndWhereItIs() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let a = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        a.position = CGPoint(x: 75, y: 75)
        CATransaction.flush()
        let damage = compositor.renderFrame()
        let all = damage.reduce(CGRect.null) { $0.union($1) }
        #expect(all.contains(CGRect(x: 10, y: 10, width: 10, height: 10)))
        #expect(all.contains(CGRect(x: 70, y: 70, width: 10, height: 10)))
        #expect(!damage.contains { $0.contains(CGPoint(x: 45, y: 45)) })  // two rects, not their union
        #expect(matches(compositor.pixel(x: 15, y: 15), white))
        #expect(matches(compositor.pixel(x: 75, y: 75), red))
    }

    @Test func removingALayerDamagesWhatItCovered() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let a = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        a.removeFromSuperlayer()
        CATransaction.flush()
        #expect(!compositor.renderFrame().isEmpty)
        #expect(matches(compositor.pixel(x: 15, y: 15), white))
    }

    @Test func theFrameShowsTheCommittedTreeNotLaterChanges() throws {
        let (root, compositor) = try makeScene()
        let a = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        CATransaction.flush()
        a.backgroundColor = color(0, 0, 1)  // not committed yet
        a.position = CGPoint(x: 30, y: 30)
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), red))
        #expect(matches(compositor.pixel(x: 30, y: 30), white))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), white))
        #expect(matches(compositor.pixel(x: 30, y: 30), blue))
    }

    @Test func aMovedParentRedrawsItsWholeSubtreeInItsNewPlace() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let parent = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 30, height: 30), color: nil)
        _ = addLayer(to: parent, frame: CGRect(x: 5, y: 5, width: 5, height: 5), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        parent.position.x += 50
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 7, y: 7), white))
        #expect(matches(compositor.pixel(x: 57, y: 7), red))
    }

    /// A frame's rectangles come in storage the compositor keeps and
    /// empties at the next frame (no allocation per refresh); a caller that
    /// still holds the last frame's list keeps it as it was.
    @Test func aFramesRectanglesStayAsTheyWereWhileTheNextFrameIsDrawn() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let a = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        CATransaction.flush()
        let first = compositor.renderFrame()
        let firstPixels = compositor.renderFramePixelRects()
        a.position = CGPoint(x: 75, y: 75)
        CATransaction.flush()
        let second = compositor.renderFramePixelRects()
        a.backgroundColor = color(0, 0, 1)
        CATransaction.flush()
        let third = compositor.renderFrame()
        expectEqual(first, [CGRect(x: 0, y: 0, width: 100, height: 100)])
        #expect(firstPixels.isEmpty)
        expectEqual(second, [PixelRect(x0: 10, y0: 10, x1: 20, y1: 20), PixelRect(x0: 70, y0: 70, x1: 80, y1: 80)])
        expectEqual(third, [CGRect(x: 70, y: 70, width: 10, height: 10)])
    }
}

/// Damage works in place: merging, clipping and emptying keep its list's
/// storage, so a damage kept from frame to frame allocates nothing once warm.
@Suite struct DamageStorageTests {
    func storage(_ damage: Damage) -> UnsafeRawPointer? {
        damage.rects.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func mergingClippingAndEmptyingKeepTheStorage() {
        var damage = Damage()
        // Nine rectangles apart from one another: one more than are kept apart, so merged into their bounding box.
        func addNine() { for i in 0..<9 { damage.add(PixelRect(x0: i * 20, y0: 0, x1: i * 20 + 10, y1: 10)) } }
        addNine()
        expectEqual(damage.rects, [PixelRect(x0: 0, y0: 0, x1: 170, y1: 10)])
        damage.removeAll()
        let kept = storage(damage)
        #expect(kept != nil)
        addNine()
        expectEqual(damage.rects, [PixelRect(x0: 0, y0: 0, x1: 170, y1: 10)])
        expectEqual(storage(damage), kept)
        damage.add(PixelRect(x0: 0, y0: 30, x1: 10, y1: 40))
        damage.add(PixelRect(x0: 200, y0: 0, x1: 210, y1: 10))
        damage.add(PixelRect(x0: 150, y0: 30, x1: 160, y1: 40))
        damage.clip(to: PixelRect(x0: 5, y0: 5, x1: 155, y1: 35))
        // The second lies outside and goes; the others are cut to the bounds, in order.
        expectEqual(damage.rects, [PixelRect(x0: 5, y0: 5, x1: 155, y1: 10), PixelRect(x0: 5, y0: 30, x1: 10, y1: 35), PixelRect(x0: 150, y0: 30, x1: 155, y1: 35)])
        expectEqual(storage(damage), kept)
        damage.removeAll()
        #expect(damage.isEmpty)
        expectEqual(storage(damage), kept)
    }
}

@MainActor
@Suite struct CompositorBadInputTests {
    @Test func framesThatAreNotFramesAreRefusedClearly() {
        let layer = CALayer()
        #expect(throws: LayerCompositor.FrameError.invalidSize(width: 0, height: 10, scale: 1)) {
            try LayerCompositor(rootLayer: layer, pixelWidth: 0, pixelHeight: 10, scale: 1)
        }
        #expect(throws: LayerCompositor.FrameError.invalidSize(width: -5, height: 10, scale: 1)) {
            try LayerCompositor(rootLayer: layer, pixelWidth: -5, pixelHeight: 10, scale: 1)
        }
        #expect(throws: LayerCompositor.FrameError.self) {
            try LayerCompositor(rootLayer: layer, pixelWidth: 10, pixelHeight: 10, scale: .nan)
        }
        #expect(throws: LayerCompositor.FrameError.tooLarge(width: 1 << 20, height: 1 << 20)) {
            try LayerCompositor(rootLayer: layer, pixelWidth: 1 << 20, pixelHeight: 1 << 20, scale: 1)
        }
        #expect(throws: LayerCompositor.FrameError.tooLarge(width: Int.max, height: 2)) {
            try LayerCompositor(rootLayer: layer, pixelWidth: Int.max, pixelHeight: 2, scale: 1)
        }
        #expect("\(LayerCompositor.FrameError.tooLarge(width: 1, height: 2))".contains("larger than"))
    }

    @Test func hugeZeroAndNegativeLayersDrawWithoutHarm() throws {
        let (root, compositor) = try makeScene()
        let huge = addLayer(to: root, frame: CGRect(x: -1e12, y: -1e12, width: 2e12, height: 2e12), color: color(1, 0, 0))
        huge.cornerRadius = 1e15
        huge.shadowOpacity = 1
        huge.shadowRadius = 1e9
        _ = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 0, height: 10), color: color(0, 0, 1))
        let negative = addLayer(to: root, frame: CGRect(x: 30, y: 30, width: -10, height: -10), color: color(0, 1, 0))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 1, y: 1), red))
        #expect(matches(compositor.pixel(x: 25, y: 25), green))  // a negative frame is standardized
        negative.bounds = CGRect(x: 0, y: 0, width: -5, height: -5)
        let squashed = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(0, 0, 1))
        squashed.setAffineTransform(CGAffineTransform(scaleX: 0, y: 1))  // no area, no inverse
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 1, y: 1), red))
    }

    @Test func nonFiniteAndNegativeAppearanceValuesAreRefused() {
        let layer = CALayer()
        layer.cornerRadius = 4
        layer.cornerRadius = .nan
        layer.cornerRadius = -1
        expectEqual(layer.cornerRadius, 4)
        layer.borderWidth = .infinity
        expectEqual(layer.borderWidth, 0)
        layer.opacity = .nan
        expectEqual(layer.opacity, 1)
        layer.shadowRadius = -3
        expectEqual(layer.shadowRadius, 3)
        layer.contentsScale = 0
        expectEqual(layer.contentsScale, 1)
        layer.sublayerTransform = CATransform3DMakeAffineTransform(CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        #expect(CATransform3DIsIdentity(layer.sublayerTransform))
    }
}
