import TestExpectations
import Testing
@testable import QuartzCore

/// Shadows without a `shadowPath`: cast by everything the layer draws.
@MainActor
@Suite struct ContentShadowTests {
    /// A layer at `frame` casting a sharp black shadow `offset` away.
    func shadowCaster(in root: CALayer, frame: CGRect, offset: CGSize = CGSize(width: 10, height: 10), color c: CGColor? = nil) -> CALayer {
        let layer = addLayer(to: root, frame: frame, color: c)
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = offset
        return layer
    }

    @Test func sublayersCastTheShadowOfALayerWithoutABackground() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = shadowCaster(in: root, frame: CGRect(x: 5, y: 5, width: 30, height: 30))
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(1, 0, 0))
        _ = addLayer(to: layer, frame: CGRect(x: 30, y: 30, width: 10, height: 10), color: color(0, 0, 1))  // beyond the bounds
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 8, y: 8), red))
        #expect(matches(compositor.pixel(x: 18, y: 18), (0, 0, 0, 255)))     // the red one's shadow
        #expect(matches(compositor.pixel(x: 28, y: 28), white))              // the bounds cast nothing
        #expect(matches(compositor.pixel(x: 38, y: 38), blue))
        #expect(matches(compositor.pixel(x: 48, y: 48), (0, 0, 0, 255)))     // the blue one's, beyond the bounds
        #expect(matches(compositor.pixel(x: 55, y: 55), white))
        // The shadow's edge follows the sublayer's, pixel for pixel.
        #expect(matches(compositor.pixel(x: 24, y: 18), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 25, y: 18), white))
    }

    @Test func contentsCastTheShadowOfTheirAlpha() throws {
        let (root, compositor) = try makeScene(width: 60, height: 40)
        let layer = shadowCaster(in: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), offset: CGSize(width: 30, height: 0))
        layer.contents = makeAlphaImage(width: 20, height: 20) { x, _ in x < 10 }
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 35, y: 10), (0, 0, 0, 255)))   // the opaque half's shadow
        #expect(matches(compositor.pixel(x: 45, y: 10), white))            // the clear half casts none
    }

    @Test func aTranslucentBackgroundCastsAFainterShadowAndABorderARing() throws {
        let (root, compositor) = try makeScene(width: 80, height: 40)
        _ = shadowCaster(in: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0, 0.5))
        let ring = shadowCaster(in: root, frame: CGRect(x: 40, y: 0, width: 20, height: 20))
        ring.borderWidth = 2
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 25, y: 25), (127, 127, 127, 255), tolerance: 1))   // half-dark shadow
        // The ring's shadow: 50…70 across, its hole 52…68; the layer itself covers x < 60, y < 20.
        #expect(matches(compositor.pixel(x: 69, y: 20), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 68, y: 20), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 65, y: 20), white))            // the hole: no shadow
    }

    @Test func theLayersOpacityAndTheShadowsOpacityFadeIt() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = shadowCaster(in: root, frame: CGRect(x: 5, y: 5, width: 30, height: 30))
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        layer.shadowOpacity = 0.5
        layer.opacity = 0.5
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 32, y: 32), (191, 191, 191, 255), tolerance: 1))
    }

    @Test func aBlurredShadowOfSublayersMatchesTheShadowOfTheSameShapeAsABackground() throws {
        // The fast path (the background's shape, ShadowMask) and the general
        // one (the group's alpha) give the same pixels for the same shape.
        let (root, compositor) = try makeScene(width: 110, height: 60, scale: 2)
        let card = shadowCaster(in: root, frame: CGRect(x: 5, y: 5, width: 30, height: 30), offset: CGSize(width: 1, height: 3), color: color(1, 1, 1))
        card.cornerRadius = 8
        card.shadowRadius = 3
        card.shadowOpacity = 0.6
        let holder = shadowCaster(in: root, frame: CGRect(x: 65, y: 5, width: 30, height: 30), offset: CGSize(width: 1, height: 3))
        holder.shadowRadius = 3
        holder.shadowOpacity = 0.6
        let inner = addLayer(to: holder, frame: CGRect(x: 0, y: 0, width: 30, height: 30), color: color(1, 1, 1))
        inner.cornerRadius = 8
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(card.committedNode?.castsBackgroundShadow, true)
        expectEqual(holder.committedNode?.castsBackgroundShadow, false)
        // The card and its shadow lie in pixels 0…91 across, the holder's 120 pixels to the right.
        var largest = 0
        for y in 0..<compositor.pixelHeight {
            for x in 0..<92 {
                let a = compositor.pixel(x: x, y: y), b = compositor.pixel(x: x + 120, y: y)
                largest = max(largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            }
        }
        #expect(largest <= 1)
        // Inside: the shadow is dark enough to see, beyond the blur it is gone.
        #expect(compositor.pixel(x: 40, y: 74).red < 200)
        #expect(matches(compositor.pixel(x: 40, y: 110), white))
    }

    @Test func aCardWithItsSublayersInsideTakesTheFastPathAndOneStickingOutDoesNot() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60, scale: 3)
        let card = shadowCaster(in: root, frame: CGRect(x: 5, y: 5, width: 40, height: 40), color: color(1, 1, 1))
        card.cornerRadius = 10
        let child = addLayer(to: card, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(card.committedNode?.castsBackgroundShadow, true)
        // A line off whole pixels that reaches the card's edge, as a list's separator does.
        _ = addLayer(to: card, frame: CGRect(x: 10, y: 20.2, width: 30, height: 0.5), color: color(0, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(card.committedNode?.castsBackgroundShadow, true)
        child.frame = CGRect(x: 1, y: 1, width: 10, height: 10)    // into the rounded corner
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(card.committedNode?.castsBackgroundShadow, false)
        card.masksToBounds = true                                  // clipped to the shape again
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(card.committedNode?.castsBackgroundShadow, true)
    }

    @Test func masksToBoundsClipsTheShadowToo() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let opaque = shadowCaster(in: root, frame: CGRect(x: 5, y: 5, width: 20, height: 20), color: color(1, 0, 0))
        opaque.masksToBounds = true
        // Under a translucent background the clipped shadow shows inside the bounds only.
        let glass = shadowCaster(in: root, frame: CGRect(x: 30, y: 30, width: 20, height: 20), offset: CGSize(width: 5, height: 5), color: color(0, 0, 1, 0.5))
        glass.masksToBounds = true
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 28, y: 28), white))            // where the red one's shadow would fall
        #expect(matches(compositor.pixel(x: 15, y: 15), red))
        #expect(matches(compositor.pixel(x: 47, y: 47), (63, 63, 191, 255), tolerance: 1))  // blue half over the half-dark shadow
        #expect(matches(compositor.pixel(x: 32, y: 32), (127, 127, 255, 255), tolerance: 1)) // blue half over white: no shadow yet
        #expect(matches(compositor.pixel(x: 52, y: 52), white))            // the shadow beyond the bounds: clipped
        expectEqual(opaque.committedNode?.subtreeRect, PixelRect(x0: 5, y0: 5, x1: 25, y1: 25))
    }

    @Test func aFractionalOffsetMovesTheShadowByAFraction() throws {
        let (root, compositor) = try makeScene(width: 40, height: 20)
        let layer = shadowCaster(in: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), offset: CGSize(width: 20.5, height: 0))
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 5), (127, 127, 127, 255), tolerance: 1))   // half covered
        #expect(matches(compositor.pixel(x: 25, y: 5), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 30, y: 5), (127, 127, 127, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 31, y: 5), white))
    }

    @Test func aTurnedLayersSublayersCastATurnedShadow() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = shadowCaster(in: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), offset: CGSize(width: 0, height: 20))
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        CATransaction.flush()
        compositor.renderFrame()
        // A diamond around (20, 20), its shadow a diamond around (20, 40).
        #expect(matches(compositor.pixel(x: 20, y: 46), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 7, y: 46), white))     // beside the diamond's tip, outside it
    }

    @Test func aHugeShadowRadiusOrOffsetAllocatesNothingGiantAndLeavesTheLayerDrawn() throws {
        let (root, compositor) = try makeScene(width: 40, height: 40)
        let layer = shadowCaster(in: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        _ = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(1, 0, 0))
        for radius in [1e6, 1e300, .greatestFiniteMagnitude] as [CGFloat] {
            layer.shadowRadius = radius
            CATransaction.flush()
            compositor.renderFrame()
            #expect(matches(compositor.pixel(x: 15, y: 15), red))
            #expect(matches(compositor.pixel(x: 35, y: 35), white))   // spread beyond sight, or not drawn
        }
        layer.shadowRadius = 0
        for offset in [1e300, -1e300, 1e9] as [CGFloat] {
            layer.shadowOffset = CGSize(width: offset, height: 1)
            CATransaction.flush()
            compositor.renderFrame()
            #expect(matches(compositor.pixel(x: 15, y: 15), red))
        }
    }
}

