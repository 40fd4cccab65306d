/// Told when the user moves a sheet to another detent, on top of what every
/// presentation controller's delegate hears.
@MainActor
public protocol UISheetPresentationControllerDelegate: UIAdaptivePresentationControllerDelegate {
    /// The user dragged the sheet to rest at another detent
    /// (``UISheetPresentationController/selectedDetentIdentifier`` has
    /// changed). Not called when the app changes the selected detent.
    func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController)
}

extension UISheetPresentationControllerDelegate {
    public func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController) {}
}

/// A page sheet, the style `.automatic` resolves to on iPhone since iOS 13:
/// a card over most of the screen, its top corners rounded, with the
/// presenting controller's view scaled back and dimmed behind it, which the
/// user can drag between its detents and down to dismiss. The geometry is
/// in ``SheetMetrics``.
///
/// How a drag on the sheet goes:
/// 1. It may begin only along the vertical: downward, or upward while the
///    sheet can grow to a larger detent (or a scroll view under the finger
///    is dragged with it, step 3).
/// 2. The card's top follows the finger between the largest detent's top
///    and the smallest's, the presenter going back and the dimming coming
///    as the top rises (the presenter only between the detent below the
///    large one and the large one). Past the smallest detent the drag
///    becomes the interactive dismissal: the delegate is asked (or told of
///    the refusal, and the card stays), then the card follows on down.
/// 3. A scroll view under the finger that scrolls vertically is dragged
///    together with the sheet, and each movement goes to one of them: down
///    to the sheet once the content is at its top (the content stays there,
///    it does not stretch), up to the sheet while it is below the detent it
///    may rise to (the largest with `prefersScrollingExpandsWhenScrolledToEdge`,
///    else the one it rested at), the rest to the scroll view.
/// 4. Let go, a dismissal completes or is undone as ``SheetMetrics`` says;
///    otherwise the sheet settles at the next detent in the direction of a
///    fling, or the nearest, and the delegate hears
///    `sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)` if
///    that is another one. Content that was held at its top stays there.
@preconcurrency @MainActor
open class UISheetPresentationController: UIPresentationController {
    /// A height a sheet rests at.
    public struct Detent: Sendable {
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public init(_ rawValue: String) { self.rawValue = rawValue }
            public static let large = Identifier(rawValue: "com.apple.UIKit.large")
            public static let medium = Identifier(rawValue: "com.apple.UIKit.medium")
        }
        public let identifier: Identifier
        /// The full-height sheet.
        public static func large() -> Detent { Detent(identifier: .large) }
        /// A sheet about half the screen's height (``SheetMetrics/mediumDetentFraction``).
        public static func medium() -> Detent { Detent(identifier: .medium) }
    }

    /// Told of the user's attempts to dismiss the sheet and of the detents
    /// the user drags it to. The same object as `delegate`, seen as a
    /// sheet's delegate when it is one.
    private var sheetDelegate: UISheetPresentationControllerDelegate? { delegate as? UISheetPresentationControllerDelegate }

    /// The heights the sheet may rest at (`[.large()]` by default). Changed
    /// while the sheet is shown, it moves to its detent at once, or along
    /// with ``animateChanges(_:)``.
    open var detents: [Detent] = [.large()] {
        didSet { placeAtRest() }
    }
    /// The detent the sheet rests at; nil means the smallest of ``detents``
    /// (as does one that is not among them). Set by the app, the sheet
    /// moves there (at once, or along with ``animateChanges(_:)``) and the
    /// delegate is not told; the user's drags set it too.
    open var selectedDetentIdentifier: Detent.Identifier? {
        didSet { placeAtRest() }
    }
    /// Whether the sheet shows a grabber at its top (false by default):
    /// a capsule ``SheetMetrics/grabberSize`` large, centred,
    /// ``SheetMetrics/grabberTopInset`` below the card's top, in front of
    /// the content and letting touches through to it.
    open var prefersGrabberVisible = false {
        didSet { grabber.alpha = prefersGrabberVisible ? 1 : 0 }
    }
    /// Whether dragging a scroll view in the sheet upward first grows the
    /// sheet to its largest detent, the content scrolling only once it is
    /// there (true by default, as in UIKit). False leaves the sheet at its
    /// detent and scrolls the content.
    open var prefersScrollingExpandsWhenScrolledToEdge = true
    /// The corner radius of the sheet's top corners; nil means UIKit's
    /// (``SheetMetrics/cornerRadius``).
    open var preferredCornerRadius: CGFloat? {
        didSet { card?.layer.cornerRadius = cornerRadius }
    }

    /// Makes the sheet changes in `changes` (its detents, selected detent,
    /// grabber) move over ``SheetMetrics/detentChangeDuration`` instead of
    /// at once; the sheet's new layout is set by the time it returns.
    open func animateChanges(_ changes: () -> Void) {
        withoutActuallyEscaping(changes) { changes in
            UIView.animate(withDuration: SheetMetrics.detentChangeDuration, delay: 0, options: [.curveEaseInOut, .allowUserInteraction],
                           animations: changes)
        }
    }

    /// The rounded card the presented view sits in (UIKit's private
    /// `UIDropShadowView`), made when the presentation starts.
    private var card: UIView?
    /// The grabber on the card, shown per ``prefersGrabberVisible``.
    private let grabber = UIView(frame: .zero)
    /// What dims everything behind the card and takes the touches that land there.
    private let dimmingView = UIView(frame: .zero)
    /// The view the presenter is shown in, scaled back behind the sheet, and
    /// how its layer's corners were before.
    private var backdrop: UIView?
    private var backdropCorners: (radius: CGFloat, masks: Bool, corners: CACornerMask) = (0, false, UISheetPresentationController.everyCorner)
    private static let everyCorner: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
    /// The recognizer that drags the sheet, what decides when it may begin
    /// (and lets it run with a scroll view's), the drag under way, and what
    /// drives a dismissal the drag started.
    private var sheetDrag: UIPanGestureRecognizer?
    private var sheetDragRules: SheetDragRules?
    private var drag: SheetDragState?
    private var dragDriver: SheetDragDriver?
    /// Where the card's top is while a drag resizes it (nil at rest): what
    /// the presenter and the dimming follow.
    private var liveTop: CGFloat?

    private var cornerRadius: CGFloat { preferredCornerRadius ?? SheetMetrics.cornerRadius }

    /// The card at its resting detent: the container's width, from the
    /// detent's top to the bottom.
    open override var frameOfPresentedViewInContainerView: CGRect {
        guard let container = containerView else { return .zero }
        return cardFrame(top: restingTop(in: container), in: container)
    }

    /// The card that moves in and out, with the presented view in it.
    open override var presentedView: UIView? { card ?? super.presentedView }

    override func install(in container: UIView) {
        guard let view = presentedViewController.viewIfLoaded else { return }
        dimmingView.frame = container.bounds
        dimmingView.backgroundColor = UIColor(white: 0, alpha: SheetMetrics.dimming)
        container.addSubview(dimmingView)
        let card = UIView(frame: frameOfPresentedViewInContainerView)
        card.layer.cornerRadius = cornerRadius
        card.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        card.layer.masksToBounds = true
        view.frame = card.bounds
        card.addSubview(view)
        grabber.frame = SheetMetrics.grabberFrame(cardWidth: card.bounds.width)
        grabber.backgroundColor = SheetMetrics.grabberColor
        grabber.layer.cornerRadius = SheetMetrics.grabberSize.height / 2
        grabber.isUserInteractionEnabled = false
        grabber.alpha = prefersGrabberVisible ? 1 : 0
        card.addSubview(grabber)
        container.addSubview(card)
        self.card = card
        let pan = UIPanGestureRecognizer()
        pan.addTarget(self, action: UISheetPresentationController.dragChanged)
        let rules = SheetDragRules(sheet: self)
        pan.delegate = rules
        card.addGestureRecognizer(pan)
        sheetDrag = pan
        sheetDragRules = rules
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

    /// The dimming by how far the sheet is presented, and the presenter as
    /// far back as that and the card's top (`pushBack(atTop:in:)`) say.
    override func placeSurroundings(shown: CGFloat) {
        dimmingView.alpha = shown
        guard let backdrop, let window = backdrop.superview, let container = card?.superview ?? containerView else { return }
        let back = shown * pushBack(atTop: liveTop ?? restingTop(in: container), in: container)
        let scale = 1 - (1 - SheetMetrics.presenterScale) * back
        // Scaled about its top centre, its top edge brought down to the
        // safe area's top: the transform acts about the view's centre.
        let height = backdrop.bounds.height
        let top = window.safeAreaInsets.top * back
        backdrop.transform = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: top - height * (1 - scale) / 2)
        backdrop.layer.cornerRadius = SheetMetrics.presenterCornerRadius * back
        backdrop.layer.maskedCorners = Self.everyCorner
        backdrop.layer.masksToBounds = true
    }

    override func removeSurroundings() {
        sheetDrag.map { card?.removeGestureRecognizer($0) }
        sheetDrag = nil
        sheetDragRules = nil
        if let backdrop {
            backdrop.transform = .identity
            backdrop.layer.cornerRadius = backdropCorners.radius
            backdrop.layer.masksToBounds = backdropCorners.masks
            backdrop.layer.maskedCorners = backdropCorners.corners
        }
        backdrop = nil
        dimmingView.removeFromSuperview()
    }

    // MARK: Detents

    /// The card's top when the sheet rests at `detent`: the large one
    /// ``SheetMetrics/topGap`` below the window's safe-area top, the medium
    /// one ``SheetMetrics/mediumDetentFraction`` of the container's height
    /// above its bottom (never above the large one's).
    private func top(of detent: Detent, in container: UIView) -> CGFloat {
        let largeTop = SheetMetrics.sheetTop(safeAreaTop: container.window?.safeAreaInsets.top ?? 0)
        guard detent.identifier == .medium else { return largeTop }
        return max(largeTop, container.bounds.height * (1 - SheetMetrics.mediumDetentFraction))
    }

    /// The detents with their tops, the largest sheet (the highest top) first.
    private func detentTops(in container: UIView) -> [(identifier: Detent.Identifier, top: CGFloat)] {
        var tops: [(identifier: Detent.Identifier, top: CGFloat)] = []
        for detent in detents.isEmpty ? [.large()] : detents {
            tops.append((detent.identifier, top(of: detent, in: container)))
        }
        return tops.sorted { $0.top < $1.top }
    }

    /// The detent the sheet rests at: the selected one, or the smallest.
    private func restingDetent(in container: UIView) -> (identifier: Detent.Identifier, top: CGFloat) {
        let tops = detentTops(in: container)
        return tops.first { $0.identifier == selectedDetentIdentifier } ?? tops[tops.count - 1]
    }

    private func restingTop(in container: UIView) -> CGFloat { restingDetent(in: container).top }

    private func cardFrame(top: CGFloat, in container: UIView) -> CGRect {
        CGRect(x: 0, y: top, width: container.bounds.width, height: max(0, container.bounds.height - top))
    }

    /// How far back the presenter goes for a card whose top is at `top`
    /// (0 to 1): only as the sheet rises from the detent below the large
    /// one to the large one; all the way at once when the large is the only
    /// detent, never without it. iOS leaves the presenter as it is (only
    /// dimmed) behind a sheet at its medium detent and pushes it back as
    /// the sheet reaches full height (seen on iOS 15–17: the share sheet
    /// opened at half height leaves Safari unscaled; Apple's pages say only
    /// that the large detent is the full-height sheet).
    private func pushBack(atTop top: CGFloat, in container: UIView) -> CGFloat {
        let tops = detentTops(in: container)
        guard let large = tops.first(where: { $0.identifier == .large }) else { return 0 }
        guard let below = tops.first(where: { $0.top > large.top })?.top else { return 1 }
        return min(1, max(0, (below - top) / (below - large.top)))
    }

    /// Puts the sheet at its resting detent, if it is shown and nothing
    /// else moves it (a transition or a drag).
    private func placeAtRest() {
        guard let card, let container = card.superview, !isInTransition, drag == nil, dragDriver == nil else { return }
        liveTop = nil
        setCard(cardFrame(top: restingTop(in: container), in: container))
        placeSurroundings(shown: 1)
    }

    /// Moves and sizes the card, the presented view and the grabber with it.
    private func setCard(_ frame: CGRect) {
        guard let card else { return }
        let resized = frame.size != card.frame.size
        card.frame = frame
        guard resized else { return }
        presentedViewController.viewIfLoaded?.frame = card.bounds
        grabber.frame = SheetMetrics.grabberFrame(cardWidth: frame.width)
    }

    // MARK: Dragging the sheet (steps 1–4 above)

    /// Step 1: whether the drag may begin.
    fileprivate func dragMayBegin(_ pan: UIPanGestureRecognizer) -> Bool {
        guard pan === sheetDrag, let card, let container = card.superview, dragDriver == nil,
              presentedViewController.presentingViewController != nil, !isInTransition else { return false }
        let moved = pan.translation(in: container)
        guard abs(moved.y) > abs(moved.x) else { return false }
        if moved.y > 0 || trackedScrollView(of: pan) != nil { return true }
        return restingTop(in: container) > detentTops(in: container)[0].top
    }

    /// The scroll view under the finger that is being dragged vertically,
    /// inside the sheet (step 3).
    fileprivate func trackedScrollView(of pan: UIPanGestureRecognizer) -> UIScrollView? {
        guard let card else { return nil }
        var view = pan.currentTouchesNotIgnored.first?.view
        while let current = view, current !== card {
            if let scrollView = current as? UIScrollView, scrollView.canScrollVertically {
                let state = scrollView.panGestureRecognizer.state
                if state == .began || state == .changed { return scrollView }
            }
            view = current.superview
        }
        return nil
    }

    private func dragChanged() {
        guard let pan = sheetDrag, let card, let container = card.superview else { return }
        switch pan.state {
        case .began:
            let resting = restingDetent(in: container)
            drag = SheetDragState(startDetent: resting.identifier, restingTop: resting.top, top: card.frame.minY)
            follow(pan, in: container)
        case .changed:
            follow(pan, in: container)
        case .ended:
            letGo(velocity: pan.velocity(in: container).y, in: container)
        case .cancelled, .failed:
            letGo(velocity: nil, in: container)
        default:
            break
        }
    }

    /// Steps 2 and 3: the finger's movement since the last event goes to
    /// the sheet or to the scroll view dragged with it.
    private func follow(_ pan: UIPanGestureRecognizer, in container: UIView) {
        guard var state = drag else { return }
        let translation = pan.translation(in: container).y
        let delta = translation - state.translation
        state.translation = translation
        if state.scrollView == nil, let scrollView = trackedScrollView(of: pan) {
            state.scrollView = scrollView
            state.contentOffset = scrollView.contentOffset.y
        }
        var sheetDelta = delta
        if let scrollView = state.scrollView {
            sheetDelta = share(delta, with: scrollView, state: &state, in: container)
        }
        state.sheetMovedLast = sheetDelta != 0 || (delta == 0 && state.sheetMovedLast)
        drag = state
        move(by: sheetDelta, in: container)
    }

    /// Step 3: how much of the finger's movement `delta` the sheet takes;
    /// the content gets the rest and, when the sheet takes some, is put
    /// where that leaves it (its own recognizer has already moved it for
    /// this event: the sheet's runs after it, as the recognizer of a view
    /// nearer the finger acts first).
    private func share(_ delta: CGFloat, with scrollView: UIScrollView, state: inout SheetDragState, in container: UIView) -> CGFloat {
        let before = state.contentOffset
        let contentTop = scrollView.offsetRange.y.lowerBound
        var sheetDelta: CGFloat = 0
        if delta > 0 {
            sheetDelta = max(0, delta - max(0, before - contentTop))
        } else if delta < 0 {
            // A dismissal under way only goes back up to where it started.
            let ceiling = prefersScrollingExpandsWhenScrolledToEdge ? detentTops(in: container)[0].top : state.restingTop
            let room = dragDriver != nil ? state.dismissalOffset : max(0, state.top - ceiling)
            sheetDelta = -min(-delta, room)
        }
        if sheetDelta != 0 {
            scrollView.contentOffset.y = max(contentTop, before - (delta - sheetDelta))
            scrollView.continueDragFromCurrentOffset()
        }
        state.contentOffset = scrollView.contentOffset.y
        return sheetDelta
    }

    /// Step 2: moves the card's top by `delta`, between the largest
    /// detent's top and the smallest's; past the smallest, into the
    /// dismissal.
    private func move(by delta: CGFloat, in container: UIView) {
        guard var state = drag, delta != 0 else { return }
        let tops = detentTops(in: container)
        let highest = tops[0].top, lowest = tops[tops.count - 1].top
        if let driver = dragDriver {
            state.dismissalOffset = max(0, state.dismissalOffset + delta)
            drag = state
            driver.follow(state.dismissalOffset / max(1, container.bounds.height - lowest))
            return
        }
        let wanted = state.top + delta
        state.top = min(max(wanted, highest), lowest)
        drag = state
        liveTop = state.top
        setCard(cardFrame(top: state.top, in: container))
        placeSurroundings(shown: 1)
        if wanted > lowest && !state.askedToDismiss { startDismissal(by: wanted - lowest, in: container) }
    }

    /// The drag went past the smallest detent: the delegate is asked, and
    /// the dismissal starts driven by the drag, or is refused.
    private func startDismissal(by offset: CGFloat, in container: UIView) {
        drag?.askedToDismiss = true
        // Given up, the dismissal leaves the sheet at its smallest detent.
        let smallest = detentTops(in: container)
        selectedDetentIdentifier = smallest[smallest.count - 1].identifier
        let refused = presentedViewController.isModalInPresentation
            || delegate?.presentationControllerShouldDismiss(self) == false
        if refused {
            delegate?.presentationControllerDidAttemptToDismiss(self)
            return
        }
        delegate?.presentationControllerWillDismiss(self)
        liveTop = nil
        let driver = SheetDragDriver(sheet: self)
        dragDriver = driver
        presentingViewController.dismissPresented(driver: driver) { [weak self] in
            guard let self else { return }
            self.delegate?.presentationControllerDidDismiss(self)
        }
        move(by: offset, in: container)
    }

    /// Step 4: `velocity` is the finger's, in points per second downward
    /// (nil if the drag was cancelled).
    private func letGo(velocity: CGFloat?, in container: UIView) {
        guard let state = drag else { return }
        drag = nil
        let speed = (velocity ?? 0) / max(1, container.bounds.height)
        // Content the sheet held at its top does not coast on.
        if state.sheetMovedLast, let scrollView = state.scrollView { scrollView.stopMotion() }
        if let driver = dragDriver {
            let tops = detentTops(in: container)
            let fraction = state.dismissalOffset / max(1, container.bounds.height - tops[tops.count - 1].top)
            let dismisses = velocity != nil
                && (abs(speed) >= SheetMetrics.decisiveSpeed ? speed > 0 : fraction > SheetMetrics.dismissFraction)
            driver.letGo(completing: dismisses)
            dragDriver = nil
            if !dismisses { tellIfTheDetentChanged(since: state) }
            return
        }
        let target = settlingDetent(from: state.top, speed: state.sheetMovedLast ? speed : 0, in: container)
        let remaining = abs(target.top - state.top) / max(1, container.bounds.height - detentTops(in: container)[0].top)
        liveTop = nil
        // Selecting the detent puts the sheet there (`placeAtRest`), over
        // what is left of the time to come all the way.
        UIView.animate(withDuration: SheetMetrics.detentChangeDuration * remaining, delay: 0, options: [.curveEaseOut, .allowUserInteraction], animations: {
            self.selectedDetentIdentifier = target.identifier
        })
        tellIfTheDetentChanged(since: state)
    }

    private func tellIfTheDetentChanged(since state: SheetDragState) {
        guard let container = card?.superview, restingDetent(in: container).identifier != state.startDetent else { return }
        sheetDelegate?.sheetPresentationControllerDidChangeSelectedDetentIdentifier(self)
    }

    /// Where a sheet let go with its top at `top` comes to rest: faster than
    /// ``SheetMetrics/decisiveSpeed``, the next detent in the fling's
    /// direction (or the last one that way); slower, the nearest.
    private func settlingDetent(from top: CGFloat, speed: CGFloat, in container: UIView) -> (identifier: Detent.Identifier, top: CGFloat) {
        let tops = detentTops(in: container)
        if speed <= -SheetMetrics.decisiveSpeed { return tops.last { $0.top < top - 0.5 } ?? tops[0] }
        if speed >= SheetMetrics.decisiveSpeed { return tops.first { $0.top > top + 0.5 } ?? tops[tops.count - 1] }
        return tops.min { abs($0.top - top) < abs($1.top - top) } ?? tops[0]
    }
}

