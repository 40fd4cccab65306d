import CoreGraphics

extension TextLayout {
    /// Draws the lines into `context` with the container's top left at
    /// `origin` (user space, y down). Each style run is drawn in its colour,
    /// or all in `color` when given (a shadow, a highlighted label); with
    /// `clip`, nothing is drawn outside it.
    func draw(in context: CGContext, at origin: CGPoint, color: UIColor? = nil, clip: CGRect? = nil) {
        guard !lines.isEmpty else { return }
        if let clip {
            context.saveGState()
            context.clip(to: clip)
        }
        // A line's glyphs and their positions are gathered in scratch room
        // for the longest line, on the stack for lines of up to about sixty
        // glyphs: drawing a label's text allocates nothing.
        var longest = 0
        for line in lines {
            var count = 0
            for piece in line.pieces { count += piece.count }
            longest = max(longest, count)
        }
        withUnsafeTemporaryAllocation(of: CGPoint.self, capacity: longest) { positions in
            withUnsafeTemporaryAllocation(of: CGGlyph.self, capacity: longest) { lineGlyphs in
                for line in lines {
                    drawRuns(of: line, glyphs: lineGlyphs, positions: positions, in: context, at: origin, color: color)
                }
            }
        }
        if clip != nil { context.restoreGState() }
    }

    /// Draws one line, a run of glyphs of one font and style at a time.
    private func drawRuns(of line: Line, glyphs lineGlyphs: UnsafeMutableBufferPointer<CGGlyph>,
                          positions: UnsafeMutableBufferPointer<CGPoint>, in context: CGContext, at origin: CGPoint, color: UIColor?) {
        let baseline = origin.y + line.baseline
        var pen: CGFloat = 0
        var count = 0
        var runStart = 0
        var runKey: UInt32 = 0
        for piece in line.pieces {
            for i in piece {
                let key = UInt32(glyphs.fontIndices[i]) << 16 | UInt32(glyphs.styles[i])
                if key != runKey {
                    drawRun(key: runKey, lineGlyphs, positions, runStart..<count, in: context, color: color)
                    runStart = count
                    runKey = key
                }
                lineGlyphs[count] = glyphs.glyphs[i]
                positions[count] = CGPoint(x: origin.x + line.x + pen, y: baseline)
                count += 1
                pen += advance(i, at: pen)
                if glyphs.kinds[i] == .space { pen += line.extraPerSpace }
            }
        }
        drawRun(key: runKey, lineGlyphs, positions, runStart..<count, in: context, color: color)
    }

    /// Draws the glyphs gathered in `range`, whose font and style `key` gives.
    private func drawRun(key: UInt32, _ lineGlyphs: UnsafeMutableBufferPointer<CGGlyph>, _ positions: UnsafeMutableBufferPointer<CGPoint>,
                         _ range: Range<Int>, in context: CGContext, color: UIColor?) {
        guard !range.isEmpty else { return }
        let font = glyphs.fonts[Int(key >> 16)]
        let runColor = color ?? styles[Int(key & 0xFFFF)].color
        context.drawGlyphs(UnsafeBufferPointer(rebasing: lineGlyphs[range]), at: UnsafeBufferPointer(rebasing: positions[range]),
                           face: font.face, pointSize: font.pointSize, color: runColor.cgColor)
    }
}

extension StringProtocol {
    /// Draws the string with its first line's top left at `point`, one line
    /// per paragraph, into the current context.
    public func draw(at point: CGPoint, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        TextLayout(String(self), style: TextLayout.Style(attributes), container: TextContainer())
            .draw(in: context, at: point)
    }

    /// Draws the string in lines within `rect`, from its top; lines that do
    /// not fit in its height are not drawn.
    public func draw(in rect: CGRect, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        TextLayout(String(self), style: TextLayout.Style(attributes), container: TextLayout.container(rect))
            .draw(in: context, at: rect.origin)
    }

    /// Draws the string laid out as `boundingRect(with:options:attributes:context:)` measures it.
    public func draw(with rect: CGRect, options: NSStringDrawingOptions = [],
                     attributes: [NSAttributedString.Key: Any]? = nil, context: NSStringDrawingContext?) {
        NSAttributedString(string: String(self), attributes: attributes).draw(with: rect, options: options, context: context)
    }
}

extension NSString {
    public func draw(at point: CGPoint, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        (self as String).draw(at: point, withAttributes: attributes)
    }

    public func draw(in rect: CGRect, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        (self as String).draw(in: rect, withAttributes: attributes)
    }
}

extension NSAttributedString {
    /// Draws the text with its first line's top left at `point`, one line per paragraph.
    public func draw(at point: CGPoint) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        TextLayout(self, container: TextContainer()).draw(in: context, at: point)
    }

    /// Draws the text in lines within `rect`, from its top.
    public func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        TextLayout(self, container: TextLayout.container(rect)).draw(in: context, at: rect.origin)
    }

    /// Draws the text laid out as `boundingRect(with:options:context:)`
    /// measures it: in lines from `rect`'s top left with
    /// `.usesLineFragmentOrigin`, else on one line whose baseline starts at
    /// `rect`'s origin.
    public func draw(with rect: CGRect, options: NSStringDrawingOptions = [], context: NSStringDrawingContext?) {
        let layout = TextLayout(self, container: TextLayout.container(size: rect.size, options: options))
        _ = layout.boundingRect(options: options, context: context)
        guard let graphics = UIGraphicsGetCurrentContext() else { return }
        if options.contains(.usesLineFragmentOrigin) {
            layout.draw(in: graphics, at: rect.origin)
        } else {
            layout.draw(in: graphics, at: CGPoint(x: rect.minX, y: rect.minY - (layout.lines.first?.baseline ?? 0)))
        }
    }
}

extension TextLayout {
    /// The container of `draw(in:)`: the rectangle's width and height.
    static func container(_ rect: CGRect) -> TextContainer {
        var container = TextContainer()
        let size = rect.standardized.size
        container.width = size.width.isFinite ? max(0, size.width) : .infinity
        container.height = size.height.isFinite ? max(0, size.height) : .infinity
        return container
    }
}
