/// A page sheet, the style `.automatic` resolves to on iPhone since iOS 13:
/// a card over most of the screen, its top corners rounded, with the
/// presenting controller's view scaled back and dimmed behind it, which the
/// user can drag down to dismiss. The geometry is in ``SheetMetrics``.
@preconcurrency @MainActor
open class UISheetPresentationController: UIPresentationController {
    /// A height a sheet rests at. Only the large detent (the full-height
    /// sheet) is drawn here; a medium detent rests at the large height too.
    public struct Detent: Sendable {
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let large = Identifier(rawValue: "com.apple.UIKit.large")
            public static let medium = Identifier(rawValue: "com.apple.UIKit.medium")
        }
        public let identifier: Identifier
        /// The full-height sheet.
        public static func large() -> Detent { Detent(identifier: .large) }
        /// About half the screen's height on iOS; drawn at the large height here.
        public static func medium() -> Detent { Detent(identifier: .medium) }
    }

    /// The heights the sheet may rest at (`[.large()]` by default).
    open var detents: [Detent] = [.large()]
    /// The detent the sheet rests at; nil means the smallest of ``detents``.
    open var selectedDetentIdentifier: Detent.Identifier?
    /// The corner radius of the sheet's top corners; nil means UIKit's
    /// (``SheetMetrics/cornerRadius``).
    open var preferredCornerRadius: CGFloat? {
        didSet { card?.layer.cornerRadius = cornerRadius }
    }

    /// The rounded card the presented view sits in (UIKit's private
    /// `UIDropShadowView`), made when the presentation starts.
    private var card: SheetCardView?
    /// What dims everything behind the card and takes the touches that land there.
    private let dimmingView = UIView(frame: .zero)
    /// The view the presenter is shown in, scaled back behind the sheet, and
    /// how its layer's corners were before.
    private var backdrop: UIView?
    private var backdropCorners: (radius: CGFloat, masks: Bool, corners: CACornerMask) = (0, false, UISheetPresentationController.everyCorner)
    private static let everyCorner: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
    /// The recognizer that drags the sheet down, and what drives the
    /// dismissal it starts.
    private var dismissDrag: UIPanGestureRecognizer?
    private var dragDriver: SheetDragDriver?

    private var cornerRadius: CGFloat { preferredCornerRadius ?? SheetMetrics.cornerRadius }

    /// The card: the container's width, from the window's safe-area top
    /// plus ``SheetMetrics/topGap`` to the bottom.
    open override var frameOfPresentedViewInContainerView: CGRect {
        guard let container = containerView else { return .zero }
        let top = SheetMetrics.sheetTop(safeAreaTop: container.window?.safeAreaInsets.top ?? 0)
        return CGRect(x: 0, y: top, width: container.bounds.width, height: max(0, container.bounds.height - top))
    }

    /// The card that moves in and out, with the presented view in it.
    open override var presentedView: UIView? { card ?? super.presentedView }

    override func install(in container: UIView) {
        guard let view = presentedViewController.viewIfLoaded else { return }
        dimmingView.frame = container.bounds
        dimmingView.backgroundColor = UIColor(white: 0, alpha: SheetMetrics.dimming)
        container.addSubview(dimmingView)
        let card = SheetCardView(frame: frameOfPresentedViewInContainerView)
        card.layer.cornerRadius = cornerRadius
        card.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        card.layer.masksToBounds = true
        view.frame = card.bounds
        card.addSubview(view)
        container.addSubview(card)
        self.card = card
        let drag = UIPanGestureRecognizer()
        drag.addTarget(self, action: UISheetPresentationController.dragChanged)
        card.sheet = self
        card.addGestureRecognizer(drag)
        dismissDrag = drag
        backdrop = Self.backdrop(of: presentingViewController, under: container)
        if let layer = backdrop?.layer { backdropCorners = (layer.cornerRadius, layer.masksToBounds, layer.maskedCorners) }
    }

    /// The window's subview the presenter's view is in: what goes back
    /// behind the sheet.
    private static func backdrop(of presenter: UIViewController, under container: UIView) -> UIView? {
        guard let window = container.superview else { return nil }
        var view: UIView? = presenter.viewIfLoaded
        while let current = view, current.superview !== window { view = current.superview }
        return view === container ? nil : view
    }

    override func placeSurroundings(shown: CGFloat) {
        dimmingView.alpha = shown
        guard let backdrop, let window = backdrop.superview else { return }
        let scale = 1 - (1 - SheetMetrics.presenterScale) * shown
        // Scaled about its top centre, its top edge brought down to the
        // safe area's top: the transform acts about the view's centre.
        let height = backdrop.bounds.height
        let top = window.safeAreaInsets.top * shown
        backdrop.transform = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: top - height * (1 - scale) / 2)
        backdrop.layer.cornerRadius = SheetMetrics.presenterCornerRadius * shown
        backdrop.layer.maskedCorners = Self.everyCorner
        backdrop.layer.masksToBounds = true
    }

    override func removeSurroundings() {
        dismissDrag.map { card?.removeGestureRecognizer($0) }
        dismissDrag = nil
        if let backdrop {
            backdrop.transform = .identity
            backdrop.layer.cornerRadius = backdropCorners.radius
            backdrop.layer.masksToBounds = backdropCorners.masks
            backdrop.layer.maskedCorners = backdropCorners.corners
        }
        backdrop = nil
        dimmingView.removeFromSuperview()
    }

    // MARK: Dragging the sheet down

    /// Whether a drag on the card may start: only downward, and only while
    /// the sheet is at rest.
    fileprivate func dragMayBegin(_ drag: UIGestureRecognizer) -> Bool {
        guard drag === dismissDrag, let pan = drag as? UIPanGestureRecognizer, let card else { return true }
        let moved = pan.translation(in: card.superview)
        return moved.y > abs(moved.x) && dragDriver == nil && presentedViewController.presentingViewController != nil
    }

    private func dragChanged() {
        guard let drag = dismissDrag, let card, let container = card.superview else { return }
        let travel = max(1, container.bounds.height - frameOfPresentedViewInContainerView.minY)
        switch drag.state {
        case .began:
            let refused = presentedViewController.isModalInPresentation
                || delegate?.presentationControllerShouldDismiss(self) == false
            if refused {
                delegate?.presentationControllerDidAttemptToDismiss(self)
                return
            }
            delegate?.presentationControllerWillDismiss(self)
            let driver = SheetDragDriver(sheet: self)
            dragDriver = driver
            presentingViewController.dismissPresented(driver: driver) { [weak self] in
                guard let self else { return }
                self.delegate?.presentationControllerDidDismiss(self)
            }
            driver.follow(drag.translation(in: container).y / travel)
        case .changed:
            dragDriver?.follow(drag.translation(in: container).y / travel)
        case .ended:
            let fraction = drag.translation(in: container).y / travel
            let speed = drag.velocity(in: container).y / max(1, container.bounds.height)
            let dismisses = abs(speed) >= SheetMetrics.decisiveSpeed ? speed > 0 : fraction > SheetMetrics.dismissFraction
            dragDriver?.letGo(completing: dismisses)
            dragDriver = nil
        case .cancelled, .failed:
            dragDriver?.letGo(completing: false)
            dragDriver = nil
        default:
            break
        }
    }
}

