/// Told when the user moves a sheet to another detent, on top of what every
/// presentation controller's delegate hears.
@MainActor
public protocol UISheetPresentationControllerDelegate: UIAdaptivePresentationControllerDelegate {
    /// The user dragged the sheet to rest at another detent
    /// (``UISheetPresentationController/selectedDetentIdentifier`` has
    /// changed). Not called when the app changes the selected detent.
    func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController)
}

/// What a custom detent's resolver works its value out from: the sheet's
/// container (Apple's `UISheetPresentationControllerDetentResolutionContext`).
@preconcurrency @MainActor
public protocol UISheetPresentationControllerDetentResolutionContext: NSObjectProtocol {
    /// The traits of the sheet's container: its size classes (compact
    /// height on an iPhone held sideways) and scale.
    var containerTraitCollection: UITraitCollection { get }
    /// The largest value a detent can have: the large detent's, the
    /// height from the sheet's top at full height to the container's
    /// bottom safe-area inset.
    var maximumDetentValue: CGFloat { get }
}

/// The context a sheet resolves its detents in, for one layout of its
/// container, and where a detent of a given value puts the card's top.
@MainActor
final class SheetDetentContext: NSObject, UISheetPresentationControllerDetentResolutionContext {
    let containerTraitCollection: UITraitCollection
    let maximumDetentValue: CGFloat
    /// The medium detent's value (``SheetMetrics/mediumDetentFraction`` of
    /// the container's height, less the bottom inset).
    let mediumDetentValue: CGFloat
    private let containerHeight: CGFloat
    private let bottomInset: CGFloat

    init(container: UIView) {
        let safeArea = container.window?.safeAreaInsets ?? .zero
        containerHeight = container.bounds.height
        bottomInset = safeArea.bottom
        maximumDetentValue = max(0, containerHeight - SheetMetrics.sheetTop(safeAreaTop: safeArea.top) - bottomInset)
        mediumDetentValue = min(maximumDetentValue, max(0, containerHeight * SheetMetrics.mediumDetentFraction - bottomInset))
        containerTraitCollection = .iPhone(size: container.bounds.size, scale: UIScreen.main.scale)
        super.init()
    }

