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

    /// Eight pixels at once, each channel × its lane of `alpha` / 255, as
    /// ``scale(_:by:)`` gives: the same 16-bit lanes, in vector registers.
    /// `alpha` holds each pixel's factor twice (its two lanes).
    @inline(__always)
    static func scale8(_ pixels: SIMD8<UInt32>, by alpha: SIMD16<UInt16>) -> SIMD8<UInt32> {
        let lanes = unsafeBitCast(pixels, to: SIMD16<UInt16>.self)
        let half = SIMD16<UInt16>(repeating: 0x80)
        var rb = (lanes & 0x00FF) &* alpha &+ half
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = (lanes &>> 8) &* alpha &+ half
        ag = (ag &+ (ag &>> 8)) & 0xFF00
        return unsafeBitCast(rb | ag, to: SIMD8<UInt32>.self)
    }

    /// A translucent `color` over `count` pixels, eight at a time.
    @inline(__always)
    static func blendRun(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, color: UInt32) {
        let keep = 255 &- (color >> 24)
        let keep8 = SIMD16<UInt16>(repeating: UInt16(keep))
        let color8 = SIMD8<UInt32>(repeating: color)
        var i = 0
        while i + 8 <= count {
            let under = UnsafeRawPointer(pixels + i).loadUnaligned(as: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(pixels + i).storeBytes(of: color8 &+ scale8(under, by: keep8), as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            pixels[i] = color &+ scale(pixels[i], by: keep)
            i += 1
        }
    }

    /// `count` pixels of `source`, faded by `alpha` (0…255), over as many of
    /// `destination`, eight at a time: what ``over(_:_:)`` of
    /// ``scale(_:by:)`` gives for each, without a branch on the pixels.
    @inline(__always)
    static func compositeRun(_ destination: UnsafeMutablePointer<UInt32>, _ source: UnsafePointer<UInt32>, count: Int, alpha: UInt32) {
        let alpha8 = SIMD16<UInt16>(repeating: UInt16(alpha))
        var i = 0
        while i + 8 <= count {
            let faded = scale8(UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt32>.self), by: alpha8)
            let keep = SIMD8<UInt32>(repeating: 255) &- (faded &>> 24)
            let under = UnsafeRawPointer(destination + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let mixed = faded &+ scale8(under, by: unsafeBitCast(keep | (keep &<< 16), to: SIMD16<UInt16>.self))
            UnsafeMutableRawPointer(destination + i).storeBytes(of: mixed, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            let s = source[i]
            if s != 0 { destination[i] = over(scale(s, by: alpha), destination[i]) }
            i += 1
        }
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
/// buffer. Coordinates are the frame's: pixel (x, y), for (x, y) in
/// `extent`, is at `base[r * stride + (x - extent.x0)]`, where the memory
/// row r is `y - extent.y0` moved on by `firstRow`, wrapping round
/// after the last: a frame whose rows rotate (a scroll of the whole
/// frame's height moves its first row, not its pixels:
/// `LayerCompositor`'s ring of rows). Everything else starts at row 0.
struct PixelSurface {
    let base: UnsafeMutablePointer<UInt32>
    let stride: Int
    let extent: PixelRect
    /// The memory row that holds the extent's first row.
    let firstRow: Int
    /// Where row 0's pixel 0 would be if the memory went on before and
    /// after, and the row that lies at the memory's start (none: `Int.max`),
    /// from which rows lie a whole memory earlier: worked out once, so that
    /// finding a row costs what it did before rows could wrap, and a
    /// comparison.
    private let rowZero: UnsafeMutablePointer<UInt32>
    private let wrapRow: Int
    private let wrapDistance: Int

    init(base: UnsafeMutablePointer<UInt32>, stride: Int, extent: PixelRect, firstRow: Int = 0) {
        self.base = base
        self.stride = stride
        self.extent = extent
        self.firstRow = firstRow
        rowZero = base + (firstRow - extent.y0) * stride - extent.x0
        wrapRow = firstRow == 0 ? Int.max : extent.y1 - firstRow
        wrapDistance = (extent.y1 - extent.y0) * stride
    }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        let row = rowZero + y * stride
        return y < wrapRow ? row : row - wrapDistance
    }

    /// Whether the ring of rows wraps round inside `rect`: its last rows
    /// are then at the start of the memory, not after its first.
    func wraps(inside rect: PixelRect) -> Bool {
        rect.y0 < wrapRow && wrapRow < rect.y1 && !rect.isEmpty
    }
}

/// Scratch buffers for layer groups and shadows, kept between frames so that
/// a frame allocates nothing once the largest group has been drawn.
final class ScratchBuffers {
    private var free: [UnsafeMutableBufferPointer<UInt32>] = []

    /// A surface covering `extent`, cleared but for `overwritten` (pixels
    /// the caller will cover opaquely before reading any); give it back with
    /// ``recycle(_:)``.
    func surface(covering extent: PixelRect, overwritten: PixelRect = .empty) -> (PixelSurface, UnsafeMutableBufferPointer<UInt32>) {
        let count = extent.area
        let index = free.firstIndex { $0.count >= count }
        let buffer = index.map { free.remove(at: $0) } ?? UnsafeMutableBufferPointer<UInt32>.allocate(capacity: count)
        let surface = PixelSurface(base: buffer.baseAddress!, stride: extent.width, extent: extent)
        let kept = overwritten.intersection(extent)
        if kept.isEmpty {
            buffer.baseAddress!.update(repeating: 0, count: count)
        } else {
            // The rows above and below whole, those beside on either side.
            (surface.row(extent.y0) + extent.x0).update(repeating: 0, count: (kept.y0 - extent.y0) * extent.width)
            for y in kept.y0..<kept.y1 {
                let row = surface.row(y)
                (row + extent.x0).update(repeating: 0, count: kept.x0 - extent.x0)
                (row + kept.x1).update(repeating: 0, count: extent.x1 - kept.x1)
            }
            (surface.row(kept.y1) + extent.x0).update(repeating: 0, count: (extent.y1 - kept.y1) * extent.width)
        }
        return (surface, buffer)
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
