/// One push or pop of a navigation controller, from start to end: the
/// context its animator is given, and the coordinator its controllers see.
///
/// The steps, in UIKit's order:
/// 1. The delegate hears `willShow`; the outgoing controller is told
///    `viewWillDisappear`, then the incoming `viewWillAppear` (when the
///    navigation controller is on screen); the incoming view joins the
///    container, above the outgoing one for a push and below it for a pop.
/// 2. Without animation the transition ends at once. With it, the animator
///    (the delegate's, or the standard slide) moves the views, or an
///    interaction controller lets a gesture move them, and the animator
///    calls ``completeTransition(_:)``.
/// 3. Completed: the outgoing view leaves, `viewDidDisappear` then
///    `viewDidAppear`, popped controllers leave the children and pushed ones
///    hear `didMove(toParent:)`, then the delegate's `didShow`.
///    Cancelled (a swipe given up): the incoming controller is told
///    `viewWillDisappear` and `viewDidDisappear`, the outgoing one
///    `viewWillAppear` and `viewDidAppear`, and the stack is as before.
@MainActor
final class NavigationTransition: UIViewControllerContextTransitioning, UIViewControllerTransitionCoordinator {
    private weak var navigationController: UINavigationController?
    let from: UIViewController?
    let to: UIViewController?
    let operation: UINavigationController.Operation
    /// The stack before the transition, restored if it is cancelled.
    let oldStack: [UIViewController]
    private let added: [UIViewController]
    private let removed: [UIViewController]
    let isAnimated: Bool
    /// Whether appearance changes are told (the navigation controller is on screen).
    private let tellsAppearance: Bool
    private var animator: UIViewControllerAnimatedTransitioning?
    private(set) var isInteractive = false
    private(set) var initiallyInteractive = false
    private(set) var transitionWasCancelled = false
    private(set) var percentComplete: CGFloat = 0
    private(set) var completionVelocity: CGFloat = 1
    private var hasEnded = false
    private var alongsideAnimations: [(UIViewControllerTransitionCoordinatorContext) -> Void] = []
    private var completions: [(UIViewControllerTransitionCoordinatorContext) -> Void] = []
    private var interactionChangeHandlers: [(UIViewControllerTransitionCoordinatorContext) -> Void] = []
    /// Moves the views to a fraction of the way, for the back swipe.
    var followGesture: ((CGFloat) -> Void)?

    init(navigationController: UINavigationController, from: UIViewController?, to: UIViewController?,
         operation: UINavigationController.Operation, oldStack: [UIViewController],
         added: [UIViewController], removed: [UIViewController], isAnimated: Bool) {
        self.navigationController = navigationController
        self.from = from
        self.to = to
        self.operation = operation
        self.oldStack = oldStack
        self.added = added
        self.removed = removed
        self.isAnimated = isAnimated
        self.tellsAppearance = navigationController.isInWindow && operation != .none
        self.containerView = navigationController.isViewLoaded ? navigationController.transitionContainer : UIView(frame: .zero)
    }

    /// Step 1, then step 2: `interaction` is the back swipe's driver when
    /// the swipe started the transition.
    func start(interaction: BackSwipeDriver?) {
        guard let navigationController else { return }
        if let to { navigationController.delegate?.navigationController(navigationController, willShow: to, animated: isAnimated) }
        guard navigationController.isViewLoaded, operation != .none, let to else {
            navigationController.transitionWillStart(self)
            return completeTransition(true)
        }
        let incoming: UIView = to.view
        incoming.frame = containerView.bounds
        var interactionController: UIViewControllerInteractiveTransitioning? = interaction
        if isAnimated, let from {
            // The back swipe drives the standard slide; otherwise the
            // delegate may give an animator, and with it an interaction controller.
            let delegate = navigationController.delegate
            let custom = interaction != nil ? nil
                : delegate?.navigationController(navigationController, animationControllerFor: operation, from: from, to: to)
            let animator = custom ?? ParallaxTransitionAnimator(operation: operation)
            self.animator = animator
            if custom != nil { interactionController = delegate?.navigationController(navigationController, interactionControllerFor: animator) }
            navigationController.runningTransitionCoordinator = self
        }
        if tellsAppearance {
            from?.beginAppearanceTransition(false, animated: isAnimated)
            to.beginAppearanceTransition(true, animated: isAnimated)
        }
        if operation == .pop, let outgoing = from?.viewIfLoaded, outgoing.superview === containerView {
            containerView.insertSubview(incoming, belowSubview: outgoing)
        } else {
            containerView.addSubview(incoming)
        }
        guard let animator else {
            navigationController.transitionWillStart(self)
            return completeTransition(true)
        }
        if let interactionController, interactionController.wantsInteractiveStart {
            isInteractive = true
            initiallyInteractive = true
            navigationController.transitionWillStart(self)
            runAlongsideAnimations()
            interactionController.startInteractiveTransition(self)
        } else {
            navigationController.transitionWillStart(self)
            runAlongsideAnimations()
            animator.animateTransition(using: self)
        }
    }

