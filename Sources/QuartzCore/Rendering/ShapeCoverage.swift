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
/// range `t0...t1` of the line `p0 + t·step` inside the box. None for a box
/// turned inside out (the solid part of a shape thinner than its corners).
@inline(__always)
func pixelRange(
    p0x: Double, p0y: Double, stepX: Double, stepY: Double,
    minX: Double, minY: Double, maxX: Double, maxY: Double
) -> (Int, Int)? {
    guard minX <= maxX, minY <= maxY else { return nil }
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
    // Rounded without a call to the C library (not inlined on the baseline
    // x86-64 this is built for), clamped a pixel beyond the limit first so
    // that a range starting past it stays empty.
    let beyond = Double(PixelRect.coordinateLimit + 1)
    let lo = max(-PixelRect.coordinateLimit, roundedUp(min(beyond, max(-beyond, t0))))
    let hi = min(PixelRect.coordinateLimit, roundedDown(min(beyond, max(-beyond, t1))))
    guard lo <= hi else { return nil }
    return (lo, hi + 1)
}

/// `value.rounded(.up)` for a finite value well inside `Int`'s range.
@inline(__always)
private func roundedUp(_ value: Double) -> Int {
    let truncated = Int(value)
    return Double(truncated) < value ? truncated + 1 : truncated
}

/// `value.rounded(.down)` for a finite value well inside `Int`'s range.
@inline(__always)
private func roundedDown(_ value: Double) -> Int {
    let truncated = Int(value)
    return Double(truncated) > value ? truncated - 1 : truncated
}

/// A run of pixels `lo..<hi` of one row; empty when `lo >= hi`.
struct PixelSpan: Equatable {
    var lo: Int, hi: Int
    static let none = PixelSpan(lo: 0, hi: 0)

    @inline(__always)
    static func == (a: PixelSpan, b: PixelSpan) -> Bool { a.lo == b.lo && a.hi == b.hi }

    @inline(__always)
    init(lo: Int, hi: Int) { self.lo = lo; self.hi = hi }

    @inline(__always)
    init(_ range: (Int, Int)?) {
        if let range { lo = range.0; hi = range.1 } else { lo = 0; hi = 0 }
    }

    var isEmpty: Bool { lo >= hi }

    @inline(__always)
    func contains(_ x: Int) -> Bool { x >= lo && x < hi }
}

/// A box of layer space whose pixels are looked up row by row. Through a
/// transform without rotation or shear, every row crosses the box at the
/// same pixels or not at all, so those pixels are worked out once.
struct RowBox {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The pixels of any row inside the box, when the rows do not turn.
    private let fixed: PixelSpan?

    init(minX: Double, minY: Double, maxX: Double, maxY: Double, p0x: Double, stepX: Double, axisAligned: Bool) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        // With no vertical step, a row inside the box in y gets what any
        // other does: the same arithmetic as `pixelRange`, once.
        fixed = axisAligned
            ? PixelSpan(pixelRange(p0x: p0x, p0y: 0, stepX: stepX, stepY: 0, minX: minX, minY: 0, maxX: maxX, maxY: 0))
            : nil
    }

    /// Whether a row through `p0y` lies inside the box in y with a hair
    /// to spare (a millionth of a layer unit, far beyond the arithmetic's
    /// rounding).
    func holdsRowWell(p0y: Double) -> Bool {
        p0y >= minY + 1e-6 && p0y <= maxY - 1e-6
    }

    @inline(__always)
    func span(p0x: Double, p0y: Double, stepX: Double, stepY: Double) -> PixelSpan {
        if let fixed { return p0y < minY || p0y > maxY ? .none : fixed }
        return PixelSpan(pixelRange(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, minX: minX, minY: minY, maxX: maxX, maxY: maxY))
    }
}

/// The boxes that cut a shape's rows: the pixels it may touch, and the
/// pixels it covers whole (the two boxes that avoid its rounded corners).
struct ShapeRows {
    let outer: RowBox
    let wide: RowBox
    /// Nil without rounded corners (then `wide` is the whole solid part).
    let tall: RowBox?
    /// The rows through the rounded corners of a shape that does not turn.
    private let corners: CornerRows?

