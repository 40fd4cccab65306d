import CoreGraphics
import Foundation

/// Text broken into lines and placed: the layout step of string drawing
/// and of `UILabel`, separate from drawing so that its result (which text
/// is on which line, where) can be checked on its own.
///
/// Paragraphs end at line and paragraph separators. Within a paragraph,
/// lines break after spaces and hyphens (``TextContainer/wrapping``
/// `.word`), a word wider than the line breaking between characters, or at
/// any character (`.char`); spaces at the end of a line hang past its edge
/// and are not counted in its width. When the container's line count or
/// height runs out, its last line shows the rest of its paragraph according
/// to ``TextContainer/lastLineMode``: clipped, or truncated at the head, in
/// the middle or at the tail with "…".
struct TextLayout {
    /// The attributes of one style run.
    struct Style {
        var font: UIFont
        var color: UIColor
        var kern: CGFloat?
        var paragraph: NSParagraphStyle
    }

    /// One line: pieces of ``glyphs`` (text, and an ellipsis when truncated).
    struct Line {
        var pieces: LinePieces
        /// The left edge of the first glyph, from the container's left.
        var x: CGFloat
        /// The paragraph's head indent for this line (``x`` less the alignment's offset).
        var indent: CGFloat
        /// The line's top, from the container's top.
        var top: CGFloat
        /// The baseline, from the container's top.
        var baseline: CGFloat
        var height: CGFloat
        /// The width of its glyphs, not counting spaces at its end.
        var width: CGFloat
        /// Extra advance given to each space when the line is justified.
        var extraPerSpace: CGFloat = 0
        var isTruncated = false
    }

    let string: String
    private(set) var glyphs: ShapedText
    private(set) var styles: [Style]
    private(set) var lines: [Line]
    /// The size the lines take: the widest line, the lines' heights and spacing.
    private(set) var size: CGSize = .zero
    /// Whether some text did not fit: lines dropped or truncated.
    private(set) var isTruncated = false
    /// The number of glyphs that come from the text (ellipses come after).
    private var textGlyphCount: Int
    /// Whether lines were broken only at paragraph ends: laid out in an
    /// unbounded width, nothing dropped or truncated.
    private var isUnconstrained = false

    /// Lays out `string`, whose style runs are `runs` (UTF-16 ranges into it, in order, covering it).
    init(string: String, runs: [(range: Range<Int>, style: Style)], container: TextContainer) {
        var spare: TextLayout?
        self.init(string: string, runs: runs, container: container, reusing: &spare)
    }

    /// Lays out `string` like the other initialiser, in the memory of
    /// `spare`, a layout no longer wanted, which is taken (left nil): its
    /// glyph, style and line lists are emptied and filled again, so that
    /// laying out a reused cell's new text allocates nothing once its lists
    /// are large enough. (Lists another copy still holds are copied, as
    /// ever with Swift's arrays, so a layout still in use is never touched.)
    init(string: String, runs: [(range: Range<Int>, style: Style)], container: TextContainer, reusing spare: inout TextLayout?) {
        self.init(string: string, reusing: &spare)
        for (range, style) in runs { appendRun(range, style: style) }
        finish(in: container)
    }

    /// Lays out `string` in one style, in the memory of `spare` (see the other initialiser).
    init(string: String, style: Style, container: TextContainer, reusing spare: inout TextLayout?) {
        self.init(string: string, reusing: &spare)
        appendRun(0..<string.utf16.count, style: style)
        finish(in: container)
    }

    /// No glyphs, styles or lines yet, in `spare`'s lists if there is one.
    /// The lists are swapped out of it, not copied, so that nothing else
    /// holds them while they are filled again.
    private init(string: String, reusing spare: inout TextLayout?) {
        self.string = string
        glyphs = ShapedText()
        styles = []
        lines = []
        textGlyphCount = 0
        if spare != nil {
            swap(&glyphs, &spare!.glyphs)
            swap(&styles, &spare!.styles)
            swap(&lines, &spare!.lines)
            spare = nil
        }
        glyphs.removeAll(keepingCapacity: true)
        styles.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        // One glyph per UTF-16 unit at most, and an ellipsis or two.
        glyphs.reserveCapacity(string.utf16.count + 2)
    }

