import TestExpectations
import Testing
@testable import CoreGraphics
import DrawingTestSupport
import GeometryTestSupport

func makeImage(_ bytes: [UInt8], width: Int, height: Int, bitsPerPixel: Int = 32, bytesPerRow: Int? = nil,
               info: CGBitmapInfo, space: CGColorSpace = CGColorSpaceCreateDeviceRGB()) -> CGImage? {
    CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: bitsPerPixel,
            bytesPerRow: bytesPerRow ?? width * bitsPerPixel / 8, space: space, bitmapInfo: info,
            provider: CGDataProvider(data: Data(bytes))!, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
}

/// A random 7×5 premultiplied RGBA image for the sampler's tests, and its
/// pixel at (x, y) as a word, the edge pixels repeated outside it.
func randomSamplerImage(_ g: inout SeededGenerator) throws -> (CGImage, (Int, Int) -> UInt32) {
    let width = 7, height = 5
    var bytes: [UInt8] = []
    for _ in 0..<(width * height) {
        let alpha = UInt8(g.int(0...255))
        bytes += [UInt8(g.int(0...Int(alpha))), UInt8(g.int(0...Int(alpha))), UInt8(g.int(0...Int(alpha))), alpha]
    }
    let image = try #require(makeImage(bytes, width: width, height: height, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)))
    let texel = { (x: Int, y: Int) -> UInt32 in
        let i = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 4
        return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
    return (image, texel)
}

@Suite struct CGImageTests {
    @Test func readsEachSourceLayoutIntoPremultipliedRGBA() {
        let straight = makeImage([255, 0, 0, 128], width: 1, height: 1, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue))!
        expectEqual(rgba(straight, 0, 0), [128, 0, 0, 128])
        let first = makeImage([128, 100, 0, 0], width: 1, height: 1, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue))!
        expectEqual(rgba(first, 0, 0), [100, 0, 0, 128])
        let bgra = makeImage([30, 20, 10, 255], width: 1, height: 1,
                             info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue))!
        expectEqual(rgba(bgra, 0, 0), [10, 20, 30, 255])
        let skip = makeImage([1, 2, 3, 0], width: 1, height: 1, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue))!
        expectEqual(rgba(skip, 0, 0), [1, 2, 3, 255])
        let rgb = makeImage([1, 2, 3, 4, 5, 6], width: 2, height: 1, bitsPerPixel: 24, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue))!
        expectEqual(rgba(rgb, 1, 0), [4, 5, 6, 255])
        let gray = makeImage([9, 99], width: 1, height: 2, bitsPerPixel: 8, info: [], space: CGColorSpaceCreateDeviceGray())!
        expectEqual(rgba(gray, 0, 1), [99, 99, 99, 255])
        // A "premultiplied" source with colour above alpha is clamped to stay valid.
        let invalid = makeImage([200, 0, 0, 100], width: 1, height: 1, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))!
        expectEqual(rgba(invalid, 0, 0), [100, 0, 0, 100])
        #expect(straight.bitsPerPixel == 32 && straight.bytesPerRow == 4 && straight.alphaInfo == .premultipliedLast)
    }

    @Test func rowPaddingIsSkipped() {
        let image = makeImage([1, 1, 1, 255, 0, 0, 0, 0, 2, 2, 2, 255, 0, 0, 0, 0], width: 1, height: 2, bytesPerRow: 8,
                              info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))!
        expectEqual(rgba(image, 0, 1), [2, 2, 2, 255])
    }

    @Test func refusesBadSizesLayoutsAndShortData() {
        let info = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)
        #expect(makeImage([0, 0, 0, 0], width: 0, height: 1, info: info) == nil)
        #expect(makeImage([0, 0, 0, 0], width: 1, height: -1, info: info) == nil)
        #expect(makeImage([0, 0, 0, 0], width: 2, height: 1, info: info) == nil)              // 4 bytes for 8
        #expect(makeImage([0, 0, 0, 0], width: 40_000, height: 40_000, info: info) == nil)    // no giant allocation
        #expect(makeImage([0, 0, 0, 0], width: 1, height: 1, bytesPerRow: 2, info: info) == nil)
        #expect(makeImage([0, 0, 0, 0], width: 1, height: 1, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.alphaOnly.rawValue)) == nil)
        #expect(makeImage([0, 0, 0, 0], width: 1, height: 1, info: info.union(.floatComponents)) == nil)
    }

    /// Found by fuzzing: a 228-byte JPEG whose header claims 10280×10245
    /// pixels took seconds and 700 MB before failing on its missing data.
    /// Such files are refused from their header, before anything is allocated.
    @Test func filesTooShortForTheSizeTheyClaimAreRefusedBeforeAllocating() throws {
        let bomb = try #require(Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABBAD/2wBDAAYEBQYFBAYGBQYHIwcGCAoQCgoJCQoUDg8MEBcUGBgXFBYWGh0lGhsjHBYWICwgIyYnKSopGdctMNrXMCUoKSj/2wBDAQcHBwoI3xMKChMoGhYaKCgoKCgoKCgos7S0/ygoKCgoKCimKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCCgoKAUDASIAAhEBAxEB/wB34+Tl5ufo6vLz9PX29/gw/9oADAMBAAIRAxEAPwBvb29vb29vb29vb29vbygof//Z"))
        #expect(throws: CGImageCodecError.invalidData("a JPEG of 10245×10280 pixels needs at least 205761 bytes; this one has 228")) {
            try CGImage.decode(bomb)
        }
        // A PNG of one pixel claiming 15000×15000 (900 MB, under the 1 GB a bitmap may have).
        let small = try #require(CGImage(width: 1, height: 1) { _ in }).pngData()
        var claim = small
        claim.replaceSubrange(16..<24, with: [0, 0, 0x3A, 0x98, 0, 0, 0x3A, 0x98])
        // The header's checksum, so that the size is what is refused.
        let crc = crc32(Array(claim[12..<29]))
        claim.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(performing: { try CGImage.decode(claim) }, throws: {
            "\($0)".hasPrefix("invalid image data: a PNG of 15000×15000 pixels needs at least 13740 bytes of image data; this one has ")
        })
        // A large picture of one colour, compressed as far as it goes, still reads.
        let plain = try #require(CGImage(width: 3000, height: 2000) { pixels in
            pixels.base.initializeMemory(as: UInt8.self, repeating: 255, count: 3000 * 2000 * 4)
        })
        let png = try plain.pngData(), jpeg = try plain.jpegData(compressionQuality: 0.5)
        try expectEqual(CGImage.decode(png).width, 3000)
        try expectEqual(CGImage.decode(jpeg).height, 2000)
    }

    @Test func aPNGCutShortIsRefusedBeforeItsPixelsAreAllocated() throws {
        // Cut inside its image data: the chunk list says so before anything
        // is allocated (a truncated 20 KB file used to reach 1 GB first).
        let plain = try #require(CGImage(width: 300, height: 200) { pixels in
            for index in 0..<(300 * 200 * 4) { pixels.base.storeBytes(of: UInt8(truncatingIfNeeded: index &* 2654435761 >> 13), toByteOffset: index, as: UInt8.self) }
        })
        let png = try plain.pngData()
        let cut = png.prefix(png.count / 2)
        #expect(performing: { try CGImage.decode(cut) }, throws: {
            "\($0)".contains("the PNG is cut short: its IDAT chunk at byte ")
        })
        let noEnd = png.prefix(png.count - 12)  // whole chunks, but no IEND
        #expect(throws: CGImageCodecError.invalidData("the PNG is cut short: it ends at byte \(noEnd.count) without its IEND chunk")) {
            try CGImage.decode(noEnd)
        }
        try expectEqual(CGImage.decode(png).width, 300)
    }

    /// An arithmetic-coded JPEG (SOF9) whose scan has no data: SOI, a
    /// quantisation table, the frame header, the scan header, EOI.
    static func emptyArithmeticJPEG(width: UInt16, height: UInt16) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC9, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    @Test func anArithmeticJPEGWithNoScanDataIsRefused() throws {
        // libjpeg reads zeros past the end of arithmetic-coded data: this
        // decoded "successfully" as gray, 1.86 GB and 23 s for a large claim.
        let jpeg = Self.emptyArithmeticJPEG(width: 640, height: 480)
        let size = try CGImage.pixelSize(ofEncoded: jpeg)
        #expect(size.width == 640 && size.height == 480)
        #expect(throws: CGImageCodecError.invalidData("the JPEG's first scan holds no data")) { try CGImage.decode(jpeg) }
    }

    @Test func anArithmeticJPEGWhoseScanEndsEarlyIsRefused() throws {
        // One byte of scan data for 640 × 480: libjpeg would read zeros for the rest.
        var bytes = Array(Self.emptyArithmeticJPEG(width: 640, height: 480))
        bytes.insert(0x5A, at: bytes.count - 2)
        #expect(performing: { try CGImage.decode(Data(bytes)) }, throws: {
            "\($0)".hasPrefix("invalid image data: the JPEG's scan data ends at row ")
        })
    }

    /// The fuzz target's seeds, one file of each coding (Fuzz/Seeds makes them).
    static let seedDirectory = "/" + "\(#filePath)".split(separator: "/").dropLast(3).joined(separator: "/") + "/Fuzz/Corpus/ImageDecoders"

    @Test(arguments: [
        "interlaced-rgba.png", "interlaced-rgb16.png", "palette4-transparent.png", "gray1-interlaced.png",
        "restarts.jpg", "progressive.jpg", "arithmetic.jpg", "arithmetic-progressive.jpg", "arithmetic-restarts-gray.jpg",
    ])
    func everyCodingOfTheSeedsDecodes(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.seedDirectory + "/" + file))
        let image = try CGImage.decode(data)
        #expect(image.width == 61 && image.height == 37)
        // The generator's pattern: red = (4x + 7y + (xy mod 13)) mod 256, at (10, 5).
        let red = Int(image.pixels.pixel(x: 10, y: 5).red)
        if file.hasSuffix(".jpg") && !file.contains("gray") {
            #expect(abs(red - (40 + 35 + 50 % 13)) <= 12, "\(red)")
        }
    }

    @Test func theClaimedSizeIsReadWithoutDecoding() throws {
        let png = try #require(CGImage(width: 7, height: 5) { _ in }).pngData()
        let size = try CGImage.pixelSize(ofEncoded: png)
        #expect(size.width == 7 && size.height == 5)
        #expect(throws: CGImageCodecError.unknownFormat) { try CGImage.pixelSize(ofEncoded: Data("GIF89a".utf8)) }
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func croppingKeepsTheRectanglesPixels() {
        let bytes = (0..<16).flatMap { i -> [UInt8] in [UInt8(i), 0, 0, 255] }    // 4×4, red = index
        let image = makeImage(bytes, width: 4, height: 4, info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))!
        let part = image.cropping(to: CGRect(x: 1, y: 2, width: 2, height: 2))!
        #expect(part.width == 2 && part.height == 2)
        #expect(rgba(part, 0, 0)[0] == 9 && rgba(part, 1, 1)[0] == 14)
        expectEqual(image.cropping(to: CGRect(x: 3.5, y: 3.5, width: 10, height: 10))!.width, 1)
        #expect(image.cropping(to: CGRect(x: 10, y: 0, width: 2, height: 2)) == nil)
        #expect(image.cropping(to: .null) == nil)
        #expect(image.cropping(to: CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2)) == nil)
    }
}