    init(_ shape: RoundedRectShape, p0x: Double, stepX: Double, axisAligned: Bool, scale: Double,
         marginX: Double, marginY: Double, outsideX: Double, outsideY: Double) {
        outer = RowBox(minX: shape.minX - outsideX, minY: shape.minY - outsideY,
                       maxX: shape.maxX + outsideX, maxY: shape.maxY + outsideY,
                       p0x: p0x, stepX: stepX, axisAligned: axisAligned)
        let r = shape.maxRadius
        wide = RowBox(minX: shape.minX + marginX, minY: shape.minY + r + marginY,
                      maxX: shape.maxX - marginX, maxY: shape.maxY - r - marginY,
                      p0x: p0x, stepX: stepX, axisAligned: axisAligned)
        tall = r > 0
            ? RowBox(minX: shape.minX + r + marginX, minY: shape.minY + marginY,
                     maxX: shape.maxX - r - marginX, maxY: shape.maxY - marginY,
                     p0x: p0x, stepX: stepX, axisAligned: axisAligned)
            : nil
        corners = r > 0 && axisAligned ? CornerRows(shape: shape, p0x: p0x, stepX: stepX, scale: scale, marginX: marginX) : nil
    }

    /// Pixels of the row fully inside the shape: inside one of the two
    /// boxes that avoid the rounded corners, shrunk by half a pixel, or,
    /// through a corner of a shape that does not turn, inside its arc.
    @inline(__always)
    func solid(p0x: Double, p0y: Double, stepX: Double, stepY: Double) -> PixelSpan {
        let w = wide.span(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY)
        guard let tall else { return w }
        let t = tall.span(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY)
        if w.isEmpty {
            if let corners, !t.isEmpty { return corners.solid(p0y: p0y) }
            return t
        }
        if t.isEmpty { return w }
        if w.lo <= t.hi && t.lo <= w.hi { return PixelSpan(lo: min(w.lo, t.lo), hi: max(w.hi, t.hi)) }
        return (w.hi - w.lo) >= (t.hi - t.lo) ? w : t
    }
}

/// The whole pixels of a row through the rounded corners of a shape that
/// does not turn: those whose centre lies inside the arc by half a pixel
/// (where ``RoundedRectShape/coverage(x:y:sx:sy:)`` gives 1), beyond the
/// box between the corners. Filling them instead of measuring them changes
/// no pixel: every painter draws a run what it draws for a coverage of 1.
struct CornerRows {
    let shape: RoundedRectShape
    let p0x: Double, stepX: Double
    let marginX: Double
    /// Half a pixel in layer units (as the coverage scales the distance to
    /// the arc), and a millionth of a unit more, so that rounding in the
    /// distance never takes a pixel counted whole below a coverage of 1.
    let arcMargin: Double

    init(shape: RoundedRectShape, p0x: Double, stepX: Double, scale: Double, marginX: Double) {
        self.shape = shape
        self.p0x = p0x
        self.stepX = stepX
        self.marginX = marginX
        arcMargin = 0.5 / scale + 1e-6
    }

    @inline(__always)
    func solid(p0y: Double) -> PixelSpan {
        let top = p0y < (shape.minY + shape.maxY) * 0.5
        let left = inset(radius: top ? shape.radii.0 : shape.radii.2, top: top, p0y: p0y)
        let right = inset(radius: top ? shape.radii.1 : shape.radii.3, top: top, p0y: p0y)
        return PixelSpan(pixelRange(p0x: p0x, p0y: 0, stepX: stepX, stepY: 0,
                                    minX: shape.minX + left, minY: 0, maxX: shape.maxX - right, maxY: 0))
    }

