/// The one place that says how a pixel lies in memory.
///
/// Every bitmap here has 8 bits per component and 32 bits per pixel, with
/// colour premultiplied by alpha (a pixel of 50 % red is `128, 0, 0, 128`,
/// never `255, 0, 0, 128`). Core Graphics names the layouts by where alpha is
/// (`CGImageAlphaInfo`) and how the 32-bit word is ordered (`CGBitmapInfo`'s
/// byte order). Byte by byte in memory, from the lowest address:
///
/// | bitmap info                                   | bytes in memory |
/// |-----------------------------------------------|-----------------|
/// | `.premultipliedLast` (default or 32Big order) | R G B A         |
/// | `.premultipliedFirst` (default or 32Big)      | A R G B         |
/// | `.premultipliedFirst` + `.byteOrder32Little`  | B G R A         |
/// | `.premultipliedLast` + `.byteOrder32Little`   | A B G R         |
///
/// `CGImage` always stores R G B A (`.premultipliedLast`), rows packed at
/// `width * 4` bytes. Rows go top to bottom in memory: row 0 is the top
/// row of the picture.
package struct PixelFormat: Equatable, Hashable, Sendable {
    /// The byte offset of each component within a pixel.
    package let red: Int
    package let green: Int
    package let blue: Int
    package let alpha: Int

    package static let rgba = PixelFormat(red: 0, green: 1, blue: 2, alpha: 3)
    package static let argb = PixelFormat(red: 1, green: 2, blue: 3, alpha: 0)
    package static let bgra = PixelFormat(red: 2, green: 1, blue: 0, alpha: 3)
    package static let abgr = PixelFormat(red: 3, green: 2, blue: 1, alpha: 0)

    /// The format a bitmap info names, or nil for a layout that is not a
    /// premultiplied 32-bit one.
    package init?(bitmapInfo: UInt32) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard info.intersection(.floatInfoMask).isEmpty else { return nil }
        let little: Bool
        switch info.byteOrderInfo {
        case .orderDefault?, .order32Big?: little = false
        case .order32Little?: little = true
        default: return nil
        }
        switch info.alphaInfo {
        case .premultipliedLast?: self = little ? .abgr : .rgba
        case .premultipliedFirst?: self = little ? .bgra : .argb
        default: return nil
        }
    }

    private init(red: Int, green: Int, blue: Int, alpha: Int) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// The bitmap info that names this format.
    package var bitmapInfo: CGBitmapInfo {
        switch self {
        case .argb: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue)
        case .bgra: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        case .abgr: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        default: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)
        }
    }

    /// The 32-bit word whose bytes in memory are this colour's in this format
    /// (a native-endian load of a pixel gives the same word).
    @inline(__always)
    package func word(_ color: PremultipliedColor) -> UInt32 {
        (UInt32(color.red) << (red * 8)) | (UInt32(color.green) << (green * 8))
            | (UInt32(color.blue) << (blue * 8)) | (UInt32(color.alpha) << (alpha * 8))
    }

    /// The colour stored in a word loaded from a pixel.
    @inline(__always)
    package func color(_ word: UInt32) -> PremultipliedColor {
        PremultipliedColor(
            red: UInt8(truncatingIfNeeded: word >> (red * 8)),
            green: UInt8(truncatingIfNeeded: word >> (green * 8)),
            blue: UInt8(truncatingIfNeeded: word >> (blue * 8)),
            alpha: UInt8(truncatingIfNeeded: word >> (alpha * 8))
        )
    }
}

/// An 8-bit colour premultiplied by its alpha: no component exceeds alpha.
package struct PremultipliedColor: Equatable, Hashable, Sendable {
    package var red: UInt8
    package var green: UInt8
    package var blue: UInt8
    package var alpha: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour with unpremultiplied components in 0…1 (clamped; NaN counts
    /// as 0) and an extra alpha factor, rounded to 8 bits.
    package init(unpremultipliedRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func unit(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        let a = unit(alpha)
        self.init(
            red: UInt8((unit(red) * a * 255).rounded()),
            green: UInt8((unit(green) * a * 255).rounded()),
            blue: UInt8((unit(blue) * a * 255).rounded()),
            alpha: UInt8((a * 255).rounded())
        )
    }

    package init(_ color: CGColor, alpha: CGFloat = 1) {
        self.init(unpremultipliedRed: color.red, green: color.green, blue: color.blue, alpha: color.alpha * alpha)
    }

    package static let clear = PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0)

    package var isOpaque: Bool { alpha == 255 }
}

/// A bitmap's memory: where it starts, its size and its pixel format. It
/// does not own the memory; whoever hands one out keeps the memory alive.
package struct PixelBuffer {
    package let base: UnsafeMutableRawPointer
    package let width: Int
    package let height: Int
    package let bytesPerRow: Int
    package let format: PixelFormat

    package init(base: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) {
        self.base = base; self.width = width; self.height = height; self.bytesPerRow = bytesPerRow; self.format = format
    }

    /// The first byte of row `y` (0 is the top row).
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutableRawPointer { base + y * bytesPerRow }

    @inline(__always)
    package func pixel(x: Int, y: Int) -> PremultipliedColor {
        format.color(row(y).loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
    }

    package var bounds: PixelRect { PixelRect(x0: 0, y0: 0, x1: width, y1: height) }
}

/// A rectangle of whole pixels, `x0..<x1` by `y0..<y1`, in a bitmap's memory
/// coordinates (y grows downwards, row 0 first in memory).
package struct PixelRect: Equatable, Hashable, Sendable {
    package var x0: Int, y0: Int, x1: Int, y1: Int

    package init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    package var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    package var width: Int { max(0, x1 - x0) }
    package var height: Int { max(0, y1 - y0) }

    package func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    /// The whole pixels a rectangle touches, clamped to `limit` (so that
    /// infinite or huge coordinates come out finite); empty for NaN.
    package init(covering rect: CGRect, within limit: PixelRect) {
        let r = rect.standardized
        guard r.minX.isNaN == false, r.minY.isNaN == false, r.maxX.isNaN == false, r.maxY.isNaN == false else {
            self.init(x0: 0, y0: 0, x1: 0, y1: 0); return
        }
        func clamp(_ v: CGFloat, _ lo: Int, _ hi: Int) -> Int { Int(min(max(v, CGFloat(lo)), CGFloat(hi))) }
        self.init(
            x0: clamp(r.minX.rounded(.down), limit.x0, limit.x1), y0: clamp(r.minY.rounded(.down), limit.y0, limit.y1),
            x1: clamp(r.maxX.rounded(.up), limit.x0, limit.x1), y1: clamp(r.maxY.rounded(.up), limit.y0, limit.y1)
        )
    }
}
