import TestExpectations
import Testing
@testable import QuartzCore
import GeometryTestSupport

/// A contents image is sampled only around its ink (`Compositor.inkedPart`):
/// every pixel must come out as sampling the whole image gives it, for
/// images whose ink is small, touches their edges, fills them or is none,
/// sliding between pixels, scaled, mirrored, turned and faded.
@MainActor
@Suite struct ContentsInkTests {
    /// A `width`×`height` image, transparent but for a block of random
    /// colours (some translucent) in `inked`.
    func makeInkedImage(width: Int, height: Int, inked: PixelRect, _ g: inout SeededGenerator) -> CGImage {
        let words = (0..<(inked.width * inked.height)).map { _ -> UInt32 in
            let alpha = g.chance(50) ? 255 : UInt32(g.int(1...255))
            return UInt32(g.int(0...Int(alpha))) | UInt32(g.int(0...Int(alpha))) << 8 | UInt32(g.int(0...Int(alpha))) << 16 | alpha << 24
        }
        return CGImage(width: width, height: height) { buffer in
            for y in inked.y0..<inked.y1 {
                for x in inked.x0..<inked.x1 {
                    buffer.row(y).storeBytes(of: words[(y - inked.y0) * inked.width + x - inked.x0], toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }!
    }

    @Test(arguments: 0..<8)
    func drawingAroundTheInkGivesTheSamePixelsAsTheWholeImage(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed) &+ 2026)
        let (root, inked) = try makeScene(width: 60, height: 50, scale: 3)
        let whole = try LayerCompositor(rootLayer: root, pixelWidth: inked.pixelWidth, pixelHeight: inked.pixelHeight, scale: 3)
        whole.clipsImagesToInk = false
        var layers: [CALayer] = []
        for index in 0..<7 {
            let width = g.int(4...60), height = g.int(3...30)
            // Ink in the middle, at an edge or a corner, everywhere, or none.
            let x0 = [g.int(1...(width / 2)), 0, 0, 0, g.int(1...(width / 2)), 0, 0][index]
            let y0 = [g.int(1...(height / 2)), g.int(1...(height / 2)), 0, 0, 0, 0, 0][index]
            let x1 = [width - g.int(1...(width / 2)), g.int((x0 + 1)...width), width, width, width, width, 0][index]
            let y1 = [height - g.int(1...(height / 2)), height - 1, height, g.int(1...height), height, height, 0][index]
            let image = makeInkedImage(width: width, height: height, inked: PixelRect(x0: x0, y0: y0, x1: x1, y1: y1), &g)
            let layer = addLayer(to: root, frame: CGRect(x: CGFloat(g.int(0...400)) / 10, y: CGFloat(g.int(0...350)) / 10,
                                                         width: CGFloat(g.int(20...200)) / 10, height: CGFloat(g.int(10...120)) / 10), color: nil)
            layer.contents = image
            layer.contentsScale = 3
            layer.contentsGravity = [.resize, .center, .topLeft, .bottomRight, .resizeAspect, .resize, .center][index]
            if g.chance(30) { layer.opacity = 0.7 }
            if index == 5 { layer.setAffineTransform(CGAffineTransform(scaleX: -0.9, y: 0.9)) }   // mirrored, scaled back
            if index == 4 && seed % 2 == 0 { layer.setAffineTransform(CGAffineTransform(rotationAngle: 0.3)) }
            layers.append(layer)
        }
        // Each frame slides everything by a third of a device pixel, and
        // scales one image a little more.
        for step in 0..<4 {
            for layer in layers { layer.position.x += 1.0 / 9 }
            layers[1].setAffineTransform(CGAffineTransform(scaleX: 1 - 0.03 * CGFloat(step), y: 1 - 0.03 * CGFloat(step)))
            CATransaction.flush()
            inked.renderFrame()
            whole.renderFrame()
            expectEqual(differingPixels(inked, whole), 0, "seed \(seed), step \(step)")
        }
        // The images were drawn: something but the white ground shows.
        var drawn = 0
        for y in 0..<inked.pixelHeight {
            for x in 0..<inked.pixelWidth where !matches(inked.pixel(x: x, y: y), white) { drawn += 1 }
        }
        #expect(drawn > 100, "seed \(seed): \(drawn) pixels drawn")
    }

    /// A transparent image draws nothing, and does not read its pixels.
    @Test func aTransparentImageDrawsNothing() throws {
        let (root, compositor) = try makeScene(width: 20, height: 20)
        let layer = addLayer(to: root, frame: CGRect(x: 2.5, y: 2.5, width: 10, height: 10), color: nil)
        layer.contents = CGImage(width: 10, height: 10) { _ in }!
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(Compositor.inkedPart(of: layer.contents as! CGImage, through: .identity, within: PixelRect(x0: 0, y0: 0, x1: 20, y1: 20)),
                    .empty)
        for y in 0..<20 {
            for x in 0..<20 { #expect(matches(compositor.pixel(x: x, y: y), white), "(\(x), \(y))") }
        }
    }

    /// Around the ink: half a source pixel either side (what a bilinear
    /// sample reaches), mapped to the frame, and a pixel more; unbounded on
    /// the sides where the ink touches the image's edge; mirrored by a
    /// negative scale; all of the clip through a turn.
    @Test func theInkedPartReachesHalfASourcePixelAndAPixelMoreAroundTheInk() throws {
        let image = CGImage(width: 10, height: 10) { buffer in
            for y in 3..<5 { for x in 2..<10 { buffer.row(y).storeBytes(of: 0xFF00_00FF, toByteOffset: x * 4, as: UInt32.self) } }
        }!
        let clip = PixelRect(x0: -100, y0: -100, x1: 100, y1: 100)
        // Source x 1.5… (unbounded: the ink reaches the right edge), y 2.5…5.5; ×2, moved by (10, 20).
        let placed = CGAffineTransform(scaleX: 2, y: 2).concatenating(CGAffineTransform(translationX: 10, y: 20))
        expectEqual(Compositor.inkedPart(of: image, through: placed, within: clip), PixelRect(x0: 12, y0: 24, x1: 100, y1: 32))
        let mirrored = CGAffineTransform(scaleX: -1, y: 1).concatenating(CGAffineTransform(translationX: 50, y: 0))
        expectEqual(Compositor.inkedPart(of: image, through: mirrored, within: clip), PixelRect(x0: -100, y0: 1, x1: 50, y1: 7))
        expectEqual(Compositor.inkedPart(of: image, through: CGAffineTransform(rotationAngle: 0.1), within: clip), clip)
    }
}
