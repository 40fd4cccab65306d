import Foundation

/// A shape layer's drawing as committed: the path to fill and the path to
/// stroke (cut to `strokeStart`…`strokeEnd` once, at the commit), and how.
/// The compositor draws it with Core Graphics' rasterizer straight into the
/// frame, through the layer's transform to the device, so it is as sharp
/// as the frame's resolution.
struct ShapeLayerStyle {
    let fillPath: CGPath?
    let fill: CGColor?
    let fillRule: CGPathFillRule
    let strokePath: CGPath?
    let stroke: CGColor?
    let lineWidth: CGFloat
    let miterLimit: CGFloat
    let lineCap: CGLineCap
    let lineJoin: CGLineJoin
    let dashPhase: CGFloat
    let dashLengths: [CGFloat]
    /// What the fill and the stroke may touch, in the layer's coordinates.
    let extent: CGRect

    /// How many things it draws over each other: the fill, the stroke.
    var partCount: Int { (fill != nil ? 1 : 0) + (stroke != nil ? 1 : 0) }

    /// Nil when the layer draws no shape: not a shape layer, no path, or
    /// neither a fill nor a stroke to draw. `values` are the animatable
    /// ones as shown (the model's, or the presentation's while they animate).
    @MainActor init?(of layer: CALayer, values: ShapeValues?) {
        guard let shape = layer as? CAShapeLayer, let values, let path = shape.path, !path.isEmpty else { return nil }
        let fills = values.fillColor.map { $0.alpha > 0 } ?? false
        let strokes = (values.strokeColor.map { $0.alpha > 0 } ?? false) && values.lineWidth > 0 && values.strokeEnd > values.strokeStart
        guard fills || strokes else { return nil }
        fillPath = fills ? path : nil
        fill = fills ? values.fillColor : nil
        fillRule = shape.fillRule == .evenOdd ? .evenOdd : .winding
        let wholeStroke = values.strokeStart <= 0 && values.strokeEnd >= 1
        strokePath = strokes ? (wholeStroke ? path : path.trimmed(from: values.strokeStart, to: values.strokeEnd)) : nil
        stroke = strokes ? values.strokeColor : nil
        lineWidth = values.lineWidth
        miterLimit = values.miterLimit
        switch shape.lineCap {
        case .round: lineCap = .round
        case .square: lineCap = .square
        default: lineCap = .butt
        }
        switch shape.lineJoin {
        case .round: lineJoin = .round
        case .bevel: lineJoin = .bevel
        default: lineJoin = .miter
        }
        dashPhase = values.lineDashPhase
        dashLengths = (shape.lineDashPattern ?? []).map { CGFloat($0.doubleValue) }
        var extent = path.boundingBoxOfPath
        if strokes {
            // Half the width on each side, times the longest a miter may reach.
            let reach = values.lineWidth / 2 * (lineJoin == .miter ? max(1, values.miterLimit) : 1.5)
            extent = extent.insetBy(dx: -reach, dy: -reach)
        }
        self.extent = extent
    }

    /// Draws the fill, then the stroke, into `surface` within `clip`, the
    /// layer's coordinates mapped to the surface's pixels by `toDevice`, at
    /// `alpha`. The context covers `area`, which must not depend on `clip`:
    /// the shape's edges are worked out for the context's bitmap, so the
    /// pixels inside `clip` are the same whatever part of `area` is redrawn.
    func draw(into surface: PixelSurface, area: PixelRect, clip: PixelRect, toDevice: CGAffineTransform, alpha: Float) {
        let clip = clip.intersection(area)
        guard !clip.isEmpty,
              let context = CGContext(
                data: UnsafeMutableRawPointer(surface.row(area.y0) + area.x0), width: area.width, height: area.height,
                bitsPerComponent: 8, bytesPerRow: surface.stride * 4, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return }
        context.clip(toPixels: PixelRect(x0: clip.x0 - area.x0, y0: clip.y0 - area.y0, x1: clip.x1 - area.x0, y1: clip.y1 - area.y0))
        // From the layer's coordinates to the pixels of the area, y down.
        context.translateBy(x: 0, y: CGFloat(area.height))
        context.scaleBy(x: 1, y: -1)
        context.translateBy(x: -CGFloat(area.x0), y: -CGFloat(area.y0))
        context.concatenate(toDevice)
        context.setAlpha(CGFloat(alpha))
        if let fillPath, let fill {
            context.addPath(fillPath)
            context.setFillColor(fill)
            context.fillPath(using: fillRule)
        }
        if let strokePath, let stroke {
            context.addPath(strokePath)
            context.setStrokeColor(stroke)
            context.setLineWidth(lineWidth)
            context.setMiterLimit(miterLimit)
            context.setLineCap(lineCap)
            context.setLineJoin(lineJoin)
            if !dashLengths.isEmpty { context.setLineDash(phase: dashPhase, lengths: dashLengths) }
            context.strokePath()
        }
    }
}

extension Compositor {
    /// Draws `shape` as `ShapeLayerStyle.draw` does, in a context covering
    /// the shape's pixels in the surface (`area`) whatever the clip, so that
    /// a shape redrawn in part of a damaged frame gets the very pixels it
    /// gets in a full frame. A bitmap context addresses its rows from the
    /// first one's pointer, so where the frame's ring of rows wraps inside
    /// the area (PixelSurface) the shape is drawn in a buffer holding the
    /// area's rows in order, the clip's pixels copied in and put back.
    func drawShape(_ shape: ShapeLayerStyle, into surface: PixelSurface, area: PixelRect, clip: PixelRect, toDevice: CGAffineTransform, alpha: Float) {
        let area = area.intersection(surface.extent)
        let clip = clip.intersection(area)
        guard !clip.isEmpty else { return }
        guard surface.wraps(inside: area) else {
            return shape.draw(into: surface, area: area, clip: clip, toDevice: toDevice, alpha: alpha)
        }
        let (buffer, storage) = scratch.surface(covering: area, overwritten: clip)
        defer { scratch.recycle(storage) }
        _ = buffer.copy(clip, from: surface, dx: 0, dy: 0)
        shape.draw(into: buffer, area: area, clip: clip, toDevice: toDevice, alpha: alpha)
        _ = surface.copy(clip, from: buffer, dx: 0, dy: 0)
    }
}
