/// Premultiplied RGBA8 pixels held as `UInt32`, R in the low byte (memory
/// order R, G, B, A on the little-endian machines this runs on).
///
/// The arithmetic works on two channels at once (red and blue, then green
/// and alpha, each in a 16-bit lane) and divides by 255 exactly with the
/// usual `(x + 128 + ((x + 128) >> 8)) >> 8` rounding.
enum PixelOps {
    /// `pixel` × `alpha` / 255, every channel; `alpha` is 0…255.
    @inline(__always)
    static func scale(_ pixel: UInt32, by alpha: UInt32) -> UInt32 {
        var rb = (pixel & 0x00FF_00FF) &* alpha &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((pixel >> 8) & 0x00FF_00FF) &* alpha &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Two pixels at once (`pixels` holds them in its low and high halves),
    /// each × `alpha` / 255, as ``scale(_:by:)`` gives: the same lanes, four
    /// to a word.
    @inline(__always)
    static func scale2(_ pixels: UInt64, by alpha: UInt64) -> UInt64 {
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF
        let half: UInt64 = 0x0080_0080_0080_0080
        var rb = (pixels & mask) &* alpha &+ half
        rb = ((rb &+ ((rb >> 8) & mask)) >> 8) & mask
        var ag = ((pixels >> 8) & mask) &* alpha &+ half
        ag = (ag &+ ((ag >> 8) & mask)) & ~mask
        return rb | ag
    }

    /// A translucent `color` over `count` pixels, two at a time.
    @inline(__always)
    static func blendRun(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32) {
        let keep = 255 &- (color >> 24)
        let pair = UInt64(color) | UInt64(color) << 32
        var i = 0
        while i + 1 < count {
            let under = UnsafeRawPointer(pixels + i).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(pixels + i).storeBytes(of: pair &+ scale2(under, by: UInt64(keep)), as: UInt64.self)
            i += 2
        }
        if i < count { pixels[i] = color &+ scale(pixels[i], by: keep) }
    }

    /// `source` over `destination`, both premultiplied.
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        source &+ scale(destination, by: 255 &- (source >> 24))
    }

    /// A coverage in 0…1 as 0…255.
    @inline(__always)
    static func alpha(_ coverage: Float) -> UInt32 {
        UInt32(min(255, max(0, coverage * 255 + 0.5)))
    }
}

/// Pixels to draw into: a frame, part of one, or a layer group's offscreen
/// buffer. Coordinates are the frame's: pixel (x, y) is at
/// `base[(y - origin.y) * stride + (x - origin.x)]`, for (x, y) in `extent`.
struct PixelSurface {
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let extent: PixelRect

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        base + (y - extent.y0) * stride - extent.x0
    }
}

/// Scratch buffers for layer groups and shadows, kept between frames so that
/// a frame allocates nothing once the largest group has been drawn.
final class ScratchBuffers {
    private var free: [UnsafeMutableBufferPointer<UInt32>] = []

    /// A cleared surface covering `extent`; give it back with ``recycle(_:)``.
    func surface(covering extent: PixelRect) -> (PixelSurface, UnsafeMutableBufferPointer<UInt32>) {
        let count = extent.area
        let index = free.firstIndex { $0.count >= count }
        let buffer = index.map { free.remove(at: $0) } ?? UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        buffer.baseAddress!.update(repeating: 0, count: count)
        return (PixelSurface(base: buffer.baseAddress!, stride: extent.width, extent: extent), buffer)
    }

    func recycle(_ buffer: UnsafeMutableBufferPointer<UInt32>) {
        free.append(buffer)
        // Keep the few largest; a one-off huge group does not stay.
        if free.count > 8 {
            free.sort { $0.count > $1.count }
            free.removeLast().deallocate()
        }
    }

    deinit {
        for buffer in free { buffer.deallocate() }
    }
}
