/// How a presented view controller covers the screen. Every style puts the
/// presented view in a `UITransitionView` over the whole window. The page
/// and form sheets (and `.automatic`, a page sheet for a plain controller
/// on iPhone since iOS 13) show it in a card below the top of the screen,
/// the presenter scaled back and dimmed behind it (see
/// ``UISheetPresentationController``); the other styles give it the whole
/// container.
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0, pageSheet, formSheet, currentContext, custom, overFullScreen, overCurrentContext, popover
    /// Not a presentation: what a navigation transition's context reports.
    case none = -1
    case automatic = -2
}

/// Manages a view: loads it on first use, tells it when it appears, holds
/// child controllers, and presents other controllers over it.
@preconcurrency @MainActor
open class UIViewController: UIResponder {
    private var loadedView: UIView?
    private var appearance = Appearance.disappeared
    private enum Appearance { case disappeared, appearing, appeared, disappearing }

    public init(nibName: String?, bundle: Bundle?) {
        super.init()
    }

    public override convenience init() {
        self.init(nibName: nil, bundle: nil)
    }

    /// Not for view controllers: UIKit makes only delegates from their class.
    @available(*, unavailable)
    public required init(madeByUIKit _: MadeByUIKit) {
        fatalError("UIKit makes no view controllers from a class")
    }

    nonisolated open override var description: String { "<\(type(of: self))>" }

    public required init?(coder: NSCoder) {
        super.init()
    }

    // MARK: The view

