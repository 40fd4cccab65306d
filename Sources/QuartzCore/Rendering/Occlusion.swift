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
    /// faded, hidden, masked or turned, and its bounds lie on whole pixels; with
    /// rounded corners, the band between the corners' rows. Empty otherwise.
    func updateOccludingRect() {
        occludingRect = .empty
        guard !isHidden, opacity == 1, mask == nil, let background, background.pixel >> 24 == 255,
              var rect = pixelAlignedBounds else { return }
        if cornerRadius > 0 && !maskedCorners.isEmpty {
            let inset = Int((Double(cornerRadius) * Double(toDevice.d)).rounded(.up))
            rect = PixelRect(x0: rect.x0, y0: rect.y0 + inset, x1: rect.x1, y1: rect.y1 - inset)
            if rect.isEmpty { return }
        }
        occludingRect = rect
    }
}

/// A painter that leaves out the pixels inside any of the occluders,
/// passing the rest on to `base`.
///
/// Rows come in increasing order (as a ``ShapeFiller`` covers a shape), so
/// the occluders, sorted by their top row, are swept: each row looks only
/// at those that cross it — a window's background under two hundred cards
/// meets a handful per row.
struct OccludedPainter<Base: SpanPainter>: SpanPainter {
    var base: Base
    /// The occluders, sorted by `y0`.
    private let sorted: UnsafeMutableBufferPointer<PixelRect>
    /// Those crossing the current row, in `active[0..<activeCount]`.
    private let active: UnsafeMutableBufferPointer<PixelRect>
    private var activeCount = 0
    private var next = 0
    private var row = Int.min

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
        var i = 0
        while i < activeCount {
            if active[i].y1 <= y {
                activeCount -= 1
                active[i] = active[activeCount]
            } else {
                i += 1
            }
        }
        while next < sorted.count && sorted[next].y0 <= y {
            if sorted[next].y1 > y {
                active[activeCount] = sorted[next]
                activeCount += 1
            }
            next += 1
        }
    }

    @inline(__always)
    private mutating func isOccluded(y: Int, x: Int) -> Bool {
        enter(y)
        for i in 0..<activeCount where x >= active[i].x0 && x < active[i].x1 { return true }
        return false
    }

    /// Calls `body` for each run of `x0..<x1` on row `y` that no occluder covers.
    @inline(__always)
    private mutating func forEachVisibleRun(y: Int, from x0: Int, to x1: Int, _ body: (Int, Int) -> Void) {
        enter(y)
        var x = x0
        while x < x1 {
            // Past every occluder that covers x; then up to the next one that starts.
            var end = x1
            var covered = false
            for i in 0..<activeCount where active[i].x1 > x {
                let r = active[i]
                if r.x0 <= x {
                    covered = true
                    x = r.x1
                    break
                }
                end = min(end, r.x0)
            }
            if covered { continue }
            body(x, end)
            x = end
        }
    }

    @inline(__always)
    mutating func fill(y: Int, from x0: Int, to x1: Int) {
        var base = self.base
        forEachVisibleRun(y: y, from: x0, to: x1) { base.fill(y: y, from: $0, to: $1) }
        self.base = base
    }

    @inline(__always)
    mutating func fillHole(y: Int, from x0: Int, to x1: Int) {
        var base = self.base
        forEachVisibleRun(y: y, from: x0, to: x1) { base.fillHole(y: y, from: $0, to: $1) }
        self.base = base
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, coverage: Float) {
        if !isOccluded(y: y, x: x) { base.blend(y: y, x: x, coverage: coverage) }
    }

    @inline(__always)
    mutating func blend(y: Int, x: Int, outer: Float, hole: Float) {
        if !isOccluded(y: y, x: x) { base.blend(y: y, x: x, outer: outer, hole: hole) }
    }

    /// The visible runs only: the pixels under an occluder are not measured.
    @inline(__always)
    mutating func blend(y: Int, from x0: Int, to x1: Int, hasHole: Bool, coverage: (Int) -> (outer: Float, hole: Float)) {
        var base = self.base
        forEachVisibleRun(y: y, from: x0, to: x1) { base.blend(y: y, from: $0, to: $1, hasHole: hasHole, coverage: coverage) }
        self.base = base
    }
}
