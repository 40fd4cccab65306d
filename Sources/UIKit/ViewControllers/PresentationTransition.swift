/// The objects a presented controller's `transitioningDelegate` gives for
/// its presentation and dismissal: animators, and interaction controllers
/// that let a gesture drive them. Every method may return nil (the
/// default), which means the standard slide, run by itself.
@MainActor
public protocol UIViewControllerTransitioningDelegate: AnyObject {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
}

extension UIViewControllerTransitioningDelegate {
    public func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
}

/// A context that carries its animator, for interaction controllers that
/// drive the animator's animations (`UIPercentDrivenInteractiveTransition`).
@MainActor
protocol AnimatorCarryingContext: UIViewControllerContextTransitioning {
    var transitionAnimator: UIViewControllerAnimatedTransitioning { get }
}

/// The context of an animated presentation or dismissal:
/// 1. the transition view takes no touches from the start to the end, as
///    UIKit's does while a transition runs; unless a gesture drives the
///    transition, the application ignores new touches anywhere meanwhile
///    (`beginIgnoringInteractionEvents()`, as UIKit's presentation
///    controller does for a transition that is not interactive);
/// 2. the animator (or an interaction controller, when one wants to start
///    interactively) moves the views, and the presentation controller
///    draws what surrounds them (a sheet's dimming and scaled-back
///    presenter) alongside: over the animator's duration, or following
///    the fraction a gesture reports;
/// 3. `completeTransition(_:)` ends it: touches again, the animator's
///    `animationEnded(_:)`, then the presenter's bookkeeping (appearance
///    callbacks, the completion).
@MainActor
final class PresentationTransition: AnimatorCarryingContext {
    let containerView: UIView
    private let presenting: UIViewController
    private let presented: UIViewController
    private let isPresenting: Bool
    let transitionAnimator: UIViewControllerAnimatedTransitioning
    /// Places the presented view and draws what surrounds it.
    private let presentation: UIPresentationController
    private let onComplete: (Bool) -> Void
    private(set) var isInteractive = false
    private(set) var transitionWasCancelled = false
    private var hasEnded = false
    /// Whether the application ignores touches until the end (step 1).
    private var ignoresInteraction = false

    init(container: UIView, presenting: UIViewController, presented: UIViewController, isPresenting: Bool,
         animator: UIViewControllerAnimatedTransitioning, onComplete: @escaping (Bool) -> Void) {
        containerView = container
        self.presenting = presenting
        self.presented = presented
        self.isPresenting = isPresenting
        transitionAnimator = animator
        presentation = presented.presentationController ?? UIPresentationController(presentedViewController: presented, presenting: presenting)
        self.onComplete = onComplete
    }

    func start(interaction: UIViewControllerInteractiveTransitioning?) {
        containerView.animationsBlockingTouches += 1
        presentation.isInTransition = true
        let surroundings = presentation, shownAtEnd: CGFloat = isPresenting ? 1 : 0
        UIView.performWithoutAnimation { surroundings.placeSurroundings(shown: 1 - shownAtEnd) }
        if let interaction, interaction.wantsInteractiveStart {
            isInteractive = true
            interaction.startInteractiveTransition(self)
        } else {
            ignoresInteraction = true
            UIApplication.shared.beginIgnoringInteractionEvents()
            UIView.animate(withDuration: transitionAnimator.transitionDuration(using: self), delay: 0, options: .curveEaseInOut) {
                surroundings.placeSurroundings(shown: shownAtEnd)
            }
            transitionAnimator.animateTransition(using: self)
        }
    }

    var isAnimated: Bool { true }
    var presentationStyle: UIModalPresentationStyle { presented.modalPresentationStyle }

    /// The surroundings follow the gesture at once.
    func updateInteractiveTransition(_ percentComplete: CGFloat) {
        presentation.placeSurroundings(shown: isPresenting ? percentComplete : 1 - percentComplete)
    }