    /// Whether the animation has started: blocks to run alongside it run at once.
    private var hasStarted = false

    /// Runs the blocks given to ``animate(alongsideTransition:completion:)``
    /// so far, and the bar's cross-fade: in an animation with the
    /// transition's duration and the standard slide's timing, or, for a
    /// transition a gesture drives, at once (the bar follows the gesture).
    private func runAlongsideAnimations() {
        hasStarted = true
        let animations = alongsideAnimations
        alongsideAnimations.removeAll()
        guard !isInteractive else {
            for animation in animations { animation(self) }
            return
        }
        ParallaxTransitionAnimator.animate(duration: transitionDuration, velocity: 0) {
            self.moveBar(to: 1)
            for animation in animations { animation(self) }
        }
    }

    /// Cross-fades the bar `fraction` of the way to the new top item.
    func moveBar(to fraction: CGFloat) {
        navigationController?.navigationBar.updateTransition(fraction)
    }

    /// The standard slide's animator, for the back swipe to move the views.
    var parallaxAnimator: ParallaxTransitionAnimator? { animator as? ParallaxTransitionAnimator }

    // MARK: UIViewControllerContextTransitioning

    let containerView: UIView
    var presentationStyle: UIModalPresentationStyle { .none }
    var transitionDuration: TimeInterval { animator?.transitionDuration(using: self) ?? 0 }

    func updateInteractiveTransition(_ percentComplete: CGFloat) {
        self.percentComplete = min(max(percentComplete, 0), 1)
        followGesture?(self.percentComplete)
        moveBar(to: self.percentComplete)
    }

    func finishInteractiveTransition() {
        endInteraction(cancelled: false)
    }

    func cancelInteractiveTransition() {
        endInteraction(cancelled: true)
    }

    private func endInteraction(cancelled: Bool) {
        guard isInteractive else { return }
        isInteractive = false
        transitionWasCancelled = cancelled
        let handlers = interactionChangeHandlers
        interactionChangeHandlers.removeAll()
        for handler in handlers { handler(self) }
    }

    /// Step 3; a second call is ignored.
    func completeTransition(_ didComplete: Bool) {
        guard !hasEnded, let navigationController else { return }
        hasEnded = true
        transitionWasCancelled = !didComplete
        if navigationController.runningTransitionCoordinator === self { navigationController.runningTransitionCoordinator = nil }
        let outgoing = didComplete ? from : to, staying = didComplete ? to : from
        if outgoing !== staying { outgoing?.viewIfLoaded?.removeFromSuperview() }
        if let view = staying?.viewIfLoaded, navigationController.isViewLoaded {
            if view.superview !== containerView { containerView.addSubview(view) }
            view.transform = .identity
            view.frame = containerView.bounds
        }
        if didComplete {
            if tellsAppearance {
                from?.endAppearanceTransition()
                to?.endAppearanceTransition()
            }
            for controller in removed { controller.removeFromParent() }
            for controller in added { controller.didMove(toParent: navigationController) }
        } else {
            if tellsAppearance {
                to?.beginAppearanceTransition(false, animated: isAnimated)
                to?.endAppearanceTransition()
                from?.beginAppearanceTransition(true, animated: isAnimated)
                from?.endAppearanceTransition()
            }
            for controller in added {
                controller.willMove(toParent: nil)
                controller.removeFromParent()
            }
            for controller in removed { controller.didMove(toParent: navigationController) }
        }
        animator?.animationEnded(didComplete)
        let completions = self.completions
        self.completions.removeAll()
        for completion in completions { completion(self) }
        navigationController.transitionDidEnd(self, completed: didComplete)
    }

    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
        switch key {
        case .from: from
        case .to: to
        default: nil
        }
    }

    func view(forKey key: UITransitionContextViewKey) -> UIView? {
        switch key {
        case .from: from?.viewIfLoaded
        case .to: to?.viewIfLoaded
        default: nil
        }
    }

    func initialFrame(for viewController: UIViewController) -> CGRect {
        viewController === from ? containerView.bounds : .zero
    }

    func finalFrame(for viewController: UIViewController) -> CGRect {
        viewController === to ? containerView.bounds : .zero
    }

    // MARK: UIViewControllerTransitionCoordinator

    var isCancelled: Bool { transitionWasCancelled }

    /// Before the transition's animation starts, `animation` waits to run
    /// with it; later, it runs at once. `completion` runs when it has ended.
    @discardableResult
    func animate(
        alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool {
        guard !hasEnded else { return false }
        if let animation {
            if hasStarted { animation(self) } else { alongsideAnimations.append(animation) }
        }
        if let completion { completions.append(completion) }
        return true
    }

    func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void) {
        interactionChangeHandlers.append(handler)
    }
}

