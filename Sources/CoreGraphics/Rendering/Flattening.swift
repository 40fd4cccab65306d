/// Turns path elements into polylines: curves become lines no further than
/// `tolerance` from the curve. Curves whose control points all lie outside
/// `cullingBox` become one line (their chord), which changes nothing inside
/// the box and bounds the work for curves of absurd size.
struct Flattener {
    struct Polyline {
        var points: [CGPoint]
        var isClosed: Bool
    }

    let tolerance: CGFloat
    let cullingBox: CGRect?
    /// The most lines one curve becomes.
    static let maximumPiecesPerCurve = 512

    private(set) var polylines: [Polyline] = []
    private var current: [CGPoint] = []

    /// Stands for a control point that is not a number, so that the whole
    /// subpath is left out rather than drawn as its chord.
    static let invalid = CGPoint(x: CGFloat.nan, y: CGFloat.nan)

    init(tolerance: CGFloat, cullingBox: CGRect?) {
        self.tolerance = max(tolerance, 1e-6)
        self.cullingBox = cullingBox
    }

    mutating func add(_ element: CGPath.Element) {
        switch element {
        case let .move(p):
            endSubpath(closed: false)
            current = [p]
        case let .line(p):
            current.append(p)
        case let .quad(c, p):
            guard let start = current.last else { current = [p]; return }
            guard c.isFinite else { current.append(Self.invalid); return }
            let pieces = piecesFor(points: [start, c, p], deviation: 0.25 * hypot(start.x - 2 * c.x + p.x, start.y - 2 * c.y + p.y))
            for i in 1..<pieces { current.append(quadPoint(start, c, p, CGFloat(i) / CGFloat(pieces))) }
            current.append(p)
        case let .cubic(c1, c2, p):
            guard let start = current.last else { current = [p]; return }
            guard c1.isFinite, c2.isFinite else { current.append(Self.invalid); return }
            let d1 = hypot(start.x - 2 * c1.x + c2.x, start.y - 2 * c1.y + c2.y)
            let d2 = hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y)
            let pieces = piecesFor(points: [start, c1, c2, p], deviation: 0.75 * max(d1, d2))
            for i in 1..<pieces { current.append(cubicPoint(start, c1, c2, p, CGFloat(i) / CGFloat(pieces))) }
            current.append(p)
        case .close:
            let start = current.first
            endSubpath(closed: true)
            if let start { current = [start] }   // a later element continues from the start
        }
    }

    /// Wang's bound: `deviation` is the curve's second difference scaled
    /// so that √(deviation / tolerance) pieces keep within the tolerance.
    private func piecesFor(points: [CGPoint], deviation: CGFloat) -> Int {
        guard points.allSatisfy({ $0.isFinite }), deviation.isFinite else { return 1 }
        if let box = cullingBox, !CGRect(boundingCorners: points).intersects(box) { return 1 }
        let pieces = (deviation / tolerance).squareRoot().rounded(.up)
        return Int(min(max(pieces, 1), CGFloat(Self.maximumPiecesPerCurve)))
    }

    private mutating func endSubpath(closed: Bool) {
        if !current.isEmpty { polylines.append(Polyline(points: current, isClosed: closed)) }
        current = []
    }

    mutating func finish() -> [Polyline] {
        endSubpath(closed: false)
        // A lone point (a move with nothing after it, or what a close leaves
        // behind) draws nothing.
        return polylines.filter { $0.points.count > 1 }
    }
}
