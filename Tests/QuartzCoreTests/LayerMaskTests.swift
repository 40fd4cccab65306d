import TestExpectations
import Testing
@testable import QuartzCore

/// A mask layer of `frame` (in the masked layer's bounds space) filled with `alpha`.
@MainActor
func makeMask(_ frame: CGRect, alpha: CGFloat = 1) -> CALayer {
    let mask = CALayer()
    mask.frame = frame
    mask.backgroundColor = color(0, 0, 0, alpha)
    return mask
}

/// An image whose pixel (x, y) is opaque black where `opaque(x, y)` and clear elsewhere.
func makeAlphaImage(width: Int, height: Int, _ opaque: (Int, Int) -> Bool) -> CGImage {
    CGImage(width: width, height: height) { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let word = opaque(x, y) ? PixelFormat.rgba.word(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255)) : 0
                buffer.row(y).storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }!
}

@MainActor
@Suite struct LayerMaskTests {
    @Test func theLayerShowsOnlyWhereTheMaskIsOpaqueWithAntiAliasedEdges() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        // In the layer's bounds space: pixels 15…24 of the frame, the left edge half way into pixel 15.
        layer.mask = makeMask(CGRect(x: 5.5, y: 5, width: 9.5, height: 10))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), red))     // inside the mask
        #expect(matches(compositor.pixel(x: 24, y: 24), red))
        #expect(matches(compositor.pixel(x: 12, y: 12), white))   // the layer, outside the mask
        #expect(matches(compositor.pixel(x: 26, y: 20), white))
        #expect(matches(compositor.pixel(x: 20, y: 25), white))
        // The mask's edge half covers pixel 15: half red over white (±1 for rounding).
        #expect(matches(compositor.pixel(x: 15, y: 20), (255, 128, 128, 255), tolerance: 1))
    }

    @Test func theMasksAlphaFadesTheLayer() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.mask = makeMask(CGRect(x: 0, y: 0, width: 20, height: 20), alpha: 0.5)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), (255, 127, 127, 255), tolerance: 1))
        // With the layer's opacity on top: a quarter.
        layer.opacity = 0.5
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), (255, 191, 191, 255), tolerance: 1))
    }

    @Test func theMaskIsALayerTreeItsSublayersCornersAndContentsCount() throws {
        let (root, compositor) = try makeScene(width: 60, height: 40)
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 60, height: 40), color: color(1, 0, 0))
        let mask = makeMask(CGRect(x: 0, y: 0, width: 60, height: 40), alpha: 0)
        // A round sublayer of the mask: a circle of radius 10 around (10, 10)…
        let dot = addLayer(to: mask, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(0, 0, 0))
        dot.cornerRadius = 10
        // …and contents: opaque in the left half of a 20×20 image at (30, 0).
        let picture = CALayer()
        picture.frame = CGRect(x: 30, y: 0, width: 20, height: 20)
        picture.contents = makeAlphaImage(width: 20, height: 20) { x, _ in x < 10 }
        mask.addSublayer(picture)
        layer.mask = mask
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))     // the circle's middle
        #expect(matches(compositor.pixel(x: 0, y: 0), white))     // its rounded-away corner
        #expect(matches(compositor.pixel(x: 35, y: 10), red))     // the image's opaque half
        #expect(matches(compositor.pixel(x: 45, y: 10), white))   // its clear half
        #expect(matches(compositor.pixel(x: 30, y: 30), white))   // the mask's clear background
    }

    @Test func theLayerAndItsSublayersAreMaskedTogetherAfterMasksToBounds() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        let child = addLayer(to: layer, frame: CGRect(x: 15, y: 15, width: 20, height: 20), color: color(0, 0, 1))
        // A mask larger than the layer: the child shows beyond the layer's bounds, where the mask is.
        layer.mask = makeMask(CGRect(x: 0, y: 0, width: 30, height: 30))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 15, y: 15), red))
        #expect(matches(compositor.pixel(x: 35, y: 35), blue))    // the child, beyond the layer, inside the mask
        #expect(matches(compositor.pixel(x: 42, y: 42), white))   // the child, beyond the mask
        // masksToBounds clips first; the mask cannot bring back what it clipped.
        layer.masksToBounds = true
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 27, y: 27), blue))
        #expect(matches(compositor.pixel(x: 35, y: 35), white))
        _ = child
    }

    @Test func theShadowIsMaskedToo() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = CGSize(width: 10, height: 10)
        layer.mask = makeMask(CGRect(x: 0, y: 0, width: 20, height: 20))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 15, y: 15), red))
        #expect(matches(compositor.pixel(x: 35, y: 35), white))   // the shadow, outside the mask
        // A mask over the shadow's place lets it through.
        layer.mask = makeMask(CGRect(x: 0, y: 0, width: 40, height: 40))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 35, y: 35), (0, 0, 0, 255)))
    }

    @Test func aMaskedOpaqueLayerDoesNotHideWhatIsBelowIt() throws {
        let (root, compositor) = try makeScene()
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(0, 0, 1))
        let top = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        top.mask = makeMask(CGRect(x: 0, y: 0, width: 20, height: 40))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        #expect(matches(compositor.pixel(x: 30, y: 10), blue))
    }

    @Test func aHiddenEmptyOrZeroSizedMaskShowsNothing() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        for mask in [makeMask(.zero), CALayer(), { let m = makeMask(CGRect(x: 0, y: 0, width: 20, height: 20)); m.isHidden = true; return m }()] {
            layer.mask = mask
            CATransaction.flush()
            compositor.renderFrame()
            #expect(matches(compositor.pixel(x: 20, y: 20), white))
        }
        layer.mask = nil
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), red))
    }

    @Test func aMaskCanHaveAMaskOfItsOwn() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        let mask = makeMask(CGRect(x: 0, y: 0, width: 20, height: 40))
        mask.mask = makeMask(CGRect(x: 0, y: 0, width: 40, height: 20))
        layer.mask = mask
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        #expect(matches(compositor.pixel(x: 30, y: 10), white))
        #expect(matches(compositor.pixel(x: 10, y: 30), white))
    }

    @Test func renderInAContextHonoursTheMask() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        layer.backgroundColor = color(1, 0, 0)
        layer.mask = makeMask(CGRect(x: 0, y: 0, width: 10, height: 20))
        let data = UnsafeMutableRawPointer.allocate(byteCount: 20 * 20 * 4, alignment: 4)
        defer { data.deallocate() }
        data.initializeMemory(as: UInt8.self, repeating: 0, count: 20 * 20 * 4)
        let ctx = CGContext(data: data, width: 20, height: 20, bitsPerComponent: 8, bytesPerRow: 80, space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        layer.render(in: ctx)
        expectEqual(data.load(fromByteOffset: (10 * 20 + 5) * 4, as: UInt32.self), 0xFF00_00FF)   // opaque red
        expectEqual(data.load(fromByteOffset: (10 * 20 + 15) * 4, as: UInt32.self), 0)             // masked away
    }
}