    func finishInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = false
    }

    func cancelInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = true
    }

    func completeTransition(_ didComplete: Bool) {
        guard !hasEnded else { return }
        hasEnded = true
        containerView.animationsBlockingTouches -= 1
        presentation.isInTransition = false
        if ignoresInteraction { UIApplication.shared.endIgnoringInteractionEvents() }
        // What an interaction controller left half way is put where the
        // presentation now rests (a dismissal's are taken away with it).
        if isPresenting == didComplete { presentation.placeSurroundings(shown: 1) }
        transitionAnimator.animationEnded(didComplete)
        onComplete(didComplete)
    }

    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
        switch key {
        case .from: isPresenting ? presenting : presented
        case .to: isPresenting ? presented : presenting
        default: nil
        }
    }

    /// The presentation controller's presented view: the presented
    /// controller's view, or the card a sheet holds it in (the presenter's
    /// views stay where they are, outside the container).
    func view(forKey key: UITransitionContextViewKey) -> UIView? {
        switch key {
        case .to: isPresenting ? presentation.presentedView : nil
        case .from: isPresenting ? nil : presentation.presentedView
        default: nil
        }
    }

    func initialFrame(for viewController: UIViewController) -> CGRect {
        viewController === presented && !isPresenting ? presentation.frameOfPresentedViewInContainerView : .zero
    }

    func finalFrame(for viewController: UIViewController) -> CGRect {
        viewController === presented && isPresenting ? presentation.frameOfPresentedViewInContainerView : .zero
    }
}

/// The appearance callbacks of one presentation or dismissal, in UIKit's
/// order: at the start the controllers going away hear `viewWillDisappear`,
/// then those coming hear `viewWillAppear`; at the end the coming ones hear
/// `viewDidAppear`, then the going ones `viewDidDisappear` (logged on iOS:
/// present A→B full screen gives A willDisappear, B willAppear, B
/// didAppear, A didDisappear; dismissing gives B willDisappear, A
/// willAppear, A didAppear, B didDisappear). A transition given up tells
/// the coming ones `viewWillDisappear` and `viewDidDisappear`, then the
/// going ones `viewWillAppear` and `viewDidAppear`, as a cancelled back
/// swipe does. Every controller whose root view is in a moving view tree
/// takes part (a container's children with it); window moves in between
/// tell them nothing.
@MainActor
struct PresentationAppearance {
    let appearing: [UIViewController]
    let disappearing: [UIViewController]
    let animated: Bool

    func begin() {
        for controller in disappearing { controller.beginAppearanceTransition(false, animated: animated) }
        for controller in appearing { controller.beginAppearanceTransition(true, animated: animated) }
    }

    func end() {
        for controller in appearing { controller.endAppearanceTransition() }
        for controller in disappearing { controller.endAppearanceTransition() }
    }

    func cancel() {
        for controller in appearing {
            controller.beginAppearanceTransition(false, animated: animated)
            controller.endAppearanceTransition()
        }
        for controller in disappearing {
            controller.beginAppearanceTransition(true, animated: animated)
            controller.endAppearanceTransition()
        }
    }

    /// The controllers whose root views are in `views`' trees, parents
    /// before their children.
    static func controllers(in views: [UIView]) -> [UIViewController] {
        var found: [UIViewController] = []
        var pending = Array(views.reversed())
        while let view = pending.popLast() {
            if let controller = view.owningViewController { found.append(controller) }
            pending.append(contentsOf: view.subviews.reversed())
        }
        return found
    }
}

extension UIModalPresentationStyle {
    /// Whether the presenter's views go out of sight, so that its
    /// controllers hear `viewWillDisappear`/`viewDidDisappear` (and the
    /// `appear` pair on dismissal): full screen and current context, whose
    /// presenter's views UIKit takes away once the transition ends. A page
    /// or form sheet (`.automatic` on iPhone since iOS 13), the `over…`
    /// styles, popovers and custom presentations leave the presenter shown
    /// and tell it nothing.
    var hidesPresenter: Bool { self == .fullScreen || self == .currentContext }

    /// The style a presentation takes on this platform: `.automatic` is a
    /// page sheet, as for a plain controller on iPhone since iOS 13 (UIKit's
    /// own controllers that want another style set it themselves).
    var resolved: UIModalPresentationStyle { self == .automatic ? .pageSheet : self }

    /// Whether the presentation is a sheet: a page sheet, or a form sheet,
    /// which a compact-width iPhone shows as a page sheet (form sheets are
    /// page sheets at every width here).
    var isSheet: Bool { resolved == .pageSheet || resolved == .formSheet }
}

