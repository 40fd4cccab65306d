import CFreeType

/// The line style a stroke is drawn with, in user space.
struct StrokeStyle {
    var width: CGFloat
    var cap: CGLineCap
    var join: CGLineJoin
    var miterLimit: CGFloat
    var dashPhase: CGFloat
    var dashLengths: [CGFloat]
}

/// Builds the outline of a path's stroke with FreeType's stroker.
///
/// The pen is round in user space, so a stroke under a non-uniform scale
/// or a skew is a transformed stroke. The stroker works in "pen space":
/// user space scaled by `s = √|det L|` (L the linear part of user → device),
/// where the pen is round with diameter `width · s`; device = pen mapped by
/// `M = L / s`. The path, given in device pixels, is mapped back by `M⁻¹`,
/// flattened, dashed, cut to the part that can reach the visible area,
/// stroked, and the stroke's outline mapped forward by `M`.
struct PathStroker {
    let style: StrokeStyle
    let linear: CGAffineTransform
    let visible: PixelRect

    /// The widest pen, in device pixels; wider ones cover any bitmap.
    static let maximumPenWidth: CGFloat = 1_048_576

    /// The stroke of `devicePath` as polygons in device pixels, to be filled
    /// with the non-zero rule.
    func stroke(_ devicePath: CGPath) -> [[CGPoint]] {
        let l = CGAffineTransform(a: linear.a, b: linear.b, c: linear.c, d: linear.d, tx: 0, ty: 0)
        let s = abs(l.a * l.d - l.b * l.c).squareRoot()
        guard s > 0, s.isFinite, style.width >= 0, style.width.isFinite, !visible.isEmpty else { return [] }
        // Pen space runs at `precision` units a pixel so that FreeType's
        // 26.6 rounding stays well under a pixel once M stretches it.
        let precision: CGFloat = 4
        let m = CGAffineTransform(a: l.a / s / precision, b: l.b / s / precision, c: l.c / s / precision, d: l.d / s / precision, tx: 0, ty: 0)
        guard let mInverse = m.invertedIfPossible() else { return [] }
        let scale = s * precision
        // A zero width is Core Graphics' thinnest line: one device pixel.
        let penWidth = (style.width == 0 ? 1 : min(style.width * s, Self.maximumPenWidth)) * precision
        let stretch = (m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d).squareRoot()

        let margin = penWidth / 2 * max(style.miterLimit, 1.5) + 2
        let visibleCorners = CGRect(x: visible.x0 - 1, y: visible.y0 - 1, width: visible.width + 2, height: visible.height + 2)
            .corners.map { $0.applying(mInverse) }
        let box = CGRect(boundingCorners: visibleCorners).insetBy(dx: -margin, dy: -margin)

        var flattener = Flattener(tolerance: CGContext.flatteningTolerance / stretch, cullingBox: box)
        for element in devicePath.elements { flattener.add(element.applying(mInverse)) }
        var runs: [Flattener.Polyline] = []
        for polyline in flattener.finish() where polyline.points.allSatisfy({ $0.isFinite }) {
            for piece in dash(polyline, scale: scale, box: box) { runs += clip(piece, to: box) }
        }
        return strokeWithFreeType(runs, penWidth: penWidth, forward: m, tolerance: CGContext.flatteningTolerance / stretch)
    }

    // MARK: Dashes

    /// The dashes of a polyline (pen space, where user lengths are × `scale`);
    /// the polyline itself when the pattern is empty or invalid. Stretches
    /// outside `box` advance the pattern without making dashes there.
    private func dash(_ polyline: Flattener.Polyline, scale: CGFloat, box: CGRect) -> [Flattener.Polyline] {
        var pattern = style.dashLengths.map { $0 * scale }
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), pattern.reduce(0, +) > 0 else { return [polyline] }
        if pattern.count % 2 == 1 { pattern += pattern }
        let period = pattern.reduce(0, +)
        var points = polyline.points
        if polyline.isClosed, let first = points.first { points.append(first) }

