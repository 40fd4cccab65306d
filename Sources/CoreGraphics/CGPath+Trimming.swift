extension CGPath {
    /// The part of the path between two fractions of its length (0…1, the
    /// whole path's length across all its subpaths), as a shape layer's
    /// `strokeStart` and `strokeEnd` cut it. Curves are followed as lines of
    /// at most ``trimmingStep`` points; a closed subpath kept whole stays
    /// closed, so that its last corner is joined.
    package func trimmed(from start: CGFloat, to end: CGFloat) -> CGPath {
        let polylines = flattenedForTrimming()
        let total = polylines.reduce(0) { $0 + $1.length }
        let from = min(max(start.isFinite ? start : 0, 0), 1) * total
        let to = min(max(end.isFinite ? end : 1, 0), 1) * total
        let result = CGMutablePath()
        guard to > from || (total == 0 && end > start) else { return result }
        var offset: CGFloat = 0
        for polyline in polylines {
            defer { offset += polyline.length }
            let lower = from - offset, upper = to - offset
            guard upper >= 0, lower <= polyline.length, let first = polyline.points.first else { continue }
            if lower <= 0 && upper >= polyline.length {
                result.move(to: first)
                for point in polyline.points.dropFirst() { result.addLine(to: point) }
                if polyline.isClosed { result.closeSubpath() }
                continue
            }
            var walked: CGFloat = 0
            var started = false
            for (a, b) in zip(polyline.points, polyline.points.dropFirst()) {
                let length = hypot(b.x - a.x, b.y - a.y)
                defer { walked += length }
                guard walked + length >= lower, walked <= upper else { continue }
                func point(at distance: CGFloat) -> CGPoint {
                    let f = length == 0 ? 0 : min(max((distance - walked) / length, 0), 1)
                    return CGPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
                }
                if !started {
                    result.move(to: point(at: max(lower, walked)))
                    started = true
                }
                result.addLine(to: point(at: min(upper, walked + length)))
            }
        }
        return result
    }

    /// The longest line a curve is cut into for trimming, in path units.
    static let trimmingStep: CGFloat = 1

    /// Each subpath as a polyline (a closed one ending where it began), with its length.
    private func flattenedForTrimming() -> [(points: [CGPoint], isClosed: Bool, length: CGFloat)] {
        var polylines: [(points: [CGPoint], isClosed: Bool, length: CGFloat)] = []
        var points: [CGPoint] = []
        var isClosed = false
        func finish() {
            if points.count > 1 {
                var length: CGFloat = 0
                for (a, b) in zip(points, points.dropFirst()) { length += hypot(b.x - a.x, b.y - a.y) }
                polylines.append((points, isClosed, length))
            }
            points = []
            isClosed = false
        }
        func pieces(_ estimate: CGFloat) -> Int { min(512, max(4, Int((estimate / Self.trimmingStep).rounded(.up)))) }
        for element in elements {
            let current = points.last ?? .zero
            switch element {
            case .move(let p):
                finish()
                points = [p]
            case .line(let p):
                if points.isEmpty { points = [current] }
                points.append(p)
            case .quad(let c, let p):
                if points.isEmpty { points = [current] }
                let n = pieces(hypot(c.x - current.x, c.y - current.y) + hypot(p.x - c.x, p.y - c.y))
                for i in 1...n { points.append(quadPoint(current, c, p, CGFloat(i) / CGFloat(n))) }
            case .cubic(let c1, let c2, let p):
                if points.isEmpty { points = [current] }
                let n = pieces(hypot(c1.x - current.x, c1.y - current.y) + hypot(c2.x - c1.x, c2.y - c1.y) + hypot(p.x - c2.x, p.y - c2.y))
                for i in 1...n { points.append(cubicPoint(current, c1, c2, p, CGFloat(i) / CGFloat(n))) }
            case .close:
                if let first = points.first {
                    points.append(first)
                    isClosed = true
                    let start = first
                    finish()
                    points = [start]
                }
            }
        }
        finish()
        return polylines
    }
}