    /// Shapes the UTF-16 range `range` of the string in `style`.
    private mutating func appendRun(_ range: Range<Int>, style: Style) {
        styles.append(style)
        let scalars = string.unicodeScalars
        let lower = String.Index(utf16Offset: range.lowerBound, in: string)
        let upper = String.Index(utf16Offset: range.upperBound, in: string)
        glyphs.append(scalars[lower..<upper], utf16Offset: range.lowerBound, face: style.font.face,
                      pointSize: style.font.pointSize, kern: style.kern, style: UInt16(styles.count - 1))
    }

    /// Breaks the shaped text into lines.
    private mutating func finish(in container: TextContainer) {
        if styles.isEmpty {
            styles.append(Style(font: .systemFont(ofSize: UIFont.labelFontSize), color: .black, kern: nil, paragraph: .default))
        }
        textGlyphCount = glyphs.count
        layOut(in: container)
        isUnconstrained = !container.width.isFinite && !isTruncated
    }

    /// This layout placed in a container of `width` and `height`, if the
    /// container would break and keep the lines the same way: it was laid
    /// out unbounded (as for measuring) and every line fits in `width`
    /// less its indents, and the lines in `height`. Only the alignment's
    /// offsets change. A label measured for `sizeToFit()` and then drawn
    /// in its new bounds lays its text out once this way, not twice.
    func refitted(width: CGFloat, height: CGFloat) -> TextLayout? {
        guard isUnconstrained, width.isFinite, size.height <= height + Self.tolerance else { return nil }
        var widest: CGFloat = 0
        var moves = false
        for line in lines {
            guard let x = fittedX(of: line, width: width) else { return nil }
            if x != line.x { moves = true }
            widest = max(widest, x + line.width)
        }
        var fitted = self
        // Left-aligned lines stay where they are, and the lines are then
        // shared, not copied. (Written in the loop above, even conditionally,
        // the list would be copied anyway: the optimiser makes it unique
        // before such a loop.)
        if moves {
            for i in fitted.lines.indices { fitted.lines[i].x = fittedX(of: lines[i], width: width) ?? lines[i].x }
        }
        fitted.size.width = max(0, widest)
        fitted.isUnconstrained = false
        return fitted
    }

    /// Where `line` starts in a container `width` wide: its indent and its
    /// alignment's offset; nil if it does not fit (or is justified).
    private func fittedX(of line: Line, width: CGFloat) -> CGFloat? {
        let paragraph = paragraphStyle(of: line)
        let available = availableWidth(width, paragraph, indent: line.indent)
        guard line.width <= available + Self.tolerance, line.extraPerSpace == 0 else { return nil }
        return line.indent + Self.alignmentOffset(paragraph.alignment, available: available, width: line.width)
    }

    // MARK: Lines

    private mutating func layOut(in container: TextContainer) {
        var maximumLines = container.maximumLines
        layOutLines(in: container, maximumLines: maximumLines)
        // Lines that do not fit in the height are dropped; the last that fits
        // becomes the container's last line (truncated as it says).
        if container.height.isFinite, size.height > container.height + Self.tolerance, lines.count > 1 {
            var fitting = 1
            while fitting < lines.count, lines[fitting].top + lines[fitting].height <= container.height + Self.tolerance {
                fitting += 1
            }
            maximumLines = fitting
            glyphs.truncate(to: textGlyphCount)
            layOutLines(in: container, maximumLines: maximumLines)
        }
    }

    /// Positions closer than this are equal (text widths are sums of fractions).
    static let tolerance: CGFloat = 0.001