@Suite struct RendererPrimitiveTests {
    @Test func fillPixelsWorksInMemoryCoordinatesUnderTheClip() {
        let context = makeContext(width: 6, height: 4)
        context.translateBy(x: 100, y: 100)                   // ignored: memory coordinates
        context.clip(to: CGRect(x: -100, y: -100, width: 4, height: 200))   // device x 0..<4
        context.fillPixels(CGRect(x: 1, y: 0, width: 5, height: 1.5), color: PremultipliedColor(red: 0, green: 255, blue: 0, alpha: 255))
        expectEqual(bytes(context, 1, 0), [0, 255, 0, 255])     // row 0 is the top row in memory
        expectEqual(bytes(context, 3, 0), [0, 255, 0, 255])
        expectEqual(bytes(context, 4, 0), [0, 0, 0, 0])         // clipped
        expectEqual(bytes(context, 0, 0), [0, 0, 0, 0])
        expectEqual(bytes(context, 2, 1), [0, 128, 0, 128])     // half a row
    }

    @Test func compositeMaskWeightsTheColourByEachMaskValue() {
        let context = makeContext(width: 4, height: 3, info: CGImageAlphaInfo.premultipliedFirst.rawValue)
        context.clip(to: CGRect(x: 0, y: 0, width: 1, height: 3))           // device x 0..<1
        let mask: [UInt8] = [255, 128, 64,
                             0, 255, 255]
        mask.withUnsafeBufferPointer { m in
            context.compositeMask(m.baseAddress!, width: 3, height: 2, bytesPerRow: 3, atX: -1, y: 1,
                                  color: PremultipliedColor(red: 200, green: 0, blue: 0, alpha: 200))
        }
        expectEqual(bytes(context, 0, 1), [100, 100, 0, 0])       // 128/255 of (200, 0, 0, 200) in A R G B
        expectEqual(bytes(context, 1, 1)[0], 0)                    // clipped out (64 would have painted it)
        expectEqual(bytes(context, 0, 2), [200, 200, 0, 0])
        expectEqual(bytes(context, 0, 0), [0, 0, 0, 0])
        // A bottom-up mask (negative pitch), starting at its top row.
        let flipped = makeContext(width: 1, height: 2)
        let rows: [UInt8] = [10, 255]                            // memory: bottom row first
        rows.withUnsafeBufferPointer { m in
            flipped.compositeMask(m.baseAddress! + 1, width: 1, height: 2, bytesPerRow: -1, atX: 0, y: 0,
                                  color: PremultipliedColor(red: 255, green: 255, blue: 255, alpha: 255))
        }
        #expect(bytes(flipped, 0, 0)[3] == 255 && bytes(flipped, 0, 1)[3] == 10)
    }