@MainActor
@Suite struct LayerMaskTreeTests {
    @Test func aMaskWithASuperlayerOrThatWouldMakeACycleIsRefused() {
        TransactionState.current.reset()
        let root = CALayer(), layer = CALayer(), child = CALayer()
        root.addSublayer(layer)
        layer.addSublayer(child)
        let kept = CALayer()
        layer.mask = kept
        for refused in [layer, root, child] {     // itself, an ancestor, a layer with a superlayer
            layer.mask = refused
            #expect(layer.mask === kept)
        }
        // A cycle through masks alone: b masks a, so a cannot mask b.
        let a = CALayer(), b = CALayer()
        a.mask = b
        b.mask = a
        #expect(b.mask == nil && a.mask === b)
        // Nor can a layer be added below its own mask's tree.
        kept.addSublayer(root)
        #expect(root.superlayer == nil && kept.sublayers == nil)
        b.addSublayer(a)
        #expect(a.superlayer == nil)
    }

    @Test func aMaskTakenByAnotherLayerOrAddedAsASublayerStopsMasking() {
        TransactionState.current.reset()
        let a = CALayer(), b = CALayer(), mask = CALayer()
        a.mask = mask
        b.mask = mask
        #expect(a.mask == nil && b.mask === mask)
        a.addSublayer(mask)
        #expect(b.mask == nil && mask.superlayer === a)
        mask.removeFromSuperlayer()
        b.mask = mask
        mask.removeFromSuperlayer()   // as in Core Animation, this takes a mask off its layer
        #expect(b.mask == nil)
    }

