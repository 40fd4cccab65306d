import CoreGraphics

/// A font at a size: a face found among the installed fonts (with
/// fontconfig) and its metrics in points.
///
/// The system font is the first installed of `FontCatalog.systemFamilies`
/// (San Francisco where present, else DejaVu Sans); its weights map to the
/// family's nearest face, so on DejaVu Sans `.ultraLight` and `.thin` give
/// ExtraLight, `.semibold` and heavier give Bold, and the rest Book.
///
/// It is an `NSObject`, as in UIKit; it never changes once made, so it is
/// safe to share between threads.
public final class UIFont: NSObject, @unchecked Sendable {
    package let face: FontFace
    /// The size in points (the em square's height).
    public let pointSize: CGFloat

    package init(face: FontFace, pointSize: CGFloat) {
        self.face = face
        self.pointSize = UIFont.sanitized(pointSize)
        super.init()
    }

    /// The largest size a font takes; larger sizes are clamped to it. Text of
    /// this size is measured but not drawn (see `GlyphRasterization`).
    public static let maximumPointSize: CGFloat = 4096

    /// Sizes that are not a number, negative or infinite make no sense for a
    /// font: NaN and negative sizes become 0 (text of no size: measured as
    /// empty, draws nothing), infinite ones ``maximumPointSize``.
    private static func sanitized(_ size: CGFloat) -> CGFloat {
        guard !size.isNaN, size > 0 else { return 0 }
        return min(size, maximumPointSize)
    }

    /// The installed font named `fontName` (a PostScript name such as
    /// "DejaVuSans-Bold", a full name such as "DejaVu Sans Bold", or a family
    /// name for its regular face) at `fontSize`; nil when no installed font
    /// has that name.
    public init?(name fontName: String, size fontSize: CGFloat) {
        guard let face = FontFace.named(fontName) else { return nil }
        self.face = face
        pointSize = UIFont.sanitized(fontSize)
    }

    // MARK: System fonts

    /// The system font at `fontSize`, of `weight`.
    public class func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(face: FontFace.systemFace(weight: weight.fontconfigWeight, italic: false, monospaced: false),
               pointSize: fontSize)
    }

    /// The regular system font at `fontSize`.
    public class func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .regular)
    }

    /// The bold system font at `fontSize`.
    public class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .bold)
    }

    /// The italic system font at `fontSize`.
    public class func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(face: FontFace.systemFace(weight: Weight.regular.fontconfigWeight, italic: true, monospaced: false),
               pointSize: fontSize)
    }

    /// The monospaced system font at `fontSize`, of `weight`.
    public class func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(face: FontFace.systemFace(weight: weight.fontconfigWeight, italic: false, monospaced: true),
               pointSize: fontSize)
    }

    /// The system font with digits of equal width. DejaVu Sans's digits
    /// already are, so this is the system font.
    public class func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }

    /// The font for `style` at UIKit's default ("Large") content size.
    public class func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        let (size, weight) = style.defaultSizeAndWeight
        return systemFont(ofSize: size, weight: weight)
    }

    /// The same face at `fontSize`.
    public func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(face: face, pointSize: fontSize)
    }

    /// The size of the standard system font (UIKit's value).
    public class var systemFontSize: CGFloat { 14 }
    /// The size of the small system font (UIKit's value).
    public class var smallSystemFontSize: CGFloat { 12 }
    /// The size of label text (UIKit's value).
    public class var labelFontSize: CGFloat { 17 }
    /// The size of button text (UIKit's value).
    public class var buttonFontSize: CGFloat { 18 }

    /// The installed font families, sorted.
    public class var familyNames: [String] { FontCatalog.shared.familyNames }

    /// The PostScript names of the faces of `familyName`.
    public class func fontNames(forFamilyName familyName: String) -> [String] {
        FontCatalog.shared.faces(inFamily: familyName).map(\.postScriptName).sorted()
    }

    // MARK: Names and metrics

    /// The family, "DejaVu Sans".
    public var familyName: String { face.familyName }
    /// The PostScript name of the face, "DejaVuSans-Bold".
    public var fontName: String { face.postScriptName }

    private func points(_ designUnits: Int32) -> CGFloat {
        CGFloat(designUnits) * pointSize / CGFloat(face.unitsPerEm)
    }

    /// How far the tallest letters rise above the baseline, in points.
    public var ascender: CGFloat { points(face.ascent) }
    /// How far the deepest letters fall below the baseline, in points; negative.
    public var descender: CGFloat { points(face.descent) }
    /// The line gap the font asks for, in points.
    public var leading: CGFloat { points(face.leading) }
    /// The height of capital letters, in points.
    public var capHeight: CGFloat { points(face.capHeight) }
    /// The height of lower-case letters, in points.
    public var xHeight: CGFloat { points(face.xHeight) }
    /// The distance between the baselines of two lines of text:
    /// ascender − descender + leading.
    public var lineHeight: CGFloat { ascender - descender + leading }

    /// Equal when they are the same face at the same size, as two
    /// `UIFont`s made from the same descriptor are on iOS.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIFont else { return false }
        return other.face == face && other.pointSize == pointSize
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(face)
        hasher.combine(pointSize)
        return hasher.finalize()
    }

    public override var description: String { "UIFont(\(fontName), \(pointSize) pt)" }
}

extension UIFont {
    /// A font weight, from −1 (thinnest) to 1 (heaviest), with UIKit's values.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        /// UIKit's weights on fontconfig's scale (its named weights, one for
        /// one), interpolated between them for other values.
        var fontconfigWeight: Int {
            let table: [(CGFloat, CGFloat)] = [
                (-1, 0), (-0.8, 40), (-0.6, 45), (-0.4, 50), (0, 80), (0.23, 100),
                (0.3, 180), (0.4, 200), (0.56, 205), (0.62, 210), (1, 215),
            ]
            let value = rawValue.isNaN ? 0 : min(max(rawValue, -1), 1)
            for ((x0, y0), (x1, y1)) in zip(table, table.dropFirst()) where value <= x1 {
                return Int((y0 + (value - x0) / (x1 - x0) * (y1 - y0)).rounded())
            }
            return 215
        }
    }

    /// A Dynamic Type text style.
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// Sizes and weights at the default ("Large") content size category,
        /// from Apple's Human Interface Guidelines, Typography, "iOS and
        /// iPadOS Dynamic Type sizes". An unknown style gets body's.
        var defaultSizeAndWeight: (CGFloat, Weight) {
            switch self {
            case .largeTitle: (34, .regular)
            case .title1: (28, .regular)
            case .title2: (22, .regular)
            case .title3: (20, .regular)
            case .headline: (17, .semibold)
            case .subheadline: (15, .regular)
            case .callout: (16, .regular)
            case .footnote: (13, .regular)
            case .caption1: (12, .regular)
            case .caption2: (11, .regular)
            default: (17, .regular)
            }
        }
    }
}
