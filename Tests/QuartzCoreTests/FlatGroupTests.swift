import TestExpectations
import Testing
@testable import QuartzCore

/// A faded, clipped group of rectangles of one colour is drawn without its
/// buffer between its corners, cell by cell (FlatGroup.swift): every pixel
/// must come out as the buffer gives it, on whole pixels or between them.
@MainActor
@Suite struct FlatGroupTests {
    typealias Generator = OcclusionPropertyTests.Generator

    /// A card as the cards scene has them: faded, rounded, clipping a
    /// sublayer that reaches past its corner, with a border of whole pixels.
    @Test func aFadedClippedCardIsDrawnWithoutItsBufferBetweenItsCorners() throws {
        let (root, flat) = try makeScene(width: 80, height: 60)
        let card = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 50, height: 40), color: color(1, 0, 0))
        card.cornerRadius = 8
        card.borderWidth = 2
        card.borderColor = color(0, 0, 0)
        card.opacity = 0.8
        card.masksToBounds = true
        _ = addLayer(to: card, frame: CGRect(x: 25, y: 20, width: 50, height: 40), color: color(0, 0, 1))
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: 80, pixelHeight: 60, scale: 1)
        buffered.flattensGroups = false
        CATransaction.flush()
        flat.renderFrame()
        buffered.renderFrame()
        let node = try #require(flat.tree.root?.children.first)
        let group = try #require(node.flatGroup)
        expectEqual(group.band, PixelRect(x0: 10, y0: 18, x1: 60, y1: 42))
        expectEqual(differingPixels(flat, buffered), 0)
        // Red at 80 % over white, blue, black: straight, in the band.
        #expect(matches(flat.pixel(x: 20, y: 25), (255, 51, 51, 255), tolerance: 1))
        #expect(matches(flat.pixel(x: 45, y: 35), (51, 51, 255, 255), tolerance: 1))
        #expect(matches(flat.pixel(x: 10, y: 25), (51, 51, 51, 255), tolerance: 1))
        #expect(matches(flat.pixel(x: 59, y: 35), (51, 51, 51, 255), tolerance: 1))
    }

    /// The cards scene's faded, rounded, clipping card sliding by a third
    /// of a pixel at each frame (its sublayer and border between pixels
    /// too), at 1× and 3×: drawn in cells, every pixel as the buffer gives.
    @Test(arguments: [1, 3])
    func aCardSlidingBetweenPixelsIsDrawnInCells(scale: Int) throws {
        let (root, flat) = try makeScene(width: 90, height: 60, scale: CGFloat(scale))
        let card = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 51, height: 37), color: color(1, 0, 0))
        card.cornerRadius = 8
        card.borderWidth = 2
        card.borderColor = color(0, 0, 0)
        card.opacity = 0.8
        card.masksToBounds = true
        _ = addLayer(to: card, frame: CGRect(x: 25.5, y: 18.5, width: 51, height: 37), color: color(0, 0, 1))
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: flat.pixelWidth, pixelHeight: flat.pixelHeight, scale: CGFloat(scale))
        buffered.flattensGroups = false
        for step in 0..<7 {
            card.position.x = 35.5 + CGFloat(step) / CGFloat(3 * scale)
            CATransaction.flush()
            flat.renderFrame()
            buffered.renderFrame()
            let node = try #require(flat.tree.root?.children.first)
            #expect(node.flatGroup != nil, "step \(step)")
            expectEqual(differingPixels(flat, buffered), 0, "step \(step)")
        }
    }

    /// Groups of rectangles of one colour are flat, between pixels and
    /// translucent too; anything else keeps its buffer.
    @Test func onlyRectanglesOfOneColourThatDoNotTurnAreFlat() throws {
        let (root, flat) = try makeScene(width: 80, height: 60)
        func card(_ change: (CALayer, CALayer) -> Void) -> CALayer {
            let card = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 50, height: 40), color: color(1, 0, 0))
            card.opacity = 0.8
            card.masksToBounds = true
            let inner = addLayer(to: card, frame: CGRect(x: 25, y: 20, width: 50, height: 40), color: color(0, 0, 1))
            change(card, inner)
            return card
        }
        let flatCases = [
            card { _, inner in inner.backgroundColor = color(0, 0, 1, 0.5) },
            card { _, inner in inner.frame.origin.x = 25.5 },
            card { _, inner in inner.opacity = 0.5 },
            card { card, _ in card.borderWidth = 1.5; card.borderColor = color(0, 0, 0) },
            card { card, _ in card.borderWidth = 2; card.borderColor = color(0, 0, 0, 0.5) },
            card { card, _ in card.position.x += 0.3; card.backgroundColor = color(1, 0, 0, 0.5) },
        ]
        let bufferedCases = [
            card { _, inner in inner.cornerRadius = 4 },
            card { _, inner in inner.borderWidth = 1 },
            card { _, inner in inner.addSublayer(CALayer()) },
            card { _, inner in inner.setAffineTransform(CGAffineTransform(rotationAngle: 0.2)) },
            card { card, _ in card.setAffineTransform(CGAffineTransform(rotationAngle: 0.2)) },
            card { card, _ in card.masksToBounds = false },
        ]
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: 80, pixelHeight: 60, scale: 1)
        buffered.flattensGroups = false
        CATransaction.flush()
        flat.renderFrame()
        buffered.renderFrame()
        let nodes = try #require(flat.tree.root?.children)
        expectEqual(nodes.count, flatCases.count + bufferedCases.count)
        for (index, node) in nodes.enumerated() {
            expectEqual((node.flatGroup != nil), (index < flatCases.count), "case \(index)")
        }
        expectEqual(differingPixels(flat, buffered), 0)
    }

    /// A buffer's pixel is composited with the group's alpha where the
    /// bounds cover it whole (a run) and with the coverage folded in
    /// elsewhere (one pixel): a cell takes the second form for both, which
    /// must give the same alpha for a coverage of 1.
    @Test func aWholeCoverageFoldsToTheGroupsAlpha() {
        for alpha in UInt32(0)...255 {
            let coverage: Float = 1
            expectEqual(PixelOps.alpha(coverage * Float(alpha) / 255), alpha)
        }
    }

    /// An opaque layer clipping its sublayers between pixels, as a sliding
    /// scroll view: drawn straight inside its whole pixels, through the
    /// buffer only at its edges, every pixel as the buffer gives it.
    @Test func anOpaqueClippingLayerBetweenPixelsUsesItsBufferOnlyAtItsEdges() throws {
        let (root, straight) = try makeScene(width: 80, height: 60)
        let list = addLayer(to: root, frame: CGRect(x: 10.4, y: 5.75, width: 50, height: 40), color: color(1, 1, 1))
        list.masksToBounds = true
        list.borderWidth = 1
        list.borderColor = color(0, 0, 0, 0.5)
        _ = addLayer(to: list, frame: CGRect(x: -5, y: 10, width: 70, height: 12), color: color(0, 0, 1, 0.5))
        _ = addLayer(to: list, frame: CGRect(x: 20, y: 30, width: 40, height: 20), color: color(1, 0, 0))
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: 80, pixelHeight: 60, scale: 1)
        buffered.flattensGroups = false
        CATransaction.flush()
        straight.renderFrame()
        buffered.renderFrame()
        let node = try #require(straight.tree.root?.children.first)
        expectEqual(node.opaqueClipInterior, PixelRect(x0: 11, y0: 6, x1: 60, y1: 45))
        expectEqual(differingPixels(straight, buffered), 0)
        // Half blue over white inside; the red sublayer cut at the list's bottom edge.
        #expect(matches(straight.pixel(x: 30, y: 20), (127, 127, 255, 255), tolerance: 1))
        #expect(matches(straight.pixel(x: 40, y: 43), (255, 0, 0, 255), tolerance: 1))
    }

    /// A rounded clipping layer without a background of its own, scaled
    /// back between pixels, over an opaque sublayer that fills it (a
    /// presenter behind a sheet, a sheet's card): drawn straight between
    /// its corners' rows where that sublayer is opaque, every pixel as the
    /// buffer gives it, frame after frame as it scales and slides.
    @Test(arguments: [1, 3])
    func aRoundedClipperOverAnOpaqueSublayerUsesItsBufferOnlyAtItsEdgesAndCorners(scale: Int) throws {
        let (root, straight) = try makeScene(width: 80, height: 90, scale: CGFloat(scale))
        let presenter = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 80, height: 90), color: nil)
        presenter.masksToBounds = true
        presenter.cornerRadius = 10
        let screen = addLayer(to: presenter, frame: presenter.bounds, color: color(1, 1, 1))
        let bar = addLayer(to: screen, frame: CGRect(x: 0, y: 0, width: 80, height: 20), color: color(0.9, 0.9, 0.9, 0.8))
        _ = addLayer(to: bar, frame: CGRect(x: 30.3, y: 6.1, width: 20, height: 8), color: color(0, 0, 1, 0.6))
        _ = addLayer(to: screen, frame: CGRect(x: 10.5, y: 40.2, width: 60, height: 30), color: color(1, 0, 0, 0.5))
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: straight.pixelWidth, pixelHeight: straight.pixelHeight, scale: CGFloat(scale))
        buffered.flattensGroups = false
        for step in 0..<5 {
            let factor = 1 - 0.02 * CGFloat(step)
            presenter.setAffineTransform(CGAffineTransform(a: factor, b: 0, c: 0, d: factor, tx: 0.37 * CGFloat(step), ty: 3.1 * CGFloat(step)))
            CATransaction.flush()
            straight.renderFrame()
            buffered.renderFrame()
            let node = try #require(straight.tree.root?.children.first)
            let interior = try #require(node.opaqueClipInterior, "step \(step)")
            let inside = try #require(node.wholePixelsInsideBounds)
            // Between the corners' rows (10 points), as wide as the bounds' whole pixels.
            let inset = Int((10 * factor * CGFloat(scale)).rounded(.up))
            expectEqual(interior, PixelRect(x0: inside.x0, y0: inside.y0 + inset, x1: inside.x1, y1: inside.y1 - inset), "step \(step)")
            expectEqual(differingPixels(straight, buffered), 0, "step \(step)")
        }
        // Without an opaque ground (the screen translucent) the whole group goes through the buffer.
        screen.backgroundColor = color(1, 1, 1, 0.9)
        CATransaction.flush()
        straight.renderFrame()
        buffered.renderFrame()
        #expect(straight.tree.root?.children.first?.opaqueClipInterior == nil)
        expectEqual(differingPixels(straight, buffered), 0)
    }

    /// Random groups, flat and buffered: every pixel the same.
    @Test(arguments: 0..<40)
    func flatGroupsChangeNoPixel(seed: Int) throws {
        var g = Generator(state: UInt64(7000 + seed))
        let scale: CGFloat = g.chance(50) ? 1 : g.chance(50) ? 2 : 3
        let (root, flat) = try makeScene(width: 64, height: 64, scale: scale)
        func opaque() -> CGColor {
            CGColor(red: CGFloat(g.int(0...255)) / 255, green: CGFloat(g.int(0...255)) / 255, blue: CGFloat(g.int(0...255)) / 255, alpha: 1)
        }
        func coordinate(_ range: ClosedRange<Int>) -> CGFloat {
            CGFloat(g.int(range)) + (g.chance(15) ? 0.5 : g.chance(10) ? 0.3 : g.chance(20) ? CGFloat(g.int(1...8)) / 9 : 0)
        }
        var flatCards = 0
        for _ in 0..<g.int(2...6) {
            let card = addLayer(to: root, frame: CGRect(x: coordinate(-8...50), y: coordinate(-8...50),
                                                       width: coordinate(4...40), height: coordinate(4...40)),
                                color: g.chance(90) ? opaque() : color(0, 1, 0, 0.5))
            card.masksToBounds = g.chance(85)
            card.opacity = [0.5, 0.8, 1][g.int(0...2)]
            if g.chance(60) { card.cornerRadius = CGFloat(g.int(1...12)) }
            if g.chance(20) { card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner] }
            if g.chance(50) {
                card.borderWidth = [1, 2, 3, 1.5][g.int(0...3)]
                card.borderColor = g.chance(85) ? opaque() : color(0, 0, 0, 0.5)
            }
            if g.chance(10) { card.setAffineTransform(CGAffineTransform(rotationAngle: 0.3)) }
            for _ in 0..<g.int(0...3) {
                let inner = addLayer(to: card, frame: CGRect(x: coordinate(-10...30), y: coordinate(-10...30),
                                                           width: coordinate(2...40), height: coordinate(2...40)),
                                     color: g.chance(90) ? opaque() : color(1, 0, 1, 0.5))
                if g.chance(10) { inner.isHidden = true }
                if g.chance(10) { inner.cornerRadius = 3 }
                if g.chance(5) { inner.opacity = 0.5 }
            }
        }
        let buffered = try LayerCompositor(rootLayer: root, pixelWidth: flat.pixelWidth, pixelHeight: flat.pixelHeight, scale: scale)
        buffered.flattensGroups = false
        CATransaction.flush()
        flat.renderFrame()
        buffered.renderFrame()
        for node in flat.tree.root?.children ?? [] where node.flatGroup != nil { flatCards += 1 }
        expectEqual(differingPixels(flat, buffered), 0, "seed \(seed), \(flatCards) flat cards")
    }
}