    @Test func aMaskKeepsItsFrameWhenGivenNaN() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        let mask = makeMask(CGRect(x: 0, y: 0, width: 20, height: 20))
        layer.mask = mask
        mask.frame = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 20)
        mask.bounds.size.width = .infinity
        expectEqual(mask.frame, CGRect(x: 0, y: 0, width: 20, height: 20))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        #expect(matches(compositor.pixel(x: 30, y: 30), white))
    }

    @Test func theMaskedLayerGoingAwayFreesTheMasksBackReference() {
        TransactionState.current.reset()
        let mask = CALayer()
        do {
            let layer = CALayer()
            layer.mask = mask
            #expect(mask.maskedLayer === layer)
        }
        #expect(mask.maskedLayer == nil)
        mask.removeFromSuperlayer()   // nothing to take it from: no crash
    }
}

@MainActor
@Suite struct LayerMaskDamageTests {
    @Test func changingTheMaskOrAnyOfItsPropertiesDrawsTheMaskedLayerAgain() throws {
        let (root, compositor) = try makeScene(width: 100, height: 100)
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 30, height: 30), color: color(1, 0, 0))
        _ = addLayer(to: root, frame: CGRect(x: 70, y: 70, width: 10, height: 10), color: color(0, 0, 1))
        let mask = makeMask(CGRect(x: 0, y: 0, width: 10, height: 10))
        layer.mask = mask
        CATransaction.flush()
        compositor.renderFrame()
        #expect(compositor.renderFrame().isEmpty)
        #expect(matches(compositor.pixel(x: 30, y: 30), white))

        // A property of the mask: the masked layer's area is drawn again, nothing far from it.
        mask.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        CATransaction.flush()
        var damage = compositor.renderFrame()
        expectEqual(damage.count, 1)
        #expect(damage[0].contains(CGRect(x: 10, y: 10, width: 30, height: 30)))
        #expect(!damage[0].intersects(CGRect(x: 70, y: 70, width: 10, height: 10)))
        #expect(matches(compositor.pixel(x: 30, y: 30), red))

        // A sublayer of the mask.
        let hole = addLayer(to: mask, frame: CGRect(x: 0, y: 0, width: 5, height: 5), color: nil)
        CATransaction.flush()
        compositor.renderFrame()
        mask.backgroundColor = color(0, 0, 0, 0)
        hole.backgroundColor = color(0, 0, 0)
        CATransaction.flush()
        damage = compositor.renderFrame()
        #expect(damage.count == 1 && damage[0].contains(CGRect(x: 10, y: 10, width: 30, height: 30)))
        #expect(matches(compositor.pixel(x: 12, y: 12), red))
        #expect(matches(compositor.pixel(x: 30, y: 30), white))

        // Removing the mask.
        layer.mask = nil
        CATransaction.flush()
        damage = compositor.renderFrame()
        #expect(damage.count == 1 && damage[0].contains(CGRect(x: 10, y: 10, width: 30, height: 30)))
        #expect(matches(compositor.pixel(x: 30, y: 30), red))
        #expect(compositor.renderFrame().isEmpty)
    }

    @Test func frameByFrameDrawingMatchesAFullFrameWhileTheMaskChanges() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 40, height: 40), color: color(1, 0, 0))
        _ = addLayer(to: layer, frame: CGRect(x: 20, y: 20, width: 30, height: 30), color: color(0, 1, 0))
        let mask = makeMask(CGRect(x: 0, y: 0, width: 10, height: 10))
        mask.cornerRadius = 5
        layer.mask = mask
        CATransaction.flush()
        compositor.renderFrame()
        for step in 1...6 {
            mask.position = CGPoint(x: 5 + 7.5 * CGFloat(step), y: 5 + 6.25 * CGFloat(step))
            mask.opacity = Float(step) / 6
            CATransaction.flush()
            compositor.renderFrame()
            let incremental = compositor.withUnsafeBytes { Array($0) }
            compositor.renderFullFrame()
            let full = compositor.withUnsafeBytes { Array($0) }
            let differing = zip(incremental, full).filter { $0 != $1 }.count
            expectEqual(differing, 0, "step \(step): drawing the damage alone differs from a full frame in \(differing) bytes")
        }
    }
}

