/// The kind of one element of a path.
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One element of a path and its points: one for a move or a line, two for
/// a quadratic curve (control, end), three for a cubic (two controls, end),
/// none for a close.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>
}

/// An immutable path: subpaths of lines and Bézier curves, as Core
/// Graphics'. `CGMutablePath` builds one.
public class CGPath: Equatable, CustomStringConvertible {
    enum Element: Equatable {
        case move(CGPoint)
        case line(CGPoint)
        case quad(CGPoint, CGPoint)
        case cubic(CGPoint, CGPoint, CGPoint)
        case close
    }

    var elements: [Element] = []
    /// Where the last subpath started, for `closeSubpath`.
    var subpathStart: CGPoint?

    init(elements: [Element], subpathStart: CGPoint?) {
        self.elements = elements
        self.subpathStart = subpathStart
    }

    /// A rectangle, optionally transformed.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements, subpathStart: path.subpathStart)
    }

    /// The ellipse inscribed in a rectangle, optionally transformed.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements, subpathStart: path.subpathStart)
    }

    /// A rectangle with elliptical corners, optionally transformed.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements, subpathStart: path.subpathStart)
    }

    public var isEmpty: Bool { elements.isEmpty }

    /// The end of the last element, or `.zero` for an empty path.
    public var currentPoint: CGPoint {
        var point = CGPoint.zero
        for element in elements {
            switch element {
            case let .move(p), let .line(p), let .quad(_, p), let .cubic(_, _, p): point = p
            case .close: point = startOfSubpath(endingBefore: point)
            }
        }
        return point
    }

    private func startOfSubpath(endingBefore point: CGPoint) -> CGPoint {
        var start = point
        for element in elements { if case let .move(p) = element { start = p } }
        return start
    }

    /// The smallest rectangle holding every point, control points included;
    /// `.null` for an empty path.
    public var boundingBox: CGRect {
        CGRect(boundingCorners: elements.flatMap { $0.points })
    }

    /// The smallest rectangle holding the path as drawn (curves at their
    /// extremes, not their control points); `.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var points: [CGPoint] = []
        var current = CGPoint.zero
        for element in elements {
            switch element {
            case let .move(p), let .line(p):
                points.append(p)
            case let .quad(c, p):
                points.append(p)
                for t in quadExtremes(current, c, p) { points.append(quadPoint(current, c, p, t)) }
            case let .cubic(c1, c2, p):
                points.append(p)
                for t in cubicExtremes(current, c1, c2, p) { points.append(cubicPoint(current, c1, c2, p, t)) }
            case .close:
                break
            }
            current = element.points.last ?? current
        }
        return CGRect(boundingCorners: points)
    }

    /// Whether `point` is inside the path under `rule`, open subpaths taken
    /// as closed. False for a non-finite point or path.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        guard point.isFinite else { return false }
        let box = boundingBox.applying(transform)
        guard !box.isNull, box.isFinite else { return false }
        let tolerance = max(box.width, box.height, 1e-9) * 1e-4
        var winding = 0
        for polygon in polygons(transform: transform, tolerance: tolerance) {
            guard var previous = polygon.last else { continue }
            for current in polygon {
                if previous.y <= point.y {
                    if current.y > point.y && cross(previous, current, point) > 0 { winding += 1 }
                } else if current.y <= point.y && cross(previous, current, point) < 0 {
                    winding -= 1
                }
                previous = current
            }
        }
        return rule == .winding ? winding != 0 : winding % 2 != 0
    }

    /// Calls `body` with each element, as Core Graphics' `applyWithBlock`.
    public func applyWithBlock(_ body: (UnsafePointer<CGPathElement>) -> Void) {
        let storage = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { storage.deallocate() }
        for element in elements {
            let points = element.points
            for (i, p) in points.enumerated() { storage[i] = p }
            var e = CGPathElement(type: element.type, points: storage)
            withUnsafePointer(to: &e) { body($0) }
        }
    }

    /// An immutable copy, its points transformed when a transform is given.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let t = transform?.pointee ?? .identity
        return CGPath(elements: elements.map { $0.applying(t) }, subpathStart: subpathStart?.applying(t))
    }

    public func copy() -> CGPath? { copy(using: nil) }

    public func mutableCopy() -> CGMutablePath? { mutableCopy(using: nil) }

    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let t = transform?.pointee ?? .identity
        return CGMutablePath(elements: elements.map { $0.applying(t) }, subpathStart: subpathStart?.applying(t))
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.elements == rhs.elements }

    public var description: String { "CGPath(\(elements.count) elements, box \(boundingBox))" }

    /// The path as closed polygons, curves flattened to within `tolerance`,
    /// after `transform`.
    package func polygons(transform: CGAffineTransform, tolerance: CGFloat, culling box: CGRect? = nil) -> [[CGPoint]] {
        var flattener = Flattener(tolerance: tolerance, cullingBox: box)
        for element in elements { flattener.add(element.applying(transform)) }
        return flattener.finish().map(\.points)
    }
}

/// A path under construction.
public final class CGMutablePath: CGPath {
    public init() { super.init(elements: [], subpathStart: nil) }

