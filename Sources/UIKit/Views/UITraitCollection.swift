/// The traits a named colour or image is chosen for, and that a sheet's
/// custom detents are worked out in: light or dark appearance, the
/// display's scale, and the size classes.
///
/// Views here do not carry trait collections yet; this is what
/// `UIColor(named:in:compatibleWith:)` and `UIImage(named:in:compatibleWith:)`
/// take, as in UIKit, and what a sheet's detent resolver reads
/// (`UISheetPresentationControllerDetentResolutionContext.containerTraitCollection`).
/// A trait left unspecified means what the application has: light
/// appearance and the main screen's scale.
public final class UITraitCollection: NSObject, @unchecked Sendable {
    /// Light or dark appearance.
    public enum UserInterfaceStyle: Int, Sendable {
        case unspecified = 0, light, dark
    }

    public let userInterfaceStyle: UserInterfaceStyle
    /// Pixels per point; 0 is unspecified.
    public let displayScale: CGFloat
    /// How much room there is across (``UIUserInterfaceSizeClass``).
    public let horizontalSizeClass: UIUserInterfaceSizeClass
    /// How much room there is up and down: compact on an iPhone held
    /// sideways, where a sheet's medium detent is inactive.
    public let verticalSizeClass: UIUserInterfaceSizeClass

    init(userInterfaceStyle: UserInterfaceStyle, displayScale: CGFloat,
         horizontalSizeClass: UIUserInterfaceSizeClass, verticalSizeClass: UIUserInterfaceSizeClass) {
        self.userInterfaceStyle = userInterfaceStyle
        self.displayScale = displayScale.isFinite && displayScale > 0 ? displayScale : 0
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        super.init()
    }

    /// A collection with every trait unspecified.
    public convenience override init() {
        self.init(userInterfaceStyle: .unspecified, displayScale: 0, horizontalSizeClass: .unspecified, verticalSizeClass: .unspecified)
    }

    public convenience init(userInterfaceStyle: UserInterfaceStyle) {
        self.init(userInterfaceStyle: userInterfaceStyle, displayScale: 0, horizontalSizeClass: .unspecified, verticalSizeClass: .unspecified)
    }

    public convenience init(displayScale: CGFloat) {
        self.init(userInterfaceStyle: .unspecified, displayScale: displayScale, horizontalSizeClass: .unspecified, verticalSizeClass: .unspecified)
    }

    /// A collection whose only trait is the horizontal size class.
    public convenience init(horizontalSizeClass: UIUserInterfaceSizeClass) {
        self.init(userInterfaceStyle: .unspecified, displayScale: 0, horizontalSizeClass: horizontalSizeClass, verticalSizeClass: .unspecified)
    }

    /// A collection whose only trait is the vertical size class.
    public convenience init(verticalSizeClass: UIUserInterfaceSizeClass) {
        self.init(userInterfaceStyle: .unspecified, displayScale: 0, horizontalSizeClass: .unspecified, verticalSizeClass: verticalSizeClass)
    }

    /// The traits of a view `size` large on an iPhone with `scale` pixels
    /// per point: compact across, and compact up and down when it is wider
    /// than it is tall (Apple's size classes for iPhones held upright and
    /// sideways; the largest iPhones' regular width sideways is not made).
    static func iPhone(size: CGSize, scale: CGFloat) -> UITraitCollection {
        UITraitCollection(userInterfaceStyle: .light, displayScale: scale, horizontalSizeClass: .compact,
                          verticalSizeClass: size.width > size.height ? .compact : .regular)
    }
}

/// How much room a view has along one axis, in Apple's two steps.
public enum UIUserInterfaceSizeClass: Int, Sendable {
    /// Not known.
    case unspecified = 0
    /// Little room: an iPhone's width, or its height held sideways.
    case compact
    /// Ample room: an iPhone's height held upright.
    case regular
}