    /// How far inside the side the whole pixels start on this row, in layer
    /// units, by the corner of `radius` on that side.
    @inline(__always)
    private func inset(radius r: Double, top: Bool, p0y: Double) -> Double {
        guard r > 0 else { return marginX }
        // How far the row lies beyond the arc's centre, towards the edge.
        let v = top ? shape.minY + r - p0y : p0y - (shape.maxY - r)
        guard v > 0 else { return marginX }
        let reach = r - arcMargin
        guard v < reach else { return shape.maxRadius + marginX }
        return max(marginX, r - (reach * reach - v * v).squareRoot())
    }
}

/// Where a painter puts pixels: a run of fully covered pixels, or pixels
/// near an edge, each with a coverage.
protocol SpanPainter {
    mutating func fill(y: Int, from x0: Int, to x1: Int)
    mutating func blend(y: Int, x: Int, coverage: Float)
    /// A run entirely inside the shape's hole (nothing, unless the painter
    /// draws something there itself).
    mutating func fillHole(y: Int, from x0: Int, to x1: Int)
    /// A pixel near an edge: `outer` is the shape's coverage, `hole` the
    /// hole's (0 without one).
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float)
    /// The first run of `x0..<x1` on row `y` that the painter draws at all
    /// (all of it, unless it leaves pixels out): the pixels near an edge
    /// are measured only there.
    mutating func visibleRun(y: Int, from x0: Int, to x1: Int) -> (Int, Int)?
    /// A pixel near an edge, in a run ``visibleRun(y:from:to:)`` gave:
    /// `outer` is the shape's coverage, `hole` the hole's.
    mutating func blendVisible(y: Int, x: Int, outer: Float, hole: Float, hasHole: Bool)
    /// Part of a run ``visibleRun(y:from:to:)`` gave, filled (as the shape
    /// or as its hole) without asking again what is visible.
    mutating func fillVisible(y: Int, from x0: Int, to x1: Int)
    mutating func fillHoleVisible(y: Int, from x0: Int, to x1: Int)

    /// What a pixel near an edge is drawn with, worked out once for a
    /// column of them with the same coverage (the rows between a shape's
    /// corners): by default the coverage itself.
    associatedtype ColumnPaint = ColumnCoverage
    func columnPaint(outer: Float, hole: Float, hasHole: Bool) -> ColumnPaint
    /// A pixel of such a column, in a run ``visibleRun(y:from:to:)`` gave:
    /// what ``blendVisible(y:x:outer:hole:hasHole:)`` draws with the
    /// coverage the paint was made from.
    mutating func blendColumn(y: Int, x: Int, _ paint: ColumnPaint, hasHole: Bool)
}

/// A measured pixel's coverage by a shape and by its hole.
struct ColumnCoverage {
    var outer: Float
    var hole: Float
}

extension SpanPainter where ColumnPaint == ColumnCoverage {
    @inline(__always)
    func columnPaint(outer: Float, hole: Float, hasHole: Bool) -> ColumnCoverage {
        ColumnCoverage(outer: outer, hole: hole)
    }

    @inline(__always)
    mutating func blendColumn(y: Int, x: Int, _ paint: ColumnCoverage, hasHole: Bool) {
        blendVisible(y: y, x: x, outer: paint.outer, hole: paint.hole, hasHole: hasHole)
    }
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

    @inline(__always)
    mutating func visibleRun(y: Int, from x0: Int, to x1: Int) -> (Int, Int)? {
        x0 < x1 ? (x0, x1) : nil
    }

    @inline(__always)
    mutating func fillVisible(y: Int, from x0: Int, to x1: Int) { fill(y: y, from: x0, to: x1) }

    @inline(__always)
    mutating func fillHoleVisible(y: Int, from x0: Int, to x1: Int) { fillHole(y: y, from: x0, to: x1) }