        // Where in the pattern the line starts.
        var index = 0
        var remaining = pattern[0]
        var phase = (style.dashPhase * scale).truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        if !phase.isFinite { phase = 0 }
        while phase > 0 {
            if phase >= remaining { phase -= remaining; index = (index + 1) % pattern.count; remaining = pattern[index] } else { remaining -= phase; phase = 0 }
        }

        var dashes: [Flattener.Polyline] = []
        var currentDash: [CGPoint] = index % 2 == 0 ? [points[0]] : []
        for i in 1..<points.count {
            let a = points[i - 1], b = points[i]
            var length = hypot(b.x - a.x, b.y - a.y)
            guard length > 0 else { continue }
            // Only the part of the segment that can reach the visible area is
            // dashed; the pattern moves arithmetically through the rest.
            let total = length
            let (enter, leave) = visibleInterval(a, b, box)
            var travelled: CGFloat = 0
            func point(at distance: CGFloat) -> CGPoint {
                let t = distance / total
                return CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            func skip(to distance: CGFloat) {
                guard distance > travelled else { return }
                if !currentDash.isEmpty {
                    currentDash.append(point(at: travelled))
                    if currentDash.count > 1 { dashes.append(Flattener.Polyline(points: currentDash, isClosed: false)) }
                    currentDash = []
                }
                var rest = (distance - travelled).truncatingRemainder(dividingBy: period)
                while rest >= remaining { rest -= remaining; index = (index + 1) % pattern.count; remaining = pattern[index] }
                remaining -= rest
                travelled = distance
                if index % 2 == 0 { currentDash = [point(at: travelled)] }
            }
            skip(to: enter * total)
            length = (leave - enter) * total
            while length > 0 {
                let step = min(remaining, length)
                travelled += step
                length -= step
                remaining -= step
                let p = point(at: travelled)
                if remaining <= 0 {
                    if index % 2 == 0 {
                        currentDash.append(p)
                        dashes.append(Flattener.Polyline(points: currentDash, isClosed: false))
                        currentDash = []
                    } else {
                        currentDash = [p]
                    }
                    index = (index + 1) % pattern.count
                    remaining = pattern[index]
                } else if index % 2 == 0 {
                    currentDash.append(p)
                }
            }
            skip(to: total)
            if !currentDash.isEmpty, currentDash.last != b { currentDash.append(b) }
        }
        if currentDash.count > 1 { dashes.append(Flattener.Polyline(points: currentDash, isClosed: false)) }
        return dashes
    }

    /// The fractions of segment a→b inside `box`, (0, 0) when none.
    private func visibleInterval(_ a: CGPoint, _ b: CGPoint, _ box: CGRect) -> (CGFloat, CGFloat) {
        guard let (p, q) = clipSegment(a, b, to: box) else { return (0, 0) }
        let total = hypot(b.x - a.x, b.y - a.y)
        return (hypot(p.x - a.x, p.y - a.y) / total, hypot(q.x - a.x, q.y - a.y) / total)
    }

    // MARK: Cutting to the visible area

    /// The runs of a polyline inside `box`, cut where it leaves (Liang–Barsky
    /// per segment). A closed polyline wholly inside stays closed.
    private func clip(_ polyline: Flattener.Polyline, to box: CGRect) -> [Flattener.Polyline] {
        if polyline.points.allSatisfy({ box.contains($0) }) { return [polyline] }
        var points = polyline.points
        if polyline.isClosed, let first = points.first { points.append(first) }
        var runs: [Flattener.Polyline] = []
        var run: [CGPoint] = []
        for i in 1..<points.count {
            guard let (p, q) = clipSegment(points[i - 1], points[i], to: box) else {
                if run.count > 1 { runs.append(Flattener.Polyline(points: run, isClosed: false)) }
                run = []
                continue
            }
            if run.last != p {
                if run.count > 1 { runs.append(Flattener.Polyline(points: run, isClosed: false)) }
                run = [p]
            }
            run.append(q)
            if q != points[i] {
                runs.append(Flattener.Polyline(points: run, isClosed: false))
                run = []
            }
        }
        if run.count > 1 { runs.append(Flattener.Polyline(points: run, isClosed: false)) }
        return runs
    }

