/// Told when the user tries to dismiss a presentation with a gesture (a
/// sheet dragged down), and lets it refuse. None of these methods is called
/// for a dismissal the app asks for with `dismiss(animated:completion:)`.
@MainActor
public protocol UIAdaptivePresentationControllerDelegate: AnyObject {
    /// Whether the gesture may dismiss the presentation; asked when the
    /// drag starts. Returning false calls
    /// ``presentationControllerDidAttemptToDismiss(_:)`` instead.
    func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool
    /// The gesture has started dismissing the presentation (it may still be
    /// given up: then ``presentationControllerDidDismiss(_:)`` never comes).
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
    /// The gesture dismissed the presentation; called after the presented
    /// controller's `viewDidDisappear`.
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
    /// The gesture tried to dismiss the presentation and was refused: the
    /// presented controller's `isModalInPresentation` is true, or
    /// ``presentationControllerShouldDismiss(_:)`` returned false.
    func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController)
}

extension UIAdaptivePresentationControllerDelegate {
    public func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool { true }
    public func presentationControllerWillDismiss(_ presentationController: UIPresentationController) {}
    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {}
    public func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) {}
}

/// Manages how a presented view controller is shown: where its view sits in
/// the presentation's container and what is drawn around it. UIKit makes
/// one for every presented controller (``UIViewController/presentationController``),
/// a ``UISheetPresentationController`` for the sheet styles.
@preconcurrency @MainActor
open class UIPresentationController: NSObject {
    /// The controller being presented. Not retained: the controller keeps
    /// its presentation controller.
    public unowned let presentedViewController: UIViewController
    private weak var givenPresentingViewController: UIViewController?

    /// Told about the user's attempts to dismiss the presentation.
    open weak var delegate: UIAdaptivePresentationControllerDelegate?

    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        self.presentedViewController = presentedViewController
        givenPresentingViewController = presentingViewController
        super.init()
    }

    /// The controller that presents (or will present) the presented one;
    /// the presented controller itself until it is presented by someone.
    open var presentingViewController: UIViewController {
        presentedViewController.presentingViewController ?? givenPresentingViewController ?? presentedViewController
    }

    /// The presentation's style: the presented controller's, with
    /// `.automatic` resolved as iOS resolves it for a plain controller on
    /// an iPhone (a page sheet).
    open var presentationStyle: UIModalPresentationStyle {
        presentedViewController.modalPresentationStyle.resolved
    }

    /// The view the presentation happens in (a `UITransitionView` over the
    /// whole window), while the controller is presented.
    open var containerView: UIView? { presentedViewController.presentationContainer }

    /// The view that moves in and out: the presented controller's view.
    open var presentedView: UIView? { presentedViewController.viewIfLoaded }

    /// Where the presented view sits at the end of the presentation: the
    /// whole container.
    open var frameOfPresentedViewInContainerView: CGRect { containerView?.bounds ?? .zero }

    // MARK: What the presentation transition tells it (none of it public)

    /// Whether a presentation or dismissal transition is moving the
    /// presented view (set by the transition while it runs).
    var isInTransition = false

    /// Puts the presented view in `container` before the transition starts.
    func install(in container: UIView) {
        guard let view = presentedViewController.viewIfLoaded else { return }
        view.frame = frameOfPresentedViewInContainerView
        container.addSubview(view)
    }

    /// Draws what surrounds the presented view when it is `shown` of the
    /// way on screen (0 gone, 1 presented). Nothing for full-screen styles.
    func placeSurroundings(shown: CGFloat) {}

    /// Takes away what ``placeSurroundings(shown:)`` drew: the
    /// presentation is over.
    func removeSurroundings() {}
}
