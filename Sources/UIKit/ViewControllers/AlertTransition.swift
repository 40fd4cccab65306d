/// How an alert or action sheet comes and goes. UIKit's animator
/// (`_UIAlertControllerAnimatedTransitioning`) is private and Apple
/// documents no value; the ones here are those of SDCAlertView
/// (github.com/sberrevoets/SDCAlertView, Source/Presentation/), a
/// look-alike of UIAlertController whose author measured UIKit's
/// (its iOS 7 predecessor says "the result of completely
/// reverse-engineering"): an alert's card starts 1.2 times its size and
/// transparent and goes to its size and opaque over 0.404 s on a heavily
/// damped spring (damping ratio 45.71, no initial velocity), the dimming
/// view fading in alongside; dismissal fades the card and the dimming out
/// on the same spring. An action sheet uses UIKit's standard
/// cover-vertical slide (SDCAlertView returns no animator for sheets, so
/// UIKit's runs), with the dimming fading alongside.
enum AlertTransitionMetrics {
    /// How much larger than its size an alert's card starts (SDCAlertView's `kInitialScale`).
    static let alertInitialScale: CGFloat = 1.2
    /// How long an alert takes to appear or go (SDCAlertView's `transitionDuration`).
    static let alertDuration: TimeInterval = 0.404
    /// The damping ratio of the alert's spring (SDCAlertView's `kSpringDamping`):
    /// far above 1, so the card settles without overshoot, most of the way
    /// in the first quarter of the time.
    static let alertSpringDampingRatio: CGFloat = 45.71
    /// How long an action sheet takes to slide up or down: the standard
    /// modal slide's duration, on its ease-in-out curve.
    static var sheetSlideDuration: TimeInterval { ModalTransitionMetrics.slideDuration }
}

/// The animator UIKit uses for a `UIAlertController` it presents or
/// dismisses with animation (see ``AlertTransitionMetrics``).
@MainActor
final class AlertTransitionAnimator: UIViewControllerAnimatedTransitioning {
    private let isPresenting: Bool

    init(isPresenting: Bool) {
        self.isPresenting = isPresenting
    }

    private func alertController(in context: UIViewControllerContextTransitioning?) -> UIAlertController? {
        context?.viewController(forKey: isPresenting ? .to : .from) as? UIAlertController
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        alertController(in: transitionContext)?.preferredStyle == .actionSheet
            ? AlertTransitionMetrics.sheetSlideDuration : AlertTransitionMetrics.alertDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let alert = alertController(in: transitionContext) else { return transitionContext.completeTransition(true) }
        let duration = transitionDuration(using: transitionContext)
        let finish: (Bool) -> Void = { _ in transitionContext.completeTransition(!transitionContext.transitionWasCancelled) }
        if isPresenting {
            alert.animateIn(duration: duration, completion: finish)
        } else {
            alert.animateOut(duration: duration, completion: finish)
        }
    }
}

extension UIAlertController {
    /// The cards that move: the card, and an action sheet's cancel card.
    private var cards: [UIView] { [card] + (cancelCard.map { [$0] } ?? []) }

    /// Runs `changes` as the alert's style animates: a spring for an
    /// alert, the standard slide's curve for an action sheet.
    private func animate(duration: TimeInterval, _ changes: @escaping () -> Void, completion: @escaping (Bool) -> Void) {
        if preferredStyle == .alert {
            UIView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: AlertTransitionMetrics.alertSpringDampingRatio,
                           initialSpringVelocity: 0, options: [], animations: changes, completion: completion)
        } else {
            UIView.animate(withDuration: duration, delay: 0, options: .curveEaseInOut, animations: changes, completion: completion)
        }
    }

    /// Where an action sheet's cards are before they slide up: their top
    /// at the view's bottom edge.
    private var belowTheBottomEdge: CGAffineTransform {
        CGAffineTransform(translationX: 0, y: view.bounds.maxY - card.frame.minY)
    }

    /// From out of sight (transparent and larger, or below the bottom
    /// edge) to shown, the dimming view fading in.
    fileprivate func animateIn(duration: TimeInterval, completion: @escaping (Bool) -> Void) {
        view.layoutIfNeeded()
        let isSheet = preferredStyle == .actionSheet
        let start = isSheet ? belowTheBottomEdge
            : CGAffineTransform(scaleX: AlertTransitionMetrics.alertInitialScale, y: AlertTransitionMetrics.alertInitialScale)
        dimmingView.alpha = 0
        for card in cards {
            card.transform = start
            if !isSheet { card.alpha = 0 }
        }
        animate(duration: duration, { [self] in
            dimmingView.alpha = 1
            for card in cards {
                card.transform = .identity
                card.alpha = 1
            }
        }, completion: completion)
    }

    /// From shown to out of sight: an alert fades out where it is, an
    /// action sheet slides below the bottom edge; the dimming view fades
    /// out. At the end the views are put back as shown, for a later
    /// presentation without animation.
    fileprivate func animateOut(duration: TimeInterval, completion: @escaping (Bool) -> Void) {
        let isSheet = preferredStyle == .actionSheet
        let end = belowTheBottomEdge
        animate(duration: duration, { [self] in
            dimmingView.alpha = 0
            for card in cards {
                if isSheet { card.transform = end } else { card.alpha = 0 }
            }
        }, completion: { [self] finished in
            dimmingView.alpha = 1
            for card in cards {
                card.transform = .identity
                card.alpha = 1
            }
            completion(finished)
        })
    }
}
