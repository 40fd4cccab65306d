import CFreeType

/// How the inside of a shape is decided where its outlines overlap or nest.
public enum CGPathFillRule: Int, Sendable {
    /// Inside where the outlines wind around a point a non-zero number of times.
    case winding = 0
    /// Inside where a ray from the point crosses the outline an odd number of times.
    case evenOdd = 1
}

/// Polygons in device pixels (y down), ready for FreeType's anti-aliasing
/// rasterizer: every contour is closed, clipped to a guard box around the
/// area that will be drawn, and in 26.6 fixed point.
///
/// Why the clipping: FreeType's outlines hold coordinates in 26.6 fixed point
/// and its rasterizer works in a fixed-point range that wide coordinates
/// overflow. Clipping each closed contour to a box (Sutherland–Hodgman, one
/// side at a time) keeps every coordinate small and keeps the winding number
/// of every point inside the box, so fills come out the same.
package struct DeviceOutline {
    private var points: [FT_Vector] = []
    private var contourEnds: [Int16] = []
    private let guardBox: (x0: CGFloat, y0: CGFloat, x1: CGFloat, y1: CGFloat)
    private var clipScratch: [CGPoint] = []
    private var clipOutput: [CGPoint] = []

    /// FreeType's outlines count points in 16 bits.
    package static let maximumPointCount = Int(Int16.max)

    /// An outline whose contours are clipped to `area` grown by a pixel on
    /// every side.
    package init(clippingTo area: PixelRect) {
        guardBox = (CGFloat(area.x0 - 1), CGFloat(area.y0 - 1), CGFloat(area.x1 + 1), CGFloat(area.y1 + 1))
    }

    package var isEmpty: Bool { contourEnds.isEmpty }

    /// Adds a closed polygon. One with a non-finite point is left out whole:
    /// there is no shape to draw for it. Returns false, adding nothing, when
    /// the outline has no room for it (FreeType's 16-bit point count).
    @discardableResult
    package mutating func addPolygon(_ polygon: [CGPoint]) -> Bool {
        guard polygon.count >= 3, polygon.allSatisfy({ $0.isFinite }) else { return true }
        clipScratch = polygon
        let box = guardBox
        clip(keeping: { $0.x >= box.x0 }, crossing: { a, b in (box.x0 - a.x) / (b.x - a.x) })
        clip(keeping: { $0.x <= box.x1 }, crossing: { a, b in (box.x1 - a.x) / (b.x - a.x) })
        clip(keeping: { $0.y >= box.y0 }, crossing: { a, b in (box.y0 - a.y) / (b.y - a.y) })
        clip(keeping: { $0.y <= box.y1 }, crossing: { a, b in (box.y1 - a.y) / (b.y - a.y) })
        guard clipScratch.count >= 3 else { return true }
        guard points.count + clipScratch.count <= Self.maximumPointCount, clipScratch.count < Self.maximumPointCount else {
            return false
        }
        for p in clipScratch {
            points.append(FT_Vector(x: FT_Pos((p.x * 64).rounded()), y: FT_Pos((p.y * 64).rounded())))
        }
        contourEnds.append(Int16(points.count - 1))
        return true
    }

    /// Forgets every contour, keeping the guard box.
    package mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        contourEnds.removeAll(keepingCapacity: true)
    }

    /// One Sutherland–Hodgman pass: keeps the part of the polygon in
    /// `clipScratch` on the inner side of one edge of the guard box.
    private mutating func clip(keeping inside: (CGPoint) -> Bool, crossing: (CGPoint, CGPoint) -> CGFloat) {
        guard let last = clipScratch.last else { return }
        clipOutput.removeAll(keepingCapacity: true)
        var previous = last
        var previousInside = inside(previous)
        for current in clipScratch {
            let currentInside = inside(current)
            if currentInside != previousInside {
                let t = crossing(previous, current)
                clipOutput.append(CGPoint(x: previous.x + (current.x - previous.x) * t, y: previous.y + (current.y - previous.y) * t))
            }
            if currentInside { clipOutput.append(current) }
            previous = current
            previousInside = currentInside
        }
        swap(&clipScratch, &clipOutput)
    }

    /// Rasterizes the outline with anti-aliasing and hands every run of
    /// equally covered pixels inside `clip` to `sink`, row by row.
    package mutating func render(fillRule: CGPathFillRule, clip: PixelRect, into sink: SpanSink) {
        guard !contourEnds.isEmpty, !clip.isEmpty else { return }
        let contourCount = contourEnds.count
        let pointCount = points.count
        var tags = [CChar](repeating: CChar(FT_CURVE_TAG_ON), count: pointCount)
        points.withUnsafeMutableBufferPointer { points in
            contourEnds.withUnsafeMutableBufferPointer { contours in
                tags.withUnsafeMutableBufferPointer { tags in
                    var outline = FT_Outline()
                    outline.n_contours = Int16(contourCount)
                    outline.n_points = Int16(pointCount)
                    outline.points = points.baseAddress
                    outline.tags = tags.baseAddress
                    outline.contours = contours.baseAddress
                    outline.flags = fillRule == .evenOdd ? Int32(FT_OUTLINE_EVEN_ODD_FILL) : 0
                    withUnsafeMutablePointer(to: &outline) { outline in
                        var params = FT_Raster_Params()
                        params.source = UnsafeRawPointer(outline)
                        params.flags = Int32(FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP)
                        params.gray_spans = forwardSpans
                        params.user = Unmanaged.passUnretained(sink).toOpaque()
                        params.clip_box = FT_BBox(xMin: FT_Pos(clip.x0), yMin: FT_Pos(clip.y0), xMax: FT_Pos(clip.x1), yMax: FT_Pos(clip.y1))
                        FreeTypeRasterizer.shared.render(outline, &params)
                    }
                }
            }
        }
    }
}

/// Receives the spans of a rasterized shape.
package class SpanSink {
    /// Pixels `x..<x+length` of row `y` are covered `coverage`/255.
    package func span(y: Int, x: Int, length: Int, coverage: UInt8) {}
}

private func forwardSpans(y: Int32, count: Int32, spans: UnsafePointer<FT_Span>?, user: UnsafeMutableRawPointer?) {
    guard let spans, let user else { return }
    let sink = Unmanaged<SpanSink>.fromOpaque(user).takeUnretainedValue()
    for i in 0..<Int(count) {
        let span = spans[i]
        sink.span(y: Int(y), x: Int(span.x), length: Int(span.len), coverage: span.coverage)
    }
}

/// The FreeType library whose smooth renderer rasterizes outlines: one for
/// the process, created on first use, its calls serialised by a lock because
/// an `FT_Library` is not safe to use from two threads at once.
package final class FreeTypeRasterizer: @unchecked Sendable {
    package static let shared = FreeTypeRasterizer()

    private let library: FT_Library?
    private let lock = NSLock()

    private init() {
        var library: FT_Library?
        library = FT_Init_FreeType(&library) == 0 ? library : nil
        self.library = library
    }

    fileprivate func render(_ outline: UnsafeMutablePointer<FT_Outline>, _ params: inout FT_Raster_Params) {
        guard let library else { return }
        lock.lock()
        defer { lock.unlock() }
        _ = FT_Outline_Render(library, outline, &params)
    }

    /// Runs `body` with the library, under the lock.
    package func withLibrary<T>(_ body: (FT_Library) -> T) -> T? {
        guard let library else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return body(library)
    }
}