    private func clipSegment(_ a: CGPoint, _ b: CGPoint, to box: CGRect) -> (CGPoint, CGPoint)? {
        var t0: CGFloat = 0, t1: CGFloat = 1
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            }
        }
        guard t0 <= t1 else { return nil }
        let p = t0 == 0 ? a : CGPoint(x: a.x + dx * t0, y: a.y + dy * t0)
        let q = t1 == 1 ? b : CGPoint(x: a.x + dx * t1, y: a.y + dy * t1)
        return (p, q)
    }

    // MARK: FreeType

    private func strokeWithFreeType(_ runs: [Flattener.Polyline], penWidth: CGFloat, forward m: CGAffineTransform, tolerance: CGFloat) -> [[CGPoint]] {
        guard !runs.isEmpty else { return [] }
        let radius = FT_Fixed((penWidth / 2 * 64).rounded())
        let cap: FT_Stroker_LineCap = switch style.cap {
        case .butt: FT_STROKER_LINECAP_BUTT
        case .round: FT_STROKER_LINECAP_ROUND
        case .square: FT_STROKER_LINECAP_SQUARE
        }
        let join: FT_Stroker_LineJoin = switch style.join {
        case .miter: FT_STROKER_LINEJOIN_MITER_FIXED   // PostScript's: a bevel past the limit
        case .round: FT_STROKER_LINEJOIN_ROUND
        case .bevel: FT_STROKER_LINEJOIN_BEVEL
        }
        let miterLimit = FT_Fixed((min(max(style.miterLimit, 1), 1e4) * 65536).rounded())
        let collector = PolygonCollector(transform: m, tolerance: tolerance * 64)

        _ = FreeTypeRasterizer.shared.withLibrary { library in
            var strokerHandle: FT_Stroker?
            guard FT_Stroker_New(library, &strokerHandle) == 0, let stroker = strokerHandle else { return }
            defer { FT_Stroker_Done(stroker) }
            FT_Stroker_Set(stroker, radius, cap, join, miterLimit)
            for run in runs {
                var points: [FT_Vector] = []
                for p in run.points {
                    let v = FT_Vector(x: FT_Pos((p.x * 64).rounded()), y: FT_Pos((p.y * 64).rounded()))
                    if let last = points.last, last.x == v.x, last.y == v.y { continue }
                    points.append(v)
                }
                if run.isClosed, points.count > 1, let first = points.first, let last = points.last, first.x == last.x, first.y == last.y {
                    points.removeLast()
                }
                if points.count == 1 {
                    collector.addDot(at: points[0], radius: CGFloat(radius), cap: style.cap)
                    continue
                }
                var start = points[0]
                FT_Stroker_BeginSubPath(stroker, &start, run.isClosed ? 0 : 1)
                for var p in points.dropFirst() { FT_Stroker_LineTo(stroker, &p) }
                FT_Stroker_EndSubPath(stroker)
                // Export in batches so no outline outgrows 16-bit point counts.
                if !exportIfLarge(stroker, into: collector, force: false) { return }
            }
            _ = exportIfLarge(stroker, into: collector, force: true)
        }
        return collector.polygons
    }

    /// Exports what the stroker holds into `collector` when it nears
    /// FreeType's limits (or when `force`), then empties the stroker.
    private func exportIfLarge(_ stroker: FT_Stroker, into collector: PolygonCollector, force: Bool) -> Bool {
        var pointCount: FT_UInt = 0, contourCount: FT_UInt = 0
        guard FT_Stroker_GetCounts(stroker, &pointCount, &contourCount) == 0 else { return false }
        guard force || pointCount > 16_000 else { return true }
        guard pointCount > 0, pointCount < FT_UInt(Int16.max), contourCount < FT_UInt(Int16.max) else {
            FT_Stroker_Rewind(stroker)
            return pointCount == 0
        }
        var points = [FT_Vector](repeating: FT_Vector(), count: Int(pointCount))
        var tags = [CUnsignedChar](repeating: 0, count: Int(pointCount))
        var contours = [Int16](repeating: 0, count: Int(contourCount))
        points.withUnsafeMutableBufferPointer { p in
            tags.withUnsafeMutableBufferPointer { t in
                contours.withUnsafeMutableBufferPointer { c in
                    var exported = FT_Outline()
                    exported.points = p.baseAddress
                    exported.tags = UnsafeMutableRawPointer(t.baseAddress!).assumingMemoryBound(to: CChar.self)
                    exported.contours = c.baseAddress
                    FT_Stroker_Export(stroker, &exported)
                    collector.decompose(&exported)
                }
            }
        }
        FT_Stroker_Rewind(stroker)
        return true
    }
}