    private mutating func layOutLines(in container: TextContainer, maximumLines: Int) {
        lines.removeAll(keepingCapacity: true)
        isTruncated = false
        var y: CGFloat = 0
        var paragraphStart = 0
        let count = textGlyphCount
        // No text, no lines: an empty string measures (0, 0), as in UIKit.
        var done = count == 0
        while !done {
            var paragraphEnd = paragraphStart
            while paragraphEnd < count, glyphs.kinds[paragraphEnd] != .newline { paragraphEnd += 1 }
            let isLastParagraph = paragraphEnd >= count
            let style = styles[Int(paragraphStart < count ? glyphs.styles[paragraphStart] : glyphs.styles.last ?? 0)]
            let paragraph = style.paragraph
            var start = paragraphStart
            var firstLine = true
            repeat {
                let indent = firstLine ? paragraph.firstLineHeadIndent : paragraph.headIndent
                let available = availableWidth(container.width, paragraph, indent: indent)
                let isLastAllowed = maximumLines > 0 && lines.count == maximumLines - 1
                let oneLineParagraph = container.truncatesParagraphs && paragraph.lineBreakMode.isTruncatingOrClipping
                var pieces: LinePieces
                var end: Int
                var truncated = false
                var endsByWrap = false
                if isLastAllowed || oneLineParagraph {
                    let moreFollows = isLastAllowed && !isLastParagraph
                    let mode = oneLineParagraph ? paragraph.lineBreakMode : container.lastLineMode
                    (pieces, end, truncated) = lastLine(start..<paragraphEnd, width: available, mode: mode,
                                                         moreFollows: moreFollows, wrapping: container.wrapping(for: paragraph))
                    if isLastAllowed && end < paragraphEnd || isLastAllowed && !isLastParagraph { done = true }
                    if isLastAllowed, end < paragraphEnd || !isLastParagraph { isTruncated = true }
                } else {
                    end = lineEnd(from: start, to: paragraphEnd, width: available, wrapping: container.wrapping(for: paragraph))
                    pieces = LinePieces(start..<end)
                    endsByWrap = end < paragraphEnd
                }
                if truncated { isTruncated = true }
                var line = makeLine(pieces, top: y, indent: indent, available: available, paragraph: paragraph,
                                    fallbackStyle: style, containerWidth: container.width)
                line.isTruncated = truncated
                if paragraph.alignment == .justified, endsByWrap, available.isFinite {
                    justify(&line, available: available)
                }
                y += line.height
                lines.append(line)
                start = oneLineParagraph ? paragraphEnd : end
                firstLine = false
                if !done, start < paragraphEnd || !isLastParagraph { y += paragraph.lineSpacing }
            } while start < paragraphEnd && !done
            if done || isLastParagraph { break }
            y += paragraph.paragraphSpacing
            paragraphStart = paragraphEnd + 1
            if maximumLines > 0 && lines.count >= maximumLines { isTruncated = true; break }
        }
        var width: CGFloat = 0
        for line in lines { width = max(width, line.x + line.width) }
        size = CGSize(width: width, height: y)
        if !container.width.isFinite { alignInUsedWidth() }
    }

    private func availableWidth(_ width: CGFloat, _ paragraph: NSParagraphStyle, indent: CGFloat) -> CGFloat {
        guard width.isFinite else { return .infinity }
        let trailing = paragraph.tailIndent > 0 ? paragraph.tailIndent : width + paragraph.tailIndent
        return max(0, trailing - indent)
    }

    /// The advance of glyph `i` when the line's pen is at `x` (tabs move to the next stop).
    func advance(_ i: Int, at x: CGFloat) -> CGFloat {
        guard glyphs.kinds[i] == .tab else { return glyphs.advances[i] }
        let interval = NSParagraphStyle.defaultTabInterval
        return (floor(x / interval + Self.tolerance) + 1) * interval - x
    }

    /// Where a line starting at `start` ends, by greedy breaking.
    private func lineEnd(from start: Int, to end: Int, width: CGFloat, wrapping: TextContainer.Wrapping) -> Int {
        var x: CGFloat = 0
        var lastBreak = -1
        var i = start
        while i < end {
            let kind = glyphs.kinds[i]
            let w = advance(i, at: x)
            if kind == .space || kind == .tab {
                x += w
                if i + 1 < end, glyphs.kinds[i + 1] != .space, glyphs.kinds[i + 1] != .tab { lastBreak = i + 1 }
                i += 1
                continue
            }
            if x + w > width + Self.tolerance, i > start, kind != .mark {
                if wrapping == .word, lastBreak > start { return lastBreak }
                return i
            }
            x += w
            if kind == .hyphen, i + 1 < end, glyphs.kinds[i + 1] == .word { lastBreak = i + 1 }
            i += 1
        }
        return end
    }

