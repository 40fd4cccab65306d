import Synchronization

/// Bytes that an image is made from.
public final class CGDataProvider: Sendable {
    /// The provider's bytes.
    public let data: Data?

    public init?(data: Data) {
        self.data = data
    }
}

/// The largest width or height of an image or bitmap context, in pixels.
/// Core Graphics documents no limit; this one keeps every coordinate within
/// what FreeType's rasterizer addresses (16-bit spans) and an absurd size
/// from becoming a giant allocation.
public let CGBitmapMaximumDimension = 32_767

/// The most bytes one image or bitmap context may hold (1 GiB).
public let CGBitmapMaximumByteCount = 1 << 30

/// An immutable bitmap image. Its pixels are kept premultiplied, 8 bits per
/// component, R G B A in memory (`PixelFormat.rgba`), rows packed at
/// `width * 4` bytes, whatever layout it was made from.
public final class CGImage: @unchecked Sendable {
    // @unchecked: the pixel memory is written once, in the initialiser, and
    // only read afterwards; it is freed in deinit. (UIKit's pool of backing
    // stores draws into an image again, but only while it holds the one
    // reference to it: no one else can be reading it.)
    public let width: Int
    public let height: Int
    private let storage: UnsafeMutableRawPointer

    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { width * 4 }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue) }
    public var colorSpace: CGColorSpace? { CGColorSpace(name: CGColorSpace.sRGB) }
    public var renderingIntent: CGColorRenderingIntent { .defaultIntent }
    public let shouldInterpolate: Bool
    public var isMask: Bool { false }

    /// The image's pixels, in the layout the properties above describe.
    public var dataProvider: CGDataProvider? {
        CGDataProvider(data: Data(bytes: storage, count: width * height * 4))
    }

    /// The pixels for the renderer (read only).
    package var pixels: PixelBuffer {
        PixelBuffer(base: storage, width: width, height: height, bytesPerRow: width * 4, format: .rgba)
    }

    /// Whether a `width`×`height` bitmap of 4-byte pixels may be allocated.
    package static func isAllocatable(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width <= CGBitmapMaximumDimension && height <= CGBitmapMaximumDimension
            && width * height * 4 <= CGBitmapMaximumByteCount
    }

    /// An image of `width`×`height` pixels filled by `fill`, which receives
    /// zeroed R G B A premultiplied memory with rows of `width * 4` bytes.
    /// Nil when the size is not allocatable.
    package init?(width: Int, height: Int, shouldInterpolate: Bool = true, fill: (PixelBuffer) throws -> Void) rethrows {
        guard Self.isAllocatable(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.shouldInterpolate = shouldInterpolate
        storage = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
        do {
            try fill(PixelBuffer(base: storage, width: width, height: height, bytesPerRow: width * 4, format: .rgba))
        } catch {
            storage.deallocate()
            throw error
        }
    }

    deinit { storage.deallocate() }

    /// The ink bounds once worked out (``inkBounds``), packed: 15 bits for
    /// each of x0, y0, x1 and y1 (no side exceeds
    /// ``CGBitmapMaximumDimension``, 2^15 − 1) and bit 63 set; 0 until then.
    /// Atomic because an image may be drawn from any thread; two threads
    /// working it out at once store the same value.
    private let packedInkBounds = Atomic<UInt64>(0)

    /// The smallest rectangle of pixels holding every pixel that is not
    /// fully transparent (all four bytes 0); empty for a transparent image.
    /// Worked out once, at the first call, by a pass over the pixels: a
    /// label's text image is mostly transparent, and what is drawn from an
    /// image beyond its ink is transparent too, so drawing it can skip
    /// those pixels (QuartzCore's compositor does).
    package var inkBounds: PixelRect {
        let packed = packedInkBounds.load(ordering: .relaxed)
        if packed != 0 {
            let field = { (shift: UInt64) in Int((packed >> shift) & 0x7FFF) }
            return PixelRect(x0: field(0), y0: field(15), x1: field(30), y1: field(45))
        }
        let bounds = measureInkBounds()
        let fields = UInt64(bounds.x0) | UInt64(bounds.y0) << 15 | UInt64(bounds.x1) << 30 | UInt64(bounds.y1) << 45
        packedInkBounds.store(fields | 1 << 63, ordering: .relaxed)
        return bounds
    }

    /// Forgets ``inkBounds``: for the one owner that draws into an image
    /// again (UIKit's pool of backing stores, while it holds the only
    /// reference), before it does.
    package func forgetInkBounds() {
        packedInkBounds.store(0, ordering: .relaxed)
    }

    private func measureInkBounds() -> PixelRect {
        @inline(__always) func pixel(_ x: Int, _ y: Int) -> UInt32 {
            storage.loadUnaligned(fromByteOffset: (y * width + x) * 4, as: UInt32.self)
        }
        // A whole row at a time, 16 pixels to a step: the rows above and
        // below a label's text are most of its image.
        func rowIsClear(_ y: Int) -> Bool {
            let row = storage + y * width * 4
            var any = SIMD16<UInt32>()
            var x = 0
            while x + 16 <= width {
                any |= row.loadUnaligned(fromByteOffset: x * 4, as: SIMD16<UInt32>.self)
                x += 16
            }
            var rest: UInt32 = 0
            while x < width {
                rest |= pixel(x, y)
                x += 1
            }
            return any == SIMD16() && rest == 0
        }
        var y0 = 0
        while y0 < height && rowIsClear(y0) { y0 += 1 }
        guard y0 < height else { return PixelRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        var y1 = height
        while rowIsClear(y1 - 1) { y1 -= 1 }
        var x0 = width, x1 = 0
        for y in y0..<y1 {
            var x = 0
            while x < x0 && pixel(x, y) == 0 { x += 1 }
            x0 = min(x0, x)
            var end = width
            while end > x1 && pixel(end - 1, y) == 0 { end -= 1 }
            x1 = max(x1, end)
        }
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// An image made from the provider's bytes in the layout described.
    ///
    /// Layouts read: 8 bits per component; RGB spaces with 32 bits per pixel
    /// (any alpha info but `.alphaOnly`, default, 32-bit big or little byte
    /// order) or 24 (`.none`); gray spaces with 8 bits (`.none`) or 16
    /// (`.last`, `.premultipliedLast`). Nil for another layout, a size that is
    /// zero, negative or too large, rows shorter than the width or a provider
    /// with fewer bytes than the rows need. `decode` arrays are not supported
    /// (nil is the only accepted value); colour is taken as sRGB.
    public convenience init?(
        width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
        decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent
    ) {
        guard decode == nil, bitsPerComponent == 8, let data = provider.data,
              let layout = SourceLayout(bitsPerPixel: bitsPerPixel, space: space, bitmapInfo: bitmapInfo),
              Self.isAllocatable(width: width, height: height),
              bytesPerRow >= width * bitsPerPixel / 8,
              data.count >= bytesPerRow * (height - 1) + width * bitsPerPixel / 8
        else { return nil }
        self.init(width: width, height: height, shouldInterpolate: shouldInterpolate) { pixels in
            data.withUnsafeBytes { source in
                for y in 0..<height {
                    layout.convertRow(from: source.baseAddress! + y * bytesPerRow, to: pixels.row(y), count: width)
                }
            }
        }
    }

    /// The part of the image inside `rect` (in pixels, y down from the top
    /// row), or nil when it does not overlap the image. The rectangle is
    /// rounded out to whole pixels.
    public func cropping(to rect: CGRect) -> CGImage? {
        guard !rect.isNull else { return nil }
        let part = PixelRect(covering: rect, within: pixels.bounds)
        guard !part.isEmpty else { return nil }
        let source = pixels
        return CGImage(width: part.width, height: part.height, shouldInterpolate: shouldInterpolate) { target in
            for y in 0..<part.height {
                target.row(y).copyMemory(from: source.row(part.y0 + y) + part.x0 * 4, byteCount: part.width * 4)
            }
        }
    }
}

/// A source layout `CGImage(width:height:…provider:…)` reads, and how a row
/// of it becomes premultiplied R G B A.
private enum SourceLayout {
    /// 32-bit pixels, with the byte offsets of each component (alpha nil when
    /// skipped) and whether colour is already premultiplied.
    case rgb32(red: Int, green: Int, blue: Int, alpha: Int?, premultiplied: Bool)
    case rgb24
    case gray8
    case grayAlpha16(premultiplied: Bool)

    init?(bitsPerPixel: Int, space: CGColorSpace, bitmapInfo: CGBitmapInfo) {
        guard let alphaInfo = bitmapInfo.alphaInfo, bitmapInfo.intersection(.floatInfoMask).isEmpty else { return nil }
        let little: Bool
        switch bitmapInfo.byteOrderInfo {
        case .orderDefault?, .order32Big?: little = false
        case .order32Little?: little = bitsPerPixel == 32
        default: return nil
        }
        switch (space.model, bitsPerPixel, alphaInfo) {
        case (.rgb, 24, .none): self = .rgb24
        case (.rgb, 32, .premultipliedLast), (.rgb, 32, .last), (.rgb, 32, .noneSkipLast):
            let alpha: Int? = alphaInfo == .noneSkipLast ? nil : (little ? 0 : 3)
            self = little
                ? .rgb32(red: 3, green: 2, blue: 1, alpha: alpha, premultiplied: alphaInfo == .premultipliedLast)
                : .rgb32(red: 0, green: 1, blue: 2, alpha: alpha, premultiplied: alphaInfo == .premultipliedLast)
        case (.rgb, 32, .premultipliedFirst), (.rgb, 32, .first), (.rgb, 32, .noneSkipFirst):
            let alpha: Int? = alphaInfo == .noneSkipFirst ? nil : (little ? 3 : 0)
            self = little
                ? .rgb32(red: 2, green: 1, blue: 0, alpha: alpha, premultiplied: alphaInfo == .premultipliedFirst)
                : .rgb32(red: 1, green: 2, blue: 3, alpha: alpha, premultiplied: alphaInfo == .premultipliedFirst)
        case (.monochrome, 8, .none): self = .gray8
        case (.monochrome, 16, .last): self = .grayAlpha16(premultiplied: false)
        case (.monochrome, 16, .premultipliedLast): self = .grayAlpha16(premultiplied: true)
        default: return nil
        }
    }

    func convertRow(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        let s = source.assumingMemoryBound(to: UInt8.self)
        let t = target.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let r, g, b, a: UInt8
            let premultiplied: Bool
            switch self {
            case let .rgb32(red, green, blue, alpha, pre):
                let p = s + x * 4
                (r, g, b) = (p[red], p[green], p[blue])
                a = alpha.map { p[$0] } ?? 255
                premultiplied = pre
            case .rgb24:
                let p = s + x * 3
                (r, g, b, a, premultiplied) = (p[0], p[1], p[2], 255, true)
            case .gray8:
                (r, g, b, a, premultiplied) = (s[x], s[x], s[x], 255, true)
            case let .grayAlpha16(pre):
                let p = s + x * 2
                (r, g, b, a, premultiplied) = (p[0], p[0], p[0], p[1], pre)
            }
            let q = t + x * 4
            if premultiplied {
                // A premultiplied source may still break the rule that no
                // component exceeds alpha; clamp so blending stays in range.
                (q[0], q[1], q[2], q[3]) = (min(r, a), min(g, a), min(b, a), a)
            } else {
                (q[0], q[1], q[2], q[3]) = (multiply(r, a), multiply(g, a), multiply(b, a), a)
            }
        }
    }
}

/// `a·b/255`, rounded, for 8-bit values.
@inline(__always)
package func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let t = UInt32(a) * UInt32(b) + 128
    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
}
