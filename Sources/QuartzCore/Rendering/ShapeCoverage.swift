/// A rectangle with rounded corners in a layer's coordinates, seen through
/// the transform to device pixels: the one shape the compositor covers
/// (backgrounds, borders, masks, contents, shadows are all made of it).
///
/// Coverage is analytic, pixel by pixel, from the signed distance of the
/// pixel's centre to the shape, measured in device pixels: a pixel whose
/// centre lies on a straight edge is half covered, as a box filter gives.
/// Straight edges use each axis' distance (so an axis-aligned rectangle
/// gets exact area coverage, corners included); rounded corners use the
/// distance to the arc. Rows are split into spans first: pixels well inside
/// are filled as runs without any per-pixel work, pixels well outside are
/// skipped, and only the pixels near an edge are measured.
struct RoundedRectShape {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Radii of the corners: top-left, top-right, bottom-left, bottom-right.
    let radii: (Double, Double, Double, Double)
    let maxRadius: Double

    init(rect: CGRect, radius: CGFloat, corners: CACornerMask) {
        let r = rect.standardized
        minX = Double(r.minX); minY = Double(r.minY); maxX = Double(r.maxX); maxY = Double(r.maxY)
        // A radius larger than half the shorter side is clamped, as Core Animation does.
        let limit = max(0, min(maxX - minX, maxY - minY) / 2)
        let rr = min(Double(radius), limit)
        radii = (
            corners.contains(.layerMinXMinYCorner) ? rr : 0,
            corners.contains(.layerMaxXMinYCorner) ? rr : 0,
            corners.contains(.layerMinXMaxYCorner) ? rr : 0,
            corners.contains(.layerMaxXMaxYCorner) ? rr : 0)
        maxRadius = max(radii.0, radii.1, radii.2, radii.3)
    }

    /// The shape shrunk by `inset` on every side, its radii by as much.
    func inset(by inset: Double) -> RoundedRectShape {
        RoundedRectShape(
            minX: minX + inset, minY: minY + inset, maxX: maxX - inset, maxY: maxY - inset,
            radii: (max(0, radii.0 - inset), max(0, radii.1 - inset), max(0, radii.2 - inset), max(0, radii.3 - inset)))
    }

    private init(minX: Double, minY: Double, maxX: Double, maxY: Double, radii: (Double, Double, Double, Double)) {
        self.minX = minX; self.minY = minY; self.maxX = max(minX, maxX); self.maxY = max(minY, maxY)
        self.radii = radii
        maxRadius = max(radii.0, radii.1, radii.2, radii.3)
    }

    var isEmpty: Bool { maxX <= minX || maxY <= minY }

    /// Coverage of the pixel whose centre maps to (x, y) in layer units;
    /// `sx`, `sy` are device pixels per layer unit along each axis.
    @inline(__always)
    func coverage(x: Double, y: Double, sx: Double, sy: Double) -> Float {
        let cx = (minX + maxX) * 0.5, cy = (minY + maxY) * 0.5
        let r: Double
        if x < cx { r = y < cy ? radii.0 : radii.2 } else { r = y < cy ? radii.1 : radii.3 }
        // Distances beyond the straight edges (positive outside), in device pixels.
        let dx = (abs(x - cx) - (maxX - minX) * 0.5) * sx
        let dy = (abs(y - cy) - (maxY - minY) * 0.5) * sy
        if r > 0 {
            let qx = dx + r * sx, qy = dy + r * sy
            if qx > 0 && qy > 0 {
                // In the corner's square: distance to the arc, in device pixels.
                let ux = qx / sx, uy = qy / sy
                let d = ((ux * ux + uy * uy).squareRoot() - r) * (sx * sy).squareRoot()
                return Float(min(1, max(0, 0.5 - d)))
            }
        }
        let cxCov = min(1, max(0, 0.5 - dx))
        let cyCov = min(1, max(0, 0.5 - dy))
        return Float(cxCov * cyCov)
    }
}

