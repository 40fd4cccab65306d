/// The protocols of view controller transitions, as in UIKit: a container
/// (a navigation controller pushing or popping) describes the transition in
/// a context; an animator moves the views; an interaction controller lets
/// a gesture drive it; a coordinator lets the controllers involved run
/// their own changes alongside it.

/// Names the two view controllers of a transition.
public struct UITransitionContextViewControllerKey: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The controller whose view is going away.
    public static let from = UITransitionContextViewControllerKey(rawValue: "UITransitionContextFromViewController")
    /// The controller whose view is coming.
    public static let to = UITransitionContextViewControllerKey(rawValue: "UITransitionContextToViewController")
}

/// Names the two views of a transition.
public struct UITransitionContextViewKey: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewKey(rawValue: "UITransitionContextFromView")
    public static let to = UITransitionContextViewKey(rawValue: "UITransitionContextToView")
}

/// What an animator is told about a transition it animates, and how it
/// says the transition is over.
@MainActor
public protocol UIViewControllerContextTransitioning: AnyObject {
    /// The view the transition's views are in; the incoming view is already
    /// there when the animator is asked to animate.
    var containerView: UIView { get }
    var isAnimated: Bool { get }
    /// Whether a gesture (an interaction controller) drives the transition now.
    var isInteractive: Bool { get }
    /// Whether the transition is being undone (an interactive one given up).
    var transitionWasCancelled: Bool { get }
    var presentationStyle: UIModalPresentationStyle { get }
    /// How far a gesture has taken the transition, 0 to 1.
    func updateInteractiveTransition(_ percentComplete: CGFloat)
    /// The gesture is over and the transition is to complete.
    func finishInteractiveTransition()
    /// The gesture is over and the transition is to be undone.
    func cancelInteractiveTransition()
    /// The animator is done: `didComplete` false restores the state before
    /// the transition.
    func completeTransition(_ didComplete: Bool)
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    func view(forKey key: UITransitionContextViewKey) -> UIView?
    /// Where a controller's view is when the transition starts (`.zero`
    /// when it is not on screen then).
    func initialFrame(for viewController: UIViewController) -> CGRect
    /// Where a controller's view is when the transition ends (`.zero`
    /// when it is not on screen then).
    func finalFrame(for viewController: UIViewController) -> CGRect
}

/// An object that moves the views of a transition.
@MainActor
public protocol UIViewControllerAnimatedTransitioning: AnyObject {
    /// How long the animation takes, in seconds.
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval
    /// Moves the views, then calls the context's `completeTransition(_:)`.
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning)
    /// The transition is over; `transitionCompleted` is false if it was undone.
    func animationEnded(_ transitionCompleted: Bool)
}

extension UIViewControllerAnimatedTransitioning {
    public func animationEnded(_ transitionCompleted: Bool) {}
}

/// An object that lets a gesture drive a transition: it calls the context's
/// `updateInteractiveTransition(_:)` as the gesture moves, then
/// `finishInteractiveTransition()` or `cancelInteractiveTransition()`.
@MainActor
public protocol UIViewControllerInteractiveTransitioning: AnyObject {
    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning)
    /// How much faster than its duration the rest of the transition runs
    /// once the gesture lets go (1 by default).
    var completionSpeed: CGFloat { get }
    /// Whether the transition starts driven by the gesture (true by default).
    var wantsInteractiveStart: Bool { get }
}

extension UIViewControllerInteractiveTransitioning {
    public var completionSpeed: CGFloat { 1 }
    public var wantsInteractiveStart: Bool { true }
}

/// What the blocks given to a transition coordinator are told.
@MainActor
public protocol UIViewControllerTransitionCoordinatorContext: AnyObject {
    var isAnimated: Bool { get }
    var presentationStyle: UIModalPresentationStyle { get }
    /// Whether the transition started driven by a gesture.
    var initiallyInteractive: Bool { get }
    /// Whether a gesture drives the transition now.
    var isInteractive: Bool { get }
    var isCancelled: Bool { get }
    var transitionDuration: TimeInterval { get }
    /// How far the transition has gone, 0 to 1.
    var percentComplete: CGFloat { get }
    var completionVelocity: CGFloat { get }
    var containerView: UIView { get }
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    func view(forKey key: UITransitionContextViewKey) -> UIView?
}

/// Lets the controllers of a running transition do their own changes with
/// it: `animate(alongsideTransition:completion:)` runs `animation` as the
/// transition starts (inside its animation) and `completion` once it has
/// ended, completed or undone.
@MainActor
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    @discardableResult
    func animate(
        alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
    /// `handler` runs when the gesture driving the transition lets go.
    func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void)
}
