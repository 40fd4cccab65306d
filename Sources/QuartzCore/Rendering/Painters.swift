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
            PixelOps.blendRun(row + x0, count: x1 - x0, color: color)
        }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        let row = surface.row(y)
        row[x] = PixelOps.over(PixelOps.scale(color, by: PixelOps.alpha(coverage)), row[x])
    }

    /// The colour at the column's coverage (what `blend` puts over the
    /// pixel), or 0 where it draws nothing.
    typealias ColumnPaint = UInt32

    @inline(__always)
    func columnPaint(outer: Float, hole: Float, hasHole: Bool) -> UInt32 {
        let coverage = hasHole ? outer * (1 - hole) : outer
        return coverage > 0 ? PixelOps.scale(color, by: PixelOps.alpha(coverage)) : 0
    }

    @inline(__always)
    mutating func blendColumn(y: Int, x: Int, _ paint: UInt32, hasHole: Bool) {
        surface.blend(columnPaint: paint, x: x, y: y)
    }
}

/// A layer's background and border in one pass, as one group: each pixel
/// is the border over the background, then faded by the layer's opacity
/// (what drawing them into a group buffer gives, without the buffer).
struct BorderedBackgroundPainter: SpanPainter {
    let surface: PixelSurface
    /// Premultiplied, not yet faded.
    let background: UInt32
    let border: UInt32
    /// 0…255.
    let alpha: UInt32
    /// Where the shape is whole and the hole is not: the border over the
    /// background, faded; inside the hole: the background, faded.
    private let borderRun: SolidPainter
    private let holeRun: SolidPainter

    init(surface: PixelSurface, background: UInt32, border: UInt32, alpha: UInt32) {
        self.surface = surface
        self.background = background
        self.border = border
        self.alpha = alpha
        borderRun = SolidPainter(surface: surface, color: PixelOps.scale(PixelOps.over(border, background), by: alpha))
        holeRun = SolidPainter(surface: surface, color: PixelOps.scale(background, by: alpha))
    }

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        var run = borderRun
        run.fill(y: y, from: x0, to: x1)
    }

    @inline(__always)
    mutating func fillHole(y: Int, from x0: Int, to x1: Int) {
        var run = holeRun
        run.fill(y: y, from: x0, to: x1)
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        blend(y: y, x: x, outer: coverage, hole: 0)
    }

    /// Border coverage b = outer × (1 − hole), over the background's outer.
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float) {
        let row = surface.row(y)
        row[x] = PixelOps.over(faded(outer: outer, hole: hole), row[x])
    }

    /// The group's pixel at these coverages, faded.
    @inline(__always)
    private func faded(outer: Float, hole: Float) -> UInt32 {
        let b = PixelOps.alpha(outer * (1 - hole)), g = PixelOps.alpha(outer)
        let group = PixelOps.over(PixelOps.scale(border, by: b), PixelOps.scale(background, by: g))
        // (× 255 / 255 is exact: an unfaded layer skips it.)
        return alpha == 255 ? group : PixelOps.scale(group, by: alpha)
    }

    /// What `blend` puts over the pixel at the column's coverage, or 0
    /// where it draws nothing.
    typealias ColumnPaint = UInt32

    @inline(__always)
    func columnPaint(outer: Float, hole: Float, hasHole: Bool) -> UInt32 {
        outer > 0 ? faded(outer: outer, hole: hasHole ? hole : 0) : 0
    }

    @inline(__always)
    mutating func blendColumn(y: Int, x: Int, _ paint: UInt32, hasHole: Bool) {
        surface.blend(columnPaint: paint, x: x, y: y)
    }
}

extension PixelSurface {
    /// A column's paint (a colour, worked out once for its coverage) over
    /// the pixel at (x, y): what the solid and the bordered painters draw
    /// in the rows between a shape's corners. A paint of 0 leaves the pixel
    /// as it is (`over` adds nothing and keeps the pixel × 255 / 255,
    /// exactly), so it is skipped.
    @inline(__always)
    func blend(columnPaint paint: UInt32, x: Int, y: Int) {
        guard paint != 0 else { return }
        let pixels = row(y)
        pixels[x] = PixelOps.over(paint, pixels[x])
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
        PixelOps.compositeRun(surface.row(y) + x0, source.row(y) + x0, count: x1 - x0, alpha: alpha)
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