/// The pixels of one row that a line of pixel centres crosses inside an
/// axis-aligned box of layer space: `ceil(t0)...floor(t1)` for the continuous
/// range `t0...t1` of the line `p0 + t·step` inside the box.
@inline(__always)
func pixelRange(
    p0x: Double, p0y: Double, stepX: Double, stepY: Double,
    minX: Double, minY: Double, maxX: Double, maxY: Double
) -> (Int, Int)? {
    var t0 = -Double.infinity, t1 = Double.infinity
    if stepX == 0 {
        if p0x < minX || p0x > maxX { return nil }
    } else {
        let a = (minX - p0x) / stepX, b = (maxX - p0x) / stepX
        t0 = max(t0, min(a, b)); t1 = min(t1, max(a, b))
    }
    if stepY == 0 {
        if p0y < minY || p0y > maxY { return nil }
    } else {
        let a = (minY - p0y) / stepY, b = (maxY - p0y) / stepY
        t0 = max(t0, min(a, b)); t1 = min(t1, max(a, b))
    }
    guard t0 <= t1 else { return nil }
    let lo = max(-Double(PixelRect.coordinateLimit), t0.rounded(.up))
    let hi = min(Double(PixelRect.coordinateLimit), t1.rounded(.down))
    guard lo <= hi else { return nil }
    return (Int(lo), Int(hi) + 1)
}

/// Where a painter puts pixels: a run of fully covered pixels, or one pixel
/// with a coverage.
protocol SpanPainter {
    mutating func fill(y: Int, from x0: Int, to x1: Int)
    mutating func blend(y: Int, x: Int, coverage: Float)
    /// A run entirely inside the shape's hole (nothing, unless the painter
    /// draws something there itself).
    mutating func fillHole(y: Int, from x0: Int, to x1: Int)
    /// A pixel near an edge: `outer` is the shape's coverage, `hole` the
    /// hole's (0 without one).
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float)
}

extension SpanPainter {
    @inline(__always)
    mutating func fillHole(y: Int, from x0: Int, to x1: Int) {}

    /// The shape less its hole.
    @inline(__always)
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float) {
        let c = outer * (1 - hole)
        if c > 0 { blend(y: y, x: x, coverage: c) }
    }
}

/// Covers a shape (minus an optional hole: a border is the bounds minus
/// the bounds inset by its width) within `clip`, row by row.
struct ShapeFiller {
    let shape: RoundedRectShape
    let hole: RoundedRectShape?
    /// Device pixel → layer units.
    let inverse: CGAffineTransform
    /// Device pixels per layer unit, along the layer's x and y axes.
    let sx: Double, sy: Double

    init?(shape: RoundedRectShape, hole: RoundedRectShape? = nil, toDevice: CGAffineTransform) {
        guard !shape.isEmpty, let inverse = toDevice.invertedIfPossible() else { return nil }
        self.shape = shape
        self.hole = hole.flatMap { $0.isEmpty ? nil : $0 }
        self.inverse = inverse
        sx = Double((toDevice.a * toDevice.a + toDevice.b * toDevice.b).squareRoot())
        sy = Double((toDevice.c * toDevice.c + toDevice.d * toDevice.d).squareRoot())
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite else { return nil }
    }

    /// The device pixels the shape may touch.
    func bounds(_ toDevice: CGAffineTransform) -> PixelRect {
        let rect = CGRect(x: shape.minX, y: shape.minY, width: shape.maxX - shape.minX, height: shape.maxY - shape.minY)
        return PixelRect(covering: rect.applying(toDevice).insetBy(dx: -1, dy: -1))
    }

