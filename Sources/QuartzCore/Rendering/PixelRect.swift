// Core Graphics' rectangle of whole pixels, with what the compositor
// needs to gather damage.
extension PixelRect: CustomStringConvertible {
    package static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)

    /// Far beyond any frame, and small enough that sums never overflow.
    static let coordinateLimit = 1 << 30

    /// The pixels a rectangle in device coordinates touches at all, within
    /// ±``coordinateLimit``; empty for a rectangle with no area or a NaN.
    package init(covering rect: CGRect) {
        guard !rect.isNull, rect.width != 0, rect.height != 0 else { self = .empty; return }
        let limit = PixelRect(x0: -Self.coordinateLimit, y0: -Self.coordinateLimit, x1: Self.coordinateLimit, y1: Self.coordinateLimit)
        self.init(covering: rect, within: limit)
        if isEmpty { self = .empty }
    }

    package var area: Int { width * height }

    package func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    package func intersects(_ other: PixelRect) -> Bool {
        !isEmpty && !other.isEmpty && !intersection(other).isEmpty
    }

    package func insetBy(_ d: Int) -> PixelRect {
        let r = PixelRect(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d)
        return isEmpty || r.isEmpty ? .empty : r
    }

    package var cgRect: CGRect { CGRect(x: x0, y: y0, width: width, height: height) }

    package var description: String { "(\(x0),\(y0))–(\(x1),\(y1))" }
}

/// The parts of a frame that must be drawn again: a few rectangles, merged
/// into their bounding box once there are more than a handful, so that
/// drawing them never costs more than a pass over the layers per rectangle.
/// Its list keeps its storage: adding, merging, clipping and emptying work
/// in place, so a damage kept from frame to frame allocates nothing once
/// warm.
package struct Damage: Sendable {
    package private(set) var rects: [PixelRect] = []

    /// More rectangles than this are merged into one (chosen here: a frame
    /// with many small changes is cheaper to draw as one region than as a
    /// walk of the layer tree per change).
    static let maximumRectangles = 8

    package init() {}

    package var isEmpty: Bool { rects.isEmpty }

    package mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        // A rect inside one already there adds nothing; one that overlaps
        // another is merged with it when the merge wastes little.
        for index in rects.indices {
            let existing = rects[index]
            let merged = existing.union(rect)
            if merged == existing { return }
            if existing.intersects(rect), merged.area <= existing.area + rect.area {
                rects.remove(at: index)
                return add(merged)
            }
        }
        rects.append(rect)
        if rects.count > Self.maximumRectangles {
            let all = rects.reduce(PixelRect.empty) { $0.union($1) }
            rects.removeAll(keepingCapacity: true)
            rects.append(all)
        }
    }

    /// Keeps what lies inside `bounds`, in order.
    package mutating func clip(to bounds: PixelRect) {
        var kept = 0
        for index in rects.indices {
            let inside = rects[index].intersection(bounds)
            if !inside.isEmpty {
                rects[kept] = inside
                kept += 1
            }
        }
        rects.removeSubrange(kept...)
    }

    package mutating func removeAll() { rects.removeAll(keepingCapacity: true) }
}