    /// The card's top for a detent of `value`: the card is that high plus
    /// the bottom inset, between nothing and the large detent's height.
    func top(forValue value: CGFloat) -> CGFloat {
        containerHeight - bottomInset - min(max(0, value), maximumDetentValue)
    }
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
/// 1. It may begin only along the vertical.
/// 2. The card's top follows the finger between the largest detent's top
///    and the smallest's, the presenter going back and the dimming coming
///    as the top rises (the presenter only between the detent below the
///    large one and the large one). Above the largest detent the sheet
///    stretches, less and less, at most ``SheetMetrics/maximumStretch``.
///    Past the smallest detent the drag becomes the interactive dismissal:
///    the delegate is asked, then the card follows on down; refused (the
///    delegate is told), the card goes on down with resistance instead.
/// 3. A scroll view under the finger that scrolls vertically is dragged
///    together with the sheet, and each movement goes to one of them: down
///    to the sheet once the content is at its top (the content stays there,
///    it does not stretch), up to the sheet while it is below the detent it
///    may rise to (the largest with `prefersScrollingExpandsWhenScrolledToEdge`,
///    else the one it rested at), the rest to the scroll view.
/// 4. Let go, a dismissal completes or is undone as ``SheetMetrics`` says;
///    a stretched or refused sheet springs back to its detent
///    (``SheetMetrics/stretchReturnDuration``); otherwise the sheet settles
///    at the next detent in the direction of a fling, or the nearest, and
///    the delegate hears
///    `sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)` if
///    that is another one. Content that was held at its top stays there.
@preconcurrency @MainActor
open class UISheetPresentationController: UIPresentationController {
    /// A height a sheet rests at: the system's large and medium ones, or one
    /// the app works out from the sheet's container (iOS 16's custom detents).
    ///
    /// A detent's value is the sheet's height inside the safe area: the
    /// card is that high plus the container's bottom safe-area inset (Apple:
    /// the resolver returns "a height within the safe area of the sheet"),
    /// never higher than the large detent's.
    @preconcurrency @MainActor
    public final class Detent: NSObject {
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public init(_ rawValue: String) { self.rawValue = rawValue }
            public static let large = Identifier(rawValue: "com.apple.UIKit.large")
            public static let medium = Identifier(rawValue: "com.apple.UIKit.medium")
        }
        public let identifier: Identifier
        /// How a custom detent's value is worked out; nil for the system's.
        private let resolver: ((any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?)?

        private init(identifier: Identifier, resolver: ((any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?)?) {
            self.identifier = identifier
            self.resolver = resolver
            super.init()
        }

        /// The full-height sheet: its value is the context's
        /// `maximumDetentValue`.
        public static func large() -> Detent { Detent(identifier: .large, resolver: nil) }
        /// A sheet about half the screen's height
        /// (``SheetMetrics/mediumDetentFraction``), inactive in compact
        /// height (an iPhone held sideways), as Apple documents.
        public static func medium() -> Detent { Detent(identifier: .medium, resolver: nil) }

        /// A detent whose value `resolver` works out from the sheet's
        /// container whenever the sheet lays itself out; a nil value makes
        /// it inactive (the sheet ignores it). Without an `identifier` the
        /// detent gets a random one, as in UIKit.
        public static func custom(identifier: Identifier? = nil,
                                  resolver: @escaping (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?) -> Detent {
            Detent(identifier: identifier ?? Identifier(rawValue: "com.apple.UIKit.custom." + UUID().uuidString), resolver: resolver)
        }

        /// The detent's value in `context` (a height inside the safe area),
        /// or nil if it is inactive there: a custom detent's resolver's
        /// answer, the large one's `maximumDetentValue`, the medium one's
        /// 53 % of the container's height less its bottom inset (in a context
        /// other than a sheet's, that share of `maximumDetentValue`).
        public func resolvedValue(in context: any UISheetPresentationControllerDetentResolutionContext) -> CGFloat? {
            if let resolver { return resolver(context) }
            if identifier == .large { return context.maximumDetentValue }
            if context.containerTraitCollection.verticalSizeClass == .compact { return nil }
            if let sheetContext = context as? SheetDetentContext { return sheetContext.mediumDetentValue }
            return context.maximumDetentValue * SheetMetrics.mediumDetentFraction
        }
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
    /// the content. A tap on it (or within ``SheetMetrics/grabberTouchOutset``
    /// of it) moves the sheet to the next larger detent, from the largest
    /// back to the smallest, and tells the delegate, as the user's change
    /// it is (iOS's grabber is a button that expands and collapses the
    /// sheet: VoiceOver reads it as one, magentaa11y's iOS sheet notes; the
    /// re-creation react-native-true-sheet cycles its detents "for
    /// consistency with iOS"). With one detent a tap does nothing. The
    /// grabber hides while another sheet covers this one (Apple: "The
    /// system automatically hides the grabber ... when another sheet
    /// presents on top of it").
    open var prefersGrabberVisible = false {
        didSet { showGrabber() }
    }
    /// The largest detent at which nothing behind the sheet is dimmed (nil,
    /// the default: dimmed at every detent). At it and at smaller detents
    /// the dimming view is gone and touches around the sheet reach the views
    /// behind it (Apple: "Without a dimming view, the undimmed area around
    /// the sheet responds to user interaction"); the dimming comes as the
    /// sheet rises to the next detent.
    open var largestUndimmedDetentIdentifier: Detent.Identifier? {
        didSet { placeAtRest() }
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
    /// The grabber on the card, shown per ``prefersGrabberVisible`` and
    /// hidden as far as another sheet covers this one (0 to 1).
    private let grabber = SheetGrabber(frame: .zero)
    private var covered: CGFloat = 0
    /// The sheet presented from inside this one, which covers it.
    private weak var coveringSheet: UISheetPresentationController?
    /// The sheet this one covers, when it was presented from inside one:
    /// it goes back behind this one as a presenter would.
    private weak var coveredSheet: UISheetPresentationController?
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
        showGrabber()
        if grabber.gestureRecognizers?.isEmpty ?? true {
            let tap = UITapGestureRecognizer()
            tap.addTarget(self, action: UISheetPresentationController.cycleDetents)
            grabber.addGestureRecognizer(tap)
        }
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
        coveredSheet = Self.sheet(showing: presentingViewController)
        backdrop = coveredSheet?.card ?? Self.backdrop(of: presentingViewController, under: container)
        if let layer = backdrop?.layer { backdropCorners = (layer.cornerRadius, layer.masksToBounds, layer.maskedCorners) }
    }

    /// The sheet `presenter` is shown in, if it is in one.
    private static func sheet(showing presenter: UIViewController) -> UISheetPresentationController? {
        var outermost = presenter
        while let parent = outermost.parent { outermost = parent }
        guard outermost.presentingViewController != nil,
              let sheet = outermost.presentationController as? UISheetPresentationController, sheet.card != nil else { return nil }
        return sheet
    }

    /// The window's subview the presenter's view is in: what goes back
    /// behind the sheet.
    private static func backdrop(of presenter: UIViewController, under container: UIView) -> UIView? {
        guard let window = container.superview else { return nil }
        var view: UIView? = presenter.viewIfLoaded
        while let current = view, current.superview !== window { view = current.superview }
        return view === container ? nil : view
    }

    /// The dimming and the presenter as far as how far the sheet is
    /// presented and where the card's top is (`dimming(atTop:in:)`,
    /// `pushBack(atTop:in:)`) say.
    override func placeSurroundings(shown: CGFloat) {
        guard let container = card?.superview ?? containerView else { return }
        let cardTop = liveTop ?? restingTop(in: container)
        let darkness = dimming(atTop: cardTop, in: container)
        dimmingView.alpha = shown * darkness
        (container as? UITransitionView)?.passesTouchesThrough = darkness == 0
        coveredSheet?.setCovered(shown, by: self)
        guard let backdrop else { return }
        let back = shown * pushBack(atTop: cardTop, in: container)
        let scale = 1 - (1 - SheetMetrics.presenterScale) * back
        // Scaled about its top centre (the transform acts about the view's
        // centre), its top edge brought down to the safe area's top, or,
        // for a sheet this one covers, raised a little.
        let height = backdrop.bounds.height
        let top = coveredSheet == nil
            ? (backdrop.window?.safeAreaInsets.top ?? 0) * back
            : -SheetMetrics.coveredSheetRise * container.bounds.height * back
        backdrop.transform = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: top - height * (1 - scale) / 2)
        // A covered sheet keeps its own rounded top corners.
        guard coveredSheet == nil else { return }
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
        coveredSheet?.setCovered(0, by: nil)
        coveredSheet = nil
        dimmingView.removeFromSuperview()
    }

    // MARK: The grabber, and a sheet on a sheet

    private func showGrabber() {
        grabber.alpha = prefersGrabberVisible ? 1 - covered : 0
    }

    /// Another sheet presented from inside this one, `sheet`, is `amount`
    /// of the way on screen (0: none): the grabber hides as it comes.
    private func setCovered(_ amount: CGFloat, by sheet: UISheetPresentationController?) {
        covered = min(1, max(0, amount))
        coveringSheet = sheet
        showGrabber()
    }

    /// A tap on the grabber: the next larger detent, or from the largest
    /// the smallest, animated as `animateChanges(_:)` does; the delegate is
    /// told of the user's change.
    private func cycleDetents() {
        guard let container = card?.superview, !isInTransition, drag == nil, dragDriver == nil else { return }
        let tops = detentTops(in: container)
        guard tops.count > 1 else { return }
        let current = restingDetent(in: container).identifier
        let index = tops.firstIndex { $0.identifier == current } ?? tops.count - 1
        let next = tops[index == 0 ? tops.count - 1 : index - 1].identifier
        animateChanges { selectedDetentIdentifier = next }
        sheetDelegate?.sheetPresentationControllerDidChangeSelectedDetentIdentifier(self)
    }

    // MARK: Detents

    /// The active detents with their tops, the largest sheet (the highest
    /// top) first: each detent resolved in the container
    /// (`Detent.resolvedValue(in:)`); the large detent alone when none is
    /// active, as UIKit falls back to it.
    private func detentTops(in container: UIView) -> [(identifier: Detent.Identifier, top: CGFloat)] {
        let context = SheetDetentContext(container: container)
        var tops: [(identifier: Detent.Identifier, top: CGFloat)] = []
        for detent in detents {
            guard let value = detent.resolvedValue(in: context), value.isFinite else { continue }
            tops.append((detent.identifier, context.top(forValue: value)))
        }
        if tops.isEmpty { tops = [(.large, context.top(forValue: context.maximumDetentValue))] }
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

    /// How dark the dimming is (0 to 1) for a card whose top is at `top`:
    /// none at or below the largest undimmed detent, all of it from the
    /// next larger detent up.
    private func dimming(atTop top: CGFloat, in container: UIView) -> CGFloat {
        guard let undimmed = largestUndimmedDetentIdentifier else { return 1 }
        let tops = detentTops(in: container)
        guard let undimmedTop = tops.first(where: { $0.identifier == undimmed })?.top ?? systemDetentTop(undimmed, in: container) else { return 1 }
        guard let next = tops.last(where: { $0.top < undimmedTop - 0.5 })?.top else { return 0 }
        return min(1, max(0, (undimmedTop - top) / (undimmedTop - next)))
    }

    /// Where the system detent `identifier` would put the card's top, for
    /// one that is not among the sheet's detents; nil for another identifier.
    private func systemDetentTop(_ identifier: Detent.Identifier, in container: UIView) -> CGFloat? {
        let context = SheetDetentContext(container: container)
        let detent: Detent
        switch identifier {
        case .large: detent = .large()
        case .medium: detent = .medium()
        default: return nil
        }
        return detent.resolvedValue(in: context).map(context.top(forValue:))
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
    /// By bounds and centre: a sheet that another covers is transformed.
    private func setCard(_ frame: CGRect) {
        guard let card else { return }
        let resized = frame.size != card.bounds.size
        card.bounds = CGRect(origin: card.bounds.origin, size: frame.size)
        card.center = CGPoint(x: frame.midX, y: frame.midY)
        // The sheet covering this one scales it back about its top: again
        // for the new height.
        if resized, let coveringSheet { coveringSheet.placeSurroundings(shown: covered) }
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
        return abs(moved.y) > abs(moved.x)
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
            drag = SheetDragState(startDetent: resting.identifier, restingTop: resting.top, top: card.frame.minY, fingerTop: card.frame.minY)
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
            let room = dragDriver != nil ? state.dismissalOffset : max(0, state.fingerTop - ceiling)
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
    /// detent's top and the smallest's; above the largest, the sheet
    /// stretches with resistance; past the smallest, into the dismissal,
    /// or, refused, on with resistance.
    private func move(by delta: CGFloat, in container: UIView) {
        guard var state = drag, delta != 0 else { return }
        if let driver = dragDriver {
            let tops = detentTops(in: container)
            state.dismissalOffset = max(0, state.dismissalOffset + delta)
            drag = state
            driver.follow(state.dismissalOffset / max(1, container.bounds.height - tops[tops.count - 1].top))
            return
        }
        state.fingerTop += delta
        drag = state
        show(in: container)
        let lowest = detentTops(in: container).last?.top ?? state.fingerTop
        if state.fingerTop > lowest && !state.askedToDismiss { startDismissal(by: state.fingerTop - lowest, in: container) }
    }

    /// Puts the card where the drag's finger has brought its top
    /// (`shownTop(forFinger:in:)`), the surroundings with it: resized
    /// between the detents and above them (the sheet stretches), moved
    /// whole below the smallest (a refused dismissal's pull).
    private func show(in container: UIView) {
        guard var state = drag else { return }
        state.top = shownTop(forFinger: state.fingerTop, refused: state.dismissalRefused, in: container)
        drag = state
        liveTop = state.top
        let lowest = detentTops(in: container).last?.top ?? state.top
        setCard(cardFrame(top: min(state.top, lowest), in: container).offsetBy(dx: 0, dy: max(0, state.top - lowest)))
        placeSurroundings(shown: 1)
    }

    /// Where the card's top is shown for a finger that would put it at
    /// `fingerTop`: there between the detents; above the largest, less and
    /// less far, never more than ``SheetMetrics/maximumStretch`` (the
    /// scroll view's rubber-band formula, ``ScrollViewConstants/rubberBand(_:dimension:)``,
    /// over that distance); below the smallest, at it, unless the
    /// dismissal was refused: then on down with the same resistance over
    /// the container's height, as a scroll view's content past its edge.
    private func shownTop(forFinger fingerTop: CGFloat, refused: Bool, in container: UIView) -> CGFloat {
        let tops = detentTops(in: container)
        let highest = tops[0].top, lowest = tops[tops.count - 1].top
        if fingerTop < highest {
            return highest - ScrollViewConstants.rubberBand(highest - fingerTop, dimension: SheetMetrics.maximumStretch)
        }
        if fingerTop > lowest {
            return refused ? lowest + ScrollViewConstants.rubberBand(fingerTop - lowest, dimension: container.bounds.height) : lowest
        }
        return fingerTop
    }

    /// The drag went past the smallest detent: the delegate is asked, and
    /// the dismissal starts driven by the drag, or is refused (the card
    /// then goes on down with resistance, and comes back when let go).
    private func startDismissal(by offset: CGFloat, in container: UIView) {
        drag?.askedToDismiss = true
        // Given up, the dismissal leaves the sheet at its smallest detent.
        let smallest = detentTops(in: container)
        selectedDetentIdentifier = smallest[smallest.count - 1].identifier
        let refused = presentedViewController.isModalInPresentation
            || delegate?.presentationControllerShouldDismiss(self) == false
        if refused {
            delegate?.presentationControllerDidAttemptToDismiss(self)
            drag?.dismissalRefused = true
            return show(in: container)
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
        let tops = detentTops(in: container)
        let target = settlingDetent(from: state.top, speed: state.sheetMovedLast ? speed : 0, in: container)
        let remaining = abs(target.top - state.top) / max(1, container.bounds.height - tops[0].top)
        // Stretched above the largest detent or pulled below the smallest,
        // it springs back in the stretch's time; otherwise selecting the
        // detent puts the sheet there (`placeAtRest`), over what is left
        // of the time to come all the way.
        let stretched = state.top < tops[0].top || state.top > tops[tops.count - 1].top
        let duration = stretched ? SheetMetrics.stretchReturnDuration : SheetMetrics.detentChangeDuration * remaining
        liveTop = nil
        UIView.animate(withDuration: duration, delay: 0, options: [.curveEaseOut, .allowUserInteraction], animations: {
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

/// The grabber: a capsule that takes taps a little around itself too
/// (``SheetMetrics/grabberTouchOutset``).
private final class SheetGrabber: UIView {
    override func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
        bounds.insetBy(dx: -SheetMetrics.grabberTouchOutset, dy: -SheetMetrics.grabberTouchOutset).contains(point)
    }
}

/// One drag of a sheet, from the finger's first movement to its release.
private struct SheetDragState {
    /// The detent the sheet rested at when the drag began, and its top.
    let startDetent: UISheetPresentationController.Detent.Identifier
    let restingTop: CGFloat
    /// The card's top now (the smallest detent's once the dismissal runs),
    /// and where the finger alone would have put it (the shown top resists
    /// beyond the detents).
    var top: CGFloat
    var fingerTop: CGFloat
    /// The finger's vertical translation at the last event.
    var translation: CGFloat = 0
    /// How far below the smallest detent the dismissal has taken the card.
    var dismissalOffset: CGFloat = 0
    /// Whether the delegate has been asked to let the drag dismiss (once a
    /// drag), and whether the dismissal was refused.
    var askedToDismiss = false
    var dismissalRefused = false
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

    /// How far a sheet dragged up at its largest detent can stretch (its
    /// top rising, its bottom staying), reached less and less as the finger
    /// goes on: the gap above the sheet, so that its top stops where the
    /// presenter's scaled-back top is. On iOS the sheet "will move up
    /// slightly" and snaps back when let go (Flutter issue 161686, against
    /// an iOS simulator); "the stretch stops at the reduced parent page
    /// limits" (smooth_sheets issue 169, against SwiftUI's sheet);
    /// Flutter's sheet, tuned against iOS 18, allows 0.8 % of the screen's
    /// height (`_kStretchedTopGapRatio`), 7 points on an 874-point screen,
    /// where its gap to the parent's top is 0.9 %.
    public static let maximumStretch: CGFloat = topGap
    /// How long a stretched sheet, or one pulled down against a refused
    /// dismissal, takes to spring back to its detent once let go, ease-out:
    /// 0.18 s, Flutter's, tuned against iOS 18 (its stretch
    /// `animateBack(0, 180 ms, easeOut)`).
    public static let stretchReturnDuration: TimeInterval = 0.18
    /// How far around the grabber a tap still lands on it: 16 points each
    /// way (react-native-true-sheet's grabber hit box, the capsule plus 16
    /// points, made to match iOS's; UIKit's is not published). Only within
    /// the card.
    public static let grabberTouchOutset: CGFloat = 16
    /// How far a sheet covered by another sheet rises as it goes back
    /// behind it, as a share of the container's height: 0.5 % (Flutter's
    /// `_kMidUpTween`, measured on an iOS 18 simulator). It is also scaled
    /// by ``presenterScale`` about its top centre, as a presenter is.
    public static let coveredSheetRise: CGFloat = 0.005

    /// The sheet's top in the window, below a safe-area top of `safeAreaTop`.
    static func sheetTop(safeAreaTop: CGFloat) -> CGFloat { safeAreaTop + topGap }

    /// Where the grabber sits on a card `cardWidth` wide.
    static func grabberFrame(cardWidth: CGFloat) -> CGRect {
        CGRect(x: (cardWidth - grabberSize.width) / 2, y: grabberTopInset, width: grabberSize.width, height: grabberSize.height)
    }
}
