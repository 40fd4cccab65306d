/// The corners of a rectangle, for rounding some of them.
public struct UIRectCorner: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// A path with its line style, drawn into the current context, in UIKit's
/// coordinates (y down: a clockwise arc turns clockwise on screen).
///
/// It is an `NSObject`, as in UIKit: equal only to itself.
open class UIBezierPath: NSObject {
    private var path = CGMutablePath()

    open var lineWidth: CGFloat = 1
    open var lineCapStyle: CGLineCap = .butt
    open var lineJoinStyle: CGLineJoin = .miter
    open var miterLimit: CGFloat = 10
    open var flatness: CGFloat = 0.6
    open var usesEvenOddFillRule = false
    private var dashPattern: [CGFloat] = []
    private var dashPhase: CGFloat = 0

    public override init() {
        super.init()
    }

    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A rectangle with every corner rounded by `cornerRadius`, clamped to
    /// half the shorter side. (UIKit's corners are a continuous curve that
    /// differs from a circular arc by a fraction of a point.)
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init(roundedRect: rect, byRoundingCorners: .allCorners, cornerRadii: CGSize(width: cornerRadius, height: cornerRadius))
    }

    /// A rectangle with some corners rounded by elliptical arcs of `cornerRadii`.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        let r = rect.standardized
        guard !r.isNull else { return }
        let rx = min(max(cornerRadii.width, 0), r.width / 2), ry = min(max(cornerRadii.height, 0), r.height / 2)
        func corner(_ c: UIRectCorner, at p: CGPoint, center: CGPoint, start: CGFloat) {
            if corners.contains(c), rx > 0, ry > 0 {
                let t = CGAffineTransform(a: rx, b: 0, c: 0, d: ry, tx: center.x, ty: center.y)
                path.addLine(to: CGPoint(x: cos(start), y: sin(start)), transform: t)
                path.appendArc(center: .zero, radius: 1, start: start, sweep: .pi / 2, transform: t)
            } else {
                path.addLine(to: p)
            }
        }
        path.move(to: CGPoint(x: r.minX + (corners.contains(.topLeft) ? rx : 0), y: r.minY))
        corner(.topRight, at: CGPoint(x: r.maxX, y: r.minY), center: CGPoint(x: r.maxX - rx, y: r.minY + ry), start: -.pi / 2)
        corner(.bottomRight, at: CGPoint(x: r.maxX, y: r.maxY), center: CGPoint(x: r.maxX - rx, y: r.maxY - ry), start: 0)
        corner(.bottomLeft, at: CGPoint(x: r.minX, y: r.maxY), center: CGPoint(x: r.minX + rx, y: r.maxY - ry), start: .pi / 2)
        corner(.topLeft, at: CGPoint(x: r.minX, y: r.minY), center: CGPoint(x: r.minX + rx, y: r.minY + ry), start: .pi)
        path.closeSubpath()
    }

    /// An arc; `clockwise` as seen on screen (angles increase clockwise in
    /// UIKit's y-down space).
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    public convenience init(cgPath: CGPath) {
        self.init()
        path = cgPath.mutableCopy() ?? CGMutablePath()
    }

    /// The path itself (a copy).
    open var cgPath: CGPath {
        get { path.copy() ?? CGMutablePath() }
        set { path = newValue.mutableCopy() ?? CGMutablePath() }
    }

    open var isEmpty: Bool { path.isEmpty }
    /// The smallest rectangle holding every point, control points included.
    open var bounds: CGRect { path.boundingBox }
    open var currentPoint: CGPoint { path.currentPoint }

    open func move(to point: CGPoint) { path.move(to: point) }
    open func addLine(to point: CGPoint) { path.addLine(to: point) }

    open func addCurve(to end: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: end, control1: controlPoint1, control2: controlPoint2)
    }

    open func addQuadCurve(to end: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: end, control: controlPoint)
    }

    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        // Core Graphics' clockwise is in y-up space: the opposite on screen.
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }

    open func close() { path.closeSubpath() }
    open func removeAllPoints() { path = CGMutablePath() }
    open func append(_ other: UIBezierPath) { path.addPath(other.path) }

    /// Transforms every point of the path.
    open func apply(_ transform: CGAffineTransform) {
        var t = transform
        path = path.mutableCopy(using: &t) ?? path
    }

    /// Whether `point` is inside, under the path's fill rule.
    open func contains(_ point: CGPoint) -> Bool {
        path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    /// Dashes: `count` lengths from `pattern`, starting `phase` into it.
    open func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        dashPattern = pattern.map { Array(UnsafeBufferPointer(start: $0, count: max(count, 0))) } ?? []
        dashPhase = phase
    }

    /// Fills the path with the current context's fill colour.
    open func fill() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.beginPath()
        context.addPath(path)
        context.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding)
        context.restoreGState()
    }

    open func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        fill()
        context.restoreGState()
    }

    /// Strokes the path with its line style and the context's stroke colour.
    open func stroke() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setLineWidth(lineWidth)
        context.setLineCap(lineCapStyle)
        context.setLineJoin(lineJoinStyle)
        context.setMiterLimit(miterLimit)
        context.setLineDash(phase: dashPhase, lengths: dashPattern)
        context.beginPath()
        context.addPath(path)
        context.strokePath()
        context.restoreGState()
    }

    open func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        stroke()
        context.restoreGState()
    }

    /// Narrows the current context's clip to the path's inside.
    open func addClip() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.beginPath()
        context.addPath(path)
        context.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
}