/// Random layer trees with masks and shadows, changed frame after frame:
/// drawing only the damage gives the pixels a full frame gives.
@MainActor
@Suite struct MaskAndShadowDamagePropertyTests {
    @Test(arguments: 0..<30)
    func drawingTheDamageMatchesAFullFrame(seed: Int) throws {
        var g = OcclusionPropertyTests.Generator(state: UInt64(seed) &+ 1000)
        let scale: CGFloat = g.chance(50) ? 1 : 2
        let (root, compositor) = try makeScene(width: 48, height: 48, scale: scale)
        OcclusionPropertyTests().addRandomLayers(to: root, count: g.int(4...10), depth: 2, size: 48, &g)
        CATransaction.flush()
        compositor.renderFrame()
        func freshDrawing(of layer: CALayer, width: Int, height: Int, scale: CGFloat) -> [UInt8] {
            let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            ctx.translateBy(x: 0, y: CGFloat(height))
            ctx.scaleBy(x: scale, y: -scale)
            layer.render(in: ctx)
            return Array(UnsafeRawBufferPointer(start: ctx.data, count: width * height * 4))
        }
        func all(_ layer: CALayer) -> [CALayer] { [layer] + (layer.sublayers ?? []).flatMap(all) + (layer.mask.map(all) ?? []) }
        for round in 0..<6 {
            let layers = Array(all(root).dropFirst())
            for _ in 0..<g.int(1...3) {
                let layer = layers[g.int(0...layers.count - 1)]
                switch g.int(0...7) {
                case 0: layer.position = CGPoint(x: g.int(0...48), y: g.int(0...48))
                case 1: layer.backgroundColor = g.chance(80) ? color(CGFloat(g.int(0...4)) / 4, 0.5, 1, g.chance(50) ? 1 : 0.5) : nil
                case 2: layer.opacity = g.chance(50) ? 1 : 0.5
                case 3: layer.mask = g.chance(60) ? makeMask(CGRect(x: g.int(-4...8), y: g.int(-4...8), width: g.int(2...24), height: g.int(2...24)), alpha: g.chance(50) ? 1 : 0.5) : nil
                case 4:
                    layer.shadowOpacity = g.chance(70) ? 0.7 : 0
                    layer.shadowOffset = CGSize(width: g.int(-4...4), height: g.int(-4...4))
                    layer.shadowRadius = CGFloat(g.int(0...3))
                case 5: layer.cornerRadius = CGFloat(g.int(0...6))
                case 6: layer.masksToBounds.toggle()
                default:
                    if g.chance(50), layer.superlayer != nil { layer.removeFromSuperlayer() } else {
                        _ = addLayer(to: layer, frame: CGRect(x: g.int(-6...12), y: g.int(-6...12), width: g.int(2...16), height: g.int(2...16)), color: color(1, 0.5, 0))
                    }
                }
            }
            CATransaction.flush()
            compositor.renderFrame()
            let incremental = compositor.withUnsafeBytes { Array($0) }
            compositor.renderFullFrame()
            let full = compositor.withUnsafeBytes { Array($0) }
            let differing = zip(incremental, full).filter { $0 != $1 }.count
            expectEqual(differing, 0, "seed \(seed), round \(round): \(differing) bytes differ from a full frame")
            // And from a drawing of a fresh copy, with nothing cached (a stale shadow would show here).
            let fresh = freshDrawing(of: root, width: compositor.pixelWidth, height: compositor.pixelHeight, scale: scale)
            let stale = zip(full, fresh).filter { $0 != $1 }.count
            expectEqual(stale, 0, "seed \(seed), round \(round): \(stale) bytes differ from a fresh drawing")
            if differing != 0 || stale != 0 { return }
        }
    }
}