    /// The last line the container allows, holding `range` (the rest of its paragraph).
    private mutating func lastLine(_ range: Range<Int>, width: CGFloat, mode: NSLineBreakMode, moreFollows: Bool,
                                   wrapping: TextContainer.Wrapping) -> (pieces: LinePieces, end: Int, truncated: Bool) {
        switch mode {
        case .byWordWrapping, .byCharWrapping:
            let end = lineEnd(from: range.lowerBound, to: range.upperBound, width: width, wrapping: mode == .byCharWrapping ? .char : wrapping)
            return (LinePieces(range.lowerBound..<end), end, false)
        case .byClipping:
            return (LinePieces(range), range.upperBound, false)
        case .byTruncatingHead, .byTruncatingTail, .byTruncatingMiddle:
            if !moreFollows, contentWidth(range) <= width + Self.tolerance { return (LinePieces(range), range.upperBound, false) }
            let styleGlyph = range.isEmpty ? max(0, range.lowerBound - 1) : (mode == .byTruncatingHead ? range.lowerBound : range.upperBound - 1)
            let ellipsis = appendEllipsis(style: glyphs.count > 0 ? Int(glyphs.styles[min(styleGlyph, textGlyphCount - 1)]) : 0)
            let budget = width - contentWidth(ellipsis)
            switch mode {
            case .byTruncatingHead:
                var start = range.upperBound
                while start > range.lowerBound {
                    let candidate = clusterStart(start - 1, floor: range.lowerBound)
                    if contentWidth(candidate..<range.upperBound) > budget + Self.tolerance { break }
                    start = candidate
                }
                while start < range.upperBound, glyphs.kinds[start].isSpace { start += 1 }
                return (LinePieces(ellipsis, start..<range.upperBound), range.upperBound, true)
            case .byTruncatingMiddle:
                var head = range.lowerBound, tail = range.upperBound
                var headFull = false, tailFull = false
                while head < tail, !(headFull && tailFull) {
                    let growHead = !headFull && (tailFull || contentWidth(range.lowerBound..<head) <= contentWidth(tail..<range.upperBound))
                    if growHead {
                        let next = clusterEnd(head, ceiling: tail)
                        if contentWidth(range.lowerBound..<next) + contentWidth(tail..<range.upperBound) > budget + Self.tolerance {
                            headFull = true
                        } else { head = next }
                    } else {
                        let next = clusterStart(tail - 1, floor: head)
                        if contentWidth(range.lowerBound..<head) + contentWidth(next..<range.upperBound) > budget + Self.tolerance {
                            tailFull = true
                        } else { tail = next }
                    }
                }
                return (LinePieces(range.lowerBound..<head, ellipsis, tail..<range.upperBound), range.upperBound, true)
            default:
                var end = range.lowerBound
                while end < range.upperBound {
                    let next = clusterEnd(end, ceiling: range.upperBound)
                    if contentWidth(range.lowerBound..<next) > budget + Self.tolerance { break }
                    end = next
                }
                while end > range.lowerBound, glyphs.kinds[end - 1].isSpace { end -= 1 }
                return (LinePieces(range.lowerBound..<end, ellipsis), range.upperBound, true)
            }
        }
    }

    private func clusterStart(_ i: Int, floor: Int) -> Int {
        var i = i
        while i > floor, glyphs.kinds[i] == .mark { i -= 1 }
        return i
    }

    private func clusterEnd(_ i: Int, ceiling: Int) -> Int {
        var i = i + 1
        while i < ceiling, glyphs.kinds[i] == .mark { i += 1 }
        return min(i, ceiling)
    }

