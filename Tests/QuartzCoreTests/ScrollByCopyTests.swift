import TestExpectations
import Testing
@testable import QuartzCore

/// A clipping layer whose sublayers only moved by whole pixels has its
/// pixels moved, not drawn again (ScrollByCopy.swift): every frame made
/// that way must be, pixel for pixel, the frame drawn whole.
@MainActor
@Suite struct ScrollByCopyTests {
    typealias Generator = OcclusionPropertyTests.Generator

    /// A white 40×60 list of 10-point rows at scale 2, in a window-like root.
    func makeList() throws -> (root: CALayer, list: CALayer, compositor: LayerCompositor) {
        let (root, compositor) = try makeScene(width: 50, height: 70, scale: 2)
        let list = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 40, height: 60), color: color(1, 1, 1))
        list.masksToBounds = true
        for row in 0..<30 {
            let cell = addLayer(to: list, frame: CGRect(x: 0, y: row * 10, width: 40, height: 10), color: row % 2 == 0 ? color(1, 1, 1) : color(0.9, 0.9, 0.9))
            let icon = addLayer(to: cell, frame: CGRect(x: 2, y: 2, width: 6, height: 6), color: color(CGFloat(row % 3) / 2, 0.4, 0.8))
            icon.cornerRadius = 2
            _ = addLayer(to: cell, frame: CGRect(x: 10, y: 9.75, width: 30, height: 0.25), color: color(0.5, 0.5, 0.5))
        }
        CATransaction.flush()
        compositor.renderFrame()
        return (root, list, compositor)
    }

    @Test func aListMovedByWholePixelsIsCopiedAndOnlyTheExposedStripIsDrawn() throws {
        let (_, list, compositor) = try makeList()
        list.bounds.origin.y = 3.5   // 7 pixels at scale 2
        CATransaction.flush()
        // The list's clip, (10,10)–(90,130), moves up by 7 pixels; the 7 rows at its bottom are drawn.
        expectEqual(compositor.tree.scrolls, [PixelScroll(rect: PixelRect(x0: 10, y0: 10, x1: 90, y1: 130), dx: 0, dy: -7)])
        expectEqual(compositor.tree.damage.rects, [PixelRect(x0: 10, y0: 123, x1: 90, y1: 130)])
        let changed = compositor.renderFramePixelRects()
        expectEqual(changed, [PixelRect(x0: 10, y0: 10, x1: 90, y1: 123), PixelRect(x0: 10, y0: 123, x1: 90, y1: 130)])
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    /// The screen's shared buffers: a frame that must leave the memory it
    /// is in (a buffer the event server still holds) for memory holding an
    /// older frame copies each pixel at most once, as one drawn in place
    /// does: the scrolled pixels straight from their old place in the old
    /// memory, whatever else the new memory lacks from the same place, none
    /// that is drawn anew; and the old memory is only read.
    @Test func aFrameMovedToOtherMemoryWhileItScrollsCopiesEachPixelOnce() throws {
        let (_, list, compositor) = try makeList()   // 100 × 140 pixels; the list's clip (10,10)–(90,130)
        let count = 100 * 140
        let held = UnsafeMutablePointer<UInt32>.allocate(capacity: count), older = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { held.deallocate(); older.deallocate() }
        compositor.withUnsafeBytes { held.initialize(from: $0.bindMemory(to: UInt32.self).baseAddress!, count: count) }
        compositor.useFrameStorage(held)
        let heldBefore = Array(UnsafeBufferPointer(start: held, count: count))
        // An older frame: opaque green, which the list never shows, everywhere it lacks.
        older.initialize(repeating: 0xFF00_FF00, count: count)
        compositor.moveFrameStorage(to: older, firstRow: 0, lacking: [PixelRect(x0: 0, y0: 0, x1: 100, y1: 140), PixelRect(x0: 20, y0: 20, x1: 40, y1: 40)])
        list.bounds.origin.y = 3.5   // 7 pixels up
        CATransaction.flush()
        expectEqual(compositor.renderFramePixelRects(), [PixelRect(x0: 10, y0: 10, x1: 90, y1: 123), PixelRect(x0: 10, y0: 123, x1: 90, y1: 130)])
        // Every pixel once but the 80 × 7 strip drawn: 80 × 113 moved, the 4,400 outside the list's clip brought over.
        expectEqual(compositor.pixelsCopied, count - 80 * 7)
        expectEqual(Array(UnsafeBufferPointer(start: held, count: count)), heldBefore, "the memory left was written to")
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
        // Drawn in place again: only the scroll's pixels are copied.
        list.bounds.origin.y = 5
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(compositor.pixelsCopied, 80 * 117)
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    /// A list as wide as the frame, 120 of its 140 rows: a move of more
    /// than 20 rows turns the frame's ring of rows and copies the 20 rows
    /// outside the list back; a move of 101 rows or more moves the 19 or
    /// fewer rows left in one copy (they lie end to end in memory), as
    /// does a move into other memory; every frame is the full frame to the
    /// pixel.
    @Test func aListAsWideAsTheFrameMovesUpAndDown() throws {
        let (root, compositor) = try makeScene(width: 40, height: 70, scale: 2)   // 80 × 140 pixels
        let list = addLayer(to: root, frame: CGRect(x: 0, y: 5, width: 40, height: 60), color: color(1, 1, 1))
        list.masksToBounds = true
        for row in 0..<30 {
            let cell = addLayer(to: list, frame: CGRect(x: 0, y: row * 10, width: 40, height: 10), color: color(CGFloat(row % 5) / 4, 0.5, 1 - CGFloat(row % 7) / 6))
            _ = addLayer(to: cell, frame: CGRect(x: 3, y: 2, width: 5, height: 5), color: color(0, 0, 0))
        }
        CATransaction.flush()
        compositor.renderFrame()
        // 7 pixels up, 73 up, 55 down, 1 down: the ring turns; 105 up, 105 down: the rows are moved.
        for (offset, copiedRows): (CGFloat, Int) in [(3.5, 20), (40, 20), (12.5, 20), (12, 20), (64.5, 15), (12, 15)] {
            let moved = Int(((offset - list.bounds.origin.y) * 2).rounded())
            list.bounds.origin.y = offset
            CATransaction.flush()
            expectEqual(compositor.tree.scrolls, [PixelScroll(rect: PixelRect(x0: 0, y0: 10, x1: 80, y1: 130), dx: 0, dy: -moved)])
            compositor.renderFrame()
            expectEqual(compositor.pixelsCopied, 80 * copiedRows, "offset \(offset)")
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "offset \(offset)")
        }
        // Into other memory, holding an older frame everywhere (opaque green, which the list never shows).
        let count = 80 * 140
        let older = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { older.deallocate() }
        older.initialize(repeating: 0xFF00_FF00, count: count)
        compositor.moveFrameStorage(to: older, firstRow: 0, lacking: [PixelRect(x0: 0, y0: 0, x1: 80, y1: 140)])
        list.bounds.origin.y = 20   // 16 pixels up
        CATransaction.flush()
        compositor.renderFrame()
        // Every pixel once but the 80 × 16 strip drawn.
        expectEqual(compositor.pixelsCopied, count - 80 * 16)
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    /// Every pixel as `pixel(x:y:)` reads it, rows in order, 4 bytes each:
    /// read without putting the ring of rows in order, unlike the bytes.
    func pixelsOneByOne(_ compositor: LayerCompositor) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<compositor.pixelHeight {
            for x in 0..<compositor.pixelWidth {
                let p = compositor.pixel(x: x, y: y)
                bytes += [p.red, p.green, p.blue, p.alpha]
            }
        }
        return bytes
    }

    /// A list as tall as the frame (a table filling the screen): a scroll
    /// turns the frame's ring of rows and copies no pixel; several frames
    /// in a row each turn it further; the pixels read one by one, the
    /// frame's bytes (its rows put back in order) and the full frame are
    /// the same.
    @Test func aListAsTallAsTheFrameMovesByTurningTheRingOfRows() throws {
        let (root, compositor) = try makeScene(width: 40, height: 70, scale: 2)   // 80 × 140 pixels
        let list = addLayer(to: root, frame: root.bounds, color: color(1, 1, 1))
        list.masksToBounds = true
        for row in 0..<30 {
            let cell = addLayer(to: list, frame: CGRect(x: 0, y: row * 10, width: 40, height: 10), color: color(CGFloat(row % 5) / 4, 0.5, 1 - CGFloat(row % 7) / 6))
            let icon = addLayer(to: cell, frame: CGRect(x: 3, y: 2, width: 5, height: 5.5), color: color(0, 0, 0, 0.7))
            icon.cornerRadius = 2
        }
        // A translucent round button over the list, across many rows.
        let button = addLayer(to: root, frame: CGRect(x: 25, y: 40, width: 12, height: 25), color: color(0, 0, 1, 0.5))
        button.cornerRadius = 6
        CATransaction.flush()
        compositor.renderFrame()
        for run in [[3.5, 10, 40.5], [20, 19.5], [60, 110, 160], [130]] as [[CGFloat]] {
            for offset in run {
                let moved = Int(((offset - list.bounds.origin.y) * 2).rounded())
                list.bounds.origin.y = offset
                CATransaction.flush()
                expectEqual(compositor.tree.scrolls, [PixelScroll(rect: PixelRect(x0: 0, y0: 0, x1: 80, y1: 140), dx: 0, dy: -moved)])
                expectEqual(compositor.renderFramePixelRects().first, PixelRect(x0: 0, y0: max(0, -moved), x1: 80, y1: 140 - max(0, moved)))
                expectEqual(compositor.pixelsCopied, 0, "offset \(offset)")
            }
            let oneByOne = pixelsOneByOne(compositor)
            expectEqual(compositor.withUnsafeBytes { Array($0) }, oneByOne, "after \(run)")
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "after \(run)")
        }
    }

    /// Bars above and below a list as wide as the frame, a shape and a
    /// translucent layer over it: when the ring of rows turns, the bars'
    /// rows are copied back, and what is drawn again may lie across the
    /// memory's last and first rows (a shape's bitmap context is given the
    /// two parts apart); the frames are the full frame.
    @Test func barsAroundAListKeepTheirPlaceWhenTheRingTurns() throws {
        let (root, compositor) = try makeScene(width: 40, height: 70, scale: 2)   // 80 × 140 pixels
        let top = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 6), color: color(0.2, 0.6, 0.2))
        let list = addLayer(to: root, frame: CGRect(x: 0, y: 6, width: 40, height: 56), color: color(1, 1, 1))
        list.masksToBounds = true
        for row in 0..<40 {
            let cell = addLayer(to: list, frame: CGRect(x: 0, y: row * 9, width: 40, height: 9), color: color(CGFloat(row % 4) / 3, 0.8, 0.5))
            _ = addLayer(to: cell, frame: CGRect(x: 4, y: 8.5, width: 36, height: 0.5), color: color(0.3, 0.3, 0.3))
        }
        let bottom = addLayer(to: root, frame: CGRect(x: 0, y: 62, width: 40, height: 8), color: color(0.9, 0.9, 0.95, 0.9))
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 5, y: 10, width: 30, height: 50)
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 50), transform: nil)
        shape.fillColor = color(1, 0, 0, 0.4)
        shape.strokeColor = color(0, 0, 0)
        shape.lineWidth = 1.5
        root.addSublayer(shape)
        let veil = addLayer(to: root, frame: CGRect(x: 2, y: 20, width: 10, height: 30.5), color: color(0, 0, 0, 0.3))
        CATransaction.flush()
        compositor.renderFrame()
        // The list's 112 rows, the bars' 28: moves of 7 up, 6 down, 60 up, 1 down, 30 down and 70 up
        // turn the ring (28 rows copied); 90 up and 90 down move the 22 rows left (fewer).
        for (offset, copiedRows): (CGFloat, Int) in [(3.5, 28), (0.5, 28), (30.5, 28), (30, 28), (15, 28), (60, 22), (15, 22), (50, 28)] {
            list.bounds.origin.y = offset
            if offset == 15 { shape.position.y += 1; veil.position.y -= 0.5 }
            CATransaction.flush()
            compositor.renderFrame()
            expectEqual(compositor.pixelsCopied, 80 * copiedRows, "offset \(offset)")
            if offset == 30 || offset == 50 {
                let oneByOne = pixelsOneByOne(compositor)   // before the bytes put the rows in order
                expectEqual(compositor.withUnsafeBytes { Array($0) }, oneByOne, "offset \(offset)")
                expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "offset \(offset)")
            }
        }
        withExtendedLifetime((top, bottom)) {}
    }

    /// Random rows (rounded, turned, faded, masked, shadowed, between
    /// pixels) in a list as wide as the frame, between bars of random
    /// heights, under a translucent round layer, scrolled by
    /// whole pixels up and down (the ring of rows turning, or the rows
    /// moved, whichever copies less), by fractions, with rows recoloured
    /// and moved and several commits before some frames: the pixels read
    /// one by one, the frame's bytes and the full frame agree at every
    /// check.
    @Test(arguments: 0..<30)
    func framesOfAListAsWideAsTheFrameAreTheFullFrame(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &+ 9000)
        let scale: CGFloat = [1, 2, 3][g.int(0...2)]
        let (root, compositor) = try makeScene(width: 48, height: 80, scale: scale)
        let topHeight = CGFloat(g.int(0...20)), bottomHeight = CGFloat(g.int(0...20))
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 48, height: topHeight), color: color(0.2, 0.5, 0.2))
        let list = addLayer(to: root, frame: CGRect(x: 0, y: topHeight, width: 48, height: 80 - topHeight - bottomHeight), color: color(1, 1, 0.9))
        list.masksToBounds = true
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 80 - bottomHeight, width: 48, height: bottomHeight), color: color(0.8, 0.8, 1, 0.8))
        var rows: [CALayer] = []
        for index in 0..<10 {
            let row = addLayer(to: list, frame: CGRect(x: 0, y: index * 24, width: 48, height: 24), color: g.chance(70) ? color(1, 1, 1) : nil)
            OcclusionPropertyTests().addRandomLayers(to: row, count: g.int(1...4), depth: 1, size: 24, &g)
            rows.append(row)
        }
        let round = addLayer(to: root, frame: CGRect(x: 30, y: 24, width: 14, height: 33.5), color: color(0, 0, 1, 0.5))
        round.cornerRadius = 7
        CATransaction.flush()
        compositor.renderFrame()
        for step in 0..<16 {
            for _ in 0..<(g.chance(25) ? 2 : 1) {
                var origin = list.bounds.origin
                switch g.int(0...9) {
                case 0: origin.y += 0.5 / scale
                case 1: origin.y += 0.3
                default: origin.y += CGFloat(g.int(-70...80)) / scale
                }
                origin.y = min(max(origin.y, -20), 200)
                list.bounds.origin = origin
                if g.chance(20) { rows[g.int(0...9)].backgroundColor = color(CGFloat(g.int(0...255)) / 255, 0.5, 0.5) }
                if g.chance(15) { rows[g.int(0...9)].position.x += 1 }
                if g.chance(15) { round.position.y += CGFloat(g.int(-6...6)) }
                CATransaction.flush()
            }
            compositor.renderFrame()
            if step % 4 == 3 || g.chance(30) {
                let oneByOne = pixelsOneByOne(compositor)   // before the bytes put the rows in order
                expectEqual(compositor.withUnsafeBytes { Array($0) }, oneByOne, "seed \(seed), step \(step)")
                expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "seed \(seed), step \(step), scale \(scale)")
            }
        }
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "seed \(seed), scale \(scale)")
    }

    /// What none of several rectangles covers, handed out piece by piece:
    /// pieces inside the rectangle, apart from one another, together every
    /// pixel of it that none of the others covers (a frame moving to other
    /// memory copies exactly those, each once).
    @Test(arguments: 0..<40)
    func thePartsNotCoveredByAnyOfSeveralRectanglesAreEachUncoveredPixelOnce(seed: Int) {
        var g = Generator(state: UInt64(seed) &+ 7000)
        func rect() -> PixelRect {
            let x0 = g.int(-2...20), y0 = g.int(-2...20)
            return PixelRect(x0: x0, y0: y0, x1: x0 + g.int(0...14), y1: y0 + g.int(0...14))
        }
        let whole = rect()
        let others = (0..<g.int(0...5)).map { _ in rect() }
        var times = [Int](repeating: 0, count: 40 * 40)
        whole.forEachPart(notCoveredByAnyOf: others[...]) { piece in
            #expect(!piece.isEmpty && piece.intersection(whole) == piece, "seed \(seed): \(piece) in \(whole)")
            for y in piece.y0..<piece.y1 { for x in piece.x0..<piece.x1 { times[(y + 5) * 40 + x + 5] += 1 } }
        }
        var uncovered = [Int](repeating: 0, count: 40 * 40)
        for y in -5..<35 {
            for x in -5..<35 {
                let point = PixelRect(x0: x, y0: y, x1: x + 1, y1: y + 1)
                if whole.intersects(point) && !others.contains(where: { $0.intersects(point) }) { uncovered[(y + 5) * 40 + x + 5] = 1 }
            }
        }
        expectEqual(times, uncovered, "seed \(seed): \(whole) less \(others)")
    }

    @Test func aMoveBetweenPixelsIsDrawnWhole() throws {
        let (_, list, compositor) = try makeList()
        list.bounds.origin.y = 3.25   // 6.5 pixels: every row lands between pixels
        CATransaction.flush()
        #expect(compositor.tree.scrolls.isEmpty)
        expectEqual(compositor.tree.damage.rects, [PixelRect(x0: 10, y0: 10, x1: 90, y1: 130)])
        compositor.renderFrame()
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
        // From between pixels, a move by whole pixels is a copy again.
        list.bounds.origin.y = 5.25
        CATransaction.flush()
        expectEqual(compositor.tree.scrolls.map(\.dy), [-4])
        compositor.renderFrame()
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    @Test func whatLiesOverTheListIsDrawnWhereItIsAndWhereItsCopyLanded() throws {
        let (root, list, compositor) = try makeList()
        // A translucent bar over the list's top, a later sibling.
        let bar = addLayer(to: root, frame: CGRect(x: 0, y: 5, width: 50, height: 8), color: color(0, 0, 1, 0.5))
        CATransaction.flush()
        compositor.renderFrame()
        list.bounds.origin.y = 10
        CATransaction.flush()
        expectEqual(compositor.tree.scrolls.count, 1)
        let damaged = compositor.tree.damage.rects
        // The bar's pixels in the list, (10,10)–(90,26), and where the copy took them, 20 pixels up (off the list).
        #expect(damaged.contains(PixelRect(x0: 10, y0: 10, x1: 90, y1: 26)))
        compositor.renderFrame()
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
        bar.frame.origin.y = 30
        list.bounds.origin.y = 4
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    @Test func damageNotYetDrawnMovesWithThePixels() throws {
        let (_, list, compositor) = try makeList()
        let cell = try #require(list.sublayers?[2])
        cell.backgroundColor = color(1, 0, 0)
        CATransaction.flush()        // damaged, not drawn
        list.bounds.origin.y = 6     // the stale pixels move up 12 pixels
        CATransaction.flush()
        list.bounds.origin.y = 8
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
    }

    @Test func aFadedOrBorderedAncestorOrAListWithMoreThanAColourIsDrawnWhole() throws {
        let cases: [(CALayer, CALayer) -> Void] = [
            { root, _ in root.opacity = 0.5 },
            { root, _ in root.borderWidth = 1; root.borderColor = color(0, 0, 0) },
            { _, list in list.cornerRadius = 4 },
            { _, list in list.borderWidth = 1; list.borderColor = color(0, 0, 0) },
        ]
        for change in cases {
            let (root, list, compositor) = try makeList()
            change(root, list)
            CATransaction.flush()
            compositor.renderFrame()
            list.bounds.origin.y = 5
            CATransaction.flush()
            #expect(compositor.tree.scrolls.isEmpty)
            compositor.renderFrame()
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
        }
    }

    @Test func aListWithoutAnOpaqueBackgroundIsCopiedOverTheOpaqueGroundBeneathIt() throws {
        for background in [nil, color(0.2, 0.4, 1, 0.5)] {
            let (_, list, compositor) = try makeList()
            list.backgroundColor = background
            CATransaction.flush()
            compositor.renderFrame()
            list.bounds.origin.y = 3.5
            CATransaction.flush()
            // The white root beneath is the ground: as with an opaque list, only the strip is drawn.
            expectEqual(compositor.tree.scrolls, [PixelScroll(rect: PixelRect(x0: 10, y0: 10, x1: 90, y1: 130), dx: 0, dy: -7)])
            expectEqual(compositor.tree.damage.rects, [PixelRect(x0: 10, y0: 123, x1: 90, y1: 130)])
            compositor.renderFrame()
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0)
        }
    }

    @Test func aListWithoutAnOpaqueBackgroundOverAnythingButOneOpaqueColourIsDrawnWhole() throws {
        let cases: [(CALayer, CALayer) -> Void] = [
            // An earlier sibling under the list.
            { root, _ in root.insertSublayer(addLayer(to: root, frame: CGRect(x: 0, y: 20, width: 20, height: 10), color: color(0, 1, 0)), at: 0) },
            // No opaque ground: a translucent root, or none.
            { root, _ in root.backgroundColor = color(1, 1, 1, 0.5) },
            { root, _ in root.backgroundColor = nil },
            // A holder between the list and the root that draws a colour of its own.
            { root, list in
                let holder = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 30, height: 70), color: color(1, 0, 0, 0.3))
                holder.addSublayer(list)
            },
        ]
        for (index, change) in cases.enumerated() {
            let (root, list, compositor) = try makeList()
            list.backgroundColor = nil
            change(root, list)
            CATransaction.flush()
            compositor.renderFrame()
            list.bounds.origin.y = 5
            CATransaction.flush()
            #expect(compositor.tree.scrolls.isEmpty, "case \(index)")
            compositor.renderFrame()
            expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "case \(index)")
        }
    }

    /// Random contents (rounded, turned, faded, masked, shadowed, between
    /// pixels), siblings over and under the scrolling layer and over its
    /// parent, scrolled by whole pixels, by fractions of a pixel and of a
    /// point, with rows added, removed, moved and recoloured between
    /// frames and several commits before some frames: each frame, or the
    /// last of a run of frames, is the full frame to the pixel. A third of
    /// the seeds give the list no background, over an opaque holder; a
    /// third a translucent one, over the root (the earlier sibling under
    /// the list moved out of its way).
    @Test(arguments: 0..<60)
    func scrolledFramesAreTheFullFrame(seed: Int) throws {
        var g = Generator(state: UInt64(seed) &+ 1000)
        let scale: CGFloat = [1, 2, 3][g.int(0...2)]
        let (root, compositor) = try makeScene(width: 64, height: 80, scale: scale)
        let ground = seed % 3
        let under = addLayer(to: root, frame: CGRect(x: 0, y: 20, width: ground == 2 ? 5 : 30, height: 30), color: color(0, 1, 0))
        let holder = addLayer(to: root, frame: CGRect(x: 4, y: 6, width: 56, height: 70), color: ground == 1 ? color(0.3, 0.3, 0.3) : nil)
        let listColor = [color(1, 1, 0.9), nil, color(0.2, 0.2, 1, 0.4)][ground]
        let list = addLayer(to: holder, frame: CGRect(x: 2, y: 2, width: 50, height: 64), color: listColor)
        list.masksToBounds = true
        var rows: [CALayer] = []
        for index in 0..<8 {
            let row = addLayer(to: list, frame: CGRect(x: 0, y: index * 30, width: 50, height: 30), color: g.chance(70) ? color(1, 1, 1) : nil)
            OcclusionPropertyTests().addRandomLayers(to: row, count: g.int(1...4), depth: 1, size: 30, &g)
            rows.append(row)
        }
        let overList = addLayer(to: holder, frame: CGRect(x: 10, y: 10, width: 30, height: 9), color: color(1, 0, 0, 0.5))
        overList.cornerRadius = 3
        let overHolder = addLayer(to: root, frame: CGRect(x: 40, y: 30, width: 20, height: 20.5), color: color(0, 0, 1, 0.6))
        CATransaction.flush()
        compositor.renderFrame()
        var copies = 0
        for step in 0..<16 {
            for _ in 0..<(g.chance(25) ? 2 : 1) {
                var origin = list.bounds.origin
                switch g.int(0...9) {
                case 0: origin.y += 0.5 / scale                      // half a pixel
                case 1: origin.y += 0.3                              // a fraction of a point
                case 2: origin.x += CGFloat(g.int(-3...3)) / scale   // sideways, whole pixels
                default: origin.y += CGFloat(g.int(-40...60)) / scale
                }
                list.bounds.origin = origin
                if g.chance(20) { rows[g.int(0...7)].backgroundColor = color(CGFloat(g.int(0...255)) / 255, 0.5, 0.5) }
                if g.chance(15) { rows[g.int(0...7)].position.x += 1 }
                if g.chance(10) { overList.position.y += CGFloat(g.int(-4...4)) }
                if g.chance(10) { overHolder.position.x += 2 }
                if g.chance(10) { under.backgroundColor = color(0, CGFloat(g.int(0...255)) / 255, 0) }
                if g.chance(10) {
                    let row = rows[g.int(0...7)]
                    if row.superlayer == nil { list.addSublayer(row) } else { row.removeFromSuperlayer() }
                }
                CATransaction.flush()
                copies += compositor.tree.scrolls.count
            }
            compositor.renderFrame()
            if step % 4 == 3 || g.chance(30) {
                expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "seed \(seed), step \(step), scale \(scale)")
            }
        }
        expectEqual(pixelsDifferingFromFullFrame(compositor), 0, "seed \(seed), scale \(scale)")
        #expect(copies > 0, "seed \(seed): no scroll was a copy")
    }
}
