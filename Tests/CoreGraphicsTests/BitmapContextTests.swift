import TestExpectations
import Testing
@testable import CoreGraphics

/// A context of its own memory in the given layout.
func makeContext(width: Int, height: Int, info: UInt32 = CGImageAlphaInfo.premultipliedLast.rawValue) -> CGContext {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)!
}

/// The four bytes of the pixel in memory column `x`, row `y` (row 0 first in memory).
func bytes(_ context: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
    let p = context.data!.assumingMemoryBound(to: UInt8.self) + y * context.bytesPerRow + x * 4
    return [p[0], p[1], p[2], p[3]]
}

@Suite struct BitmapContextTests {
    @Test func ownMemoryStartsTransparentAndReportsItsLayout() {
        let context = makeContext(width: 5, height: 3)
        #expect(context.width == 5 && context.height == 3 && context.bytesPerRow == 20)
        #expect(context.bitsPerComponent == 8 && context.bitsPerPixel == 32)
        expectEqual(context.alphaInfo, .premultipliedLast)
        expectEqual(context.ctm, .identity)
        for y in 0..<3 { for x in 0..<5 { expectEqual(bytes(context, x, y), [0, 0, 0, 0]) } }
    }

    @Test func refusesLayoutsAndSizesItCannotDraw() {
        let rgb = CGColorSpaceCreateDeviceRGB()
        let premultiplied = CGImageAlphaInfo.premultipliedLast.rawValue
        func make(_ w: Int, _ h: Int, bpc: Int = 8, bpr: Int = 0, info: UInt32 = premultiplied, space: CGColorSpace = rgb) -> CGContext? {
            CGContext(data: nil, width: w, height: h, bitsPerComponent: bpc, bytesPerRow: bpr, space: space, bitmapInfo: info)
        }
        #expect(make(0, 10) == nil)
        #expect(make(10, -1) == nil)
        #expect(make(100_000, 10) == nil)            // wider than any bitmap may be
        #expect(make(30_000, 30_000) == nil)         // 3.6 GB: a clear nil, no allocation
        #expect(make(10, 10, bpr: 39) == nil)        // rows shorter than 10 pixels
        #expect(make(10, 10, bpc: 16) == nil)
        #expect(make(10, 10, info: CGImageAlphaInfo.last.rawValue) == nil)   // non-premultiplied, as on iOS
        #expect(make(10, 10, space: CGColorSpaceCreateDeviceGray()) == nil)
        #expect(make(10, 10, bpr: 64)?.bytesPerRow == 64)
    }