    /// Appends a shaped "…" in `style` and returns its glyphs.
    private mutating func appendEllipsis(style: Int) -> Range<Int> {
        let start = glyphs.count
        let font = styles[style].font
        glyphs.append("\u{2026}".unicodeScalars, utf16Offset: -1, face: font.face, pointSize: font.pointSize,
                      kern: styles[style].kern, style: UInt16(style))
        return start..<glyphs.count
    }

    /// The width of `range`'s glyphs, not counting spaces at its end.
    private func contentWidth(_ range: Range<Int>) -> CGFloat {
        var end = range.upperBound
        while end > range.lowerBound, glyphs.kinds[end - 1].isSpace { end -= 1 }
        var x: CGFloat = 0
        for i in range.lowerBound..<end { x += advance(i, at: x) }
        return x
    }

    private func makeLine(_ pieces: LinePieces, top: CGFloat, indent: CGFloat, available: CGFloat,
                          paragraph: NSParagraphStyle, fallbackStyle: Style, containerWidth: CGFloat) -> Line {
        var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 0
        var seen = false
        for piece in pieces {
            for i in piece {
                let font = styles[Int(glyphs.styles[i])].font
                ascent = max(ascent, font.ascender); descent = min(descent, font.descender); leading = max(leading, font.leading)
                seen = true
            }
        }
        if !seen {
            let font = fallbackStyle.font
            ascent = font.ascender; descent = font.descender; leading = font.leading
        }
        let natural = ascent - descent + leading
        var height = paragraph.lineHeightMultiple > 0 ? natural * paragraph.lineHeightMultiple : natural
        if paragraph.minimumLineHeight > 0 { height = max(height, paragraph.minimumLineHeight) }
        if paragraph.maximumLineHeight > 0 { height = min(height, paragraph.maximumLineHeight) }
        var width: CGFloat = 0
        var x: CGFloat = 0
        for (n, piece) in pieces.enumerated() {
            let isLast = n == pieces.count - 1
            var end = piece.upperBound
            if isLast { while end > piece.lowerBound, glyphs.kinds[end - 1].isSpace { end -= 1 } }
            for i in piece.lowerBound..<end { x += advance(i, at: x) }
            width = x
            if !isLast { for i in end..<piece.upperBound { x += advance(i, at: x) } }
        }
        let offset = Self.alignmentOffset(paragraph.alignment, available: available, width: width)
        // Extra height from a line-height multiple or minimum goes above the text.
        return Line(pieces: pieces, x: indent + offset, indent: indent, top: top, baseline: top + height - (natural - ascent),
                    height: height, width: width)
    }

    /// Where a line of `width` starts after its indent, in `available` points.
    private static func alignmentOffset(_ alignment: NSTextAlignment, available: CGFloat, width: CGFloat) -> CGFloat {
        switch alignment {
        case .center where available.isFinite: (available - width) / 2
        case .right where available.isFinite: available - width
        default: 0
        }
    }

    /// The paragraph style a line is aligned by: its first glyph's.
    private func paragraphStyle(of line: Line) -> NSParagraphStyle {
        styles[Int(line.pieces.first.flatMap { $0.isEmpty ? nil : glyphs.styles[$0.lowerBound] } ?? 0)].paragraph
    }

    private func justify(_ line: inout Line, available: CGFloat) {
        guard let piece = line.pieces.first else { return }
        var end = piece.upperBound
        while end > piece.lowerBound, glyphs.kinds[end - 1].isSpace { end -= 1 }
        let spaces = (piece.lowerBound..<end).filter { glyphs.kinds[$0] == .space }.count
        guard spaces > 0, available > line.width else { return }
        line.extraPerSpace = (available - line.width) / CGFloat(spaces)
        line.width = available
    }

    /// With no width to align in, lines align within the widest.
    private mutating func alignInUsedWidth() {
        for i in lines.indices {
            switch paragraphStyle(of: lines[i]).alignment {
            case .center: lines[i].x += (size.width - lines[i].x - lines[i].width) / 2
            case .right: lines[i].x += size.width - lines[i].x - lines[i].width
            default: break
            }
        }
    }

    // MARK: Reading the result

