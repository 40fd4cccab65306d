/// What a navigation controller asks and tells about its transitions.
@MainActor
public protocol UINavigationControllerDelegate: AnyObject {
    /// `viewController` is about to be shown on top (before the transition).
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    /// `viewController` is on top (the transition has ended).
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
    /// An animator for an animated push or pop; nil (the default) uses the
    /// standard slide.
    func navigationController(
        _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
        from fromVC: UIViewController, to toVC: UIViewController
    ) -> UIViewControllerAnimatedTransitioning?
    /// An object that lets a gesture drive the transition `animationController`
    /// animates; nil (the default) lets it run by itself.
    func navigationController(
        _ navigationController: UINavigationController, interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
    ) -> UIViewControllerInteractiveTransitioning?
}

extension UINavigationControllerDelegate {
    public func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {}
    public func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {}
    public func navigationController(
        _ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
        from fromVC: UIViewController, to toVC: UIViewController
    ) -> UIViewControllerAnimatedTransitioning? { nil }
    public func navigationController(
        _ navigationController: UINavigationController, interactionControllerFor animationController: UIViewControllerAnimatedTransitioning
    ) -> UIViewControllerInteractiveTransitioning? { nil }
}

/// A container that shows a stack of view controllers one at a time, the
/// top one's view under a ``navigationBar``: pushing a controller slides it
/// in over the one below, popping slides it away, and the bar's back
/// button or a swipe from the leading edge pops.
///
/// As in UIKit:
/// - Each controller in ``viewControllers`` is a child; its
///   `navigationController` is this one, and its `navigationItem` is what
///   the bar shows while it is on top.
/// - A transition tells the outgoing controller `viewWillDisappear`, the
///   incoming `viewWillAppear`, and, when it has ended, `viewDidDisappear`
///   then `viewDidAppear`. The stack changes when the transition starts.
/// - The delegate hears `willShow` before and `didShow` after, and may give
///   an animator and an interaction controller of its own.
/// - While a transition runs, the navigation controller's view takes no new
///   touches.
/// - ``interactivePopGestureRecognizer``: a finger that lands within 20
///   points of the leading edge and moves away from it drags the top view
///   off, uncovering the one below, which follows from 30 % of the width
///   to the leading side. Let go, the pop completes if the finger was
///   moving toward the trailing edge faster than one width per second, is
///   cancelled if it was moving back as fast, and otherwise completes if
///   the view was dragged more than half way. It does nothing at the root,
///   while another transition runs, or when the top item hides the back
///   button or replaces it with its own left items; it wins over a scroll
///   view in the top controller for fingers at the edge, and the scroll
///   view keeps every other touch.
///
/// The top controller's view reaches under the bar, as in UIKit: the bar
/// is translucent by default (``UINavigationBar/isTranslucent``), the view
/// fills the navigation controller's, and its safe area leaves out what the
/// bar covers (its `safeAreaInsets.top` is the bar's bottom edge; a table
/// there rests with its first row below the bar). A controller whose
/// ``UIViewController/edgesForExtendedLayout`` leaves out the top, or an
/// opaque bar without ``UIViewController/extendedLayoutIncludesOpaqueBars``,
/// has its view start below the bar. The bar is drawn opaque either way
/// (no blur). There are no large titles or toolbar. A push or pop asked
/// for while a transition runs waits until that transition has ended.
@preconcurrency @MainActor
open class UINavigationController: UIViewController {
    /// What a transition does to the stack.
    public enum Operation: Int, Sendable {
        case none, push, pop
    }

    /// How long showing or hiding the bar takes when animated.
    public static let hideShowBarDuration: CGFloat = NavigationMetrics.hideShowBarDuration

    /// The bar, kept showing the top controller's navigation item.
    public let navigationBar = UINavigationBar(frame: .zero)
    open weak var delegate: UINavigationControllerDelegate?
    /// The swipe from the leading edge that pops the top controller.
    open var interactivePopGestureRecognizer: UIGestureRecognizer? { backSwipe }
    private let backSwipe = BackSwipeRecognizer()

    private var stack: [UIViewController] = []
    /// Holds the children's views, under or below the bar (UIKit's navigation transition view).
    private let contentView = UIView(frame: .zero)
    /// The transition running, if any.
    private(set) var transition: NavigationTransition?
    /// Operations asked for while a transition ran, run when it ends.
    private var waitingOperations: [@MainActor () -> Void] = []
    /// Drives the back swipe's pop while the finger is down.
    private var backSwipeDriver: BackSwipeDriver?
    /// The driver of the back swipe whose pop is being asked for.
    private var startingBackSwipe: BackSwipeDriver?

