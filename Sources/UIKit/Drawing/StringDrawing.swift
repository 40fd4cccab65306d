import CoreGraphics
import Foundation

// Measuring and drawing strings, as UIKit's NSString and NSAttributedString
// additions do. Text is drawn into the current context
// (`UIGraphicsGetCurrentContext()`); with none, drawing does nothing.

extension TextLayout.Style {
    /// The style `attributes` give, with UIKit's defaults for what they
    /// lack: the system font at 12 points, black, the default paragraph style.
    init(_ attributes: [NSAttributedString.Key: Any]?, defaults: TextLayout.Style = .stringDrawingDefault) {
        self.init(
            font: attributes?[.font] as? UIFont ?? defaults.font,
            color: attributes?[.foregroundColor] as? UIColor ?? defaults.color,
            kern: Self.number(attributes?[.kern]) ?? defaults.kern,
            paragraph: attributes?[.paragraphStyle] as? NSParagraphStyle ?? defaults.paragraph)
    }

    /// What string drawing uses where attributes say nothing: UIKit's
    /// default font for attributed strings is the system font at 12 points.
    static var stringDrawingDefault: TextLayout.Style {
        TextLayout.Style(font: .systemFont(ofSize: 12), color: .black, kern: nil, paragraph: .default)
    }

    func scaled(_ scale: CGFloat) -> TextLayout.Style {
        guard scale != 1 else { return self }
        var style = self
        style.font = font.withSize(font.pointSize * scale)
        return style
    }

    private static func number(_ value: Any?) -> CGFloat? {
        switch value {
        case let value as CGFloat: value
        case let value as Double: CGFloat(value)
        case let value as Float: CGFloat(value)
        case let value as Int: CGFloat(value)
        case let value as NSNumber: CGFloat(value.doubleValue)
        default: nil
        }
    }
}

extension TextLayout {
    /// A layout of `string` in one style, its font scaled by `fontScale`.
    init(_ string: String, style: Style, container: TextContainer, fontScale: CGFloat = 1) {
        var spare: TextLayout?
        self.init(string, style: style, container: container, fontScale: fontScale, reusing: &spare)
    }

    /// The same, in the memory of `spare`, which is taken
    /// (``init(string:style:container:reusing:)``).
    init(_ string: String, style: Style, container: TextContainer, fontScale: CGFloat = 1, reusing spare: inout TextLayout?) {
        self.init(string: string, style: style.scaled(fontScale), container: container, reusing: &spare)
    }

    /// A layout of attributed text, each attribute run in its style over
    /// `defaults`, fonts scaled by `fontScale`.
    init(_ text: NSAttributedString, defaults: Style = .stringDrawingDefault, container: TextContainer, fontScale: CGFloat = 1) {
        var spare: TextLayout?
        self.init(text, defaults: defaults, container: container, fontScale: fontScale, reusing: &spare)
    }

    /// The same, in the memory of `spare`, which is taken
    /// (``init(string:runs:container:reusing:)``).
    init(_ text: NSAttributedString, defaults: Style = .stringDrawingDefault, container: TextContainer, fontScale: CGFloat = 1,
         reusing spare: inout TextLayout?) {
        var runs: [(range: Range<Int>, style: Style)] = []
        let length = text.length
        if length > 0 {
            text.enumerateAttributes(in: NSRange(location: 0, length: length)) { attributes, range, _ in
                runs.append((range.location..<(range.location + range.length), Style(attributes, defaults: defaults).scaled(fontScale)))
            }
        } else {
            runs.append((0..<0, defaults.scaled(fontScale)))
        }
        self.init(string: text.string, runs: runs, container: container, reusing: &spare)
    }

    /// The container of `boundingRect(with:options:…)`: lines within the
    /// size with `.usesLineFragmentOrigin`, else one line.
    static func container(size: CGSize, options: NSStringDrawingOptions) -> TextContainer {
        var container = TextContainer()
        if options.contains(.usesLineFragmentOrigin) {
            container.width = size.width > 0 ? size.width : .infinity
            container.height = size.height > 0 ? size.height : .infinity
            if options.contains(.truncatesLastVisibleLine) { container.lastLineMode = .byTruncatingTail }
        } else {
            container.maximumLines = 1
            container.lastLineMode = .byClipping
        }
        return container
    }
}

extension StringProtocol {
    /// The size the string takes on one line per paragraph with `attributes`.
    public func size(withAttributes attributes: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        TextLayout(String(self), style: TextLayout.Style(attributes), container: TextContainer()).size
    }

    /// The rectangle the string takes laid out within `size` (see
    /// ``NSStringDrawingOptions``): from the top left with
    /// `.usesLineFragmentOrigin`, else one line measured from its baseline.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             attributes: [NSAttributedString.Key: Any]? = nil,
                             context: NSStringDrawingContext?) -> CGRect {
        let style = TextLayout.Style(attributes)
        return TextLayout(String(self), style: style, container: TextLayout.container(size: size, options: options))
            .boundingRect(options: options, context: context)
    }
}

extension NSString {
    /// The size the string takes on one line per paragraph with `attributes`.
    public func size(withAttributes attributes: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        (self as String).size(withAttributes: attributes)
    }

    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             attributes: [NSAttributedString.Key: Any]? = nil,
                             context: NSStringDrawingContext?) -> CGRect {
        (self as String).boundingRect(with: size, options: options, attributes: attributes, context: context)
    }
}

extension NSAttributedString {
    /// The size the text takes on one line per paragraph.
    public func size() -> CGSize {
        TextLayout(self, container: TextContainer()).size
    }

    /// The rectangle the text takes laid out within `size`; see the String form.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [],
                             context: NSStringDrawingContext?) -> CGRect {
        TextLayout(self, container: TextLayout.container(size: size, options: options))
            .boundingRect(options: options, context: context)
    }
}

extension TextLayout {
    func boundingRect(options: NSStringDrawingOptions, context: NSStringDrawingContext?) -> CGRect {
        let rect: CGRect
        if options.contains(.usesLineFragmentOrigin) {
            rect = CGRect(origin: .zero, size: size)
        } else {
            let baseline = lines.first?.baseline ?? 0
            rect = CGRect(x: 0, y: -baseline, width: size.width, height: size.height)
        }
        context?.totalBounds = rect
        context?.actualScaleFactor = 1
        return rect
    }
}
