import CoreGraphics
import Foundation

/// A view that shows text: one line by default, truncated at the tail, in
/// the system font at 17 points, black. Like `UIImageView` it ignores
/// touches by default (`isUserInteractionEnabled` is false).
///
/// The text is laid out in the label's bounds (``textRect(forBounds:limitedToNumberOfLines:)``)
/// and drawn centred vertically by ``drawText(in:)``, from the label's
/// ``draw(_:)`` in the display pass. With ``adjustsFontSizeToFitWidth``
/// and a ``minimumScaleFactor`` above 0, text that does not fit is drawn
/// smaller, down to that fraction of its size, before it is truncated.
@preconcurrency @MainActor
open class UILabel: UIView {
    private enum Content {
        case none
        case plain(String)
        case attributed(NSAttributedString)
    }

    private var content = Content.none { didSet { contentChanged() } }

    /// The text shown, in the label's font and colour.
    open var text: String? {
        get {
            switch content {
            case .none: nil
            case .plain(let string): string
            case .attributed(let text): text.string
            }
        }
        set {
            if let newValue { content = .plain(newValue) } else { content = .none }
        }
    }

    /// The text shown with attributes of its own; where it has none, the
    /// label's ``font``, ``textColor`` and ``textAlignment`` apply.
    open var attributedText: NSAttributedString? {
        get {
            switch content {
            case .none: nil
            case .plain(let string): NSAttributedString(string: string, attributes: [.font: font as Any, .foregroundColor: textColor as Any])
            case .attributed(let text): text
            }
        }
        set {
            if let newValue { content = .attributed(newValue) } else { content = .none }
        }
    }

    /// The font; setting nil restores the default (the system font at 17 points).
    open var font: UIFont! = UILabel.defaultFont {
        didSet {
            if font == nil { font = UILabel.defaultFont }
            contentChanged()
        }
    }

    /// The colour of the text; setting nil restores black. The text laid
    /// out with the old colour is laid out again.
    open var textColor: UIColor! = .black {
        didSet {
            if textColor == nil { textColor = .black }
            contentChanged()
        }
    }

    /// The colour of the text while ``isHighlighted``; nil keeps ``textColor``.
    open var highlightedTextColor: UIColor? { didSet { setNeedsDisplay() } }
    open var isHighlighted = false { didSet { setNeedsDisplay() } }
    /// A disabled label draws its text dimmed (`disabledTextAlpha`).
    open var isEnabled = true { didSet { setNeedsDisplay() } }

    open var textAlignment = NSTextAlignment.natural { didSet { contentChanged() } }

    /// A right-to-left label aligns natural text to the right.
    open override var semanticContentAttribute: UISemanticContentAttribute {
        didSet { contentChanged() }
    }
    /// How lines wrap and how the last line ends when the text does not fit.
    open var lineBreakMode = NSLineBreakMode.byTruncatingTail { didSet { contentChanged() } }
    /// The most lines shown; 0 means as many as the text needs.
    open var numberOfLines = 1 { didSet { contentChanged() } }
    /// Shrink the font so that the text fits, down to ``minimumScaleFactor``.
    open var adjustsFontSizeToFitWidth = false { didSet { contentChanged() } }
    /// The smallest fraction of its size the font shrinks to; 0 (the
    /// default) does not shrink it.
    open var minimumScaleFactor: CGFloat = 0 { didSet { contentChanged() } }
    /// The width a multi-line label wraps at for its intrinsic size (0: none).
    open var preferredMaxLayoutWidth: CGFloat = 0 { didSet { contentChanged() } }

    /// The colour of a shadow drawn under the text; nil draws none.
    open var shadowColor: UIColor? { didSet { setNeedsDisplay() } }
    /// Where the shadow is drawn, relative to the text (UIKit's default: 1 point up).
    open var shadowOffset = CGSize(width: 0, height: -1) { didSet { setNeedsDisplay() } }