    /// The text of each line as drawn, "…" where it was truncated; for tests
    /// and for anyone who wants to know what a label shows.
    var lineStrings: [String] {
        let utf16 = Array(string.utf16)
        return lines.map { line in
            line.pieces.map { piece -> String in
                guard let first = piece.first else { return "" }
                if first >= textGlyphCount { return "\u{2026}" }
                var end = piece.upperBound
                while end > piece.lowerBound, glyphs.kinds[end - 1].isSpace { end -= 1 }
                guard end > first else { return "" }
                let from = glyphs.clusters[first]
                let to = end < textGlyphCount ? glyphs.clusters[end] : utf16.count
                return String(decoding: utf16[from..<max(from, to)], as: UTF16.self)
                    .trimmingCharacters(in: .newlines)
            }.joined()
        }
    }
}

/// The pieces of ``TextLayout/glyphs`` a line shows, in order: its text,
/// or, when truncated, the text around an ellipsis (one to three pieces).
/// Kept inline, so that a line costs no allocation of its own.
struct LinePieces: RandomAccessCollection {
    private var first: Range<Int>
    private var second: Range<Int>
    private var third: Range<Int>
    let count: Int

    init(_ only: Range<Int>) {
        self.init(only, 0..<0, 0..<0, count: 1)
    }

    init(_ first: Range<Int>, _ second: Range<Int>) {
        self.init(first, second, 0..<0, count: 2)
    }

    init(_ first: Range<Int>, _ second: Range<Int>, _ third: Range<Int>) {
        self.init(first, second, third, count: 3)
    }

    private init(_ first: Range<Int>, _ second: Range<Int>, _ third: Range<Int>, count: Int) {
        self.first = first
        self.second = second
        self.third = third
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Range<Int> {
        precondition(position >= 0 && position < count, "line piece \(position) of \(count)")
        switch position {
        case 0: return first
        case 1: return second
        default: return third
        }
    }
}

/// Where text is laid out: the size it may take and what happens to text
/// that does not fit.
struct TextContainer {
    enum Wrapping { case word, char }

    /// The width lines may take (infinite: lines end only at paragraph ends).
    var width: CGFloat = .infinity
    /// The height lines may take.
    var height: CGFloat = .infinity
    /// The most lines (0: no limit).
    var maximumLines = 0
    /// What the last line does with the text that does not fit.
    var lastLineMode: NSLineBreakMode = .byWordWrapping
    /// Whether a paragraph whose style truncates or clips is one line (string
    /// drawing, as TextKit does), rather than a wrapped paragraph whose last
    /// line alone is truncated (labels, which set ``lastLineMode``).
    var truncatesParagraphs = true

    func wrapping(for paragraph: NSParagraphStyle) -> Wrapping {
        paragraph.lineBreakMode == .byCharWrapping || lastLineMode == .byCharWrapping ? .char : .word
    }
}

extension NSLineBreakMode {
    var isTruncatingOrClipping: Bool {
        switch self {
        case .byWordWrapping, .byCharWrapping: false
        default: true
        }
    }
}

extension CharacterKind {
    var isSpace: Bool { self == .space || self == .tab }
}

extension ShapedText {
    /// Empties every list, keeping their memory.
    mutating func removeAll(keepingCapacity: Bool) {
        glyphs.removeAll(keepingCapacity: keepingCapacity)
        advances.removeAll(keepingCapacity: keepingCapacity)
        clusters.removeAll(keepingCapacity: keepingCapacity)
        fontIndices.removeAll(keepingCapacity: keepingCapacity)
        styles.removeAll(keepingCapacity: keepingCapacity)
        kinds.removeAll(keepingCapacity: keepingCapacity)
        fonts.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Drops the glyphs from `count` on (the ellipses a layout added).
    mutating func truncate(to count: Int) {
        guard count < glyphs.count else { return }
        glyphs.removeSubrange(count...)
        advances.removeSubrange(count...)
        clusters.removeSubrange(count...)
        fontIndices.removeSubrange(count...)
        styles.removeSubrange(count...)
        kinds.removeSubrange(count...)
    }
}
