/// A rectangle of whole pixels in a frame: `x0..<x1` by `y0..<y1`.
package struct PixelRect: Equatable, Sendable, CustomStringConvertible {
    package var x0: Int, y0: Int, x1: Int, y1: Int

    package init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    package static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)

    /// The pixels a rectangle in device coordinates touches at all. Rects
    /// that are not finite give the empty rect; coordinates are clamped to
    /// a range no frame reaches, so a huge layer cannot overflow them.
    package init(covering rect: CGRect) {
        guard rect.isFinite, !rect.isNull, rect.width > 0, rect.height > 0 else { self = .empty; return }
        let limit = Double(PixelRect.coordinateLimit)
        x0 = Int(max(-limit, min(limit, Double(rect.minX).rounded(.down))))
        y0 = Int(max(-limit, min(limit, Double(rect.minY).rounded(.down))))
        x1 = Int(max(-limit, min(limit, Double(rect.maxX).rounded(.up))))
        y1 = Int(max(-limit, min(limit, Double(rect.maxY).rounded(.up))))
    }

    /// Far beyond any frame, and small enough that sums never overflow.
    static let coordinateLimit = 1 << 30

    package var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    package var width: Int { max(0, x1 - x0) }
    package var height: Int { max(0, y1 - y0) }
    package var area: Int { width * height }

    package func intersection(_ other: PixelRect) -> PixelRect {
        let r = PixelRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
        return r.isEmpty ? .empty : r
    }

    package func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }

    package func intersects(_ other: PixelRect) -> Bool {
        max(x0, other.x0) < min(x1, other.x1) && max(y0, other.y0) < min(y1, other.y1)
    }

    package func insetBy(_ d: Int) -> PixelRect {
        isEmpty ? .empty : PixelRect(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d)
    }

    package func offsetBy(dx: Int, dy: Int) -> PixelRect {
        isEmpty ? .empty : PixelRect(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
    }

    package var cgRect: CGRect { CGRect(x: x0, y: y0, width: width, height: height) }

    package var description: String { "(\(x0),\(y0))–(\(x1),\(y1))" }
}

/// The parts of a frame that must be drawn again: a few rectangles, merged
/// into their bounding box once there are more than a handful, so that
/// drawing them never costs more than a pass over the layers per rectangle.
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
            rects = [all]
        }
    }

    package mutating func clip(to bounds: PixelRect) {
        rects = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
    }

    package mutating func removeAll() { rects.removeAll(keepingCapacity: true) }
}
