import TestExpectations
import Testing
@testable import CoreGraphics

/// Glyphs drawn into bitmap contexts: from the rasterized-glyph cache when
/// the transform only scales and translates, as outlines otherwise.
@Suite struct GlyphDrawingTests {
    static let face = FontFace.systemFace(weight: 80, italic: false, monospaced: false)

    /// A white bitmap whose user space is UIKit's: y down, `scale` pixels a point.
    private func whiteContext(width: Int, height: Int, scale: CGFloat = 1) -> CGContext {
        let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: width, height: height))
        context.translateBy(x: 0, y: CGFloat(height))
        context.scaleBy(x: scale, y: -scale)
        return context
    }

    private func shaped(_ text: String, size: CGFloat) -> (glyphs: [CGGlyph], positions: [CGPoint], width: CGFloat) {
        var shaped = ShapedText()
        shaped.append(text.unicodeScalars, utf16Offset: 0, face: Self.face, pointSize: size, kern: nil, style: 0)
        var x: CGFloat = 0
        var positions: [CGPoint] = []
        for advance in shaped.advances { positions.append(CGPoint(x: x, y: 0)); x += advance }
        return (shaped.glyphs, positions, x)
    }

    /// The pixels that are not white, as a bounding box in memory coordinates, and their count.
    private func ink(_ context: CGContext) -> (box: (x0: Int, y0: Int, x1: Int, y1: Int)?, count: Int, darkest: UInt8) {
        let bytes = context.data!.assumingMemoryBound(to: UInt8.self)
        var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
        var count = 0
        var darkest: UInt8 = 255
        for y in 0..<context.height {
            for x in 0..<context.width where bytes[y * context.bytesPerRow + x * 4] != 255 {
                count += 1
                darkest = min(darkest, bytes[y * context.bytesPerRow + x * 4])
                box = box.map { (min($0.x0, x), min($0.y0, y), max($0.x1, x + 1), max($0.y1, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return (box, count, darkest)
    }

    private func draw(_ text: String, size: CGFloat, at origin: CGPoint, in context: CGContext) {
        let run = shaped(text, size: size)
        context.drawGlyphs(run.glyphs[...], at: run.positions.map { CGPoint(x: $0.x + origin.x, y: $0.y + origin.y) }[...],
                           face: Self.face, pointSize: size, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    }

    @Test func inkStaysWithinTheFontsBoxAroundThePen() {
        let context = whiteContext(width: 300, height: 80)
        let size: CGFloat = 30
        let run = shaped("Hxgjy", size: size)
        draw("Hxgjy", size: size, at: CGPoint(x: 20, y: 50), in: context)
        let ink = ink(context)
        let box = try! #require(ink.box)
        let scale = size / CGFloat(Self.face.unitsPerEm)
        // Between the ascender and descender lines, and the pen's start and end (a pixel of anti-aliasing each side).
        #expect(box.y0 >= Int((50 - CGFloat(Self.face.ascent) * scale).rounded(.down)) - 1)
        #expect(box.y1 <= Int((50 - CGFloat(Self.face.descent) * scale).rounded(.up)) + 1)
        #expect(box.x0 >= 19 && box.x1 <= Int((20 + run.width).rounded(.up)) + 1)
        // "H" reaches the cap height, "g" and "j" go below the baseline.
        #expect(box.y0 <= Int(50 - CGFloat(Self.face.capHeight) * scale) + 1)
        #expect(box.y1 > 52)
        expectEqual(ink.darkest, 0, "stems are fully covered")
    }

    @Test func theBaselineSnapsToWholePixels() {
        let a = whiteContext(width: 100, height: 60), b = whiteContext(width: 100, height: 60)
        draw("H", size: 20, at: CGPoint(x: 10, y: 30), in: a)
        draw("H", size: 20, at: CGPoint(x: 10, y: 30.2), in: b)
        expectEqual(memcmp(a.data!, b.data!, 100 * 60 * 4), 0)
    }

    @Test func scaleRasterizesAtTheDeviceSize() {
        let one = whiteContext(width: 200, height: 100), three = whiteContext(width: 600, height: 300, scale: 3)
        draw("Hamburg", size: 20, at: CGPoint(x: 5, y: 40), in: one)
        draw("Hamburg", size: 20, at: CGPoint(x: 5, y: 40), in: three)
        let inkOne = ink(one), inkThree = ink(three)
        let w1 = CGFloat(inkOne.box!.x1 - inkOne.box!.x0), w3 = CGFloat(inkThree.box!.x1 - inkThree.box!.x0)
        #expect(abs(w3 - 3 * w1) <= 4, "\(w1) × 3 ≈ \(w3)")
    }

    @Test func rotatedTextIsFilledFromOutlinesWithTheSameInk() {
        let straight = whiteContext(width: 300, height: 300), turned = whiteContext(width: 300, height: 300)
        draw("Ink", size: 40, at: CGPoint(x: 100, y: 150), in: straight)
        turned.translateBy(x: 100, y: 150)
        turned.rotate(by: .pi / 2)
        draw("Ink", size: 40, at: .zero, in: turned)
        let a = ink(straight), b = ink(turned)
        let boxA = a.box!, boxB = b.box!
        // A quarter turn swaps the ink's width and height.
        #expect(abs((boxA.x1 - boxA.x0) - (boxB.y1 - boxB.y0)) <= 2)
        #expect(abs((boxA.y1 - boxA.y0) - (boxB.x1 - boxB.x0)) <= 2)
        #expect(abs(Double(a.count - b.count)) / Double(a.count) < 0.1)
    }

    @Test func clipAndAlphaApply() {
        let context = whiteContext(width: 200, height: 60)
        context.clip(to: CGRect(x: 0, y: 0, width: 30, height: 60))
        context.setAlpha(0.5)
        draw("HHHHHHHH", size: 30, at: CGPoint(x: 5, y: 40), in: context)
        let ink = ink(context)
        #expect(ink.box!.x1 <= 30)
        #expect(ink.darkest >= 126 && ink.darkest <= 129, "half-covered black over white at best")
    }

    @Test func badPositionsAndSizesDrawNothingAndDoNotCrash() {
        let context = whiteContext(width: 50, height: 50)
        let run = shaped("abc", size: 12)
        for point in [CGPoint(x: CGFloat.nan, y: 10), CGPoint(x: 10, y: CGFloat.infinity), CGPoint(x: -1e30, y: 1e30)] {
            context.drawGlyphs(run.glyphs[...], at: Array(repeating: point, count: 3)[...], face: Self.face, pointSize: 12,
                               color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        }
        for size in [0, -4, 1e9] as [CGFloat] {
            context.drawGlyphs(run.glyphs[...], at: run.positions[...], face: Self.face, pointSize: size,
                               color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        }
        expectEqual(ink(context).count, 0)
    }
}