    func fill<Painter: SpanPainter>(within clip: PixelRect, toDevice: CGAffineTransform, painter: inout Painter) {
        let area = clip.intersection(bounds(toDevice))
        guard !area.isEmpty else { return }
        let stepX = Double(inverse.a), stepY = Double(inverse.b)
        // Half a pixel in layer units along each axis: a pixel whose centre
        // is this far inside an edge is whole (so a rectangle on whole pixels
        // is filled without measuring any pixel). One just short of it
        // outside: a pixel beyond has a coverage under 1/1024, which is 0 in
        // 8 bits, so the pixels that touch an edge on whole pixels are not
        // measured either.
        let marginX = 0.5 / sx, marginY = 0.5 / sy
        let outsideX = (0.5 - 1.0 / 1024) / sx, outsideY = (0.5 - 1.0 / 1024) / sy
        for y in area.y0..<area.y1 {
            // The centre of pixel (0, y), in layer units.
            let cy = Double(y) + 0.5
            let p0x = Double(inverse.a) * 0.5 + Double(inverse.c) * cy + Double(inverse.tx)
            let p0y = Double(inverse.b) * 0.5 + Double(inverse.d) * cy + Double(inverse.ty)
            guard let outer = pixelRange(
                p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY,
                minX: shape.minX - outsideX, minY: shape.minY - outsideY,
                maxX: shape.maxX + outsideX, maxY: shape.maxY + outsideY)
            else { continue }
            let x0 = max(outer.0, area.x0), x1 = min(outer.1, area.x1)
            guard x0 < x1 else { continue }
            let solid = solidRange(of: shape, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, marginX: marginX, marginY: marginY)
            var holeOuter: (Int, Int)? = nil
            var holeSolid: (Int, Int)? = nil
            if let hole {
                holeOuter = pixelRange(
                    p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY,
                    minX: hole.minX - outsideX, minY: hole.minY - outsideY,
                    maxX: hole.maxX + outsideX, maxY: hole.maxY + outsideY)
                holeSolid = solidRange(of: hole, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, marginX: marginX, marginY: marginY)
            }
            // The common row: no hole, and a solid run in the middle.
            if hole == nil, let (s0, s1) = solid {
                let a = max(x0, s0), b = min(x1, s1)
                if a < b {
                    measure(y: y, from: x0, to: a, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, painter: &painter)
                    painter.fill(y: y, from: a, to: b)
                    measure(y: y, from: b, to: x1, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, painter: &painter)
                    continue
                }
            }
            // Otherwise cut the row at every boundary and treat each piece as a whole.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { cuts in
                var count = 0
                func cut(_ x: Int) {
                    if x > x0 && x < x1 { cuts[count] = x; count += 1 }
                }
                cuts[0] = x0; cuts[1] = x1; count = 2
                if let (a, b) = solid { cut(a); cut(b) }
                if let (a, b) = holeOuter { cut(a); cut(b) }
                if let (a, b) = holeSolid { cut(a); cut(b) }
                // Insertion sort: at most eight entries.
                for i in 1..<count {
                    let v = cuts[i]
                    var j = i - 1
                    while j >= 0 && cuts[j] > v { cuts[j + 1] = cuts[j]; j -= 1 }
                    cuts[j + 1] = v
                }
                for index in 0..<(count - 1) {
                    let a = cuts[index], b = cuts[index + 1]
                    guard a < b else { continue }
                    if let (h0, h1) = holeSolid, a >= h0 && a < h1 {
                        painter.fillHole(y: y, from: a, to: b)
                        continue
                    }
                    let inHoleEdge = holeOuter.map { a >= $0.0 && a < $0.1 } ?? false
                    if let (s0, s1) = solid, a >= s0 && a < s1 && !inHoleEdge {
                        painter.fill(y: y, from: a, to: b)
                    } else {
                        measure(y: y, from: a, to: b, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, painter: &painter)
                    }
                }
            }
        }
    }

    /// Pixels measured one by one: the shape's coverage, and the hole's.
    @inline(__always)
    private func measure<Painter: SpanPainter>(
        y: Int, from a: Int, to b: Int, p0x: Double, p0y: Double, stepX: Double, stepY: Double, painter: inout Painter
    ) {
        guard a < b else { return }
        for x in a..<b {
            let px = p0x + Double(x) * stepX, py = p0y + Double(x) * stepY
            let c = shape.coverage(x: px, y: py, sx: sx, sy: sy)
            guard c > 0 else { continue }
            if let hole {
                painter.blend(y: y, x: x, outer: c, hole: hole.coverage(x: px, y: py, sx: sx, sy: sy))
            } else {
                painter.blend(y: y, x: x, coverage: c)
            }
        }
    }

    /// Pixels of the row fully inside `shape`: inside one of the two boxes
    /// that avoid the rounded corners, shrunk by half a pixel.
    private func solidRange(
        of shape: RoundedRectShape, p0x: Double, p0y: Double, stepX: Double, stepY: Double,
        marginX: Double, marginY: Double
    ) -> (Int, Int)? {
        let r = shape.maxRadius
        let wide = pixelRange(
            p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY,
            minX: shape.minX + marginX, minY: shape.minY + r + marginY,
            maxX: shape.maxX - marginX, maxY: shape.maxY - r - marginY)
        guard r > 0 else { return wide }
        let tall = pixelRange(
            p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY,
            minX: shape.minX + r + marginX, minY: shape.minY + marginY,
            maxX: shape.maxX - r - marginX, maxY: shape.maxY - marginY)
        switch (wide, tall) {
        case (nil, nil): return nil
        case (let w?, nil): return w
        case (nil, let t?): return t
        case (let w?, let t?):
            if w.0 <= t.1 && t.0 <= w.1 { return (min(w.0, t.0), max(w.1, t.1)) }
            return (w.1 - w.0) >= (t.1 - t.0) ? w : t
        }
    }
}
