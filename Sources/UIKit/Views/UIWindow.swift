/// The root of a view tree on screen, and the place where the application
/// delivers its events.
///
/// A window is hidden until ``makeKeyAndVisible()`` (or `isHidden = false`).
/// Its `frame` is in screen coordinates. For touches, the visible window
/// with the highest ``windowLevel`` that hit-tests a view wins; among equal
/// levels, the most recently shown.
@preconcurrency @MainActor
open class UIWindow: UIView {
    /// Where a window stands among others; higher levels are in front.
    public struct Level: RawRepresentable, Hashable, Comparable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let normal = Level(0)
        public static let statusBar = Level(1000)
        public static let alert = Level(2000)

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    open var windowLevel: Level = .normal {
        didSet { UIApplication.shared.windowOrderDidChange() }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        joinApplication()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        joinApplication()
    }

    /// A window of `windowScene`, filling its screen.
    public convenience init(windowScene: UIWindowScene) {
        self.init(frame: windowScene.screen.bounds)
        // An initializer's own assignment runs no observer.
        self.windowScene = windowScene
        windowScene.add(self)
    }

    /// The scene the window belongs to. Windows made before the scene
    /// connected join it then, as on iOS for an application without a scene delegate.
    open weak var windowScene: UIWindowScene? {
        didSet {
            guard oldValue !== windowScene else { return }
            oldValue?.remove(self)
            windowScene?.add(self)
        }
    }

    /// A new window is hidden, and known to the application.
    private func joinApplication() {
        layer.isHidden = true
        UIApplication.shared.register(self)
        safeAreaMayHaveChanged()
    }

    /// Released on the main thread, as every view (see `UIView`'s deinitializer).
    deinit {
        MainActor.assumeIsolated {
            UIApplication.shared.unregister(self)
            for subview in subviews { subview.windowWillGoAway() }
        }
    }

    open override var isHidden: Bool {
        didSet {
            if oldValue && !isHidden { UIApplication.shared.windowDidBecomeVisible(self) }
            if !oldValue && isHidden { UIApplication.shared.windowDidBecomeHidden(self) }
            if oldValue != isHidden { UIApplication.shared.windowOrderDidChange() }
        }
    }

    /// The controller whose view fills the window.
    open var rootViewController: UIViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue?.viewIfLoaded, old.superview === self { old.removeFromSuperview() }
            if let root = rootViewController?.view {
                root.frame = bounds
                addSubview(root)
            }
        }
    }

    /// Whether this is the application's key window.
    public var isKeyWindow: Bool { UIApplication.shared.keyWindow === self }

    open func makeKey() { UIApplication.shared.makeKey(self) }

    /// Shows the window and makes it the key window.
    open func makeKeyAndVisible() {
        isHidden = false
        makeKey()
    }

    /// Called when the window becomes the key window.
    open func becomeKey() {}
    /// Called when the window stops being the key window.
    open func resignKey() {}

    /// This window's first responder (see `FirstResponder.swift`).
    weak var firstResponder: UIResponder?

    /// Delivers an event to the views of this window that own its touches
    /// (see `TouchRouting.swift`), or a press or motion to the first
    /// responder (see `PressRouting.swift`). Override to watch every event
    /// the window receives; call super.
    open func sendEvent(_ event: UIEvent) {
        guard event.type == .touches else {
            PressRouting.deliver(event, in: self)
            return
        }
        // Touch routing's step 5: recognizers first, then views.
        let application = UIApplication.shared
        let touches = application.touchRouter.touches(of: event, in: self)
        application.gestureArena.deliver(event, touches: touches)
        application.touchRouter.deliverToViews(touches, of: event)
    }

    /// The application: windows pass what they do not handle to it.
    open override var next: UIResponder? { UIApplication.shared }
}
