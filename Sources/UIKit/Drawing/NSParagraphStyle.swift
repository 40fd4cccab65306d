import Foundation

/// How lines of text line up between their margins, with UIKit's raw values.
public enum NSTextAlignment: Int, Sendable {
    case left = 0
    case center = 1
    case right = 2
    /// Both margins: the spaces of every line but a paragraph's last widen.
    case justified = 3
    /// The script's own direction: left for the left-to-right text drawn here.
    case natural = 4
}

/// What happens to text that is wider than its line, with UIKit's raw values.
public enum NSLineBreakMode: Int, Sendable {
    /// Lines break between words; a word wider than a line breaks between characters.
    case byWordWrapping = 0
    /// Lines break between characters.
    case byCharWrapping = 1
    /// The last line is cut at the edge.
    case byClipping = 2
    /// The last line shows its end, with "…" for the start.
    case byTruncatingHead = 3
    /// The last line shows its start, with "…" for the end.
    case byTruncatingTail = 4
    /// The last line shows its start and end, with "…" between.
    case byTruncatingMiddle = 5
}

/// The paragraph attributes of attributed text: alignment, line breaking,
/// spacing and indents. Immutable; ``NSMutableParagraphStyle`` is the one to change.
open class NSParagraphStyle: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    // @unchecked: an NSParagraphStyle never changes after it is made; only
    // the mutable subclass does, and that one is not shared across threads
    // by UIKit code.
    public static let `default` = NSParagraphStyle()

    /// The tab stops' spacing when a style sets none: UIKit's default tab
    /// stops are every 28 points.
    public class var defaultTabInterval: CGFloat { 28 }

    fileprivate(set) public var alignment: NSTextAlignment = .natural
    fileprivate(set) public var lineBreakMode: NSLineBreakMode = .byWordWrapping
    /// Extra space after each line but the last, in points.
    fileprivate(set) public var lineSpacing: CGFloat = 0
    /// Extra space after each paragraph but the last, in points.
    fileprivate(set) public var paragraphSpacing: CGFloat = 0
    /// Multiplies each line's natural height (0 means 1).
    fileprivate(set) public var lineHeightMultiple: CGFloat = 0
    /// The smallest height of a line (0: no minimum).
    fileprivate(set) public var minimumLineHeight: CGFloat = 0
    /// The largest height of a line (0: no maximum).
    fileprivate(set) public var maximumLineHeight: CGFloat = 0
    /// The indent of a paragraph's first line from the leading margin.
    fileprivate(set) public var firstLineHeadIndent: CGFloat = 0
    /// The indent of a paragraph's other lines from the leading margin.
    fileprivate(set) public var headIndent: CGFloat = 0
    /// Positive: the line's width from the leading margin; zero or
    /// negative: the distance of the trailing margin from the container's.
    fileprivate(set) public var tailIndent: CGFloat = 0

    public override init() {}

    public func copy(with zone: NSZone? = nil) -> Any {
        NSParagraphStyle(copying: self)
    }

    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        NSMutableParagraphStyle(copying: self)
    }

    required public init(copying other: NSParagraphStyle) {
        alignment = other.alignment
        lineBreakMode = other.lineBreakMode
        lineSpacing = other.lineSpacing
        paragraphSpacing = other.paragraphSpacing
        lineHeightMultiple = other.lineHeightMultiple
        minimumLineHeight = other.minimumLineHeight
        maximumLineHeight = other.maximumLineHeight
        firstLineHeadIndent = other.firstLineHeadIndent
        headIndent = other.headIndent
        tailIndent = other.tailIndent
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSParagraphStyle else { return false }
        return alignment == other.alignment && lineBreakMode == other.lineBreakMode
            && lineSpacing == other.lineSpacing && paragraphSpacing == other.paragraphSpacing
            && lineHeightMultiple == other.lineHeightMultiple && minimumLineHeight == other.minimumLineHeight
            && maximumLineHeight == other.maximumLineHeight && firstLineHeadIndent == other.firstLineHeadIndent
            && headIndent == other.headIndent && tailIndent == other.tailIndent
    }
}

/// A paragraph style whose attributes can be set.
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    public override init() { super.init() }

    required public init(copying other: NSParagraphStyle) { super.init(copying: other) }

    open override var alignment: NSTextAlignment {
        get { super.alignment } set { super.alignment = newValue }
    }
    open override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode } set { super.lineBreakMode = newValue }
    }
    open override var lineSpacing: CGFloat {
        get { super.lineSpacing } set { super.lineSpacing = newValue }
    }
    open override var paragraphSpacing: CGFloat {
        get { super.paragraphSpacing } set { super.paragraphSpacing = newValue }
    }
    open override var lineHeightMultiple: CGFloat {
        get { super.lineHeightMultiple } set { super.lineHeightMultiple = newValue }
    }
    open override var minimumLineHeight: CGFloat {
        get { super.minimumLineHeight } set { super.minimumLineHeight = newValue }
    }
    open override var maximumLineHeight: CGFloat {
        get { super.maximumLineHeight } set { super.maximumLineHeight = newValue }
    }
    open override var firstLineHeadIndent: CGFloat {
        get { super.firstLineHeadIndent } set { super.firstLineHeadIndent = newValue }
    }
    open override var headIndent: CGFloat {
        get { super.headIndent } set { super.headIndent = newValue }
    }
    open override var tailIndent: CGFloat {
        get { super.tailIndent } set { super.tailIndent = newValue }
    }
}

extension NSAttributedString.Key {
    /// A `UIFont`; the system font at 12 points when absent, as in UIKit.
    public static let font = NSAttributedString.Key("NSFont")
    /// A `UIColor` for the glyphs; black when absent.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// A `UIColor` filled behind the text's line fragments.
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
    /// A number of points added after each character (Core Text's meaning:
    /// absent uses the font's pair kerning, 0 turns it off).
    public static let kern = NSAttributedString.Key("NSKern")
    /// An `NSParagraphStyle`.
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
}

/// Options of string measuring and drawing, with UIKit's raw values.
public struct NSStringDrawingOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Lay the text out in lines within the rectangle (else: one line, and
    /// the rectangle's origin is the first baseline).
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1 << 0)
    /// Lines are spaced with the font's leading (always so here).
    public static let usesFontLeading = NSStringDrawingOptions(rawValue: 1 << 1)
    /// Measure by the glyphs' ink rather than their typographic bounds.
    public static let usesDeviceMetrics = NSStringDrawingOptions(rawValue: 1 << 3)
    /// Truncate the last line that fits in the rectangle with "…".
    public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 1 << 5)
}

/// What string drawing may do to fit and what it did.
open class NSStringDrawingContext {
    /// The smallest scale the font may shrink to for the text to fit (0: do not shrink).
    open var minimumScaleFactor: CGFloat = 0
    /// The scale the last drawing used.
    open internal(set) var actualScaleFactor: CGFloat = 1
    /// The bounds of the last drawing's text.
    open internal(set) var totalBounds: CGRect = .zero

    public init() {}
}
