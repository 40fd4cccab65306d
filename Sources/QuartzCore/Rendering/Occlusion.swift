/// Occlusion: what a later opaque layer will cover is not drawn.
///
/// Every pixel of an opaque layer's occluding rectangle (see
/// ``RenderLayer/occludingRect``) is overwritten when that layer is drawn,
/// whatever was under it; so the layers drawn before it in the same
/// surface — earlier siblings and everything inside them, and earlier
/// siblings of its ancestors' — need not draw there. Inside a group
/// buffer this holds as well: the group's pixels under a later occluder
/// are overwritten once the group is composited. In a scene of overlapping
/// cards most pixels are covered several times over, so this is most of
/// the full frame's work saved.
extension RenderLayer {
    /// Device pixels this layer replaces entirely when drawn: its
    /// background's bounds when the background is opaque, the layer is not
    /// faded, hidden, masked or turned (a flip in perspective among the
    /// turns), and its bounds lie on whole pixels; with rounded corners,
    /// the band between the corners' rows. Empty otherwise.
    func updateOccludingRect() {
        occludingRect = opacity == 1 && mask == nil && projection == nil && !facesAway ? opaqueBackgroundRect : .empty
    }

    /// Device pixels the layer's background covers opaquely, before any
    /// opacity or mask: the occluding rectangle, but for the layer's own
    /// fading (inside its group, it replaces what it covers all the same).
    /// Bounds between pixels (a layer moving, animated) cover the whole
    /// pixels inside them: those the background fills at full coverage.
    var opaqueBackgroundRect: PixelRect {
        guard !isHidden, let background, background.pixel >> 24 == 255,
              var rect = wholePixelsInsideBounds else { return .empty }
        if cornerRadius > 0 && !maskedCorners.isEmpty {
            let inset = Int((Double(cornerRadius) * Double(toDevice.d)).rounded(.up))
            rect = PixelRect(x0: rect.x0, y0: rect.y0 + inset, x1: rect.x1, y1: rect.y1 - inset)
            if rect.isEmpty { return .empty }
        }
        return rect
    }
}

extension RenderLayer {
    /// The device pixels entirely inside the bounds, when they are not
    /// turned (no rotation or shear): all of ``pixelAlignedBounds`` when the
    /// bounds lie on whole pixels; nil when they are turned or hold no
    /// whole pixel.
    var wholePixelsInsideBounds: PixelRect? {
        guard let r = unturnedDeviceEdges(through: toDevice) else { return nil }
        // Edges within rounding error of a pixel boundary lie on it, as
        // pixelAlignedBounds has them.
        let rect = PixelRect(x0: DevicePixel.inward(r.x0, up: true), y0: DevicePixel.inward(r.y0, up: true),
                             x1: DevicePixel.inward(r.x1, up: false), y1: DevicePixel.inward(r.y1, up: false))
        return rect.isEmpty ? nil : rect
    }
}

/// Device coordinates (within ±1e9) to whole pixels, without the C
/// library's rounding functions, which the baseline x86-64 calls rather
/// than inlines: these run for every layer whose place is worked out, at
/// every commit that moves it.
enum DevicePixel {
    /// Within rounding error of a pixel boundary: on it (chosen here; the
    /// arithmetic that places layers errs by about 1e-12 on a frame's
    /// coordinates).
    static let tolerance = 1e-9

    @inline(__always) static func floor(_ v: Double) -> Int {
        let i = Int(v)
        return Double(i) > v ? i - 1 : i
    }

    /// The nearest whole pixel boundary (a half rounds up).
    @inline(__always) static func nearest(_ v: Double) -> Int { floor(v + 0.5) }

    @inline(__always) static func isOn(_ v: Double, _ n: Int) -> Bool { abs(v - Double(n)) < tolerance }

    /// The boundary `v` lies on, or the next one up (or down) from it.
    @inline(__always) static func inward(_ v: Double, up: Bool) -> Int {
        let n = nearest(v)
        if isOn(v, n) { return n }
        return up ? -floor(-v) : floor(v)
    }
}

/// A painter that leaves out the pixels inside any of the occluders,
/// passing the rest on to `base`.
///
/// Rows come in increasing order (as a ``ShapeFiller`` covers a shape), so
/// the occluders, sorted by their top row, are swept: each row looks only
/// at those that cross it — a window's background under two hundred cards
/// meets a handful per row — kept in order of their left edge, so that the
/// visible runs of a row come out of one pass over them. The list changes
/// only on the rows where an occluder starts or ends.
struct OccludedPainter<Base: SpanPainter>: SpanPainter {
    var base: Base
    /// The occluders, sorted by `y0`.
    private let sorted: UnsafeMutableBufferPointer<PixelRect>
    /// Those crossing the current row, in `active[0..<activeCount]`, sorted by `x0`.
    private let active: UnsafeMutableBufferPointer<PixelRect>
    private var activeCount = 0
    private var next = 0
    private var row = Int.min
    /// The first row after `row` where the active list changes.
    private var nextChange = Int.min