/// Reads a FreeType outline back as polygons: curves flattened, points
/// taken out of 26.6 and mapped by `transform`.
private final class PolygonCollector {
    let transform: CGAffineTransform
    let tolerance: CGFloat
    var polygons: [[CGPoint]] = []
    private var flattener: Flattener

    init(transform: CGAffineTransform, tolerance: CGFloat) {
        self.transform = transform
        self.tolerance = tolerance
        flattener = Flattener(tolerance: tolerance, cullingBox: nil)
    }

    func decompose(_ outline: inout FT_Outline) {
        var funcs = FT_Outline_Funcs()
        funcs.move_to = { to, user in collector(user).add(.move(point(to))); return 0 }
        funcs.line_to = { to, user in collector(user).add(.line(point(to))); return 0 }
        funcs.conic_to = { control, to, user in collector(user).add(.quad(point(control), point(to))); return 0 }
        funcs.cubic_to = { c1, c2, to, user in collector(user).add(.cubic(point(c1), point(c2), point(to))); return 0 }
        flattener = Flattener(tolerance: tolerance, cullingBox: nil)
        _ = FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(self).toOpaque())
        for polyline in flattener.finish() {
            polygons.append(polyline.points.map { CGPoint(x: $0.x / 64, y: $0.y / 64).applying(transform) })
        }
    }

    func add(_ element: CGPath.Element) { flattener.add(element) }

    /// A zero-length subpath: a round cap makes a disc, a square cap a
    /// square, a butt cap nothing.
    func addDot(at center: FT_Vector, radius: CGFloat, cap: CGLineCap) {
        let c = CGPoint(x: CGFloat(center.x), y: CGFloat(center.y))
        let polygon: [CGPoint]
        switch cap {
        case .butt: return
        case .square:
            polygon = [CGPoint(x: c.x - radius, y: c.y - radius), CGPoint(x: c.x + radius, y: c.y - radius),
                       CGPoint(x: c.x + radius, y: c.y + radius), CGPoint(x: c.x - radius, y: c.y + radius)]
        case .round:
            let count = 64
            polygon = (0..<count).map { i in
                let angle = CGFloat(i) / CGFloat(count) * 2 * .pi
                return CGPoint(x: c.x + radius * cos(angle), y: c.y + radius * sin(angle))
            }
        }
        polygons.append(polygon.map { CGPoint(x: $0.x / 64, y: $0.y / 64).applying(transform) })
    }
}

private func collector(_ user: UnsafeMutableRawPointer?) -> PolygonCollector {
    Unmanaged<PolygonCollector>.fromOpaque(user!).takeUnretainedValue()
}

private func point(_ v: UnsafePointer<FT_Vector>?) -> CGPoint {
    CGPoint(x: CGFloat(v!.pointee.x), y: CGFloat(v!.pointee.y))
}
