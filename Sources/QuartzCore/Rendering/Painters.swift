/// A solid colour, already scaled by the group's opacity.
struct SolidPainter: SpanPainter {
    let surface: PixelSurface
    let color: UInt32

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        let row = surface.row(y)
        if color >> 24 == 255 {
            (row + x0).update(repeating: color, count: x1 - x0)
        } else if color != 0 {
            let keep = 255 &- (color >> 24)
            for x in x0..<x1 { row[x] = color &+ PixelOps.scale(row[x], by: keep) }
        }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        let row = surface.row(y)
        row[x] = PixelOps.over(PixelOps.scale(color, by: PixelOps.alpha(coverage)), row[x])
    }
}

/// Pixels of another surface at the same coordinates (a layer group drawn
/// offscreen), composited with an opacity.
struct SurfacePainter: SpanPainter {
    let surface: PixelSurface
    let source: PixelSurface
    /// 0…255.
    let alpha: UInt32

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        let row = surface.row(y), from = source.row(y)
        if alpha == 255 {
            for x in x0..<x1 {
                let s = from[x]
                if s >> 24 == 255 { row[x] = s } else if s != 0 { row[x] = PixelOps.over(s, row[x]) }
            }
        } else {
            for x in x0..<x1 {
                let s = from[x]
                if s != 0 { row[x] = PixelOps.over(PixelOps.scale(s, by: alpha), row[x]) }
            }
        }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        let s = source.row(y)[x]
        guard s != 0 else { return }
        let row = surface.row(y)
        let a = PixelOps.alpha(coverage * Float(alpha) / 255)
        row[x] = PixelOps.over(PixelOps.scale(s, by: a), row[x])
    }
}

/// Coverage into an 8-bit mask (a shadow's shape before its blur).
struct MaskPainter: SpanPainter {
    let mask: UnsafeMutablePointer<UInt8>
    let extent: PixelRect

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        (mask + (y - extent.y0) * extent.width + (x0 - extent.x0)).update(repeating: 255, count: x1 - x0)
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        mask[(y - extent.y0) * extent.width + (x - extent.x0)] = UInt8(PixelOps.alpha(coverage))
    }
}

/// An image's pixels through a transform (a layer's contents), filtered by
/// Core Graphics' sampler, composited over the surface.
struct ImagePainter: SpanPainter {
    let surface: PixelSurface
    let sampler: ImageSampler
    /// Samples for one chunk of a span.
    let scratch: UnsafeMutablePointer<UInt32>
    static let chunk = 256

    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        let row = surface.row(y)
        var x = x0
        while x < x1 {
            let count = min(Self.chunk, x1 - x)
            sampler.fetch(y: y, x: x, count: count, into: scratch)
            for i in 0..<count {
                let s = scratch[i]
                if s >> 24 == 255 { row[x + i] = s } else if s != 0 { row[x + i] = PixelOps.over(s, row[x + i]) }
            }
            x += count
        }
    }

    mutating func blend(y: Int, x: Int, coverage: Float) {
        sampler.fetch(y: y, x: x, count: 1, into: scratch)
        let row = surface.row(y)
        row[x] = PixelOps.over(PixelOps.scale(scratch[0], by: PixelOps.alpha(coverage)), row[x])
    }
}