    @inline(__always)
    mutating func blendVisible(y: Int, x: Int, outer: Float, hole: Float, hasHole: Bool) {
        guard outer > 0 else { return }
        if hasHole {
            blend(y: y, x: x, outer: outer, hole: hole)
        } else {
            blend(y: y, x: x, coverage: outer)
        }
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
    /// Whether the rows between the corners of a shape that does not turn
    /// are drawn together, what their measured pixels are drawn with kept
    /// per column (always, but in tests that check that it changes no
    /// call to the painter and no pixel).
    var drawsRowsBetweenCornersTogether = true

    init?(shape: RoundedRectShape, hole: RoundedRectShape? = nil, toDevice: CGAffineTransform) {
        guard !shape.isEmpty, let inverse = toDevice.invertedIfPossible() else { return nil }
        self.shape = shape
        self.hole = hole.flatMap { $0.isEmpty ? nil : $0 }
        self.inverse = inverse
        sx = Double((toDevice.a * toDevice.a + toDevice.b * toDevice.b).squareRoot())
        sy = Double((toDevice.c * toDevice.c + toDevice.d * toDevice.d).squareRoot())
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite else { return nil }
    }

    /// The centre of pixel (0, y) in layer units: where the row's pixel
    /// centres start, each the next a step of (`inverse.a`, `inverse.b`) on.
    @inline(__always)
    func rowOrigin(_ y: Int) -> (x: Double, y: Double) {
        let cy = Double(y) + 0.5
        return (Double(inverse.a) * 0.5 + Double(inverse.c) * cy + Double(inverse.tx),
                Double(inverse.b) * 0.5 + Double(inverse.d) * cy + Double(inverse.ty))
    }

    /// The coverage ``fill(within:toDevice:painter:)`` measures for pixel
    /// (x, y), by the shape and by its hole (0 without one): the same
    /// arithmetic, for one pixel.
    func coverage(ofPixelX x: Int, y: Int) -> (outer: Float, hole: Float) {
        let (p0x, p0y) = rowOrigin(y)
        let px = p0x + Double(x) * Double(inverse.a), py = p0y + Double(x) * Double(inverse.b)
        return (shape.coverage(x: px, y: py, sx: sx, sy: sy), hole?.coverage(x: px, y: py, sx: sx, sy: sy) ?? 0)
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
        // Rows that do not turn cross the shape's boxes at the same pixels.
        let axisAligned = stepY == 0 && inverse.c == 0
        let p0xFixed = Double(inverse.a) * 0.5 + Double(inverse.tx)
        // Half a pixel in layer units along each axis: a pixel whose centre
        // is this far inside an edge is whole (so a rectangle on whole pixels
        // is filled without measuring any pixel). One just short of it
        // outside: a pixel beyond has a coverage under 1/1024, which is 0 in
        // 8 bits, so the pixels that touch an edge on whole pixels are not
        // measured either.
        let marginX = 0.5 / sx, marginY = 0.5 / sy
        let outsideX = (0.5 - 1.0 / 1024) / sx, outsideY = (0.5 - 1.0 / 1024) / sy
        let scale = (sx * sy).squareRoot()
        let shapeRows = ShapeRows(shape, p0x: p0xFixed, stepX: stepX, axisAligned: axisAligned, scale: scale,
                                  marginX: marginX, marginY: marginY, outsideX: outsideX, outsideY: outsideY)
        // (Not optional: an optional's copy on every row costs more than a
        // few boxes worked out for nothing.)
        let hasHole = hole != nil
        let holeRows = ShapeRows(hole ?? shape, p0x: p0xFixed, stepX: stepX, axisAligned: axisAligned, scale: scale,
                                 marginX: marginX, marginY: marginY, outsideX: outsideX, outsideY: outsideY)
        // The row's pieces, kept while the next rows cut the same way (all
        // the rows between the corners of a shape that does not turn).
        // The rows between the corners of a shape that does not turn (and of
        // its hole) are all cut alike: they are drawn together, out of this
        // loop (a branch in it changes how the loop is compiled: the static
        // frame lost 3 % so).
        let between = drawsRowsBetweenCornersTogether && axisAligned
            ? rowsBetweenCorners(of: area, shapeRows: shapeRows, holeRows: hasHole ? holeRows : nil)
            : area.y1..<area.y1
        withUnsafeTemporaryAllocation(of: RowPlan.Piece.self, capacity: RowPlan.capacity) { storage in
            var plan = RowPlan(storage: storage.baseAddress!)
            for y in area.y0..<area.y1 {
                if between.contains(y) {
                    if y == between.lowerBound {
                        drawRowsBetweenCorners(between, area: area, plan: &plan, shapeRows: shapeRows, holeRows: holeRows,
                                               painter: &painter)
                    }
                    continue
                }
                let (p0x, p0y) = rowOrigin(y)
                guard let cuts = rowCuts(p0x: p0x, p0y: p0y, area: area, shapeRows: shapeRows,
                                         holeRows: holeRows, hasHole: hasHole) else { continue }
                if cuts != plan.cuts { plan.make(for: cuts, hasHole: hasHole) }
                for index in 0..<plan.count {
                    let piece = plan[index]
                    switch piece.kind {
                    case .fill: painter.fill(y: y, from: piece.from, to: piece.to)
                    case .hole: painter.fillHole(y: y, from: piece.from, to: piece.to)
                    case .measure: measure(y: y, from: piece.from, to: piece.to, p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY, painter: &painter)
                    }
                }
            }
        }
    }

    /// Where the row whose pixel centres start at (`p0x`, `p0y`) is cut,
    /// within `area`; nil when the shape does not reach it there.
    @inline(__always)
    private func rowCuts(p0x: Double, p0y: Double, area: PixelRect, shapeRows: ShapeRows, holeRows: ShapeRows,
                         hasHole: Bool) -> RowCuts? {
        let stepX = Double(inverse.a), stepY = Double(inverse.b)
        let outer = shapeRows.outer.span(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY)
        let x0 = max(outer.lo, area.x0), x1 = min(outer.hi, area.x1)
        guard x0 < x1 else { return nil }
        return RowCuts(
            x0: x0, x1: x1,
            solid: shapeRows.solid(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY),
            holeOuter: hasHole ? holeRows.outer.span(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY) : .none,
            holeSolid: hasHole ? holeRows.solid(p0x: p0x, p0y: p0y, stepX: stepX, stepY: stepY) : .none)
    }

    /// The rows of `area` between the corners of a shape that does not turn
    /// and of its hole, where every row is cut at the same pixels and a
    /// measured pixel's coverage depends on its column only: the edges in
    /// y are at least half a pixel away (and a millionth of a layer unit,
    /// far beyond the arithmetic's rounding), so their factor in
    /// ``RoundedRectShape/coverage(x:y:sx:sy:)`` is exactly 1, no row
    /// reaches a rounded corner, and every row's pixel centres have the
    /// same x. They are consecutive: a row's centre moves monotonically
    /// with its index.
    func rowsBetweenCorners(of area: PixelRect, shapeRows: ShapeRows, holeRows: ShapeRows?) -> Range<Int> {
        func holds(_ y: Int) -> Bool {
            let p0y = rowOrigin(y).y
            return shapeRows.wide.holdsRowWell(p0y: p0y) && holeRows?.wide.holdsRowWell(p0y: p0y) ?? true
        }
        // The rows whose centres lie in the band, first worked out, then
        // nudged to what `holds` says of each row.
        let top = max(shapeRows.wide.minY, holeRows?.wide.minY ?? -.infinity)
        let bottom = min(shapeRows.wide.maxY, holeRows?.wide.maxY ?? .infinity)
        let d = Double(inverse.d), origin = rowOrigin(0).y - 0.5 * d
        guard top < bottom, d != 0 else { return area.y0..<area.y0 }
        let a = (top - origin) / d - 0.5, b = (bottom - origin) / d - 0.5
        guard a.isFinite, b.isFinite else { return area.y0..<area.y0 }
        let first = Double(area.y0), last = Double(area.y1)
        var lo = Int(min(last, max(first, min(a, b).rounded(.up))))
        var hi = max(lo, Int(min(last, max(first, max(a, b).rounded(.down) + 1))))
        while lo < hi && !holds(lo) { lo += 1 }
        while hi > lo && !holds(hi - 1) { hi -= 1 }
        if lo == hi { return area.y0..<area.y0 }
        while lo > area.y0 && holds(lo - 1) { lo -= 1 }
        while hi < area.y1 && holds(hi) { hi += 1 }
        return lo..<hi
    }

    /// The rows between the corners (``rowsBetweenCorners(of:shapeRows:holeRows:)``),
    /// all cut as the first: what the painter draws each measured pixel
    /// with is worked out from its coverage on the first row and kept for
    /// its column, and what is visible is asked once a row rather than
    /// once a piece (a row of a shape between pixels has three pieces: the
    /// two edges and the inside). The painter gets the very calls, or
    /// draws the very pixels, the rows one by one give. Out of line: the
    /// row loop that calls it stays as it is compiled without it.
    @inline(never)
    private func drawRowsBetweenCorners<Painter: SpanPainter>(
        _ rows: Range<Int>, area: PixelRect, plan: inout RowPlan, shapeRows: ShapeRows, holeRows: ShapeRows, painter: inout Painter
    ) {
        let hasHole = hole != nil
        let (p0x, p0y) = rowOrigin(rows.lowerBound)
        guard let cuts = rowCuts(p0x: p0x, p0y: p0y, area: area, shapeRows: shapeRows, holeRows: holeRows,
                                 hasHole: hasHole) else { return }
        if cuts != plan.cuts { plan.make(for: cuts, hasHole: hasHole) }
        let stepX = Double(inverse.a), stepY = Double(inverse.b)
        var measured = 0
        for index in 0..<plan.count where plan[index].kind == .measure { measured += plan[index].to - plan[index].from }
        withUnsafeTemporaryAllocation(of: Painter.ColumnPaint.self, capacity: measured) { paints in
            var slot = 0
            for index in 0..<plan.count where plan[index].kind == .measure {
                for x in plan[index].from..<plan[index].to {
                    let px = p0x + Double(x) * stepX, py = p0y + Double(x) * stepY
                    paints.initializeElement(at: slot, to: painter.columnPaint(
                        outer: shape.coverage(x: px, y: py, sx: sx, sy: sy),
                        hole: hole?.coverage(x: px, y: py, sx: sx, sy: sy) ?? 0, hasHole: hasHole))
                    slot += 1
                }
            }
            for y in rows { drawWithKeptColumns(y: y, plan: plan, paints: paints, hasHole: hasHole, painter: &painter) }
            _ = paints.deinitialize()
        }
    }

    /// A row between the corners: the plan's pieces, the measured ones
    /// with their columns' paints, under one question a row of what is
    /// visible, whose runs are split at the pieces.
    @inline(__always)
    private func drawWithKeptColumns<Painter: SpanPainter>(
        y: Int, plan: RowPlan, paints: UnsafeMutableBufferPointer<Painter.ColumnPaint>, hasHole: Bool, painter: inout Painter
    ) {
        // The piece the run has reached, and its first column's paint.
        var index = 0, slot = 0
        var next = plan[0].from
        let end = plan[plan.count - 1].to
        while let (start, stop) = painter.visibleRun(y: y, from: next, to: end) {
            var x = start
            while x < stop {
                var piece = plan[index]
                while piece.to <= x {
                    if piece.kind == .measure { slot += piece.to - piece.from }
                    index += 1
                    piece = plan[index]
                }
                let to = min(piece.to, stop)
                switch piece.kind {
                case .fill: painter.fillVisible(y: y, from: x, to: to)
                case .hole: painter.fillHoleVisible(y: y, from: x, to: to)
                case .measure:
                    for column in x..<to {
                        painter.blendColumn(y: y, x: column, paints[slot + column - piece.from], hasHole: hasHole)
                    }
                }
                x = to
            }
            next = stop
        }
    }

    /// Pixels measured one by one, where the painter draws: the shape's
    /// coverage, and the hole's.
    @inline(__always)
    private func measure<Painter: SpanPainter>(
        y: Int, from a: Int, to b: Int, p0x: Double, p0y: Double, stepX: Double, stepY: Double, painter: inout Painter
    ) {
        var next = a
        while let (start, end) = painter.visibleRun(y: y, from: next, to: b) {
            for x in start..<end {
                let px = p0x + Double(x) * stepX, py = p0y + Double(x) * stepY
                let c = shape.coverage(x: px, y: py, sx: sx, sy: sy)
                guard c > 0 else { continue }
                let h = hole?.coverage(x: px, y: py, sx: sx, sy: sy) ?? 0
                painter.blendVisible(y: y, x: x, outer: c, hole: h, hasHole: hole != nil)
            }
            next = end
        }
    }
}

/// Where a row of a shape is cut: the pixels it may touch (`x0..<x1`,
/// within the clip), those it covers whole, and its hole's.
struct RowCuts: Equatable {
    var x0: Int, x1: Int
    var solid: PixelSpan
    var holeOuter: PixelSpan
    var holeSolid: PixelSpan