    @Test func fillUsesCoreGraphicsCoordinatesWithTheOriginAtTheBottomLeft() {
        let context = makeContext(width: 8, height: 8)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 2))
        // y 0..<2 in user space is the last two rows in memory.
        expectEqual(bytes(context, 0, 7), [255, 0, 0, 255])
        expectEqual(bytes(context, 3, 6), [255, 0, 0, 255])
        expectEqual(bytes(context, 4, 7), [0, 0, 0, 0])
        expectEqual(bytes(context, 0, 5), [0, 0, 0, 0])
        expectEqual(bytes(context, 0, 0), [0, 0, 0, 0])
    }

    @Test func eachPixelFormatLaysOutBytesAsDocumented() {
        let layouts: [(UInt32, [UInt8])] = [
            (CGImageAlphaInfo.premultipliedLast.rawValue, [200, 100, 50, 255]),
            (CGImageAlphaInfo.premultipliedFirst.rawValue, [255, 200, 100, 50]),
            (CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue, [50, 100, 200, 255]),
            (CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Little.rawValue, [255, 50, 100, 200]),
            (CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Big.rawValue, [200, 100, 50, 255]),
        ]
        for (info, expected) in layouts {
            let context = makeContext(width: 2, height: 2, info: info)
            context.setFillColor(red: 200 / 255, green: 100 / 255, blue: 50 / 255, alpha: 1)
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            expectEqual(bytes(context, 0, 1), expected, "bitmap info \(info)")
            // And the image made from it is R G B A whatever the context's layout.
            let image = context.makeImage()!
            let pixel = image.pixels.pixel(x: 0, y: 1)
            expectEqual([pixel.red, pixel.green, pixel.blue, pixel.alpha], [200, 100, 50, 255])
        }
    }

    @Test func colourIsStoredPremultiplied() {
        let context = makeContext(width: 1, height: 1)
        context.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        expectEqual(bytes(context, 0, 0), [128, 64, 0, 128])
    }

    @Test func sourceOverBlendsAndAlphaMultipliesEveryFill() {
        let context = makeContext(width: 2, height: 1)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.setAlpha(0.25)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        // 25 % blue over red: red 255·0.75, blue 255·0.25.
        expectEqual(bytes(context, 0, 0), [191, 0, 64, 255])
        expectEqual(bytes(context, 1, 0), [255, 0, 0, 255])
    }

    @Test func fractionalEdgesAreCoveredByTheirArea() {
        let context = makeContext(width: 4, height: 1)
        context.setFillColor(gray: 0, alpha: 1)
        context.fill(CGRect(x: 0.5, y: 0, width: 2, height: 1))
        expectEqual(bytes(context, 0, 0)[3], 128)
        expectEqual(bytes(context, 1, 0)[3], 255)
        expectEqual(bytes(context, 2, 0)[3], 128)
        expectEqual(bytes(context, 3, 0)[3], 0)
        // Without anti-aliasing a pixel is in when its centre is: 0.5 is on the edge, counted in.
        let hard = makeContext(width: 4, height: 1)
        hard.setShouldAntialias(false)
        hard.fill(CGRect(x: 0.6, y: 0, width: 2, height: 1))
        expectEqual((0..<4).map { bytes(hard, $0, 0)[3] }, [0, 255, 255, 0])
    }

    @Test func transformsMoveScaleAndTurnWhatIsDrawn() {
        let context = makeContext(width: 20, height: 20)
        context.translateBy(x: 10, y: 10)
        context.scaleBy(x: 2, y: 2)
        expectEqual(context.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 10))
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))    // user (0,0)-(2,1) → device x 10..<14, y 10..<12
        expectEqual(bytes(context, 10, 9)[3], 255)                  // memory row 9 is y 10..<11
        expectEqual(bytes(context, 13, 8)[3], 255)
        expectEqual(bytes(context, 14, 8)[3], 0)
        expectEqual(bytes(context, 10, 7)[3], 0)

        // A square turned 45° about its centre: the centre is covered, the
        // bounding box's corners are not, and the diagonal edge is half covered.
        let turned = makeContext(width: 20, height: 20)
        turned.translateBy(x: 10, y: 10)
        turned.rotate(by: .pi / 4)
        turned.fill(CGRect(x: -5, y: -5, width: 10, height: 10))
        expectEqual(bytes(turned, 10, 10)[3], 255)
        expectEqual(bytes(turned, 3, 3)[3], 0)
        expectEqual(bytes(turned, 16, 16)[3], 0)
        // The diamond is |x − 10| + |y − 10| ≤ 5√2 ≈ 7.07 in device pixels. Pixel
        // (16, 10), centre (16.5, 10.5), lies 0.05 px inside that edge: about half
        // covered (a pixel-wide band across the edge); (13, 10) is well inside.
        expectEqual(bytes(turned, 13, 10)[3], 255)
        let edge = Int(bytes(turned, 16, 10)[3])
        #expect((128...165).contains(edge))
        let ctm = turned.ctm
        #expect(abs(ctm.a - 0.7071067811865476) < 1e-12 && abs(ctm.b - 0.7071067811865476) < 1e-12)
    }

    @Test func diagonalEdgesGetPartialCoverage() {
        // A triangle-like cut: the half-plane below the diagonal of a 10×10 square.
        let context = makeContext(width: 10, height: 10)
        context.translateBy(x: 5, y: 5)
        context.rotate(by: .pi / 4)
        context.fill(CGRect(x: -20, y: 0, width: 40, height: 20))
        // The edge passes through pixel centres on the anti-diagonal: half covered (±2 levels).
        for i in 0..<10 {
            let a = Int(bytes(context, i, 9 - i)[3])
            #expect(abs(a - 128) <= 2, "pixel \(i), \(9 - i) has \(a)")
        }
    }

    @Test func stateStackRestoresTransformColourAlphaAndClip() {
        let context = makeContext(width: 10, height: 10)
        context.saveGState()
        context.translateBy(x: 3, y: 3)
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.setAlpha(0.5)
        context.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        context.restoreGState()
        context.restoreGState()                                  // one too many: nothing happens
        expectEqual(context.ctm, .identity)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        expectEqual(bytes(context, 0, 0), [0, 0, 0, 255])          // black, opaque, unclipped
        expectEqual(bytes(context, 9, 9), [0, 0, 0, 255])
    }

    @Test func clippingToRectangles() {
        let context = makeContext(width: 10, height: 10)
        context.clip(to: CGRect(x: 2, y: 2, width: 4, height: 4))
        context.clip(to: CGRect(x: 4, y: 0, width: 10, height: 10))
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        expectEqual(bytes(context, 4, 7)[3], 255)                    // user (4, 2)
        expectEqual(bytes(context, 5, 4)[3], 255)                    // user (5, 5)
        expectEqual(bytes(context, 3, 7)[3], 0)
        expectEqual(bytes(context, 6, 7)[3], 0)
        expectEqual(bytes(context, 4, 3)[3], 0)                      // user y 6
        expectEqual(context.boundingBoxOfClipPath, CGRect(x: 4, y: 2, width: 2, height: 4))

        // A clip with a fractional edge weights the edge pixels.
        let soft = makeContext(width: 4, height: 1)
        soft.clip(to: CGRect(x: 0, y: 0, width: 1.5, height: 1))
        soft.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        expectEqual((0..<4).map { bytes(soft, $0, 0)[3] }, [255, 128, 0, 0])

        // A rotated clip is a mask: only the diamond's inside is painted.
        let diamond = makeContext(width: 20, height: 20)
        diamond.translateBy(x: 10, y: 10)
        diamond.rotate(by: .pi / 4)
        diamond.clip(to: CGRect(x: -5, y: -5, width: 10, height: 10))
        diamond.rotate(by: -.pi / 4)
        diamond.fill(CGRect(x: -10, y: -10, width: 20, height: 20))
        expectEqual(bytes(diamond, 10, 10)[3], 255)
        expectEqual(bytes(diamond, 4, 4)[3], 0)
        expectEqual(bytes(diamond, 17, 10)[3], 0)
    }

    @Test func clearMakesPixelsTransparentWhateverTheState() {
        let context = makeContext(width: 4, height: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        context.setAlpha(0.1)
        context.clear(CGRect(x: 1, y: 0, width: 2, height: 1))
        expectEqual((0..<4).map { bytes(context, $0, 0)[3] }, [255, 0, 0, 255])
    }

    @Test func copyBlendModeReplacesInsteadOfBlending() {
        let context = makeContext(width: 2, height: 1)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        context.setBlendMode(.copy)
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        expectEqual(bytes(context, 0, 0), [128, 0, 0, 128])
        expectEqual(bytes(context, 1, 0), [0, 0, 0, 255])
    }

    @Test func makeImageIsASnapshot() {
        let context = makeContext(width: 2, height: 2)
        context.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        let image = context.makeImage()!
        context.clear(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(image.width == 2 && image.height == 2 && image.bytesPerRow == 8)
        expectEqual(image.alphaInfo, .premultipliedLast)
        expectEqual(image.dataProvider!.data!, Data([0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255]))
    }

    @Test func drawingOverTheCallersMemory() {
        var memory = [UInt8](repeating: 7, count: 3 * 16)      // 3 rows of 16 bytes, 2 pixels used per row
        memory.withUnsafeMutableBytes { raw in
            let context = CGContext(data: raw.baseAddress, width: 2, height: 3, bitsPerComponent: 8, bytesPerRow: 16,
                                    space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue)!
            expectEqual(context.data, raw.baseAddress)
            context.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
            context.fill(CGRect(x: 1, y: 2, width: 1, height: 1))   // top row, right pixel
        }
        expectEqual(Array(memory[0..<8]), [7, 7, 7, 7, 255, 255, 255, 255])
        expectEqual(Array(memory[8..<16]), [UInt8](repeating: 7, count: 8))   // row padding untouched
        expectEqual(Array(memory[16..<24]), [UInt8](repeating: 7, count: 8))
    }

    @Test func nonFiniteRectanglesDrawNothingOrEverything() {
        let context = makeContext(width: 4, height: 4)
        context.fill(CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2))
        context.fill(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 2))
        context.rotate(by: 0.3)
        context.fill(CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2))
        for y in 0..<4 { for x in 0..<4 { expectEqual(bytes(context, x, y)[3], 0) } }
        context.rotate(by: -0.3)
        context.fill(CGRect(x: -CGFloat.infinity, y: -CGFloat.infinity, width: .infinity, height: .infinity))
        context.fill(CGRect.infinite)
        for y in 0..<4 { for x in 0..<4 { expectEqual(bytes(context, x, y)[3], 255) } }
        context.clip(to: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1))
        expectEqual(context.boundingBoxOfClipPath, .null)
    }

    @Test func hugeCoordinatesAreClippedBeforeRasterizing() {
        // A turned rectangle reaching 1e12 pixels away: FreeType's fixed point
        // could not hold it; the part on the bitmap is still drawn.
        let context = makeContext(width: 10, height: 10)
        context.rotate(by: 0.1)
        context.fill(CGRect(x: -1e12, y: -1e12, width: 2e12, height: 2e12))
        for y in 0..<10 { for x in 0..<10 { expectEqual(bytes(context, x, y)[3], 255) } }
    }
}
