/// The traits a named colour or image is chosen for: light or dark
/// appearance and the display's scale.
///
/// Views here do not carry trait collections yet; this is what
/// `UIColor(named:in:compatibleWith:)` and `UIImage(named:in:compatibleWith:)`
/// take, as in UIKit. A trait left unspecified means what the application
/// has: light appearance and the main screen's scale.
public final class UITraitCollection: NSObject, @unchecked Sendable {
    /// Light or dark appearance.
    public enum UserInterfaceStyle: Int, Sendable {
        case unspecified = 0, light, dark
    }

    public let userInterfaceStyle: UserInterfaceStyle
    /// Pixels per point; 0 is unspecified.
    public let displayScale: CGFloat

    /// A collection with every trait unspecified.
    public override init() {
        userInterfaceStyle = .unspecified
        displayScale = 0
        super.init()
    }

    public init(userInterfaceStyle: UserInterfaceStyle) {
        self.userInterfaceStyle = userInterfaceStyle
        displayScale = 0
        super.init()
    }

    public init(displayScale: CGFloat) {
        userInterfaceStyle = .unspecified
        self.displayScale = displayScale.isFinite && displayScale > 0 ? displayScale : 0
        super.init()
    }
}