    override init(elements: [Element], subpathStart: CGPoint?) {
        super.init(elements: elements, subpathStart: subpathStart)
    }

    /// Starts a subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        elements.append(.move(p))
        subpathStart = p
    }

    /// A straight line from the current point; a path with no current
    /// point starts its subpath there instead.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        guard beginIfNeeded(at: p) else { return }
        elements.append(.line(p))
    }

    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        let p = end.applying(transform)
        guard beginIfNeeded(at: p) else { return }
        elements.append(.quad(control.applying(transform), p))
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        let p = end.applying(transform)
        guard beginIfNeeded(at: p) else { return }
        elements.append(.cubic(control1.applying(transform), control2.applying(transform), p))
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() {
        guard let last = elements.last, last != .close else { return }
        elements.append(.close)
    }

    /// A closed rectangle: from the minimum corner, along x first.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull else { return }
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// The ellipse inscribed in `rect`, four cubic curves starting at the
    /// rightmost point, closed.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull else { return }
        let scale = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: r.midX, ty: r.midY).concatenating(transform)
        move(to: CGPoint(x: 1, y: 0), transform: scale)
        appendArc(center: .zero, radius: 1, start: 0, sweep: 2 * .pi, transform: scale)
        closeSubpath()
    }

    /// A rectangle with elliptical corners of the given radii, each clamped
    /// to half the rectangle's side (Core Graphics requires that of its
    /// callers; clamping is the forgiving reading).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull else { return }
        let rx = min(max(cornerWidth, 0), r.width / 2), ry = min(max(cornerHeight, 0), r.height / 2)
        guard rx > 0, ry > 0 else { addRect(r, transform: transform); return }
        func corner(_ cx: CGFloat, _ cy: CGFloat, _ start: CGFloat) {
            let t = CGAffineTransform(a: rx, b: 0, c: 0, d: ry, tx: cx, ty: cy).concatenating(transform)
            addLine(to: CGPoint(x: cos(start), y: sin(start)), transform: t)
            appendArc(center: .zero, radius: 1, start: start, sweep: .pi / 2, transform: t)
        }
        move(to: CGPoint(x: r.minX + rx, y: r.minY), transform: transform)
        corner(r.maxX - rx, r.minY + ry, -.pi / 2)
        corner(r.maxX - rx, r.maxY - ry, 0)
        corner(r.minX + rx, r.maxY - ry, .pi / 2)
        corner(r.minX + rx, r.minY + ry, .pi)
        closeSubpath()
    }

    /// An arc of a circle from `startAngle` to `endAngle` (radians, from the
    /// x axis towards the y axis), decreasing when `clockwise` (clockwise in
    /// Core Graphics' y-up space). A line joins the current point to the
    /// arc's start. A sweep of 2π or more draws the whole circle.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, endAngle.isFinite else { return }
        let full = 2 * CGFloat.pi
        var sweep = clockwise ? startAngle - endAngle : endAngle - startAngle
        if sweep >= full {
            sweep = full
        } else if sweep < 0 {
            sweep = sweep.truncatingRemainder(dividingBy: full) + full
            if sweep >= full { sweep = 0 }   // a whole number of turns backwards: no arc
        }
        addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: clockwise ? -sweep : sweep, transform: transform)
    }

    /// An arc of `delta` radians from `startAngle`.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat, transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, delta.isFinite, radius.isFinite else { return }
        let delta = min(max(delta, -2 * .pi), 2 * .pi)
        let t = CGAffineTransform(a: radius, b: 0, c: 0, d: radius, tx: center.x, ty: center.y).concatenating(transform)
        let start = CGPoint(x: cos(startAngle), y: sin(startAngle))
        if elements.isEmpty || elements.last == .close { move(to: start, transform: t) } else { addLine(to: start, transform: t) }
        appendArc(center: .zero, radius: 1, start: startAngle, sweep: delta, transform: t)
    }

    /// An arc of `radius` tangent to the line from the current point to
    /// `tangent1End` and to the line from there to `tangent2End`, preceded
    /// by a line to its first tangent point. Collinear points or a zero
    /// radius give a line to `tangent1End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        guard !elements.isEmpty, let inverse = transform.invertedIfPossible() else { move(to: tangent1End, transform: transform); return }
        let p0 = currentPoint.applying(inverse), p1 = tangent1End, p2 = tangent2End
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y), v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let l1 = hypot(v1.x, v1.y), l2 = hypot(v2.x, v2.y)
        let crossProduct = v1.x * v2.y - v1.y * v2.x
        guard radius > 0, l1 > 0, l2 > 0, abs(crossProduct) > 1e-12 * l1 * l2 else { addLine(to: p1, transform: transform); return }
        let angle = acos(max(-1, min(1, (v1.x * v2.x + v1.y * v2.y) / (l1 * l2))))   // between the two legs
        let tangentDistance = radius / tan(angle / 2)
        let start = CGPoint(x: p1.x + v1.x / l1 * tangentDistance, y: p1.y + v1.y / l1 * tangentDistance)
        let centerDistance = radius / sin(angle / 2)
        let bisector = CGPoint(x: v1.x / l1 + v2.x / l2, y: v1.y / l1 + v2.y / l2)
        let bl = hypot(bisector.x, bisector.y)
        let center = CGPoint(x: p1.x + bisector.x / bl * centerDistance, y: p1.y + bisector.y / bl * centerDistance)
        let startAngle = atan2(start.y - center.y, start.x - center.x)
        let sweep = (.pi - angle) * (crossProduct > 0 ? -1 : 1)
        addLine(to: start, transform: transform)
        let t = CGAffineTransform(a: radius, b: 0, c: 0, d: radius, tx: center.x, ty: center.y).concatenating(transform)
        appendArc(center: .zero, radius: 1, start: startAngle, sweep: sweep, transform: t)
    }

    /// Appends `path`'s elements, transformed.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        for element in path.elements {
            let e = element.applying(transform)
            if case let .move(p) = e { subpathStart = p }
            elements.append(e)
        }
    }

    /// Cubic curves along an arc from the current point (which must be the
    /// arc's start), at most a quarter turn each.
    package func appendArc(center: CGPoint, radius: CGFloat, start: CGFloat, sweep: CGFloat, transform: CGAffineTransform) {
        guard sweep != 0 else { return }
        let pieces = Int((abs(sweep) / (.pi / 2)).rounded(.up))
        let step = sweep / CGFloat(pieces)
        let k = 4.0 / 3.0 * tan(step / 4) * radius
        var angle = start
        for _ in 0..<pieces {
            let next = angle + step
            let a = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            let b = CGPoint(x: center.x + radius * cos(next), y: center.y + radius * sin(next))
            let c1 = CGPoint(x: a.x - k * sin(angle), y: a.y + k * cos(angle))
            let c2 = CGPoint(x: b.x + k * sin(next), y: b.y - k * cos(next))
            elements.append(.cubic(c1.applying(transform), c2.applying(transform), b.applying(transform)))
            angle = next
        }
    }

    /// Starts a subpath at `point` when there is no current point, as Core
    /// Graphics does; returns whether the caller should add its element.
    private func beginIfNeeded(at point: CGPoint) -> Bool {
        if elements.isEmpty {
            move(to: point)
            return false
        }
        if elements.last == .close, let start = subpathStart {
            elements.append(.move(start))
        }
        return true
    }
}