    /// Asked once a row: inline (the derived one was a call).
    @inline(__always)
    static func == (a: RowCuts, b: RowCuts) -> Bool {
        a.x0 == b.x0 && a.x1 == b.x1 && a.solid == b.solid && a.holeOuter == b.holeOuter && a.holeSolid == b.holeSolid
    }
}

/// What to do with each piece of a row: fill it, fill it as the hole, or
/// measure its pixels one by one. At most seven pieces (eight cuts).
struct RowPlan {
    enum Kind { case fill, hole, measure }
    struct Piece {
        var from: Int, to: Int
        var kind: Kind
    }

    /// Pieces of one row at most: eight cuts.
    static let capacity = 7

    /// Cuts no row has: the first row always makes a plan.
    private(set) var cuts = RowCuts(x0: 0, x1: 0, solid: .none, holeOuter: .none, holeSolid: .none)
    private(set) var count = 0
    private let pieces: UnsafeMutablePointer<Piece>

    /// `storage` has room for ``capacity`` pieces.
    init(storage: UnsafeMutablePointer<Piece>) { pieces = storage }

    subscript(index: Int) -> Piece {
        @inline(__always) get { pieces[index] }
    }

    @inline(__always)
    private mutating func append(_ from: Int, _ to: Int, _ kind: Kind) {
        pieces[count] = Piece(from: from, to: to, kind: kind)
        count += 1
    }