@MainActor
@Suite struct ContentShadowDamageTests {
    @Test func movingOrRecolouringASublayerRedrawsItsShadowWhereItWasAndWhereItIs() throws {
        let (root, compositor) = try makeScene(width: 100, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        layer.shadowOpacity = 0.8
        layer.shadowRadius = 2
        layer.shadowOffset = CGSize(width: 50, height: 5)
        let child = addLayer(to: layer, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(1, 0, 0))
        CATransaction.flush()
        compositor.renderFrame()
        let shadowBefore = compositor.pixel(x: 55, y: 10)
        #expect(shadowBefore.red < 100)
        for step in 1...4 {
            child.position.x += 7
            if step == 3 { child.backgroundColor = color(0, 1, 0, 0.5) }
            CATransaction.flush()
            let damage = compositor.renderFrame()
            #expect(damage.allSatisfy { $0.maxX <= 100 }, "damage stays near the change")
            let incremental = compositor.withUnsafeBytes { Array($0) }
            compositor.renderFullFrame()
            let full = compositor.withUnsafeBytes { Array($0) }
            let differing = zip(incremental, full).filter { $0 != $1 }.count
            expectEqual(differing, 0, "step \(step): drawing the damage alone differs from a full frame in \(differing) bytes")
        }
        #expect(matches(compositor.pixel(x: 55, y: 10), white))   // the old shadow is gone
    }

    @Test func resizingALayerKeepsItsCachedBackgroundShadowInStep() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 10, height: 10), color: color(1, 0, 0))
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = CGSize(width: 5, height: 5)
        CATransaction.flush()
        compositor.renderFrame()
        // Same place on the screen for the anchor, a larger shape and rounder corners.
        layer.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 42, y: 42), (0, 0, 0, 255)))
        layer.cornerRadius = 15
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 43, y: 43), white))   // the shadow's corner is round now
    }
}
