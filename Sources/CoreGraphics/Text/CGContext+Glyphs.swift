import CFreeType

extension CGContext {
    /// Draws `glyphs` of `face` at `pointSize`, each with its origin (on the
    /// baseline) at the matching user-space point of `positions`, in `color`
    /// with the context's alpha, blend mode and clip. Glyphs stand upright
    /// with y going down the bitmap, as UIKit draws text.
    ///
    /// When the current transform only scales (uniformly) and translates,
    /// each glyph comes from the face's cache of rasterized glyphs at the
    /// device size and is composited through its coverage mask; otherwise
    /// (rotated, skewed or stretched text) its outline is filled as a path.
    package func drawGlyphs(_ glyphs: ArraySlice<CGGlyph>, at positions: ArraySlice<CGPoint>, face: FontFace,
                            pointSize: CGFloat, color: CGColor) {
        glyphs.withUnsafeBufferPointer { glyphs in
            positions.withUnsafeBufferPointer { positions in
                drawGlyphs(glyphs, at: positions, face: face, pointSize: pointSize, color: color)
            }
        }
    }

    /// The same, from memory the caller keeps (text drawing gathers a line's
    /// glyphs on the stack).
    package func drawGlyphs(_ glyphs: UnsafeBufferPointer<CGGlyph>, at positions: UnsafeBufferPointer<CGPoint>, face: FontFace,
                            pointSize: CGFloat, color: CGColor) {
        let paint = PremultipliedColor(color, alpha: state.alpha)
        guard paint.alpha > 0 || state.blendMode == .copy, pointSize > 0 else { return }
        let transform = deviceTransform
        // One sink for all the context's text, set up again for each run: a
        // label's runs then allocate nothing once its context has drawn text.
        let sink: PaintSink
        if let glyphSink {
            glyphSink.configure(buffer: pixels, clip: state.clip, paint: .solid(paint), blendMode: state.blendMode, antialias: true)
            sink = glyphSink
        } else {
            sink = PaintSink(buffer: pixels, clip: state.clip, paint: .solid(paint), blendMode: state.blendMode, antialias: true)
            glyphSink = sink
        }
        let scale = abs(transform.d)
        if transform.b == 0, transform.c == 0, abs(abs(transform.a) - scale) <= scale * 1e-6 {
            drawCachedGlyphs(glyphs, at: positions, face: face, pixelsPerEm: Float(pointSize * scale), transform: transform, into: sink)
        } else {
            fillGlyphOutlines(glyphs, at: positions, face: face, pointSize: pointSize, transform: transform, into: sink)
        }
    }

    /// Device coordinates beyond this are off any bitmap; glyphs there are skipped.
    private static let farOff: CGFloat = 16_777_216

    private func drawCachedGlyphs(_ glyphs: UnsafeBufferPointer<CGGlyph>, at positions: UnsafeBufferPointer<CGPoint>, face: FontFace,
                                  pixelsPerEm: Float, transform: CGAffineTransform, into sink: PaintSink) {
        let clip = state.clip.bounds
        guard !clip.isEmpty else { return }
        let subpixels = GlyphRasterization.subpixelPositions
        face.withFace { state in
            for (glyph, position) in zip(glyphs, positions) where glyph != ShapedText.invisibleGlyph {
                let device = position.applying(transform)
                guard abs(device.x) < Self.farOff, abs(device.y) < Self.farOff else { continue }
                let whole = device.x.rounded(.down)
                var x = Int(whole)
                var subpixel = Int(((device.x - whole) * CGFloat(subpixels)).rounded())
                if subpixel == subpixels { subpixel = 0; x += 1 }
                guard let image = state.image(of: glyph, pixelsPerEm: pixelsPerEm, subpixel: subpixel) else { continue }
                let left = x + image.left, top = Int(device.y.rounded()) - image.top
                let area = clip.intersection(PixelRect(x0: left, y0: top, x1: left + image.width, y1: top + image.height))
                guard !area.isEmpty else { continue }
                image.coverage.withUnsafeBufferPointer { coverage in
                    for row in area.y0..<area.y1 {
                        sink.span(y: row, x: area.x0, length: area.width,
                                  coverages: coverage.baseAddress! + (row - top) * image.width + (area.x0 - left))
                    }
                }
            }
        }
    }