/// iOS's standard push and pop: the top view slides in from (or out to)
/// the trailing edge over the one below, which moves a third as far
/// (``NavigationMetrics/parallaxFraction`` of the width) toward the leading
/// side and darkens a little under it.
@MainActor
final class ParallaxTransitionAnimator: UIViewControllerAnimatedTransitioning {
    let operation: UINavigationController.Operation
    private let dimming = UIView(frame: .zero)

    init(operation: UINavigationController.Operation) {
        self.operation = operation
        dimming.backgroundColor = .black
        dimming.isUserInteractionEnabled = false
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        NavigationMetrics.transitionDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        place(transitionContext, at: 0)
        Self.animate(duration: transitionDuration(using: transitionContext), velocity: 0) {
            self.place(transitionContext, at: 1)
        } completion: {
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }
    }

    /// The slide's timing: a critically damped spring (it decelerates
    /// into place without overshooting, as iOS's slide does) that settles
    /// in `duration`, starting at `velocity` (distances per second, 1 being
    /// the whole distance left in a second).
    static func animate(
        duration: TimeInterval, velocity: CGFloat, _ animations: @escaping () -> Void, completion: (@MainActor () -> Void)? = nil
    ) {
        UIView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: velocity,
                       options: [], animations: animations, completion: { _ in completion?() })
    }

    /// Puts the views where they are `fraction` of the way through the
    /// transition: 0 where it starts, 1 where it ends.
    func place(_ transitionContext: UIViewControllerContextTransitioning, at fraction: CGFloat) {
        let container = transitionContext.containerView
        let width = container.bounds.width
        let covering = operation == .push ? transitionContext.view(forKey: .to) : transitionContext.view(forKey: .from)
        let covered = operation == .push ? transitionContext.view(forKey: .from) : transitionContext.view(forKey: .to)
        // How far the covering view has come over the covered one: 1 when it covers it.
        let cover = operation == .push ? fraction : 1 - fraction
        covering?.frame = container.bounds.offsetBy(dx: width * (1 - cover), dy: 0)
        covered?.frame = container.bounds.offsetBy(dx: -width * NavigationMetrics.parallaxFraction * cover, dy: 0)
        if covered != nil, let covering, dimming.superview == nil, covering.superview === container {
            container.insertSubview(dimming, belowSubview: covering)
        }
        dimming.frame = covered?.frame ?? .zero
        dimming.alpha = NavigationMetrics.coveredDimming * cover
    }

    func animationEnded(_ transitionCompleted: Bool) {
        dimming.removeFromSuperview()
    }
}

/// Lets the back swipe drive the standard pop: the views follow the finger
/// as it moves, and, let go, the pop completes or is undone.
@MainActor
final class BackSwipeDriver: UIViewControllerInteractiveTransitioning {
    private weak var context: NavigationTransition?

    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let context = transitionContext as? NavigationTransition, let animator = context.parallaxAnimator else { return }
        self.context = context
        animator.place(context, at: 0)
        context.followGesture = { [weak context, weak animator] fraction in
            guard let context else { return }
            animator?.place(context, at: fraction)
        }
    }

    /// The finger has taken the pop `fraction` of the way.
    func update(_ fraction: CGFloat) {
        context?.updateInteractiveTransition(fraction)
    }

    /// The finger has let go (or was taken away) moving at `speed` widths
    /// per second toward the trailing edge: the views slide on to where
    /// the pop completes, or back to where it is undone, over what is left
    /// of the slide's duration, starting at the finger's speed.
    func letGo(completing: Bool, speed: CGFloat) {
        guard let context, let animator = context.parallaxAnimator else { return }
        let fraction = context.percentComplete
        if completing { context.finishInteractiveTransition() } else { context.cancelInteractiveTransition() }
        let remaining = completing ? 1 - fraction : fraction
        // The spring's velocity is in distances left per second.
        let velocity = remaining > 0 ? (completing ? speed : -speed) / remaining : 0
        ParallaxTransitionAnimator.animate(duration: animator.transitionDuration(using: context) * remaining, velocity: max(0, velocity)) {
            animator.place(context, at: completing ? 1 : 0)
            context.moveBar(to: completing ? 1 : 0)
        } completion: {
            context.completeTransition(completing)
        }
    }
}