    public override init(nibName: String?, bundle: Bundle?) {
        super.init(nibName: nibName, bundle: bundle)
    }

    /// A navigation controller showing `rootViewController`.
    public convenience init(rootViewController: UIViewController) {
        self.init(nibName: nil, bundle: nil)
        setViewControllers([rootViewController], animated: false)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    // MARK: The stack

    /// The stack, the root first and the top last; setting it is
    /// ``setViewControllers(_:animated:)`` without animation.
    open var viewControllers: [UIViewController] {
        get { stack }
        set { setViewControllers(newValue, animated: false) }
    }

    open var topViewController: UIViewController? { stack.last }

    /// The controller whose view is shown: the last of those presented
    /// over this controller or over the top one, or else the top one.
    open var visibleViewController: UIViewController? {
        var shown = presentedViewController ?? topViewController?.presentedViewController
        while let next = shown?.presentedViewController { shown = next }
        return shown ?? topViewController
    }

    /// Puts `viewController` on top. A controller already in the stack, or
    /// this navigation controller, is refused (and reported).
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        guard !stack.contains(where: { $0 === viewController }), viewController !== self,
              !(viewController is UINavigationController) else {
            return report("\(viewController) cannot be pushed onto \(self): it is in the stack already, or a navigation controller")
        }
        if waitsForTransition({ $0.pushViewController(viewController, animated: animated) }) { return }
        change(to: stack + [viewController], animated: animated)
    }