    /// `sorted` holds the occluders sorted by their top row; `active` has
    /// room for as many.
    init(base: Base, sorted: UnsafeMutableBufferPointer<PixelRect>, active: UnsafeMutableBufferPointer<PixelRect>) {
        self.base = base
        self.sorted = sorted
        self.active = active
    }

    @inline(__always)
    private mutating func enter(_ y: Int) {
        guard y != row else { return }
        row = y
        if y >= nextChange { update(y) }
    }

    private mutating func update(_ y: Int) {
        // Those that ended, out, keeping the order.
        var kept = 0
        for i in 0..<activeCount where active[i].y1 > y {
            active[kept] = active[i]
            kept += 1
        }
        activeCount = kept
        // Those that start, in, by their left edge.
        while next < sorted.count && sorted[next].y0 <= y {
            let r = sorted[next]
            next += 1
            guard r.y1 > y else { continue }
            var i = activeCount
            while i > 0 && active[i - 1].x0 > r.x0 {
                active[i] = active[i - 1]
                i -= 1
            }
            active[i] = r
            activeCount += 1
        }
        nextChange = next < sorted.count ? sorted[next].y0 : Int.max
        for i in 0..<activeCount { nextChange = min(nextChange, active[i].y1) }
    }

    @inline(__always)
    private mutating func isOccluded(y: Int, x: Int) -> Bool {
        enter(y)
        for i in 0..<activeCount where x >= active[i].x0 && x < active[i].x1 { return true }
        return false
    }

    /// Calls `body` with the base painter for each run of `x0..<x1` on row
    /// `y` that no occluder covers (the painter is passed, not captured, so
    /// that it is not copied in and out around each call).
    @inline(__always)
    private mutating func forEachVisibleRun(y: Int, from x0: Int, to x1: Int, _ body: (inout Base, Int, Int) -> Void) {
        enter(y)
        var x = x0
        for i in 0..<activeCount {
            let r = active[i]
            // Sorted by their left edge: none further starts before x1.
            if r.x0 >= x1 { break }
            if r.x1 <= x { continue }
            if r.x0 > x { body(&base, x, r.x0) }
            x = r.x1
            if x >= x1 { return }
        }
        if x < x1 { body(&base, x, x1) }
    }

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        forEachVisibleRun(y: y, from: x0, to: x1) { $0.fill(y: y, from: $1, to: $2) }
    }

    @inline(__always)
    mutating func fillHole(y: Int, from x0: Int, to x1: Int) {
        forEachVisibleRun(y: y, from: x0, to: x1) { $0.fillHole(y: y, from: $1, to: $2) }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        if !isOccluded(y: y, x: x) { base.blend(y: y, x: x, coverage: coverage) }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float) {
        if !isOccluded(y: y, x: x) { base.blend(y: y, x: x, outer: outer, hole: hole) }
    }

    /// The first run not under an occluder: the pixels under one are not
    /// measured.
    @inline(__always)
    mutating func visibleRun(y: Int, from x0: Int, to x1: Int) -> (Int, Int)? {
        enter(y)
        var x = x0
        for i in 0..<activeCount {
            let r = active[i]
            if r.x0 >= x1 { break }
            if r.x1 <= x { continue }
            if r.x0 > x { return (x, r.x0) }
            x = r.x1
            if x >= x1 { return nil }
        }
        return x < x1 ? (x, x1) : nil
    }

    @inline(__always)
    mutating func blendVisible(y: Int, x: Int, outer: Float, hole: Float, hasHole: Bool) {
        base.blendVisible(y: y, x: x, outer: outer, hole: hole, hasHole: hasHole)
    }

    /// Part of a run ``visibleRun(y:from:to:)`` gave: visible already.
    @inline(__always)
    mutating func fillVisible(y: Int, from x0: Int, to x1: Int) { base.fill(y: y, from: x0, to: x1) }

    @inline(__always)
    mutating func fillHoleVisible(y: Int, from x0: Int, to x1: Int) { base.fillHole(y: y, from: x0, to: x1) }

    typealias ColumnPaint = Base.ColumnPaint

    @inline(__always)
    func columnPaint(outer: Float, hole: Float, hasHole: Bool) -> Base.ColumnPaint {
        base.columnPaint(outer: outer, hole: hole, hasHole: hasHole)
    }

    @inline(__always)
    mutating func blendColumn(y: Int, x: Int, _ paint: Base.ColumnPaint, hasHole: Bool) {
        base.blendColumn(y: y, x: x, paint, hasHole: hasHole)
    }
}