/// One drag of a sheet, from the finger's first movement to its release.
private struct SheetDragState {
    /// The detent the sheet rested at when the drag began, and its top.
    let startDetent: UISheetPresentationController.Detent.Identifier
    let restingTop: CGFloat
    /// The card's top now (the smallest detent's once the dismissal runs).
    var top: CGFloat
    /// The finger's vertical translation at the last event.
    var translation: CGFloat = 0
    /// How far below the smallest detent the dismissal has taken the card.
    var dismissalOffset: CGFloat = 0
    /// Whether the delegate has been asked to let the drag dismiss (once a drag).
    var askedToDismiss = false
    /// The scroll view dragged with the sheet, and its content's offset
    /// after the last event.
    var scrollView: UIScrollView?
    var contentOffset: CGFloat = 0
    /// Whether the sheet, not the content, took the last movement.
    var sheetMovedLast = true
}

/// The sheet's drag recognizer's delegate: when it may begin, and that it
/// runs together with a scroll view's drag inside the sheet.
@MainActor
private final class SheetDragRules: UIGestureRecognizerDelegate {
    unowned let sheet: UISheetPresentationController

    init(sheet: UISheetPresentationController) {
        self.sheet = sheet
    }

    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        guard let pan = gestureRecognizer as? UIPanGestureRecognizer else { return false }
        return sheet.dragMayBegin(pan)
    }

    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool {
        guard let scrollView = otherGestureRecognizer.view as? UIScrollView, let card = gestureRecognizer.view else { return false }
        return otherGestureRecognizer === scrollView.panGestureRecognizer && scrollView.isDescendant(of: card)
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

    /// The dismissal starts from where the drag has brought the card.
    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        context = transitionContext
        restingFrame = transitionContext.view(forKey: .from)?.frame ?? sheet.frameOfPresentedViewInContainerView
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
    /// compared against an iOS 18 simulator); between detents, it goes on
    /// to the next detent that way.
    public static let decisiveSpeed: CGFloat = 2
    /// Slower, the sheet is dismissed if it was dragged more than half of
    /// its height down (Flutter: "a little past the halfway point", 48 %).
    public static let dismissFraction: CGFloat = 0.5
    /// The medium detent's height as a share of the screen's: 53 %. Apple
    /// says "approximately half the height of the screen"
    /// (`UISheetPresentationController.Detent.medium()`; the Human Interface
    /// Guidelines: "about half the fully expanded height"); an engineer's
    /// measurement across iPhones found the sheet about 53 % of the screen
    /// high, a little more or less by device (qiita.com/cocona15531,
    /// "ハーフモーダルの具体的な高さ").
    public static let mediumDetentFraction: CGFloat = 0.53
    /// How long a sheet takes to move to another detent with
    /// `animateChanges(_:)`, and (for the whole way) when a drag lets it
    /// settle: the standard slide's time (chosen; Apple publishes none).
    public static let detentChangeDuration: TimeInterval = ModalTransitionMetrics.slideDuration
    /// The grabber: a capsule 36 by 5 points, centred, 5 points below the
    /// sheet's top. Apple draws it (`prefersGrabberVisible`, "in the
    /// standard system-defined location") but publishes no size; 36×5 at
    /// 5 points is what the re-creations that match it measure (Telegram
    /// iOS's sheet handle, FloatingPanel's grabber, 36×5).
    public static let grabberSize = CGSize(width: 36, height: 5)
    public static let grabberTopInset: CGFloat = 5
    /// The grabber's colour: a grey, black at 20 % over the sheet (Telegram
    /// iOS's handle in its light theme; UIKit's is not published).
    public static let grabberColor = UIColor(white: 0, alpha: 0.2)

    /// The sheet's top in the window, below a safe-area top of `safeAreaTop`.
    static func sheetTop(safeAreaTop: CGFloat) -> CGFloat { safeAreaTop + topGap }

    /// Where the grabber sits on a card `cardWidth` wide.
    static func grabberFrame(cardWidth: CGFloat) -> CGRect {
        CGRect(x: (cardWidth - grabberSize.width) / 2, y: grabberTopInset, width: grabberSize.width, height: grabberSize.height)
    }
}
