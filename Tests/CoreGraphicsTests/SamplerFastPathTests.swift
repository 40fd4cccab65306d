import TestExpectations
import Testing
@testable import CoreGraphics
import GeometryTestSupport

/// The paths that draw images quickly must draw exactly what the general
/// ones do: the sampler's loop for transforms that neither turn nor shear
/// (a label sliding between pixels, a screen scaled back), and the ink
/// bounds that let a mostly transparent image be sampled only where it has
/// ink.
@Suite struct SamplerFastPathTests {
    /// A `width`×`height` image, transparent but for random pixels in
    /// `inked` (some of them transparent too, some opaque, runs of one
    /// colour): a label's text image, small.
    func makeInkedImage(width: Int, height: Int, inked: PixelRect, _ g: inout SeededGenerator) throws -> CGImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var run: [UInt8] = [0, 0, 0, 0]
        for y in inked.y0..<inked.y1 {
            for x in inked.x0..<inked.x1 {
                if g.chance(30) {
                    let alpha = g.chance(40) ? 255 : g.int(0...255)
                    run = [UInt8(g.int(0...alpha)), UInt8(g.int(0...alpha)), UInt8(g.int(0...alpha)), UInt8(alpha)]
                }
                bytes.replaceSubrange((y * width + x) * 4 ..< (y * width + x) * 4 + 4, with: run)
            }
        }
        return try #require(makeImage(bytes, width: width, height: height, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)))
    }

    /// Through translations between pixels, scales up and down, and
    /// mirrorings, faded or not, over spans inside the image, across its
    /// edges and beyond them: the loop along the axes gives the very words
    /// of the general loop (the same arithmetic, rows found once).
    @Test(arguments: 0..<24)
    func samplingAlongTheAxesGivesTheGeneralLoopsWords(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed) &+ 911)
        let width = g.int(3...40), height = g.int(2...12)
        let image = try makeInkedImage(width: width, height: height,
                                       inked: PixelRect(x0: g.int(0...1), y0: g.int(0...1), x1: width - g.int(0...1), y1: height - g.int(0...1)), &g)
        func unit() -> CGFloat { CGFloat(g.int(0...1_000_000)) / 1_000_000 }
        let scale: (x: CGFloat, y: CGFloat) = switch seed % 4 {
        case 0: (1, 1)                                   // a slide between pixels
        case 1: (0.85 + unit() * 0.1, 0.85 + unit() * 0.1)  // a screen scaled back
        case 2: (0.3 + unit() * 3, 0.3 + unit() * 3)
        default: (-(0.5 + unit() * 2), 0.5 + unit() * 2) // mirrored
        }
        let transform = CGAffineTransform(scaleX: scale.x, y: scale.y)
            .concatenating(CGAffineTransform(translationX: unit() * 60 - 20, y: unit() * 20 - 6))
        for alpha: CGFloat in [1, 0.6] {
            let fast = try #require(ImageSampler(source: image.pixels, transform: transform, alpha: alpha, nearest: false, targetFormat: .rgba))
            var general = fast
            general.followsAxes = false
            #expect(fast.integerOffset == nil)
            for y in -4..<(height + 4) {
                for (x, count) in [(-30, 120), (g.int(-5...30), g.int(1...9))] {
                    var words = [UInt32](repeating: 1, count: count), expected = words
                    words.withUnsafeMutableBufferPointer { fast.fetch(y: y, x: x, count: count, into: $0.baseAddress!) }
                    expected.withUnsafeMutableBufferPointer { general.fetch(y: y, x: x, count: count, into: $0.baseAddress!) }
                    expectEqual(words, expected, "seed \(seed), alpha \(alpha), row \(y), from \(x)")
                }
            }
        }
    }

    /// A wide image with a few specks of ink on clear pixels and on a band
    /// of one opaque colour (a label's text image, its gaps long; a card):
    /// the runs of one word between them, filled whole, come out as the
    /// general loop's, whatever the span's start, under slides, scales, a
    /// mirroring and a magnification too strong to skip.
    @Test func runsOfOneWordBetweenSpecksGiveTheGeneralLoopsWords() throws {
        let width = 300, height = 6
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 60..<240 { bytes.replaceSubrange((y * width + x) * 4 ..< (y * width + x) * 4 + 4, with: [30, 60, 90, 255]) }
        }
        for (x, y) in [(5, 2), (6, 2), (150, 3), (151, 4), (200, 0), (298, 1), (299, 5), (0, 0)] {
            bytes.replaceSubrange((y * width + x) * 4 ..< (y * width + x) * 4 + 4, with: [200, 10, 90, 220])
        }
        let image = try #require(makeImage(bytes, width: width, height: height, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)))
        var g = SeededGenerator(state: 12)
        for transform in [CGAffineTransform(translationX: 0.37, y: -0.21), CGAffineTransform(translationX: -40.6, y: 1.5),
                          CGAffineTransform(a: 0.9, b: 0, c: 0, d: 0.9, tx: 3.3, ty: 0.4), CGAffineTransform(a: 2.5, b: 0, c: 0, d: 1.7, tx: -7.1, ty: 0),
                          CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 310.5, ty: 0.5), CGAffineTransform(a: 5000, b: 0, c: 0, d: 1, tx: -700_000.25, ty: 0)] {
            let fast = try #require(ImageSampler(source: image.pixels, transform: transform, alpha: 1, nearest: false, targetFormat: .rgba))
            var general = fast
            general.followsAxes = false
            for y in -1..<(height + 2) {
                for (x, count) in [(-20, 900), (g.int(-10...200), g.int(1...256)), (g.int(0...400), g.int(1...40))] {
                    var words = [UInt32](repeating: 1, count: count), expected = words
                    words.withUnsafeMutableBufferPointer { fast.fetch(y: y, x: x, count: count, into: $0.baseAddress!) }
                    expected.withUnsafeMutableBufferPointer { general.fetch(y: y, x: x, count: count, into: $0.baseAddress!) }
                    expectEqual(words, expected, "\(transform), row \(y), from \(x)")
                }
            }
        }
    }

    /// Far off the image (beyond ±10⁹ pixels, where the general loop gives
    /// transparent samples), the loop along the axes does the same.
    @Test func samplesFarOffTheImageAreTransparentAlongTheAxesToo() throws {
        var g = SeededGenerator(state: 5)
        let image = try makeInkedImage(width: 4, height: 4, inked: PixelRect(x0: 0, y0: 0, x1: 4, y1: 4), &g)
        for transform in [CGAffineTransform(translationX: 2e9, y: 0.5), CGAffineTransform(translationX: 0.5, y: -3e9),
                          CGAffineTransform(scaleX: 1e-10, y: 1)] {
            let fast = try #require(ImageSampler(source: image.pixels, transform: transform, alpha: 1, nearest: false, targetFormat: .rgba))
            var general = fast
            general.followsAxes = false
            var words = [UInt32](repeating: 1, count: 8), expected = words
            words.withUnsafeMutableBufferPointer { fast.fetch(y: 1, x: 0, count: 8, into: $0.baseAddress!) }
            expected.withUnsafeMutableBufferPointer { general.fetch(y: 1, x: 0, count: 8, into: $0.baseAddress!) }
            expectEqual(words, expected, "\(transform)")
        }
    }

    /// The ink bounds hold every pixel that is not transparent and no row
    /// or column more; a transparent image has none.
    @Test(arguments: 0..<12)
    func inkBoundsAreTheSmallestRectangleHoldingEveryInkedPixel(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed) &+ 31)
        let width = g.int(1...33), height = g.int(1...9)
        let x0 = g.int(0...(width - 1)), y0 = g.int(0...(height - 1))
        let inked = PixelRect(x0: x0, y0: y0, x1: g.int((x0 + 1)...width), y1: g.int((y0 + 1)...height))
        let image = try makeInkedImage(width: width, height: height, inked: inked, &g)
        var expected = PixelRect(x0: width, y0: height, x1: 0, y1: 0)
        for y in 0..<height {
            for x in 0..<width where image.pixels.row(y).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) != 0 {
                expected = PixelRect(x0: min(expected.x0, x), y0: min(expected.y0, y), x1: max(expected.x1, x + 1), y1: max(expected.y1, y + 1))
            }
        }
        if expected.isEmpty { expected = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        expectEqual(image.inkBounds, expected, "seed \(seed)")
        // Asked again: the same, kept.
        expectEqual(image.inkBounds, expected, "seed \(seed), again")
    }

    @Test func aTransparentImageHasNoInkAndAForgottenOneIsMeasuredAgain() throws {
        let clear = try #require(CGImage(width: 5, height: 3) { _ in })
        #expect(clear.inkBounds.isEmpty)
        // The one owner allowed to draw into an image again (UIKit's pool of
        // backing stores) forgets the bounds before it does.
        let dot = try #require(CGImage(width: 32_767, height: 2) { _ in })
        expectEqual(dot.inkBounds, PixelRect(x0: 0, y0: 0, x1: 0, y1: 0))
        dot.pixels.row(1).storeBytes(of: 0xFF00_0000, toByteOffset: 32_766 * 4, as: UInt32.self)
        dot.forgetInkBounds()
        expectEqual(dot.inkBounds, PixelRect(x0: 32_766, y0: 1, x1: 32_767, y1: 2))
        // A row is looked at 16 pixels at a time, then pixel by pixel: ink
        // inside a step of 16 alone is found too.
        let speck = try #require(CGImage(width: 40, height: 3) { _ in })
        speck.pixels.row(1).storeBytes(of: 0x0100_0000, toByteOffset: 17 * 4, as: UInt32.self)
        expectEqual(speck.inkBounds, PixelRect(x0: 17, y0: 1, x1: 18, y1: 2))
    }
}
