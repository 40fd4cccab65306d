import Testing
@testable import QuartzCore

/// An image of `width`×`height` pixels whose pixel (x, y) is `pixel(x, y)` (opaque RGB).
func makeImage(width: Int, height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> CGImage {
    CGImage(width: width, height: height) { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                buffer.row(y).storeBytes(of: PixelFormat.rgba.word(PremultipliedColor(red: r, green: g, blue: b, alpha: 255)), toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }!
}

/// Red, green / blue, white quadrants.
let quadrants = makeImage(width: 2, height: 2) { x, y in
    [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)][y * 2 + x]
}

@MainActor
@Suite struct ContentsTests {
    @Test func contentsAreStretchedOverTheBoundsByDefault() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        layer.contents = quadrants
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 2, y: 2), red))
        #expect(matches(compositor.pixel(x: 37, y: 2), green))
        #expect(matches(compositor.pixel(x: 2, y: 37), blue))
        #expect(matches(compositor.pixel(x: 37, y: 37), white))
        // Filtered between pixels: the middle of the top edge blends red and green.
        let middle = compositor.pixel(x: 19, y: 2)
        #expect(middle.red > 100 && middle.green > 50)
    }

    @Test func contentsRectShowsPartOfTheImage() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        layer.contents = quadrants
        layer.contentsRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 2, y: 2), white, tolerance: 1))
        #expect(matches(compositor.pixel(x: 37, y: 37), white, tolerance: 1))
    }

    @Test func gravityAndScalePlaceTheContents() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 20), color: color(0, 0, 0))
        let big = makeImage(width: 20, height: 20) { _, _ in (255, 0, 0) }
        layer.contents = big
        layer.contentsGravity = .center
        layer.contentsScale = 2  // 20 pixels are 10 points
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 10), red))
        #expect(matches(compositor.pixel(x: 15, y: 5), red))
        #expect(matches(compositor.pixel(x: 14, y: 10), (0, 0, 0, 255)))
        #expect(matches(compositor.pixel(x: 25, y: 10), (0, 0, 0, 255)))
        layer.contentsGravity = .resizeAspect
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))   // fitted: 20×20 in the middle
        #expect(matches(compositor.pixel(x: 5, y: 10), (0, 0, 0, 255)))
        layer.contentsGravity = .topLeft
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 9, y: 9), red))
        #expect(matches(compositor.pixel(x: 11, y: 11), (0, 0, 0, 255)))
        layer.contentsGravity = .resizeAspectFill
        layer.masksToBounds = true
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 1, y: 1), red))     // filled, and clipped to the bounds
        #expect(matches(compositor.pixel(x: 20, y: 25), white))
    }

    @Test func contentsOtherThanAnImageShowNothing() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        layer.contents = "not an image"
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), white))
    }
}

@MainActor
@Suite struct RenderInContextTests {
    /// A UIKit-style context: y down, `width`×`height` points at `scale`.
    private func makeContext(width: Int, height: Int, scale: CGFloat = 1, bitmapInfo: UInt32 = CGImageAlphaInfo.premultipliedLast.rawValue) -> CGContext {
        let ctx = CGContext(
            data: nil, width: Int(CGFloat(width) * scale), height: Int(CGFloat(height) * scale), bitsPerComponent: 8,
            bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: bitmapInfo)!
        ctx.translateBy(x: 0, y: CGFloat(ctx.height))
        ctx.scaleBy(x: scale, y: -scale)
        return ctx
    }

    private func pixel(_ ctx: CGContext, _ x: Int, _ y: Int) -> RGBA {
        let p = ctx.data!.load(fromByteOffset: y * ctx.bytesPerRow + x * 4, as: UInt32.self)
        return (UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF), UInt8(p >> 24))
    }

    @Test func renderDrawsTheLayerInItsOwnSpaceThroughTheContextsTransform() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.frame = CGRect(x: 100, y: 100, width: 20, height: 20)  // its position does not matter
        layer.backgroundColor = color(1, 0, 0)
        let child = addLayer(to: layer, frame: CGRect(x: 10, y: 0, width: 10, height: 10), color: color(0, 0, 1))
        child.cornerRadius = 0
        let ctx = makeContext(width: 20, height: 20, scale: 2)
        layer.render(in: ctx)
        #expect(matches(pixel(ctx, 2, 30), red))
        #expect(matches(pixel(ctx, 30, 2), blue))    // top right, y down
        #expect(matches(pixel(ctx, 39, 39), red))
    }

    @Test func renderDrawsTheModelNotTheCommittedTree() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.backgroundColor = color(1, 0, 0)
        CATransaction.flush()
        layer.backgroundColor = color(0, 1, 0)
        let ctx = makeContext(width: 10, height: 10)
        layer.render(in: ctx)
        #expect(matches(pixel(ctx, 5, 5), green))
    }

    @Test func renderHonoursTheClipAndOtherPixelLayouts() {
        TransactionState.current.reset()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.backgroundColor = color(1, 0, 0)
        let bgra = CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue
        let ctx = makeContext(width: 10, height: 10, bitmapInfo: bgra)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 10))
        layer.render(in: ctx)
        // B G R A in memory: the word's low byte is blue.
        #expect(matches(pixel(ctx, 2, 2), (0, 0, 255, 255)))
        #expect(matches(pixel(ctx, 7, 2), (0, 0, 0, 0)))  // clipped away
    }
}