    /// UIKit's default font for labels: the system font at ``UIFont/labelFontSize``.
    private static var defaultFont: UIFont { .systemFont(ofSize: UIFont.labelFontSize) }
    /// The opacity of a disabled label's text (UIKit dims it; the value is not documented).
    static let disabledTextAlpha: CGFloat = 0.45
    /// The step of the search for a font scale that fits: sizes closer than
    /// this fraction are not told apart.
    static let fontScaleResolution: CGFloat = 1.0 / 256

    override class var interactionEnabledByDefault: Bool { false }

    /// The last layout made, by the size and line count it was made for.
    private var cachedLayout: (bounds: CGSize, lines: Int, layout: TextLayout)?
    /// The last layout in an unbounded width (measuring), kept beside the
    /// other so that measuring and then drawing lays the text out once.
    private var measuredLayout: (height: CGFloat, lines: Int, layout: TextLayout)?
    /// A layout of text no longer shown, whose memory the next layout
    /// takes: a reused cell's label lays out its new text without allocating.
    private var spareLayout: TextLayout?

    private func contentChanged() {
        if spareLayout == nil { spareLayout = cachedLayout?.layout ?? measuredLayout?.layout }
        cachedLayout = nil
        measuredLayout = nil
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    // MARK: Layout

    /// The paragraph style of text without attributes of its own, kept for
    /// as long as the alignment and wrapping it was made for: a reused
    /// cell's label given new text lays it out without making another.
    private var defaultParagraph: NSParagraphStyle?

    /// The style of text without attributes of its own.
    private var defaultStyle: TextLayout.Style {
        // Natural alignment follows the view's direction (UIKit: leading-aligned).
        let alignment = textAlignment == .natural && isRightToLeft ? .right : textAlignment
        let wrapping: NSLineBreakMode = lineBreakMode == .byCharWrapping ? .byCharWrapping : .byWordWrapping
        if let kept = defaultParagraph, kept.alignment == alignment, kept.lineBreakMode == wrapping {
            return TextLayout.Style(font: font, color: textColor, kern: nil, paragraph: kept)
        }
        let paragraph = NSMutableParagraphStyle()
        paragraph.alignment = alignment
        paragraph.lineBreakMode = wrapping
        defaultParagraph = paragraph
        return TextLayout.Style(font: font, color: textColor, kern: nil, paragraph: paragraph)
    }

    /// The text laid out in `size` with at most `lines` lines (0: any).
    func textLayout(in size: CGSize, lines: Int) -> TextLayout {
        if let cachedLayout, cachedLayout.bounds == size, cachedLayout.lines == lines { return cachedLayout.layout }
        var container = TextContainer()
        container.width = size.width.isFinite && size.width < .greatestFiniteMagnitude ? size.width : .infinity
        container.height = size.height.isFinite && size.height < .greatestFiniteMagnitude ? size.height : .infinity
        container.maximumLines = max(0, lines)
        container.lastLineMode = lineBreakMode
        container.truncatesParagraphs = false
        if let measuredLayout, measuredLayout.lines == lines {
            if !container.width.isFinite, measuredLayout.height == container.height { return measuredLayout.layout }
            if let layout = measuredLayout.layout.refitted(width: container.width, height: container.height) {
                cachedLayout = (size, lines, layout)
                return layout
            }
        }
        var layout = makeLayout(container, scale: 1)
        if adjustsFontSizeToFitWidth, minimumScaleFactor > 0, minimumScaleFactor < 1, !fits(layout, container) {
            // The largest scale at which the text fits, by bisection.
            var low = minimumScaleFactor, high: CGFloat = 1
            var best = makeLayout(container, scale: low)
            if fits(best, container) {
                while high - low > Self.fontScaleResolution {
                    let middle = (low + high) / 2
                    let candidate = makeLayout(container, scale: middle)
                    if fits(candidate, container) { low = middle; best = candidate } else { high = middle }
                }
            }
            layout = best
        }
        if container.width.isFinite {
            cachedLayout = (size, lines, layout)
        } else {
            measuredLayout = (container.height, lines, layout)
        }
        return layout
    }

    private func makeLayout(_ container: TextContainer, scale: CGFloat) -> TextLayout {
        switch content {
        case .none: TextLayout("", style: defaultStyle, container: container, reusing: &spareLayout)
        case .plain(let string): TextLayout(string, style: defaultStyle, container: container, fontScale: scale, reusing: &spareLayout)
        case .attributed(let text): TextLayout(text, defaults: defaultStyle, container: container, fontScale: scale, reusing: &spareLayout)
        }
    }

    private func fits(_ layout: TextLayout, _ container: TextContainer) -> Bool {
        !layout.isTruncated && layout.size.width <= container.width + TextLayout.tolerance
    }

    /// The rectangle the text takes when drawn in `bounds` with at most
    /// `numberOfLines` lines (0: any), at `bounds`' origin; sizes are whole points.
    open func textRect(forBounds bounds: CGRect, limitedToNumberOfLines numberOfLines: Int) -> CGRect {
        let size = textLayout(in: bounds.size, lines: numberOfLines).size
        return CGRect(origin: bounds.origin, size: CGSize(width: ceil(size.width), height: ceil(size.height)))
    }

    /// The text's size on as many lines as it takes, in whole points: one
    /// line per paragraph, or, for a multi-line label, wrapped at
    /// ``preferredMaxLayoutWidth`` when it is set and otherwise at the width
    /// Auto Layout gave the label (UIKit's "automatic" preferred width, since iOS 8).
    open override var intrinsicContentSize: CGSize {
        var width = CGFloat.infinity
        if numberOfLines != 1 {
            if preferredMaxLayoutWidth > 0 {
                width = preferredMaxLayoutWidth
            } else if let automaticWrapWidth {
                width = automaticWrapWidth
            }
        }
        return textRect(forBounds: CGRect(x: 0, y: 0, width: width, height: .infinity), limitedToNumberOfLines: numberOfLines).size
    }

    /// Whether the label's intrinsic height depends on the width the layout
    /// engine solves for it: a multi-line label without a preferred width.
    var wrapsAtSolvedWidth: Bool { numberOfLines != 1 && preferredMaxLayoutWidth <= 0 }

    /// The width the layout engine last solved for a label that
    /// ``wrapsAtSolvedWidth``; the engine sets it and measures the label again,
    /// so setting it does not invalidate the intrinsic size.
    var automaticWrapWidth: CGFloat?

    /// The size the text takes within `size`'s width (a one-line label
    /// takes its whole text's width, as in UIKit), in whole points.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let width = numberOfLines == 1 || size.width <= 0 ? .infinity : size.width
        return textRect(forBounds: CGRect(x: 0, y: 0, width: width, height: .infinity), limitedToNumberOfLines: numberOfLines).size
    }

    // MARK: Drawing

    open override func draw(_ rect: CGRect) {
        drawText(in: bounds)
    }

    /// Draws the text laid out in `rect`, centred vertically, into the
    /// current context.
    open func drawText(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let layout = textLayout(in: rect.size, lines: numberOfLines)
        let origin = CGPoint(x: rect.minX, y: rect.minY + (rect.height - layout.size.height) / 2)
        var color: UIColor? = isHighlighted ? highlightedTextColor : nil
        if !isEnabled { color = (color ?? textColor).withAlphaComponent(Self.disabledTextAlpha) }
        let clip = lineBreakMode == .byClipping ? rect : nil
        if let shadowColor {
            layout.draw(in: context, at: CGPoint(x: origin.x + shadowOffset.width, y: origin.y + shadowOffset.height),
                        color: shadowColor, clip: clip)
        }
        layout.draw(in: context, at: origin, color: color, clip: clip)
    }
}