    /// Takes the top controller off and returns it; at the root, does
    /// nothing and returns nil.
    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard stack.count > 1, let top = stack.last else { return nil }
        if waitsForTransition({ $0.popViewController(animated: animated) }) { return top }
        change(to: Array(stack.dropLast()), animated: animated)
        return top
    }

    /// Pops everything above the root; returns what was popped, nil at the root.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        guard stack.count > 1 else { return nil }
        return popToViewController(stack[0], animated: animated)
    }

    /// Pops everything above `viewController`; returns what was popped, or
    /// nil when `viewController` is not in the stack (reported).
    @discardableResult
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        guard let index = stack.firstIndex(where: { $0 === viewController }) else {
            report("\(viewController) is not in the stack of \(self): nothing was popped")
            return nil
        }
        let popped = Array(stack[(index + 1)...])
        if popped.isEmpty || waitsForTransition({ $0.popToViewController(viewController, animated: animated) }) { return popped }
        change(to: Array(stack[...index]), animated: animated)
        return popped
    }

    /// Replaces the stack. A new top that was in the stack is shown with a
    /// pop, another with a push. Repeated controllers are refused (reported).
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {
        var seen: [ObjectIdentifier] = []
        for controller in viewControllers {
            let id = ObjectIdentifier(controller)
            guard !seen.contains(id), controller !== self else {
                return report("\(controller) appears twice in the stack given to \(self); the stack was not changed")
            }
            seen.append(id)
        }
        if waitsForTransition({ $0.setViewControllers(viewControllers, animated: animated) }) { return }
        change(to: viewControllers, animated: animated)
    }

    /// While a transition runs, keeps `operation` to run on the stack as it
    /// is once the transition has ended, and returns true.
    private func waitsForTransition(_ operation: @escaping @MainActor (UINavigationController) -> Void) -> Bool {
        guard transition != nil else { return false }
        waitingOperations.append { [weak self] in
            if let self { operation(self) }
        }
        return true
    }

    /// Runs the transition from the stack to `newStack`.
    private func change(to newStack: [UIViewController], animated: Bool) {
        let interaction = startingBackSwipe
        startingBackSwipe = nil
        let oldStack = stack
        let from = oldStack.last, to = newStack.last
        let operation: Operation = from === to ? .none : oldStack.contains { $0 === to } ? .pop : .push
        let added = newStack.filter { controller in !oldStack.contains { $0 === controller } }
        let removed = oldStack.filter { controller in !newStack.contains { $0 === controller } }
        for controller in added { addChild(controller) }
        for controller in removed { controller.willMove(toParent: nil) }
        stack = newStack
        let transition = NavigationTransition(
            navigationController: self, from: from, to: to, operation: operation, oldStack: oldStack,
            added: added, removed: removed, isAnimated: animated && isInWindow && operation != .none)
        self.transition = transition
        transition.start(interaction: interaction)
    }

    /// Whether this controller's view is on screen, so that its children's
    /// appearance changes are told.
    var isInWindow: Bool { viewIfLoaded?.window != nil }

    /// The transition is starting: the bar gets ready to cross-fade to
    /// the new stack, or, without animation, shows it.
    func transitionWillStart(_ starting: NavigationTransition) {
        if starting.isAnimated {
            navigationBar.beginTransition(to: stack.map(\.navigationItem), pushing: starting.operation == .push)
        } else {
            navigationBar.setItems(stack.map(\.navigationItem), animated: false)
        }
    }

    /// The transition has ended: the stack is what it ended with.
    func transitionDidEnd(_ ended: NavigationTransition, completed: Bool) {
        if !completed { stack = ended.oldStack }
        if ended.isAnimated {
            navigationBar.endTransition(completed: completed)
        } else {
            navigationBar.setItems(stack.map(\.navigationItem), animated: false)
        }
        transition = nil
        backSwipeDriver = nil
        if completed, let top = stack.last { delegate?.navigationController(self, didShow: top, animated: ended.isAnimated) }
        let waiting = waitingOperations
        waitingOperations.removeAll()
        for operation in waiting { operation() }
    }

    private func report(_ message: String) {
        UIApplication.shared.diagnostics.report(Diagnostic(.presentation, message))
    }

    // MARK: The view

    open override func loadView() {
        let container = NavigationContainerView(frame: UIScreen.main.bounds)
        container.navigationController = self
        container.backgroundColor = .systemBackground
        view = container
        container.addSubview(contentView)
        container.addSubview(navigationBar)
        navigationBar.setItems(stack.map(\.navigationItem), animated: false)
        navigationBar.backButtonAction = { [weak self] in self?.popViewController(animated: true) }
        backSwipe.edges = .left
        backSwipe.navigationController = self
        backSwipe.addTarget(self, action: UINavigationController.backSwipeChanged)
        container.addGestureRecognizer(backSwipe)
        if let top = stack.last {
            top.view.frame = contentView.bounds
            contentView.addSubview(top.view)
        }
    }

    /// Where the children's views go: the whole view (under the bar), or
    /// below the bar when the top controller does not reach under it.
    var contentFrame: CGRect { contentView.frame }
    var transitionContainer: UIView { contentView }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let top = view.safeAreaInsets.top
        // A hidden bar sits just above the view, where it slides to and from.
        let barY = barIsHidden ? top - NavigationMetrics.barHeight : top
        navigationBar.frame = CGRect(x: 0, y: barY, width: view.bounds.width, height: NavigationMetrics.barHeight)
        let underBar = stack.last?.extendsLayout(under: .top, translucentBar: navigationBar.isTranslucent) ?? true
        let contentTop = barIsHidden || underBar ? 0 : navigationBar.frame.maxY
        contentView.frame = CGRect(x: 0, y: contentTop, width: view.bounds.width, height: max(0, view.bounds.height - contentTop))
        navigationBar.layoutIfNeeded()
        if transition == nil { stack.last?.viewIfLoaded?.frame = contentView.bounds }
        // The bar moved or came: the children's safe areas follow it.
        if !barIsHidden { UIApplication.shared.safeAreasInUse = true }
        contentView.subviewsSafeAreaMayHaveChanged()
    }

    /// The bar covers the top of a child's view that reaches under it, down
    /// to the bar's bottom edge.
    override func insetsCoveredByBars(ofChildView child: UIView) -> UIEdgeInsets {
        guard isViewLoaded, !barIsHidden, child.isDescendant(of: contentView) else { return .zero }
        let rect = child.convert(child.bounds, to: view)
        return UIEdgeInsets(top: min(max(0, navigationBar.frame.maxY - rect.minY), rect.height), left: 0, bottom: 0, right: 0)
    }

    // MARK: The bar

    /// Whether the bar is hidden (or on its way out); setting it is
    /// ``setNavigationBarHidden(_:animated:)`` without animation.
    open var isNavigationBarHidden: Bool {
        get { barIsHidden }
        set { setNavigationBarHidden(newValue, animated: false) }
    }
    private var barIsHidden = false

    /// Hides or shows the bar; the content takes the bar's room or gives it
    /// back. Animated, the bar slides up out of the view or down into it
    /// over ``hideShowBarDuration`` as the content follows.
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        guard hidden != barIsHidden else { return }
        barIsHidden = hidden
        guard isViewLoaded else { return navigationBar.isHidden = hidden }
        guard animated, isInWindow else {
            navigationBar.isHidden = hidden
            view.setNeedsLayout()
            return view.layoutIfNeeded()
        }
        navigationBar.isHidden = false
        view.setNeedsLayout()
        UIView.animate(withDuration: TimeInterval(Self.hideShowBarDuration), animations: {
            self.view.layoutIfNeeded()
        }, completion: { _ in
            self.navigationBar.isHidden = self.barIsHidden
        })
    }

    // MARK: The back swipe

    /// Whether the back swipe may start now: not at the root, nor during a
    /// transition, nor when the back button is hidden or replaced, nor when
    /// the delegate animates pops itself (UIKit's swipe stops working then too).
    fileprivate var allowsBackSwipe: Bool {
        guard transition == nil, stack.count > 1, let top = stack.last else { return false }
        let item = top.navigationItem
        guard !item.hidesBackButton, item.leftBarButtonItems?.isEmpty ?? true || item.leftItemsSupplementBackButton else { return false }
        return delegate?.navigationController(self, animationControllerFor: .pop, from: top, to: stack[stack.count - 2]) == nil
    }

    private func backSwipeChanged() {
        let width = max(1, contentView.bounds.width)
        switch backSwipe.state {
        case .began:
            guard allowsBackSwipe else { return }
            let driver = BackSwipeDriver()
            backSwipeDriver = driver
            // Through popViewController, so that a subclass that overrides
            // it sees the swipe's pop too, as in UIKit.
            startingBackSwipe = driver
            popViewController(animated: true)
            startingBackSwipe = nil
            driver.update(backSwipe.translation(in: contentView).x / width)
        case .changed:
            backSwipeDriver?.update(backSwipe.translation(in: contentView).x / width)
        case .ended:
            let fraction = backSwipe.translation(in: contentView).x / width
            let speed = backSwipe.velocity(in: contentView).x / width
            let completes: Bool
            if abs(speed) >= NavigationMetrics.backSwipeDecisiveSpeed {
                completes = speed > 0
            } else {
                completes = fraction > NavigationMetrics.backSwipeCompletionFraction
            }
            backSwipeDriver?.letGo(completing: completes, speed: speed)
        case .cancelled, .failed:
            backSwipeDriver?.letGo(completing: false, speed: 0)
        default:
            break
        }
    }

    /// Whether `recognizer` (on this controller's view) may begin now: the
    /// back swipe only when ``allowsBackSwipe``.
    fileprivate func shouldBegin(_ recognizer: UIGestureRecognizer) -> Bool {
        recognizer !== backSwipe || allowsBackSwipe
    }

    /// A scroll view's pan in the content waits for the back swipe to fail:
    /// for a finger away from the edge it fails at once; at the edge the
    /// swipe wins unless the finger moves along the edge.
    fileprivate func waitsForBackSwipe(_ recognizer: UIGestureRecognizer) -> Bool {
        guard let scrollView = recognizer.view as? UIScrollView, recognizer === scrollView.panGestureRecognizer else { return false }
        return scrollView.isDescendant(of: contentView)
    }
}

/// The navigation controller's view: it ignores touches while a transition
/// runs and lets the back swipe begin only when it may (whatever delegate
/// the app gives the recognizer).
@MainActor
private final class NavigationContainerView: UIView {
    weak var navigationController: UINavigationController?

    override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        if navigationController?.transition != nil { return nil }
        return super.hitTest(point, with: event)
    }

    override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        navigationController?.shouldBegin(gestureRecognizer) ?? true
    }
}

/// The back swipe: a pan from the leading edge that scroll views in the
/// content wait for.
@MainActor
private final class BackSwipeRecognizer: UIScreenEdgePanGestureRecognizer {
    weak var navigationController: UINavigationController?

    override func shouldBeRequiredToFail(by otherGestureRecognizer: UIGestureRecognizer) -> Bool {
        navigationController?.waitsForBackSwipe(otherGestureRecognizer) ?? false
    }
}