/// iOS's default modal transition: the presented view slides up from the
/// bottom edge, and down again to dismiss.
@MainActor
final class ModalSlideAnimator: UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        ModalTransitionMetrics.slideDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        let duration = transitionDuration(using: transitionContext)
        /// `frame` moved down until its top is at the container's bottom.
        func below(_ frame: CGRect) -> CGRect { frame.offsetBy(dx: 0, dy: container.bounds.height - frame.minY) }
        if let incoming = transitionContext.view(forKey: .to), let presented = transitionContext.viewController(forKey: .to) {
            let end = transitionContext.finalFrame(for: presented)
            if incoming.superview !== container { container.addSubview(incoming) }
            incoming.frame = below(end)
            UIView.animate(withDuration: duration, delay: 0, options: .curveEaseInOut, animations: {
                incoming.frame = end
            }, completion: { _ in
                transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            })
        } else if let outgoing = transitionContext.view(forKey: .from), let presented = transitionContext.viewController(forKey: .from) {
            let start = transitionContext.initialFrame(for: presented)
            UIView.animate(withDuration: duration, delay: 0, options: .curveEaseInOut, animations: {
                outgoing.frame = below(start)
            }, completion: { _ in
                // A cancelled dismissal leaves the view where it was.
                if transitionContext.transitionWasCancelled { outgoing.frame = start }
                transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            })
        } else {
            transitionContext.completeTransition(true)
        }
    }
}

/// The measures of the default modal transition. UIKit documents none.
public enum ModalTransitionMetrics {
    /// How long the slide up or down takes: about half a second on iOS
    /// (chosen here; not documented).
    public static let slideDuration: TimeInterval = 0.5
}

/// An interaction controller that drives a transition's animations by a
/// fraction a gesture gives: the animator's animations are added with
/// their container's layer clock stopped, ``update(_:)`` moves that clock
/// to the fraction of the duration, and ``finish()`` or ``cancel()`` runs
/// the rest forwards or back, at ``completionSpeed``.
@preconcurrency @MainActor
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
    /// How far the transition is, 0…1.
    open private(set) var percentComplete: CGFloat = 0
    /// The animator's duration.
    open var duration: CGFloat { CGFloat(context?.transitionAnimator.transitionDuration(using: context) ?? 0) }
    open var completionSpeed: CGFloat = 1
    open var completionCurve: UIView.AnimationCurve = .easeInOut
    open var wantsInteractiveStart = true

    private var context: AnimatorCarryingContext?
    private var link: CADisplayLink?

    public override init() {
        super.init()
    }

    open func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let context = transitionContext as? AnimatorCarryingContext else {
            // A context that cannot hand over its animator runs by itself.
            return
        }
        self.context = context
        let layer = context.containerView.layer
        layer.speed = 0
        layer.timeOffset = 0
        context.transitionAnimator.animateTransition(using: context)
    }

    /// Moves the transition to `percentComplete` of the way.
    open func update(_ percentComplete: CGFloat) {
        guard let context, percentComplete.isFinite else { return }
        self.percentComplete = min(1, max(0, percentComplete))
        context.containerView.layer.timeOffset = Double(self.percentComplete * duration)
        context.updateInteractiveTransition(self.percentComplete)
    }

    /// The gesture let go to complete: the animations run on from where they are.
    open func finish() {
        guard let context else { return }
        context.finishInteractiveTransition()
        let layer = context.containerView.layer
        let paused = layer.timeOffset
        let speed = Double(completionSpeed > 0 ? completionSpeed : 1)
        // (now − beginTime) × speed = paused: the clock resumes where it stopped.
        let now = AnimationEngine.current.frameTime
        let parentNow = layer.superlayer?.convertTime(now, from: nil) ?? now
        layer.speed = Float(speed)
        layer.timeOffset = 0
        layer.beginTime = parentNow - paused / speed
        self.context = nil
    }

    /// The gesture let go to undo: the animations run back to their start,
    /// then end unfinished, and the animator completes the transition cancelled.
    open func cancel() {
        guard let context else { return }
        context.cancelInteractiveTransition()
        let speed = Double(completionSpeed > 0 ? completionSpeed : 1)
        var last = AnimationEngine.current.frameTime
        let link = CADisplayLink { [weak self] link in
            guard let self, let context = self.context else { return link.invalidate() }
            let layer = context.containerView.layer
            let elapsed = link.targetTimestamp - last
            last = link.targetTimestamp
            layer.timeOffset = max(0, layer.timeOffset - elapsed * speed)
            guard layer.timeOffset <= 0 else { return }
            link.invalidate()
            self.link = nil
            self.context = nil
            layer.speed = 1
            layer.timeOffset = 0
            layer.beginTime = 0
            Self.removeAnimations(below: context.containerView)
        }
        self.link = link
        link.add(to: .main, forMode: .common)
    }

    /// Ends every animation in `view`'s tree, unfinished.
    private static func removeAnimations(below view: UIView) {
        view.layer.removeAllAnimations()
        for subview in view.subviews { removeAnimations(below: subview) }
    }
}