    @Test func drawPixelsCopiesExactlyAtWholePixelOffsetsAndFiltersBetween() {
        let source = makeImage([255, 0, 0, 255, 0, 0, 255, 255], width: 2, height: 1,
                               info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))!
        let context = makeContext(width: 6, height: 3)
        context.drawImage(source, transform: CGAffineTransform(translationX: 2, y: 1))
        expectEqual(bytes(context, 2, 1), [255, 0, 0, 255])
        expectEqual(bytes(context, 3, 1), [0, 0, 255, 255])
        #expect(bytes(context, 1, 1) == [0, 0, 0, 0] && bytes(context, 4, 1) == [0, 0, 0, 0])

        // Scaled 3× horizontally: the middle column lies between the two
        // pixels' centres, so it is a half-and-half mix; the ends are pure.
        let scaled = makeContext(width: 6, height: 1)
        scaled.drawImage(source, transform: CGAffineTransform(scaleX: 3, y: 1))
        expectEqual(bytes(scaled, 0, 0), [255, 0, 0, 255])
        expectEqual(bytes(scaled, 5, 0), [0, 0, 255, 255])
        let middle = bytes(scaled, 2, 0), next = bytes(scaled, 3, 0)
        #expect(middle[0] > middle[2] && next[2] > next[0] && middle[3] == 255)
        expectEqual(Int(middle[0]) + Int(middle[2]), 255)
        // Without interpolation the columns are the nearest pixel's.
        let nearest = makeContext(width: 6, height: 1)
        nearest.drawImage(source, transform: CGAffineTransform(scaleX: 3, y: 1), interpolation: .none)
        expectEqual((0..<6).map { bytes(nearest, $0, 0)[0] }, [255, 255, 255, 0, 0, 0])
        // Half alpha, and a singular transform that draws nothing.
        let faded = makeContext(width: 2, height: 1)
        faded.drawImage(source, transform: .identity, alpha: 0.5)
        expectEqual(bytes(faded, 0, 0), [128, 0, 0, 128])
        faded.drawImage(source, transform: CGAffineTransform(scaleX: 0, y: 1))
        faded.drawImage(source, transform: CGAffineTransform(translationX: .nan, y: 0))
        expectEqual(bytes(faded, 1, 0), [0, 0, 128, 128])
    }

    /// The sampler's filtered and nearest samples, through turned, scaled
    /// and shifted transforms (coordinates either side of zero), are
    /// exactly the textbook ones: source centres at `floor(u − ½)` and the
    /// next, weights `round(fraction × 256)` (the sampler works these out
    /// without the C library's `floor` and `round`).
    @Test(arguments: 0..<20)
    func samplesAreTheTextbookBilinearAndNearestOnes(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed) &+ 4242)
        let (image, texel) = try randomSamplerImage(&g)
        func unit() -> CGFloat { CGFloat(g.int(0...1_000_000)) / 1_000_000 }
        let transform = CGAffineTransform(rotationAngle: seed % 4 == 0 ? 0 : unit() * 6.3)
            .scaledBy(x: 0.4 + unit() * 2, y: 0.4 + unit() * 2)
            .concatenating(CGAffineTransform(translationX: unit() * 8 - 4, y: unit() * 8 - 4))
        let source = image.pixels
        for nearest in [false, true] {
            let sampler = try #require(ImageSampler(source: source, transform: transform, alpha: 1, nearest: nearest, targetFormat: source.format))
            let inverse = try #require(transform.invertedIfPossible())
            var row = [UInt32](repeating: 0, count: 16)
            for y in -3..<9 {
                row.withUnsafeMutableBufferPointer { sampler.fetch(y: y, x: -4, count: 16, into: $0.baseAddress!) }
                // Stepped along the row as the sampler steps.
                var u = inverse.a * -3.5 + inverse.c * (CGFloat(y) + 0.5) + inverse.tx
                var v = inverse.b * -3.5 + inverse.d * (CGFloat(y) + 0.5) + inverse.ty
                var expected: [UInt32] = []
                for _ in 0..<16 {
                    defer { u += inverse.a; v += inverse.b }
                    if nearest {
                        expected.append(texel(Int(u.rounded(.down)), Int(v.rounded(.down))))
                        continue
                    }
                    let fu = u - 0.5, fv = v - 0.5
                    let iu = Int(fu.rounded(.down)), iv = Int(fv.rounded(.down))
                    let wu = UInt32(((fu - CGFloat(iu)) * 256).rounded()), wv = UInt32(((fv - CGFloat(iv)) * 256).rounded())
                    let top = lerpBytes(texel(iu, iv), texel(iu + 1, iv), wu)
                    let bottom = lerpBytes(texel(iu, iv + 1), texel(iu + 1, iv + 1), wu)
                    expected.append(lerpBytes(top, bottom, wv))
                }
                expectEqual(row, expected, "seed \(seed), nearest \(nearest), row \(y)")
            }
        }
    }

    /// At a whole-pixel offset the samples are the image's pixels, the
    /// edge ones repeated outside it: spans inside the image (copied in
    /// one go), across its edges and outside it, faded or not.
    @Test func samplesAtAWholePixelOffsetAreTheImagesPixels() throws {
        var g = SeededGenerator(state: 77)
        let (image, texel) = try randomSamplerImage(&g)
        let width = image.width
        for (dx, dy) in [(0, 0), (3, -2), (-4, 1)] {
            for alpha: CGFloat in [1, 0.5] {
                let sampler = try #require(ImageSampler(source: image.pixels, transform: CGAffineTransform(translationX: CGFloat(dx), y: CGFloat(dy)),
                                                        alpha: alpha, nearest: false, targetFormat: .rgba))
                for y in -2..<8 {
                    for (x, count) in [(dx, width), (dx + 1, 3), (dx - 2, width + 4), (dx + width, 2)] {
                        var row = [UInt32](repeating: 0, count: count)
                        row.withUnsafeMutableBufferPointer { sampler.fetch(y: y, x: x, count: count, into: $0.baseAddress!) }
                        let expected = (x..<(x + count)).map { texel($0 - dx, y - dy) }.map { alpha == 1 ? $0 : scaleBytes($0, by: 128) }
                        expectEqual(row, expected, "offset (\(dx), \(dy)), alpha \(alpha), row \(y), from \(x)")
                    }
                }
            }
        }
    }

    @Test func drawImageInRectPutsTheFirstRowAtTheTopInCoreGraphicsSpace() {
        // Top row red, bottom row blue.
        let source = makeImage([255, 0, 0, 255, 0, 0, 255, 255], width: 1, height: 2,
                               info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue))!
        let context = makeContext(width: 2, height: 4)
        context.draw(source, in: CGRect(x: 0, y: 0, width: 2, height: 4))
        expectEqual(bytes(context, 0, 0), [255, 0, 0, 255])      // top of memory: the image's first row
        expectEqual(bytes(context, 1, 3), [0, 0, 255, 255])
        // In a flipped (UIKit-style) context the same call draws it upside down.
        let flipped = makeContext(width: 2, height: 4)
        flipped.translateBy(x: 0, y: 4)
        flipped.scaleBy(x: 1, y: -1)
        flipped.draw(source, in: CGRect(x: 0, y: 0, width: 2, height: 4))
        expectEqual(bytes(flipped, 0, 0), [0, 0, 255, 255])
    }
}