    /// The root view, loaded (``loadView()`` then ``viewDidLoad()``) on first access.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningViewController = nil
            loadedView = newValue
            newValue?.owningViewController = self
        }
    }

    public var viewIfLoaded: UIView? { loadedView }
    public var isViewLoaded: Bool { loadedView != nil }

    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { view = UIView(frame: UIScreen.main.bounds) }
        viewDidLoad()
    }

    /// Makes the root view; the default is a plain view the size of the screen.
    open func loadView() {
        view = UIView(frame: UIScreen.main.bounds)
    }

    open func viewDidLoad() {}

    // MARK: Layout

    /// Called before the root view lays out its subviews.
    open func viewWillLayoutSubviews() {}

    /// The controller's part of the update-constraints pass, for its view;
    /// the default updates the view's constraints. Call `super` at the end.
    open func updateViewConstraints() {
        view.updateConstraints()
    }
    /// Called after the root view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    // MARK: The safe area

    /// Insets added to the safe area the root view gets from its
    /// superview: room a controller keeps for bars of its own. Negative or
    /// non-finite insets are refused.
    open var additionalSafeAreaInsets = UIEdgeInsets.zero {
        didSet {
            let edges = [additionalSafeAreaInsets.top, additionalSafeAreaInsets.left,
                         additionalSafeAreaInsets.bottom, additionalSafeAreaInsets.right]
            guard edges.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return additionalSafeAreaInsets = oldValue }
            guard additionalSafeAreaInsets != oldValue else { return }
            if additionalSafeAreaInsets != .zero { UIApplication.shared.safeAreasInUse = true }
            viewIfLoaded?.safeAreaMayHaveChanged()
        }
    }

    /// Called when the root view's safe area changed, after the view's own
    /// `safeAreaInsetsDidChange()`; the view is marked for layout.
    open func viewSafeAreaInsetsDidChange() {}

    // MARK: Margins

    /// The smallest layout margins the root view takes: 16 points leading
    /// and trailing on an iPhone-sized screen (a compact width), 20 on an
    /// iPad-sized one (a regular width), none at the top and bottom. Margins
    /// set on the root view that are smaller give way to these, side by
    /// side. It does not touch the margins of other views.
    public var systemMinimumLayoutMargins: NSDirectionalEdgeInsets {
        let screen = UIScreen.main.bounds.size
        let side = min(screen.width, screen.height) >= LayoutMetrics.regularWidthShortestScreenSide
            ? LayoutMetrics.regularMinimumSideMargin : LayoutMetrics.compactMinimumSideMargin
        return NSDirectionalEdgeInsets(top: 0, leading: side, bottom: 0, trailing: side)
    }

    /// Whether the root view's margins are at least
    /// ``systemMinimumLayoutMargins`` (true by default). Set it to false to
    /// give the root view exactly the margins set on it, zero included.
    open var viewRespectsSystemMinimumLayoutMargins = true {
        didSet {
            guard viewRespectsSystemMinimumLayoutMargins != oldValue else { return }
            viewIfLoaded?.marginsDidChange()
        }
    }

    /// The edges of the root view that reach under a navigation or tab bar
    /// controller's bars (UIKit's default: all of them). A translucent bar
    /// (``UINavigationBar/isTranslucent``, the default) then lies over the
    /// view, and the view's safe area leaves the bar out; an edge left out
    /// here stops at the bar. Apple now advises reading the safe area instead.
    open var edgesForExtendedLayout: UIRectEdge = .all {
        didSet { parent?.viewIfLoaded?.setNeedsLayout() }
    }

    /// Whether the root view reaches under opaque bars too (UIKit's default: no).
    open var extendedLayoutIncludesOpaqueBars = false {
        didSet { parent?.viewIfLoaded?.setNeedsLayout() }
    }

    /// Whether the root view reaches under a bar on `edge` that is
    /// translucent or not.
    func extendsLayout(under edge: UIRectEdge, translucentBar: Bool) -> Bool {
        edgesForExtendedLayout.contains(edge) && (translucentBar || extendedLayoutIncludesOpaqueBars)
    }

    /// How far this container's bars reach into `child`'s root view from
    /// each edge: part of that view's safe area (a navigation controller's
    /// bar from the top, a tab bar controller's from the bottom; none here).
    func insetsCoveredByBars(ofChildView view: UIView) -> UIEdgeInsets { .zero }

    // MARK: Appearance

    /// The view is about to join a window.
    open func viewWillAppear(_ animated: Bool) {}
    /// The view has joined a window.
    open func viewDidAppear(_ animated: Bool) {}
    /// The view is about to leave its window.
    open func viewWillDisappear(_ animated: Bool) {}
    /// The view has left its window.
    open func viewDidDisappear(_ animated: Bool) {}

    /// Called by the root view as it is about to move between windows.
    /// While a container drives this controller's appearance
    /// (``beginAppearanceTransition(_:animated:)``), window moves tell nothing.
    func viewWillMove(toWindow newWindow: UIWindow?) {
        guard !isInAppearanceTransition else { return }
        if newWindow != nil && (appearance == .disappeared || appearance == .disappearing) {
            appearance = .appearing
            viewWillAppear(false)
        } else if newWindow == nil && (appearance == .appeared || appearance == .appearing) {
            appearance = .disappearing
            viewWillDisappear(false)
        }
    }

    /// Called by the root view once it has moved between windows.
    func viewDidMoveToWindow(_ window: UIWindow?) {
        guard !isInAppearanceTransition else { return }
        if window != nil && appearance == .appearing {
            appearance = .appeared
            viewDidAppear(false)
        } else if window == nil && appearance == .disappearing {
            appearance = .disappeared
            viewDidDisappear(false)
        }
    }

    /// Whether the view is on screen or coming on: what a presentation that
    /// hides it tells `viewWillDisappear`.
    var isAppearingOrAppeared: Bool { appearance == .appearing || appearance == .appeared }

    /// Set between ``beginAppearanceTransition(_:animated:)`` and
    /// ``endAppearanceTransition()``.
    private var isInAppearanceTransition = false
    private var appearanceTransitionIsAnimated = false

    /// Tells this controller that its view is about to appear (`true`) or
    /// disappear, as a container does for a child whose view it moves:
    /// `viewWillAppear` or `viewWillDisappear` runs now (unless the view is
    /// already going that way), and the `did` call waits for
    /// ``endAppearanceTransition()``. In between, the view may join or leave
    /// the window without further calls. Beginning the opposite way before
    /// the end (a cancelled interactive transition) calls the opposite
    /// `will` method, as in UIKit.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        isInAppearanceTransition = true
        appearanceTransitionIsAnimated = animated
        if isAppearing && (appearance == .disappeared || appearance == .disappearing) {
            appearance = .appearing
            viewWillAppear(animated)
        } else if !isAppearing && (appearance == .appeared || appearance == .appearing) {
            appearance = .disappearing
            viewWillDisappear(animated)
        }
    }

    /// Ends the transition ``beginAppearanceTransition(_:animated:)``
    /// began: `viewDidAppear` or `viewDidDisappear` runs.
    public func endAppearanceTransition() {
        guard isInAppearanceTransition else { return }
        isInAppearanceTransition = false
        if appearance == .appearing {
            appearance = .appeared
            viewDidAppear(appearanceTransitionIsAnimated)
        } else if appearance == .disappearing {
            appearance = .disappeared
            viewDidDisappear(appearanceTransitionIsAnimated)
        }
    }

    // MARK: Containment

    public private(set) var children: [UIViewController] = []
    public private(set) weak var parent: UIViewController?

    /// Makes `child` a child of this controller, calling its
    /// `willMove(toParent:)`. Add its view yourself, then call its
    /// `didMove(toParent:)`, as in UIKit.
    open func addChild(_ child: UIViewController) {
        guard child.parent !== self, child !== self else { return }
        child.willMove(toParent: self)
        child.detachFromParent()
        children.append(child)
        child.parent = self
    }

    /// Takes this controller from its parent and calls `didMove(toParent: nil)`.
    /// Call `willMove(toParent: nil)` first and remove the view yourself, as in UIKit.
    open func removeFromParent() {
        guard parent != nil else { return }
        detachFromParent()
        didMove(toParent: nil)
    }

    private func detachFromParent() {
        parent?.children.removeAll { $0 === self }
        parent = nil
    }

    open func willMove(toParent parent: UIViewController?) {}
    open func didMove(toParent parent: UIViewController?) {}

    // MARK: Presentation

    /// The controller this one presents, if any.
    public private(set) var presentedViewController: UIViewController?
    private weak var presenter: UIViewController?
    private var transitionView: UITransitionView?
    /// The controllers this one's presentation took out of sight (see
    /// `UIModalPresentationStyle.hidesPresenter`), which reappear when it
    /// is dismissed.
    private var hiddenByPresentation: [UIViewController] = []
    /// The window's views this controller's full-screen presentation took
    /// out of the window once it ended, in order, to put back behind its
    /// transition view when it is dismissed.
    private var viewsTakenOut: [UIView] = []

    /// Takes the views behind `presented`'s transition view out of the
    /// window, as UIKit removes the views under a full-screen presentation
    /// once its transition has ended ("UIKit normally removes the views of
    /// the underlying view controller after the transition animations
    /// finish", UIModalPresentationStyle.fullScreen).
    private static func takeOutViewsBehind(_ presented: UIViewController) {
        guard presented.modalPresentationStyle.hidesPresenter, let container = presented.transitionView,
              let window = container.superview else { return }
        let behind = Array(window.subviews.prefix { $0 !== container })
        presented.viewsTakenOut = behind
        for view in behind { view.removeFromSuperview() }
    }

    /// Puts back, in their order, the views ``takeOutViewsBehind(_:)`` took out.
    private static func putBackViewsBehind(_ presented: UIViewController) {
        defer { presented.viewsTakenOut = [] }
        guard let container = presented.transitionView, let window = container.superview else { return }
        for view in presented.viewsTakenOut { window.insertSubview(view, belowSubview: container) }
    }

    /// The controller that presented this one or its nearest presented ancestor.
    public var presentingViewController: UIViewController? {
        presenter ?? parent?.presentingViewController
    }

    /// The controller's title; an alert shows it, a tab bar item is made
    /// from it, and setting it sets ``navigationItem``'s title too, as in
    /// UIKit.
    open var title: String? {
        didSet { storedNavigationItem?.title = title }
    }

    /// What a navigation bar shows while this controller is on top of a
    /// navigation controller: made the first time it is read, with the
    /// controller's ``title``.
    open var navigationItem: UINavigationItem {
        if let storedNavigationItem { return storedNavigationItem }
        let item = UINavigationItem()
        item.title = title
        storedNavigationItem = item
        return item
    }
    private var storedNavigationItem: UINavigationItem?

    /// The nearest navigation controller among this controller's ancestors.
    public var navigationController: UINavigationController? {
        parent as? UINavigationController ?? parent?.navigationController
    }

    /// The coordinator of the transition this controller takes part in
    /// while it runs (a push or pop of its navigation controller); nil
    /// otherwise. Blocks given to it run alongside the transition and once
    /// it has ended.
    open var transitionCoordinator: UIViewControllerTransitionCoordinator? {
        runningTransitionCoordinator ?? parent?.transitionCoordinator
    }
    /// Set by a container on itself while it runs a transition.
    var runningTransitionCoordinator: UIViewControllerTransitionCoordinator?

    /// Shows `viewController` the way the context calls for: pushed onto
    /// the navigation controller this controller is in, presented otherwise.
    open func show(_ viewController: UIViewController, sender: Any?) {
        if let navigationController {
            navigationController.pushViewController(viewController, animated: true)
        } else {
            present(viewController, animated: true)
        }
    }

    /// The item that stands for this controller in a tab bar: made from
    /// ``title`` the first time it is read, unless one is set.
    open var tabBarItem: UITabBarItem! {
        get {
            if storedTabBarItem == nil { storedTabBarItem = UITabBarItem(title: title, image: nil, tag: 0) }
            return storedTabBarItem
        }
        set { storedTabBarItem = newValue }
    }
    private var storedTabBarItem: UITabBarItem?

    /// The nearest tab bar controller among this controller's ancestors.
    public var tabBarController: UITabBarController? {
        parent as? UITabBarController ?? parent?.tabBarController
    }

    open var modalPresentationStyle: UIModalPresentationStyle = .automatic

    /// Whether the user is kept from dismissing this controller with a
    /// gesture (a sheet dragged down): the drag does nothing and the
    /// presentation controller's delegate hears
    /// `presentationControllerDidAttemptToDismiss(_:)`. False by default.
    open var isModalInPresentation = false

    /// The object that shows this controller when it is presented: a
    /// ``UISheetPresentationController`` for the sheet styles, made on first
    /// use (set its `delegate` before presenting, as in UIKit) and made
    /// again, keeping the delegate, if the style changes before the
    /// presentation.
    public var presentationController: UIPresentationController? {
        let wantsSheet = modalPresentationStyle.isSheet
        if let made = storedPresentationController, presenter != nil || (made is UISheetPresentationController) == wantsSheet {
            return made
        }
        let made = wantsSheet
            ? UISheetPresentationController(presentedViewController: self, presenting: nil)
            : UIPresentationController(presentedViewController: self, presenting: nil)
        made.delegate = storedPresentationController?.delegate
        storedPresentationController = made
        return made
    }
    private var storedPresentationController: UIPresentationController?

    /// The presentation controller when this controller is shown as a
    /// sheet; nil for the other styles.
    public var sheetPresentationController: UISheetPresentationController? {
        presentationController as? UISheetPresentationController
    }

    /// The transition view this controller is presented in, while it is.
    var presentationContainer: UIView? { transitionView }

    /// Gives the animator (and interaction controller) of this controller's
    /// presentation and dismissal; nil uses the standard slide. Not retained.
    open weak var transitioningDelegate: UIViewControllerTransitioningDelegate?

    /// Shows `viewController` over this controller's window: its view goes
    /// into a new `UITransitionView` added to the window in front of the
    /// views already there. Refused (and reported) when this controller is
    /// not in a window or already presents another controller. Animated,
    /// the view slides up from the bottom as iOS's default modal style does
    /// (an alert fades in and an action sheet slides up, see
    /// `AlertTransition.swift`; or as the `transitioningDelegate`'s
    /// animator moves it), and the application takes no new touches until
    /// it ends; `completion` runs then. Not animated, `completion` runs
    /// before the call returns.
    ///
    /// A sheet (the default style) slides up to below the window's
    /// safe-area top, and the views behind it shrink back and dim.
    ///
    /// Appearance: the presented controllers hear `viewWillAppear` when the
    /// transition starts and `viewDidAppear` when it ends; with
    /// `.fullScreen` or `.currentContext` the controllers on screen behind
    /// hear `viewWillDisappear` first and `viewDidDisappear` last (their
    /// views leave the window once the transition has ended, as UIKit's
    /// do, and come back when it is dismissed). Other styles, sheets
    /// among them, tell them nothing and leave their views, as on iOS.
    open func present(_ viewController: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil else {
            return reportPresentation("\(self) already presents \(presentedViewController!); \(viewController) was not presented")
        }
        guard let window = viewIfLoaded?.window else {
            return reportPresentation("\(self) is not in a window; \(viewController) was not presented")
        }
        guard viewController.presenter == nil, viewController !== self else {
            return reportPresentation("\(viewController) is already presented")
        }
        let container = UITransitionView(frame: window.bounds)
        let presentation = viewController.presentationController
        presentedViewController = viewController
        viewController.presenter = self
        viewController.transitionView = container
        let presentedView: UIView = viewController.view
        let hidden = viewController.modalPresentationStyle.hidesPresenter
            ? PresentationAppearance.controllers(in: window.subviews).filter(\.isAppearingOrAppeared) : []
        viewController.hiddenByPresentation = hidden
        let appearance = PresentationAppearance(
            appearing: PresentationAppearance.controllers(in: [presentedView]), disappearing: hidden, animated: flag)
        appearance.begin()
        window.addSubview(container)
        presentation?.install(in: container)
        guard flag else {
            presentation?.placeSurroundings(shown: 1)
            Self.takeOutViewsBehind(viewController)
            appearance.end()
            completion?()
            return
        }
        let delegate = viewController.transitioningDelegate
        let animator = delegate?.animationController(forPresented: viewController, presenting: self, source: self)
            ?? Self.standardAnimator(for: viewController, presenting: true)
        PresentationTransition(
            container: container, presenting: self, presented: viewController, isPresenting: true, animator: animator
        ) { [weak self] didComplete in
            if didComplete {
                Self.takeOutViewsBehind(viewController)
                appearance.end()
            } else {
                appearance.cancel()
                self?.removePresentation(of: viewController)
            }
            completion?()
        }.start(interaction: delegate?.interactionControllerForPresentation(using: animator))
    }

    /// UIKit's own animator for presenting or dismissing `presented`: an
    /// alert's or action sheet's, or the standard slide.
    private static func standardAnimator(for presented: UIViewController, presenting: Bool) -> UIViewControllerAnimatedTransitioning {
        presented is UIAlertController ? AlertTransitionAnimator(isPresenting: presenting) : ModalSlideAnimator()
    }

    /// Takes the presented controller's transition view away and forgets it.
    private func removePresentation(of presented: UIViewController) {
        presented.presentationController?.removeSurroundings()
        presented.transitionView?.removeFromSuperview()
        presented.transitionView = nil
        presented.presenter = nil
        presented.hiddenByPresentation = []
        if presentedViewController === presented { presentedViewController = nil }
    }

    /// Dismisses the controller this one presents, with any it presents in
    /// turn; called on a presented controller, asks its presenter to do it.
    ///
    /// Animated, the view slides down (or as the presented controller's
    /// `transitioningDelegate` animates it) and `completion` runs at the end;
    /// an interactive dismissal that is cancelled leaves it presented.
    /// Appearance mirrors ``present(_:animated:completion:)``: the
    /// presented controllers hear `viewWillDisappear` at the start and
    /// `viewDidDisappear` at the end, and the controllers a full-screen
    /// presentation hid hear `viewWillAppear` after the first and
    /// `viewDidAppear` before the second.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        dismissPresented(animated: flag, driver: nil, completion: completion)
    }

    /// Dismisses the controller this one presents, driven by a sheet's
    /// drag (`driver`): the gesture's dismissal does not go through
    /// ``dismiss(animated:completion:)``.
    func dismissPresented(driver: UIViewControllerInteractiveTransitioning, completion: @escaping () -> Void) {
        dismissPresented(animated: true, driver: driver, completion: completion)
    }

    private func dismissPresented(animated flag: Bool, driver: UIViewControllerInteractiveTransitioning?, completion: (() -> Void)?) {
        if let presented = presentedViewController {
            if presented.presentedViewController != nil { presented.dismiss(animated: false) }
            let appearance = PresentationAppearance(
                appearing: presented.hiddenByPresentation,
                disappearing: PresentationAppearance.controllers(in: presented.viewIfLoaded.map { [$0] } ?? []), animated: flag)
            appearance.begin()
            Self.putBackViewsBehind(presented)
            guard flag, let container = presented.transitionView else {
                removePresentation(of: presented)
                appearance.end()
                completion?()
                return
            }
            let delegate = presented.transitioningDelegate
            let animator = delegate?.animationController(forDismissed: presented)
                ?? Self.standardAnimator(for: presented, presenting: false)
            PresentationTransition(
                container: container, presenting: self, presented: presented, isPresenting: false, animator: animator
            ) { [weak self] didComplete in
                guard didComplete else {
                    appearance.cancel()
                    return Self.takeOutViewsBehind(presented)
                }
                self?.removePresentation(of: presented)
                appearance.end()
                completion?()
            }.start(interaction: driver ?? delegate?.interactionControllerForDismissal(using: animator))
        } else if let presenting = presentingViewController {
            presenting.dismiss(animated: flag, completion: completion)
        }
    }

    private func reportPresentation(_ message: String) {
        UIApplication.shared.diagnostics.report(Diagnostic(.presentation, message))
    }

    // MARK: The responder chain

    /// The window if this controller's view is the window's root view; the
    /// presenting controller if this one was presented; otherwise the
    /// superview of its view (for a child controller).
    open override var next: UIResponder? {
        if let window = loadedView?.superview as? UIWindow, window.rootViewController === self { return window }
        if let presenter { return presenter }
        return loadedView?.superview
    }
}