/// The rounded card a sheet's presented view sits in, sized once when the
/// presentation starts (it only moves after); its drag may begin only when
/// the sheet lets it.
@MainActor
private final class SheetCardView: UIView {
    weak var sheet: UISheetPresentationController?

    override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        sheet?.dragMayBegin(gestureRecognizer) ?? true
    }
}

/// Drives a sheet's dismissal by its drag: the card follows the finger
/// (the surroundings with it, through the context), and, let go, slides on
/// off the screen or back to rest over what is left of the slide's time.
@MainActor
final class SheetDragDriver: UIViewControllerInteractiveTransitioning {
    private unowned let sheet: UISheetPresentationController
    /// Held until the drag lets go: nothing else keeps the dismissal's context.
    private var context: UIViewControllerContextTransitioning?
    /// Where the card rests, and how far it travels to leave the screen.
    private var restingFrame = CGRect.zero
    private var fraction: CGFloat = 0

    init(sheet: UISheetPresentationController) {
        self.sheet = sheet
    }

    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        context = transitionContext
        restingFrame = sheet.frameOfPresentedViewInContainerView
    }

    /// The finger has dragged the card `fraction` of its height down.
    func follow(_ fraction: CGFloat) {
        guard let context, let card = context.view(forKey: .from), fraction.isFinite else { return }
        self.fraction = min(1, max(0, fraction))
        card.frame = restingFrame.offsetBy(dx: 0, dy: restingFrame.height * self.fraction)
        context.updateInteractiveTransition(self.fraction)
    }

    /// The finger has let go: the dismissal completes or is undone.
    func letGo(completing: Bool) {
        guard let context, let card = context.view(forKey: .from) else { return }
        if completing { context.finishInteractiveTransition() } else { context.cancelInteractiveTransition() }
        let remaining = completing ? 1 - fraction : fraction
        let sheet = sheet, restingFrame = restingFrame
        UIView.animate(withDuration: ModalTransitionMetrics.slideDuration * remaining, delay: 0, options: .curveEaseOut, animations: {
            card.frame = completing ? restingFrame.offsetBy(dx: 0, dy: restingFrame.height) : restingFrame
            sheet.placeSurroundings(shown: completing ? 0 : 1)
        }, completion: { _ in
            context.completeTransition(completing)
        })
        self.context = nil
    }
}

