/// The area drawing may touch: whole pixels in `bounds`, each further
/// weighted by `mask` when the clip has soft or non-rectangular edges.
package struct ClipRegion {
    package var bounds: PixelRect
    package var mask: ClipMask?

    package init(bounds: PixelRect, mask: ClipMask? = nil) {
        self.bounds = bounds
        self.mask = mask
    }
}

/// Coverage (0…255) of each pixel of `rect`, row by row, in a clip.
/// Immutable once made, so graphics states share it.
package final class ClipMask {
    package let rect: PixelRect
    package let coverage: [UInt8]

    package init(rect: PixelRect, coverage: [UInt8]) {
        self.rect = rect
        self.coverage = coverage
    }

    /// The mask's coverage for pixels `x..<x+count` of row `y`, all inside `rect`.
    @inline(__always)
    package func row(_ y: Int, x: Int) -> Int { (y - rect.y0) * rect.width + (x - rect.x0) }
}

/// Collects a shape's coverage into a mask over `rect`.
final class MaskSink: SpanSink {
    let rect: PixelRect
    var coverage: [UInt8]
    let antialias: Bool

    init(rect: PixelRect, antialias: Bool) {
        self.rect = rect
        self.antialias = antialias
        coverage = [UInt8](repeating: 0, count: rect.width * rect.height)
    }

    override func span(y: Int, x: Int, length: Int, coverage value: UInt8) {
        let value = antialias ? value : (value >= 128 ? 255 : 0)
        let start = (y - rect.y0) * rect.width + (x - rect.x0)
        coverage.withUnsafeMutableBufferPointer { buffer in
            (buffer.baseAddress! + start).update(repeating: value, count: length)
        }
    }
}

extension DeviceOutline {
    /// The anti-aliased coverage (0…255) of every pixel of `rect`, row by row.
    package mutating func coverage(fillRule: CGPathFillRule, over rect: PixelRect) -> [UInt8] {
        let sink = MaskSink(rect: rect, antialias: true)
        render(fillRule: fillRule, clip: rect, into: sink)
        return sink.coverage
    }
}

extension ClipRegion {
    /// The clip narrowed to the inside of `outline` (its spans within the
    /// current bounds), anti-aliased or not.
    func intersecting(_ outline: inout DeviceOutline, fillRule: CGPathFillRule, antialias: Bool) -> ClipRegion {
        let sink = MaskSink(rect: bounds, antialias: antialias)
        outline.render(fillRule: fillRule, clip: bounds, into: sink)
        return intersecting(coverage: sink)
    }

    /// The clip narrowed to an axis-aligned rectangle in device pixels; a
    /// rectangle on whole pixels only shrinks the bounds, one with
    /// fractional edges adds a mask with partly covered edge pixels.
    func intersecting(deviceRect rect: CGRect, antialias: Bool) -> ClipRegion {
        let r = rect.standardized
        if r.minX.isNaN || r.minY.isNaN || r.maxX.isNaN || r.maxY.isNaN || r.isNull {
            return ClipRegion(bounds: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0))
        }
        let onWholePixels = [r.minX, r.minY, r.maxX, r.maxY].allSatisfy { !$0.isFinite || $0 == $0.rounded() }
        if onWholePixels {
            var clip = self
            clip.bounds = bounds.intersection(PixelRect(covering: r, within: bounds))
            return clip
        }
        let sink = MaskSink(rect: bounds, antialias: antialias)
        forEachRectSpan(r, within: bounds) { y, x, length, coverage in
            sink.span(y: y, x: x, length: length, coverage: coverage)
        }
        return intersecting(coverage: sink)
    }

    private func intersecting(coverage sink: MaskSink) -> ClipRegion {
        var coverage = sink.coverage
        let rect = sink.rect
        var used = PixelRect(x0: rect.x1, y0: rect.y1, x1: rect.x0, y1: rect.y0)
        for y in rect.y0..<rect.y1 {
            for x in rect.x0..<rect.x1 {
                let i = (y - rect.y0) * rect.width + (x - rect.x0)
                if let mask { coverage[i] = multiply(coverage[i], mask.coverage[mask.row(y, x: x)]) }
                if coverage[i] != 0 {
                    used.x0 = min(used.x0, x); used.x1 = max(used.x1, x + 1)
                    used.y0 = min(used.y0, y); used.y1 = max(used.y1, y + 1)
                }
            }
        }
        if used.isEmpty { return ClipRegion(bounds: PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)) }
        return ClipRegion(bounds: used, mask: ClipMask(rect: rect, coverage: coverage))
    }
}

/// Calls `body` with the spans of an axis-aligned rectangle in device
/// pixels, inside `limit`: whole pixels covered 255, edge pixels covered
/// by the fraction of their area inside the rectangle, as FreeType's
/// rasterizer would give them, without rasterizing.
@inline(__always)
func forEachRectSpan(_ rect: CGRect, within limit: PixelRect, _ body: (_ y: Int, _ x: Int, _ length: Int, _ coverage: UInt8) -> Void) {
    let r = rect.standardized
    let left = max(r.minX, CGFloat(limit.x0)), right = min(r.maxX, CGFloat(limit.x1))
    let top = max(r.minY, CGFloat(limit.y0)), bottom = min(r.maxY, CGFloat(limit.y1))
    guard left < right, top < bottom else { return }   // also false for NaN
    let x0 = Int(left.rounded(.down)), x1 = Int(right.rounded(.up))
    let y0 = Int(top.rounded(.down)), y1 = Int(bottom.rounded(.up))
    func level(_ fraction: CGFloat) -> UInt8 { UInt8((min(max(fraction, 0), 1) * 255).rounded()) }
    for y in y0..<y1 {
        let rowFraction = min(bottom, CGFloat(y + 1)) - max(top, CGFloat(y))
        if x1 - x0 == 1 {
            body(y, x0, 1, level((right - left) * rowFraction))
            continue
        }
        let leftFraction = CGFloat(x0 + 1) - left, rightFraction = right - CGFloat(x1 - 1)
        body(y, x0, 1, level(leftFraction * rowFraction))
        if x1 - x0 > 2 { body(y, x0 + 1, x1 - x0 - 2, level(rowFraction)) }
        body(y, x1 - 1, 1, level(rightFraction * rowFraction))
    }
}