    mutating func make(for cuts: RowCuts, hasHole: Bool) {
        self.cuts = cuts
        count = 0
        let x0 = cuts.x0, x1 = cuts.x1, solid = cuts.solid
        // The common row: no hole, and a solid run in the middle.
        if !hasHole && !solid.isEmpty {
            let a = max(x0, solid.lo), b = min(x1, solid.hi)
            if a < b {
                if x0 < a { append(x0, a, .measure) }
                append(a, b, .fill)
                if b < x1 { append(b, x1, .measure) }
                return
            }
        }
        // Otherwise cut the row at every boundary and treat each piece as a whole.
        var points = (x0, x1, 0, 0, 0, 0, 0, 0)
        var n = 2
        withUnsafeMutableBytes(of: &points) { raw in
            let p = raw.bindMemory(to: Int.self)
            func cut(_ x: Int) {
                if x > x0 && x < x1 { p[n] = x; n += 1 }
            }
            if !solid.isEmpty { cut(solid.lo); cut(solid.hi) }
            if !cuts.holeOuter.isEmpty { cut(cuts.holeOuter.lo); cut(cuts.holeOuter.hi) }
            if !cuts.holeSolid.isEmpty { cut(cuts.holeSolid.lo); cut(cuts.holeSolid.hi) }
            // Insertion sort: at most eight entries.
            for i in 1..<n {
                let v = p[i]
                var j = i - 1
                while j >= 0 && p[j] > v { p[j + 1] = p[j]; j -= 1 }
                p[j + 1] = v
            }
            for index in 0..<(n - 1) {
                let a = p[index], b = p[index + 1]
                guard a < b else { continue }
                if cuts.holeSolid.contains(a) {
                    append(a, b, .hole)
                } else if solid.contains(a) && !cuts.holeOuter.contains(a) {
                    append(a, b, .fill)
                } else {
                    append(a, b, .measure)
                }
            }
        }
    }
}