    private func fillGlyphOutlines(_ glyphs: UnsafeBufferPointer<CGGlyph>, at positions: UnsafeBufferPointer<CGPoint>, face: FontFace,
                                   pointSize: CGFloat, transform: CGAffineTransform, into sink: PaintSink) {
        let clip = state.clip.bounds
        guard !clip.isEmpty else { return }
        let unitsToPoints = pointSize / CGFloat(face.unitsPerEm)
        // Curves are cut into segments no longer than about a device pixel.
        let deviceScale = max(abs(transform.a) + abs(transform.c), abs(transform.b) + abs(transform.d))
        let tolerance = 1 / max(unitsToPoints * deviceScale, 1e-9)
        for (glyph, position) in zip(glyphs, positions) where glyph != ShapedText.invisibleGlyph {
            guard position.isFinite else { continue }
            let contours = face.withFace { $0.outlineContours(of: glyph, tolerance: tolerance) }
            // One outline per glyph: a glyph's contours are well within what one outline holds.
            var outline = DeviceOutline(clippingTo: clip)
            for contour in contours {
                // Design units, y up, to user space with y down from the pen position.
                _ = outline.addPolygon(contour.map {
                    CGPoint(x: position.x + $0.x * unitsToPoints, y: position.y - $0.y * unitsToPoints).applying(transform)
                })
            }
            if !outline.isEmpty { outline.render(fillRule: .winding, clip: clip, into: sink) }
        }
    }
}

extension FaceState {
    /// The outline of `glyph` in design units (y up) as closed polygons,
    /// its curves flattened to within `tolerance` design units.
    package mutating func outlineContours(of glyph: CGGlyph, tolerance: CGFloat) -> [[CGPoint]] {
        guard let outline = unscaledOutline(of: glyph) else { return [] }
        var contours: [[CGPoint]] = []
        var start = 0
        for c in 0..<Int(outline.n_contours) {
            let end = Int(outline.contours[c])
            guard end >= start, end < Int(outline.n_points) else { break }
            var points: [(CGPoint, UInt8)] = []
            for i in start...end {
                let p = outline.points[i]
                points.append((CGPoint(x: CGFloat(p.x), y: CGFloat(p.y)), UInt8(bitPattern: outline.tags[i]) & 3))
            }
            contours.append(Self.flatten(points, tolerance: tolerance))
            start = end + 1
        }
        return contours
    }

    /// One closed contour of TrueType (conic) or CFF (cubic) outline points,
    /// as a polygon.
    private static func flatten(_ points: [(point: CGPoint, tag: UInt8)], tolerance: CGFloat) -> [CGPoint] {
        let onCurve: UInt8 = 1, cubic: UInt8 = 2
        guard let firstOn = points.firstIndex(where: { $0.tag & onCurve != 0 }) else {
            // Only off-curve conic points: the contour starts midway between the first two.
            guard points.count >= 2 else { return points.map(\.point) }
            let start = midpoint(points[0].point, points[1].point)
            return flatten([(start, onCurve)] + points.dropFirst().map { $0 } + [points[0]], tolerance: tolerance)
        }
        let ordered = Array(points[firstOn...] + points[..<firstOn]) + [points[firstOn]]
        var polygon = [ordered[0].point]
        var i = 1
        while i < ordered.count {
            let (p, tag) = ordered[i]
            if tag & onCurve != 0 {
                polygon.append(p)
                i += 1
            } else if tag & cubic != 0, i + 2 < ordered.count {
                let from = polygon.last!, end = ordered[i + 2].point
                appendCubic(from, p, ordered[i + 1].point, end, tolerance: tolerance, to: &polygon)
                i += 3
            } else {
                let from = polygon.last!
                let next = ordered[min(i + 1, ordered.count - 1)]
                let end = next.tag & onCurve != 0 ? next.point : midpoint(p, next.point)
                appendQuadratic(from, p, end, tolerance: tolerance, to: &polygon)
                i += next.tag & onCurve != 0 ? 2 : 1
            }
        }
        return polygon
    }

    private static func midpoint(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
        CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }

    private static func segments(_ deviation: CGFloat, tolerance: CGFloat) -> Int {
        min(64, max(1, Int((deviation / tolerance).squareRoot().rounded(.up))))
    }

    private static func appendQuadratic(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, tolerance: CGFloat, to polygon: inout [CGPoint]) {
        let deviation = hypot(a.x - 2 * b.x + c.x, a.y - 2 * b.y + c.y) / 4
        let n = segments(deviation, tolerance: tolerance)
        for k in 1...n {
            let t = CGFloat(k) / CGFloat(n), u = 1 - t
            polygon.append(CGPoint(x: u * u * a.x + 2 * u * t * b.x + t * t * c.x, y: u * u * a.y + 2 * u * t * b.y + t * t * c.y))
        }
    }

    private static func appendCubic(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint, tolerance: CGFloat,
                                    to polygon: inout [CGPoint]) {
        let deviation = max(hypot(a.x - 2 * b.x + c.x, a.y - 2 * b.y + c.y), hypot(b.x - 2 * c.x + d.x, b.y - 2 * c.y + d.y)) * 0.75
        let n = segments(deviation, tolerance: tolerance)
        for k in 1...n {
            let t = CGFloat(k) / CGFloat(n), u = 1 - t
            let x = u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * c.x + t * t * t * d.x
            let y = u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * c.y + t * t * t * d.y
            polygon.append(CGPoint(x: x, y: y))
        }
    }
}
