import TestExpectations
import Testing
@testable import EventServer
import HID

/// Frames converted to a screen's pixels: scaling by box averages and
/// every pixel layout an X visual or a frame buffer may have.
struct PixelFormatTests {
    /// RGBA bytes of a `width` × `height` frame from a colour function.
    static func frame(_ width: Int, _ height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x -> [UInt8] in let c = color(x, y); return [c.0, c.1, c.2, c.3] } }
    }

    /// Converts the whole of `bytes` into a fresh destination; returns its bytes.
    static func convert(_ bytes: [UInt8], _ width: Int, _ height: Int, to destinationWidth: Int, _ destinationHeight: Int, format: PixelFormat, damage: ServerMessage.PixelRect? = nil, firstRow: Int = 0) -> [UInt8] {
        let converter = FrameConverter(sourceWidth: width, sourceHeight: height, destinationWidth: destinationWidth, destinationHeight: destinationHeight, format: format)
        let stride = destinationWidth * format.bytesPerPixel
        var output = [UInt8](repeating: 0xEE, count: stride * destinationHeight)
        bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                let frame = DisplayFrame(pixels: source.baseAddress!, width: width, height: height, stride: width * 4, firstRow: firstRow)
                let area = damage ?? ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(width), height: UInt32(height))
                if let target = converter.destinationRect(covering: area) {
                    converter.convert(frame, rect: target, into: destination.baseAddress!, destinationStride: stride)
                }
            }
        }
        return output
    }

    @Test func masksBecomeChannels() {
        expectEqual(PixelFormat.Channel(mask: 0xFF0000), PixelFormat.Channel(offset: 16, length: 8))
        expectEqual(PixelFormat.Channel(mask: 0x07E0), PixelFormat.Channel(offset: 5, length: 6))
        #expect(PixelFormat.Channel(mask: 0) == nil)
        #expect(PixelFormat.Channel(mask: 0xF0F0) == nil, "a split mask")
    }

    @Test func xrgb8888StoresBlueGreenRedUnusedAndDropsAlpha() {
        // Premultiplied: (100, 50, 25) at alpha 128 is already that colour over black.
        let bytes = Self.frame(2, 1) { x, _ in x == 0 ? (10, 20, 30, 255) : (100, 50, 25, 128) }
        expectEqual(Self.convert(bytes, 2, 1, to: 2, 1, format: .xrgb8888), [30, 20, 10, 0, 25, 50, 100, 0])
    }

    @Test func rgb565RoundsEachChannelToNearest() {
        let bytes = Self.frame(1, 1) { _, _ in (255, 128, 4, 255) }
        // red 31, green round(128 * 63 / 255) = 32, blue round(4 * 31 / 255) = 0.
        let word = UInt16(31) << 11 | UInt16(32) << 5 | 0
        expectEqual(Self.convert(bytes, 1, 1, to: 1, 1, format: .rgb565), [UInt8(word & 0xFF), UInt8(word >> 8)])
    }

    @Test func packed24BitAndBigEndianAndOpaqueAlpha() {
        let bytes = Self.frame(1, 1) { _, _ in (1, 2, 3, 255) }
        let rgb888 = PixelFormat(bitsPerPixel: 24, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
        expectEqual(Self.convert(bytes, 1, 1, to: 1, 1, format: rgb888), [3, 2, 1])
        var bigEndian = PixelFormat.xrgb8888
        bigEndian.isBigEndian = true
        expectEqual(Self.convert(bytes, 1, 1, to: 1, 1, format: bigEndian), [0, 1, 2, 3])
        // A frame buffer with a transparency field gets it filled: opaque.
        let argb = PixelFormat(bitsPerPixel: 32, red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8), alpha: .init(offset: 24, length: 8))
        expectEqual(Self.convert(bytes, 1, 1, to: 1, 1, format: argb), [3, 2, 1, 255])
    }

    @Test func scalingDownAveragesEachBoxRounded() {
        // A 3x frame in a 1x window: each window pixel is the mean of 9.
        let bytes = Self.frame(6, 3) { x, y in (UInt8(x * 10 + y), UInt8(x < 3 ? 0 : 255), 7, 255) }
        let output = Self.convert(bytes, 6, 3, to: 2, 1, format: .xrgb8888)
        // Left box reds: x 0…2, y 0…2: mean of 10x + y = 11; right box: 41.
        expectEqual(output, [7, 0, 11, 0, 7, 255, 41, 0])
    }

    /// A 3× frame in a 1× window has a loop of its own: every pixel is
    /// still the rounded mean of its nine, in the packed format and in one
    /// written by parts, whole and in a damaged part.
    @Test func threeByThreeBoxesAverageEveryPixelRounded() {
        let width = 48, height = 36
        let bytes = Self.frame(width, height) { x, y in
            (UInt8(truncatingIfNeeded: x * 37 + y * 11), UInt8(truncatingIfNeeded: x * y * 7 + 5), UInt8(truncatingIfNeeded: (x ^ y) * 29), UInt8(truncatingIfNeeded: x + y * 48))
        }
        func mean(_ x: Int, _ y: Int, _ channel: Int) -> Int {
            var sum = 0
            for sourceY in y * 3..<y * 3 + 3 { for sourceX in x * 3..<x * 3 + 3 { sum += Int(bytes[(sourceY * width + sourceX) * 4 + channel]) } }
            return (sum + 4) / 9
        }
        let packed = Self.convert(bytes, width, height, to: 16, 12, format: .xrgb8888)
        expectEqual(packed, (0..<12).flatMap { y in (0..<16).flatMap { x in [mean(x, y, 2), mean(x, y, 1), mean(x, y, 0), 0].map(UInt8.init) } })
        let byParts = Self.convert(bytes, width, height, to: 16, 12, format: .rgb565)
        let expected565 = (0..<12).flatMap { y in (0..<16).flatMap { x -> [UInt8] in
            let red = (mean(x, y, 0) * 31 + 127) / 255, green = (mean(x, y, 1) * 63 + 127) / 255, blue = (mean(x, y, 2) * 31 + 127) / 255
            let word = red << 11 | green << 5 | blue
            return [UInt8(word & 0xFF), UInt8(word >> 8)]
        } }
        expectEqual(byParts, expected565)
        // A damaged part: only its window pixels are written.
        let part = Self.convert(bytes, width, height, to: 16, 12, format: .xrgb8888, damage: .init(x: 7, y: 10, width: 20, height: 5))
        for y in 0..<12 {
            for x in 0..<16 {
                let inside = (2..<9).contains(x) && (3..<5).contains(y)
                let pixel = Array(part[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 4])
                expectEqual(pixel, inside ? Array(packed[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 4]) : [0xEE, 0xEE, 0xEE, 0xEE], "(\(x), \(y))")
            }
        }
    }

    @Test func largeBoxesAverageWithoutOverflow() {
        // 257 white pixels fill a 16-bit lane exactly; 400 take the wide sums.
        for width in [256, 257, 400] {
            let bytes = Self.frame(width, 1) { x, _ in (255, 255, x % 2 == 0 ? 255 : 0, 255) }
            let blue = UInt8((255 * ((width + 1) / 2) + width / 2) / width)
            expectEqual(Self.convert(bytes, width, 1, to: 1, 1, format: .xrgb8888), [blue, 255, 255, 0], "a box of \(width)")
        }
    }

    @Test func unevenRatiosCoverEveryFramePixelOnce() {
        // 5 frame columns into 2: boxes [0, 2) and [2, 5).
        let bytes = Self.frame(5, 1) { x, _ in (UInt8(x * 30), 0, 0, 255) }
        let output = Self.convert(bytes, 5, 1, to: 2, 1, format: .xrgb8888)
        #expect(output[2] == 15 && output[6] == 90)
        // Scaling up repeats the nearest pixel.
        let up = Self.convert(Self.frame(2, 1) { x, _ in (UInt8(x * 200), 0, 0, 255) }, 2, 1, to: 4, 1, format: .xrgb8888)
        expectEqual(up.enumerated().filter { $0.offset % 4 == 2 }.map(\.element), [0, 0, 200, 200])
    }

    /// A frame in a ring of rows (an application's turned buffer: its top
    /// row at memory row `firstRow`) converts as the same frame in order,
    /// at every first row, for each way of converting: straight copy,
    /// other formats, boxes averaged across the wrap, rows repeated.
    @Test func aFrameInARingOfRowsConvertsAsTheFrameInOrder() {
        let width = 6, height = 9
        let bytes = Self.frame(width, height) { x, y in (UInt8(x * 40 + y), UInt8(y * 25), UInt8(x * y), 255) }
        for (destinationWidth, destinationHeight, format) in [(6, 9, PixelFormat.xrgb8888), (6, 9, .rgb565), (2, 3, .xrgb8888), (4, 2, .rgb565), (12, 18, .xrgb8888)] {
            let inOrder = Self.convert(bytes, width, height, to: destinationWidth, destinationHeight, format: format)
            for firstRow in 1..<height {
                var ring = [UInt8](repeating: 0, count: bytes.count)
                for y in 0..<height {
                    let memoryRow = (y + firstRow) % height
                    ring[memoryRow * width * 4..<(memoryRow + 1) * width * 4] = bytes[y * width * 4..<(y + 1) * width * 4]
                }
                let converted = Self.convert(ring, width, height, to: destinationWidth, destinationHeight, format: format, firstRow: firstRow)
                expectEqual(converted, inOrder, "\(destinationWidth) x \(destinationHeight) \(format), first row \(firstRow)")
            }
        }
    }

    @Test func damageTouchesOnlyTheScreenPixelsItCovers() {
        let converter = FrameConverter(sourceWidth: 90, sourceHeight: 30, destinationWidth: 30, destinationHeight: 10, format: .xrgb8888)
        // Frame pixels 4…9 lie in boxes 1…3 (each 3 wide).
        expectEqual(converter.destinationRect(covering: .init(x: 4, y: 0, width: 6, height: 3)), .init(x: 1, y: 0, width: 3, height: 1))
        #expect(converter.destinationRect(covering: .init(x: 100, y: 0, width: 6, height: 3)) == nil, "outside the frame")
        expectEqual(converter.destinationRect(covering: .init(x: 85, y: 28, width: 50, height: 50)), .init(x: 28, y: 9, width: 2, height: 1), "clipped")
        // Only that part of the destination is written.
        let bytes = Self.frame(90, 30) { _, _ in (9, 9, 9, 255) }
        let output = Self.convert(bytes, 90, 30, to: 30, 10, format: .xrgb8888, damage: .init(x: 4, y: 0, width: 6, height: 3))
        let written = stride(from: 0, to: output.count, by: 4).filter { output[$0] != 0xEE }.map { $0 / 4 }
        expectEqual(written, [1, 2, 3])
    }

    /// A scroll of whole boxes moves the screen's pixels, and the screen
    /// rows it brought into view are converted (with rows whose boxes
    /// straddle the scrolled rectangle's edge); a scroll by part of a box
    /// changes every average, so nothing moves and the whole rectangle is
    /// converted. The iPhone's list at 3× in a 1× window.
    @Test func aScrollMovesTheScreensPixelsOnlyByWholeBoxes() {
        let converter = FrameConverter(sourceWidth: 1170, sourceHeight: 2532, destinationWidth: 390, destinationHeight: 844, format: .xrgb8888)
        // Frame rows 141 to 2390: window rows 47 to 796.
        let list = ServerMessage.PixelRect(x: 0, y: 141, width: 1170, height: 2250)
        let up = converter.screenMove(for: .init(rect: list, dx: 0, dy: -42))
        expectEqual(up.move, PixelMove(destination: .init(x: 0, y: 47, width: 390, height: 736), dx: 0, dy: -14))
        expectEqual(up.convert, [.init(x: 0, y: 783, width: 390, height: 14)])
        let byAPixel = converter.screenMove(for: .init(rect: list, dx: 0, dy: -41))
        expectEqual(byAPixel.move, nil)
        expectEqual(byAPixel.convert, [.init(x: 0, y: 47, width: 390, height: 750)])
        // A list from frame row 140, inside window row 46's box: that row is converted too.
        let down = converter.screenMove(for: .init(rect: .init(x: 0, y: 140, width: 1170, height: 2251), dx: 0, dy: 30))
        expectEqual(down.move, PixelMove(destination: .init(x: 0, y: 57, width: 390, height: 740), dx: 0, dy: 10))
        expectEqual(down.convert, [.init(x: 0, y: 46, width: 390, height: 11)])
        // Sideways, in a rectangle whose columns straddle boxes on both sides.
        let sideways = converter.screenMove(for: .init(rect: .init(x: 100, y: 300, width: 601, height: 90), dx: -6, dy: 0))
        expectEqual(sideways.move, PixelMove(destination: .init(x: 34, y: 100, width: 197, height: 30), dx: -2, dy: 0))
        expectEqual(sideways.convert, [.init(x: 33, y: 100, width: 1, height: 30), .init(x: 231, y: 100, width: 3, height: 30)])
    }

    @Test func unsupportedFormatsSayWhy() {
        expectEqual(PixelFormat(bitsPerPixel: 8, red: .init(offset: 5, length: 3), green: .init(offset: 2, length: 3), blue: .init(offset: 0, length: 2)).unsupportedReason?.contains("8 bits per pixel"), true)
        #expect(PixelFormat(bitsPerPixel: 32, red: .init(offset: 20, length: 10), green: .init(offset: 10, length: 10), blue: .init(offset: 0, length: 10)).unsupportedReason != nil)
        #expect(PixelFormat.xrgb8888.unsupportedReason == nil)
    }
}