extension CGPath.Element {
    var points: [CGPoint] {
        switch self {
        case let .move(p), let .line(p): [p]
        case let .quad(c, p): [c, p]
        case let .cubic(c1, c2, p): [c1, c2, p]
        case .close: []
        }
    }

    var type: CGPathElementType {
        switch self {
        case .move: .moveToPoint
        case .line: .addLineToPoint
        case .quad: .addQuadCurveToPoint
        case .cubic: .addCurveToPoint
        case .close: .closeSubpath
        }
    }

    func applying(_ t: CGAffineTransform) -> CGPath.Element {
        if t.isIdentity { return self }
        switch self {
        case let .move(p): return .move(p.applying(t))
        case let .line(p): return .line(p.applying(t))
        case let .quad(c, p): return .quad(c.applying(t), p.applying(t))
        case let .cubic(c1, c2, p): return .cubic(c1.applying(t), c2.applying(t), p.applying(t))
        case .close: return .close
        }
    }
}

/// Twice the signed area of triangle a, b, p: positive when p is left of a→b (y up).
private func cross(_ a: CGPoint, _ b: CGPoint, _ p: CGPoint) -> CGFloat {
    (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
}

/// The quadratic Bézier curve p0, p1, p2 at parameter t.
package func quadPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> CGPoint {
    let u = 1 - t
    return CGPoint(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
}

/// The cubic Bézier curve p0, p1, p2, p3 at parameter t.
package func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
    let u = 1 - t
    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
    return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
}

/// Parameters in (0, 1) where a quadratic's x or y is at an extreme.
private func quadExtremes(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) -> [CGFloat] {
    var result: [CGFloat] = []
    for (a, b, c) in [(p0.x, p1.x, p2.x), (p0.y, p1.y, p2.y)] {
        let denominator = a - 2 * b + c
        if denominator != 0 {
            let t = (a - b) / denominator
            if t > 0 && t < 1 { result.append(t) }
        }
    }
    return result
}

/// Parameters in (0, 1) where a cubic's x or y is at an extreme.
private func cubicExtremes(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint) -> [CGFloat] {
    var result: [CGFloat] = []
    for (a, b, c, d) in [(p0.x, p1.x, p2.x, p3.x), (p0.y, p1.y, p2.y, p3.y)] {
        // Derivative / 3: qa·t² + qb·t + qc.
        let qa = -a + 3 * b - 3 * c + d, qb = 2 * (a - 2 * b + c), qc = b - a
        if abs(qa) < 1e-12 {
            if qb != 0 { result.append(-qc / qb) }
        } else {
            let discriminant = qb * qb - 4 * qa * qc
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                result.append((-qb + root) / (2 * qa))
                result.append((-qb - root) / (2 * qa))
            }
        }
    }
    return result.filter { $0 > 0 && $0 < 1 }
}