/// The geometry and feel of a page sheet on iPhone. Apple publishes none of
/// it; each value says where it comes from.
public enum SheetMetrics {
    /// The gap between the window's safe-area top (below the status bar)
    /// and the sheet's top, where the presenter's scaled-back top shows:
    /// 10 points, the iOS 13 design resources' value as the open-source
    /// `modal_bottom_sheet` Flutter package took it ("previous route visible
    /// offset", from Apple's Sketch UI kit). Flutter's own sheet, measured
    /// on an iOS 18 simulator, puts the top at 8 % of an iPhone 16 Pro's
    /// 874-point height, 70 points: its 62-point safe area plus 8.
    public static let topGap: CGFloat = 10
    /// The radius of the sheet's top corners: 10 points, the same iOS 13
    /// design kit's value (`modal_bottom_sheet`; Flutter's iOS 18
    /// measurement has 12). `preferredCornerRadius` overrides it.
    public static let cornerRadius: CGFloat = 10
    /// How much the presenter's view is scaled behind a sheet: 1 − 0.0835,
    /// Flutter's measurement of the background's width against the screen's
    /// on an iPhone 16 Pro simulator with iOS 18 (`_kSheetScaleFactor`).
    /// It is scaled about its top centre, its top edge at the safe-area
    /// top (Flutter: 7 % of the height down, 61 points where the safe area
    /// is 62).
    public static let presenterScale: CGFloat = 1 - 0.0835
    /// The radius the presenter's corners take as it goes back: the
    /// sheet's.
    public static let presenterCornerRadius: CGFloat = 10
    /// The black drawn over everything behind the sheet, at its darkest:
    /// 10 % (both Flutter packages' overlay, from iOS 18 and iOS 13
    /// screenshots; iOS's dimming view covers the whole container).
    public static let dimming: CGFloat = 0.1
    /// A drag let go faster than this many screen heights per second
    /// dismisses or stays by its direction (Flutter's `_kMinFlingVelocity`,
    /// compared against an iOS 18 simulator).
    public static let decisiveSpeed: CGFloat = 2
    /// Slower, the sheet is dismissed if it was dragged more than half of
    /// its height down (Flutter: "a little past the halfway point", 48 %).
    public static let dismissFraction: CGFloat = 0.5

    /// The sheet's top in the window, below a safe-area top of `safeAreaTop`.
    static func sheetTop(safeAreaTop: CGFloat) -> CGFloat { safeAreaTop + topGap }
}
