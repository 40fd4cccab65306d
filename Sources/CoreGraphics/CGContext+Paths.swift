// The current path and what is drawn with it: fills, strokes and clips.

extension CGContext {
    // MARK: Building the current path

    /// Empties the current path.
    public func beginPath() { devicePath = CGMutablePath() }

    public func move(to point: CGPoint) { devicePath.move(to: point, transform: deviceTransform) }

    public func addLine(to point: CGPoint) { devicePath.addLine(to: point, transform: deviceTransform) }

    public func addLines(between points: [CGPoint]) { devicePath.addLines(between: points, transform: deviceTransform) }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        devicePath.addCurve(to: end, control1: control1, control2: control2, transform: deviceTransform)
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        devicePath.addQuadCurve(to: end, control: control, transform: deviceTransform)
    }

    /// An arc as `CGMutablePath.addArc(center:…)` adds it, in user space.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        devicePath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise, transform: deviceTransform)
    }

    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        devicePath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: deviceTransform)
    }

    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat) {
        devicePath.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta, transform: deviceTransform)
    }

    public func addRect(_ rect: CGRect) { devicePath.addRect(rect, transform: deviceTransform) }

    public func addRects(_ rects: [CGRect]) { devicePath.addRects(rects, transform: deviceTransform) }

    public func addEllipse(in rect: CGRect) { devicePath.addEllipse(in: rect, transform: deviceTransform) }

    /// Adds `path` (in user space) to the current path.
    public func addPath(_ path: CGPath) { devicePath.addPath(path, transform: deviceTransform) }

    public func closePath() { devicePath.closeSubpath() }

    public var isPathEmpty: Bool { devicePath.isEmpty }

    /// The current point in user space.
    public var currentPointOfPath: CGPoint {
        devicePath.currentPoint.applying(deviceTransform.inverted())
    }

    /// The bounding box of the current path in user space.
    public var boundingBoxOfPath: CGRect {
        path?.boundingBox ?? .null
    }

    /// The current path in user space, or nil when it is empty.
    public var path: CGPath? {
        guard !devicePath.isEmpty else { return nil }
        var inverse = deviceTransform.inverted()
        return devicePath.copy(using: &inverse)
    }

    // MARK: Line style

    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = limit }

    /// Dashes: `lengths` alternate painted and unpainted stretches (user
    /// space), starting `phase` into the pattern; empty lengths draw solid
    /// lines. A pattern with a negative or non-finite length, or summing to
    /// zero, is taken as solid.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.lineDashPhase = phase
        state.lineDashLengths = lengths
    }

    /// Accepted for compatibility; curves are always flattened to within a
    /// twentieth of a device pixel.
    public func setFlatness(_ flatness: CGFloat) { state.flatness = flatness }

    // MARK: Drawing the current path

    /// Fills the current path's inside under `rule`, then empties the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        paintFill(of: devicePath, rule: rule)
        beginPath()
    }

    /// Strokes the current path with the line style and stroke colour, then
    /// empties the path.
    public func strokePath() {
        paintStroke(of: devicePath)
        beginPath()
    }

    /// Fills and/or strokes the current path (the fill first), then empties it.
    public func drawPath(using mode: CGPathDrawingMode) {
        switch mode {
        case .fill: paintFill(of: devicePath, rule: .winding)
        case .eoFill: paintFill(of: devicePath, rule: .evenOdd)
        case .stroke: paintStroke(of: devicePath)
        case .fillStroke: paintFill(of: devicePath, rule: .winding); paintStroke(of: devicePath)
        case .eoFillStroke: paintFill(of: devicePath, rule: .evenOdd); paintStroke(of: devicePath)
        }
        beginPath()
    }

    public func fillEllipse(in rect: CGRect) {
        beginPath(); addEllipse(in: rect); fillPath()
    }

    public func strokeEllipse(in rect: CGRect) {
        beginPath(); addEllipse(in: rect); strokePath()
    }

    public func stroke(_ rect: CGRect) {
        beginPath(); addRect(rect); strokePath()
    }

    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState(); setLineWidth(width); stroke(rect); restoreGState()
    }

    /// Strokes separate segments: points 0–1, 2–3, …
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        var i = 0
        while i + 1 < points.count {
            move(to: points[i]); addLine(to: points[i + 1])
            i += 2
        }
        strokePath()
    }

    /// Narrows the clip to the inside of the current path under `rule`,
    /// then empties the path. An empty path clips everything away.
    public func clip(using rule: CGPathFillRule = .winding) {
        var outline = DeviceOutline(clippingTo: state.clip.bounds)
        for polygon in devicePolygons(of: devicePath) where !outline.addPolygon(polygon) { break }
        state.clip = state.clip.intersecting(&outline, fillRule: rule, antialias: antialias)
        beginPath()
    }

    /// Replaces the current path with the outline of its stroke, as it
    /// would be drawn now.
    public func replacePathWithStrokedPath() {
        let stroked = CGMutablePath()
        for polygon in strokeStyle.stroke(devicePath) { stroked.addLines(between: polygon); stroked.closeSubpath() }
        devicePath = stroked
    }

    // MARK: Rendering

    private var strokeStyle: PathStroker {
        PathStroker(
            style: StrokeStyle(width: state.lineWidth, cap: state.lineCap, join: state.lineJoin, miterLimit: state.miterLimit,
                               dashPhase: state.lineDashPhase, dashLengths: state.lineDashLengths),
            linear: deviceTransform, visible: pixels.bounds
        )
    }

    /// The path's subpaths as closed polygons in memory coordinates,
    /// flattened finely enough for anti-aliasing.
    ///
    /// Paths are flattened, stroked and cut for the whole bitmap, never
    /// for the clip: cutting them for the clip moves edges inside it by
    /// FreeType's rounding, so a shape drawn through a small clip would get
    /// other edge pixels than the same shape drawn whole (a compositor's
    /// damaged frame must equal its full frame). Only the rasterizer's spans
    /// are confined to the clip, which leaves every pixel's coverage as is.
    private func devicePolygons(of path: CGPath) -> [[CGPoint]] {
        let b = pixels.bounds
        let box = CGRect(x: b.x0 - 2, y: b.y0 - 2, width: b.width + 4, height: b.height + 4)
        return path.polygons(transform: .identity, tolerance: Self.flatteningTolerance, culling: box)
    }

    /// How far flattened curves may stray from the true curve, in device
    /// pixels: small enough that anti-aliased edges show no facets.
    static let flatteningTolerance: CGFloat = 0.05

    func paintFill(of path: CGPath, rule: CGPathFillRule) {
        let paint = Paint.solid(PremultipliedColor(state.fillColor, alpha: state.alpha))
        render(devicePolygons(of: path), rule: rule, paint: paint)
    }

    func paintStroke(of path: CGPath) {
        render(strokeStyle.stroke(path), rule: .winding, paint: .solid(PremultipliedColor(state.strokeColor, alpha: state.alpha)))
    }

    /// Rasterizes polygons and paints them, in as few FreeType outlines as
    /// their point counts allow (one, below 32,767 points).
    func render(_ polygons: [[CGPoint]], rule: CGPathFillRule, paint: Paint) {
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: paint, blendMode: state.blendMode, antialias: antialias)
        var outline = DeviceOutline(clippingTo: pixels.bounds)
        for polygon in polygons where !outline.addPolygon(polygon) {
            outline.render(fillRule: rule, clip: state.clip.bounds, into: sink)
            outline.removeAll()
            outline.addPolygon(polygon)
        }
        outline.render(fillRule: rule, clip: state.clip.bounds, into: sink)
    }
}
