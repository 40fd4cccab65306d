/// How much a constraint matters to the layout: 1000 (``required``) must
/// hold; lower priorities are satisfied as well as they can be, a higher one
/// always before any number of lower ones.
///
/// The named values are UIKit's: 1000, 750, 510, 500, 490, 250 and 50
/// (UIKit's headers, `UILayoutPriorityRequired` … `UILayoutPriorityFittingSizeLevel`).
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var rawValue: Float

    public init(rawValue: Float) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: Float) {
        self.rawValue = rawValue
    }

    public init(floatLiteral value: Float) {
        self.rawValue = value
    }

    public init(integerLiteral value: Int) {
        self.rawValue = Float(value)
    }

    /// A constraint that must hold.
    public static let required = UILayoutPriority(1000)
    /// The priority with which a button resists compressing its content.
    public static let defaultHigh = UILayoutPriority(750)
    /// The priority of a drag that may end up resizing the window's scene.
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    /// The priority at which the window's scene prefers to keep its size.
    public static let sceneSizeStayPut = UILayoutPriority(500)
    /// The priority of a drag that will not resize the window's scene.
    public static let dragThatCannotResizeScene = UILayoutPriority(490)
    /// The priority with which a button hugs its content horizontally.
    public static let defaultLow = UILayoutPriority(250)
    /// The priority with which ``UIView/systemLayoutSizeFitting(_:)`` wants
    /// the view to conform to the target size.
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue - rhs) }
}

extension UIView {
    /// How a view resizes when its superview's bounds change size, for views
    /// laid out without constraints.
    public struct AutoresizingMask: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// The target size for ``systemLayoutSizeFitting(_:)`` that asks for the
    /// smallest size the constraints allow.
    public static let layoutFittingCompressedSize = CGSize(width: 0, height: 0)

    /// The target size for ``systemLayoutSizeFitting(_:)`` that asks for the
    /// largest size the constraints allow: 10,000 by 10,000 points, the value
    /// UIKit's `UILayoutFittingExpandedSize` holds (a blog post on Auto
    /// Layout's sizing methods printed it on the iPhone simulator, next to
    /// the compressed size's 0 by 0).
    public static let layoutFittingExpandedSize = CGSize(width: 10_000, height: 10_000)
}

/// The numbers UIKit uses without documenting them, in one place.
enum LayoutMetrics {
    /// A view's default `layoutMargins`: 8 points on each side, as a new
    /// `UIView` reports them in UIKit.
    static let defaultLayoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// The "standard" spacing of the visual format language's `-` and of
    /// `constraint(equalToSystemSpacingAfter:multiplier:)`: 8 points, the
    /// value Apple's Auto Layout Guide gives for the standard space
    /// between sibling views.
    static let systemSpacing: CGFloat = 8
    /// The standard distance between a view and its superview's edge in the
    /// visual format language (`|-[view]`): 20 points in Apple's Auto Layout
    /// Guide (it follows the superview's margins in recent UIKit).
    static let superviewSpacing: CGFloat = 20
    /// The widest that `readableContentGuide` gets: 672 points, the readable
    /// width UIKit reports at the default text size.
    static let readableContentWidth: CGFloat = 672
    /// How many times the engine may re-solve within one layout when applying
    /// frames changes the frames of views laid out by autoresizing.
    static let maximumLayoutRounds = 8
    /// How far `exerciseAmbiguityInLayout()` pulls each free variable of a
    /// view, in points, one way or the other at random. UIKit says only
    /// that it moves the view to another valid frame; this is far enough
    /// to see.
    static let ambiguityExerciseDistance: ClosedRange<Double> = 20...80
    /// The root view's smallest side margins (`systemMinimumLayoutMargins`):
    /// 16 points in a compact-width environment (every iPhone in portrait),
    /// 20 in a regular-width one, as useyourloaf.com's "Changing Root View
    /// Layout Margins" measures them; none at the top and bottom.
    static let compactMinimumSideMargin: CGFloat = 16
    static let regularMinimumSideMargin: CGFloat = 20
    /// The narrowest side of a screen whose full-screen windows have a
    /// regular width: 744 points, the iPad mini's portrait width (the
    /// smallest iPad). There are no size classes here yet, so this stands
    /// for them: iPhones (a compact width in portrait) stay below it.
    static let regularWidthShortestScreenSide: CGFloat = 744
}
