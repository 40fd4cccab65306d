/// The edit menu (Cut, Copy, Paste and the app's own items) shown over
/// selected text, as UIKit's `UIMenuController`.
///
/// OpenUIKit has no text input yet, and so no edit menu to show: this is a
/// stand-in that keeps the state code sets and reads (``menuItems``,
/// ``arrowDirection``), so that code written for UIKit compiles and runs,
/// and that reports the menu as never shown: ``showMenu(from:rect:)`` does
/// nothing and ``isMenuVisible`` stays false. It will show a menu once
/// text input brings one.
@preconcurrency @MainActor
open class UIMenuController: NSObject {
    /// The application's menu controller.
    open class var shared: UIMenuController { UIApplication.shared.menuController }

    /// Where the menu's arrow points.
    public enum ArrowDirection: Int, Sendable {
        case `default`, up, down, left, right
    }

    /// Posted by UIKit around showing and hiding the menu; never posted
    /// here, as the menu is never shown.
    public static let willShowMenuNotification = Notification.Name("UIMenuControllerWillShowMenuNotification")
    public static let didShowMenuNotification = Notification.Name("UIMenuControllerDidShowMenuNotification")
    public static let willHideMenuNotification = Notification.Name("UIMenuControllerWillHideMenuNotification")
    public static let didHideMenuNotification = Notification.Name("UIMenuControllerDidHideMenuNotification")
    public static let menuFrameDidChangeNotification = Notification.Name("UIMenuControllerMenuFrameDidChangeNotification")

    /// Items shown after the system's; kept, not shown.
    open var menuItems: [UIMenuItem]?
    open var arrowDirection = ArrowDirection.default

    /// Whether the menu is on screen: always false here. Setting it does nothing.
    open var isMenuVisible: Bool {
        get { false }
        set {}
    }

    /// The menu's frame in screen coordinates: empty, as no menu is shown.
    open var menuFrame: CGRect { .zero }

    /// Would show the menu pointing at `targetRect` of `targetView`; shows nothing here.
    open func showMenu(from targetView: UIView, rect targetRect: CGRect) {}

    /// Would hide the menu shown from `targetView`; there is none.
    open func hideMenu(from targetView: UIView) {}

    /// Would hide the menu; there is none.
    open func hideMenu() {}

    /// The older form of ``showMenu(from:rect:)``'s target; kept, not used.
    open func setTargetRect(_ targetRect: CGRect, in targetView: UIView) {}

    /// The older way to show or hide the menu; shows nothing here.
    open func setMenuVisible(_ menuVisible: Bool, animated: Bool) {}

    /// Would rebuild the menu's items from the responders; there is no menu.
    open func update() {}
}

/// A custom item of the edit menu: a title, and the action sent along the
/// responder chain (a nil-targeted action) when it is chosen.
@preconcurrency @MainActor
open class UIMenuItem: NSObject {
    open var title: String
    open var action: Selector

    public init(title: String, action: Selector) {
        self.title = title
        self.action = action
        super.init()
    }
}
