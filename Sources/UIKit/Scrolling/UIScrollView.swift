/// A view whose content is larger than itself and moves under the finger.
///
/// The content offset is the view's `bounds.origin`: the content point shown
/// at the top-left corner. A pan recognizer of the scroll view's own
/// (``panGestureRecognizer``) drags it; when the finger lifts, the content
/// coasts, slowing by ``decelerationRate`` every millisecond, springs back
/// if it is past an edge, and lands on a page with ``isPagingEnabled``. All
/// of it runs on a run-loop timer at 60 Hz, on the application's clock, so
/// tests step it deterministically.
///
/// Where the code is:
/// - this file: the properties, and the methods subclasses override;
/// - `ScrollViewContentTouches.swift`: how content touches are delayed and
///   cancelled, read top to bottom;
/// - `UIScrollView+Dragging.swift`: dragging, releasing, coasting, animations;
/// - `UIScrollView+Zooming.swift`: zooming by pinch and by code;
/// - `ScrollPhysics.swift`: the constants and the motion of one axis.
@preconcurrency @MainActor
open class UIScrollView: UIView {
    /// How quickly coasting slows: the fraction of its velocity the content
    /// keeps each millisecond.
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }

        /// UIKit's default: 0.998 per millisecond.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// UIKit's quick stop: 0.99 per millisecond.
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        installRecognizers()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        installRecognizers()
    }

    /// The indicators' timer goes with the view (views are released on the
    /// main thread, as `UIView`'s deinitializer says).
    deinit {
        MainActor.assumeIsolated {
            scrollIndicators.hideTimer?.invalidate()
            trackingModeRunLoop?.endTracking()
        }
    }

    private func installRecognizers() {
        clipsToBounds = true
        storedPan.addTarget(self, action: UIScrollView.panGestureDidChange)
        addGestureRecognizer(storedPan)
        addGestureRecognizer(delayedTouchesRecognizer)
        updateContentTouchHandling()
    }

    /// Told about scrolling, dragging, deceleration and zooming. Held weakly.
    open weak var delegate: (any UIScrollViewDelegate)?

    // MARK: Content geometry

    /// The content point shown at the top-left corner: `bounds.origin`.
    open var contentOffset: CGPoint {
        get { bounds.origin }
        set {
            // The whole rectangle, not `bounds.origin = newValue`: that goes
            // through the modify accessor of `bounds`, which a subclass that
            // overrides it (the table view) supplies as a coroutine whose
            // frame is allocated on the heap, once per scrolled frame
            // (callgrind, docs/performance.md "A flung table at 120 Hz").
            var moved = bounds
            moved.origin = newValue
            bounds = moved
        }
    }

    /// Setting `bounds.origin` scrolls, and the delegate hears of it.
    open override var bounds: CGRect {
        get { super.bounds }
        set {
            let old = super.bounds
            super.bounds = newValue
            let scrolled = super.bounds.origin != old.origin
            if super.bounds.size != old.size { updateSafeAreaContentInset() }
            scrollIndicatorsFollowContent(offsetChanged: scrolled)
            if scrolled {
                refreshControl?.scrollViewDidScroll(self)
                delegate?.scrollViewDidScroll(self)
            }
        }
    }

    /// The size of the content, in points.
    open var contentSize = CGSize.zero {
        didSet {
            guard contentSize.width.isFinite && contentSize.height.isFinite else {
                report("contentSize", contentSize)
                contentSize = oldValue
                return
            }
            scrollIndicatorsFollowContent(offsetChanged: false)
            updateSafeAreaContentInset()
        }
    }

    /// The refresh control above the content: setting one puts it just
    /// above the content's top and lets the content bounce vertically.
    open var refreshControl: UIRefreshControl? {
        didSet {
            guard refreshControl !== oldValue else { return }
            oldValue?.removeFromSuperview()
            refreshControl?.attach(to: self)
        }
    }

    /// Extra room around the content the user can scroll to.
    open var contentInset = UIEdgeInsets.zero {
        didSet {
            let inset = contentInset
            guard [inset.top, inset.left, inset.bottom, inset.right].allSatisfy(\.isFinite) else {
                report("contentInset", inset)
                contentInset = oldValue
                return
            }
            guard contentInset != oldValue else { return }
            adjustedContentInsetDidChange()
            delegate?.scrollViewDidChangeAdjustedContentInset(self)
        }
    }

    /// The insets scrolling uses: ``contentInset`` plus the part of the
    /// safe area that ``contentInsetAdjustmentBehavior`` takes in.
    open var adjustedContentInset: UIEdgeInsets {
        let system = safeAreaContentInset
        return UIEdgeInsets(top: contentInset.top + system.top, left: contentInset.left + system.left,
                            bottom: contentInset.bottom + system.bottom, right: contentInset.right + system.right)
    }

    /// How the safe area becomes part of ``adjustedContentInset``.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable {
        /// As `scrollableAxes`, and always at the top and bottom when the
        /// scroll view is the root view of a controller inside a
        /// navigation or tab bar controller. The default.
        case automatic
        /// Only along the axes the content can scroll on: vertically when
        /// it is taller than the view or ``UIScrollView/alwaysBounceVertical``
        /// is set, horizontally likewise (and scrolling is enabled).
        case scrollableAxes
        /// Never: the adjusted insets are the content insets.
        case never
        /// Always, on every edge.
        case always
    }

    /// How the safe area is added to the content insets. Default ``ContentInsetAdjustmentBehavior-swift.enum/automatic``.
    open var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic {
        didSet { updateSafeAreaContentInset() }
    }

    /// The part of the safe area taken into ``adjustedContentInset``, as
    /// last worked out (see `SafeArea.swift`).
    var safeAreaContentInset = UIEdgeInsets.zero

    /// Called when ``adjustedContentInset`` changes; subclasses call super.
    open func adjustedContentInsetDidChange() {}

    /// Scrolls to `contentOffset`, at once or animated over
    /// ``ScrollViewConstants/scrollAnimationDuration`` (then the delegate hears
    /// `scrollViewDidEndScrollingAnimation`). Either way it stops any
    /// deceleration or animation under way.
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {
        stopMotion()
        // A non-finite offset is not animated: the view refuses it at once, and reports it.
        if animated && contentOffset.isFinite {
            animate(toOffset: contentOffset, zoomScale: nil)
        } else {
            self.contentOffset = contentOffset
        }
    }

    /// Scrolls as little as possible to show `rect` (in the content's
    /// coordinates), as far as the content allows; a rect too big to show
    /// whole is shown from its top-left corner. A rect that is not finite
    /// is ignored.
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {
        guard rect.isFinite else { return }
        func axis(_ offset: CGFloat, _ length: CGFloat, _ start: CGFloat, _ end: CGFloat, _ range: ClosedRange<CGFloat>) -> CGFloat {
            var result = offset
            if end - start >= length || start < offset {
                result = start
            } else if end > offset + length {
                result = end - length
            }
            return clamp(result, range)
        }
        let range = offsetRange
        let target = CGPoint(
            x: axis(contentOffset.x, bounds.width, rect.minX, rect.maxX, range.x),
            y: axis(contentOffset.y, bounds.height, rect.minY, rect.maxY, range.y))
        setContentOffset(target, animated: animated)
    }

    // MARK: Scrolling behaviour

    /// When false, dragging does not scroll (the pan recognizer is disabled)
    /// and content touches are not delayed.
    open var isScrollEnabled = true {
        didSet {
            updateContentTouchHandling()
            updateSafeAreaContentInset()
        }
    }

    /// When true, a drag that starts mostly along one axis scrolls only along
    /// it (see ``ScrollViewConstants/directionalLockRatio``).
    open var isDirectionalLockEnabled = false

    /// When true (the default), content dragged past an edge follows the
    /// finger less and less (rubber-banding) and springs back; coasting
    /// content overshoots an edge and springs back. When false it stops at
    /// the edges.
    open var bounces = true

    /// With ``bounces``, lets the user drag vertically (and rubber-band) even
    /// when the content is not taller than the view.
    open var alwaysBounceVertical = false {
        didSet { updateSafeAreaContentInset() }
    }
    /// With ``bounces``, lets the user drag horizontally even when the
    /// content is not wider than the view.
    open var alwaysBounceHorizontal = false {
        didSet { updateSafeAreaContentInset() }
    }

    /// When true, the content comes to rest only at multiples of the view's size.
    open var isPagingEnabled = false

    /// How quickly the content slows after a fling. Default ``DecelerationRate-swift.struct/normal``.
    open var decelerationRate = DecelerationRate.normal

    // MARK: Scroll indicators

    // (Drawn and shown as UIScrollView+Indicators.swift says.)

    /// Whether the vertical indicator shows while the content moves. Default true.
    open var showsVerticalScrollIndicator = true {
        didSet { scrollIndicatorsFollowContent(offsetChanged: false) }
    }
    /// Whether the horizontal indicator shows while the content moves. Default true.
    open var showsHorizontalScrollIndicator = true {
        didSet { scrollIndicatorsFollowContent(offsetChanged: false) }
    }
    /// The indicators' colours. Default ``IndicatorStyle-swift.enum/default``.
    open var indicatorStyle = IndicatorStyle.default {
        didSet { scrollIndicatorsFollowContent(offsetChanged: false) }
    }
    /// How far the vertical indicator keeps from the view's edges. Default zero.
    open var verticalScrollIndicatorInsets = UIEdgeInsets.zero {
        didSet { scrollIndicatorsFollowContent(offsetChanged: false) }
    }
    /// How far the horizontal indicator keeps from the view's edges. Default zero.
    open var horizontalScrollIndicatorInsets = UIEdgeInsets.zero {
        didSet { scrollIndicatorsFollowContent(offsetChanged: false) }
    }
    /// Shows the indicators for a moment
    /// (``ScrollIndicatorMetrics/flashDuration``), to hint that there is more content.
    open func flashScrollIndicators() {
        showScrollIndicators(for: ScrollIndicatorMetrics.flashDuration)
    }

    /// Both indicators' insets at once (UIKit's older property): reads the
    /// vertical one, sets both.
    open var scrollIndicatorInsets: UIEdgeInsets {
        get { verticalScrollIndicatorInsets }
        set {
            verticalScrollIndicatorInsets = newValue
            horizontalScrollIndicatorInsets = newValue
        }
    }

    /// The colours of the scroll indicators.
    public enum IndicatorStyle: Int, Sendable {
        /// Dark with a light border: visible on any background.
        case `default`
        /// Dark, for light backgrounds.
        case black
        /// Light, for dark backgrounds.
        case white
    }

    // MARK: State

    /// True while a finger is on the scroll view, dragging or not yet.
    public internal(set) var isTracking = false
    /// True from the moment a drag starts moving the content until the finger lifts.
    public internal(set) var isDragging = false {
        didSet {
            updateTrackingMode()
            if oldValue && !isDragging { refreshControl?.scrollViewDidEndDragging(self) }
        }
    }
    /// True while the content moves on its own after a drag.
    public internal(set) var isDecelerating = false {
        didSet { updateTrackingMode() }
    }
    /// The run loop this scroll view holds in the tracking mode, while it
    /// drags or decelerates.
    private var trackingModeRunLoop: ApplicationRunLoop?

    /// As UIKit: the main run loop is in `RunLoop.Mode.tracking` while a
    /// scroll view drags or decelerates, so that timers added only for
    /// `.default` wait, and those added for `.common` keep firing.
    private func updateTrackingMode() {
        let tracks = isDragging || isDecelerating
        if tracks, trackingModeRunLoop == nil {
            let runLoop = UIApplication.shared.runLoop
            runLoop.beginTracking()
            trackingModeRunLoop = runLoop
        } else if !tracks, let runLoop = trackingModeRunLoop {
            runLoop.endTracking()
            trackingModeRunLoop = nil
        }
    }

    /// The recognizer that drags the content. Its `cancelsTouchesInView`
    /// follows ``canCancelContentTouches``; its delegate must stay unset (the
    /// scroll view decides through `gestureRecognizerShouldBegin(_:)`).
    open var panGestureRecognizer: UIPanGestureRecognizer { storedPan }

    // MARK: Content touches (see ScrollViewContentTouches.swift)

    /// When true (the default), a touch on content reaches it only after
    /// ``ScrollViewConstants/contentTouchDelay``, or when it lifts sooner,
    /// and never if a scroll starts first.
    open var delaysContentTouches = true {
        didSet { updateContentTouchHandling() }
    }

    /// When true (the default), a drag that starts on content that already
    /// has the touch cancels it there and scrolls, unless
    /// ``touchesShouldCancel(in:)`` says no. When false, such a drag does not scroll.
    open var canCancelContentTouches = true {
        didSet { updateContentTouchHandling() }
    }

    /// Asked before content receives touches, with the touches and the view
    /// they landed on; false keeps them from it (the scroll view can still
    /// scroll with them). The default is true.
    open func touchesShouldBegin(_ touches: Set<UITouch>, with event: UIEvent?, in view: UIView) -> Bool {
        true
    }

    /// Asked when a drag starts on content that already has the touch;
    /// false keeps the touch with the content and the scroll view does not
    /// scroll. The default is true, except for a control, which keeps its touch.
    open func touchesShouldCancel(in view: UIView) -> Bool {
        !(view is UIControl)
    }

    /// The scroll view's own recognizers ask here before they begin: the pan
    /// only if the content's touches let it (``touchesShouldCancel(in:)``),
    /// the pinch only if there is a view to zoom. Subclasses call super.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        if gestureRecognizer === storedPan { return contentTouchesLetPanBegin() }
        if gestureRecognizer === storedPinch { return canZoom }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    // MARK: Zooming (see UIScrollView+Zooming.swift)

    /// The smallest zoom scale pinching settles at. Default 1.
    open var minimumZoomScale: CGFloat = 1 {
        didSet {
            guard minimumZoomScale.isFinite && minimumZoomScale > 0 else {
                report("minimumZoomScale", minimumZoomScale)
                minimumZoomScale = oldValue
                return
            }
            updatePinchGestureRecognizer()
        }
    }
    /// The largest zoom scale pinching settles at. Default 1; zooming needs
    /// it above ``minimumZoomScale`` and a delegate that returns a
    /// view from `viewForZooming(in:)`.
    open var maximumZoomScale: CGFloat = 1 {
        didSet {
            guard maximumZoomScale.isFinite && maximumZoomScale > 0 else {
                report("maximumZoomScale", maximumZoomScale)
                maximumZoomScale = oldValue
                return
            }
            updatePinchGestureRecognizer()
        }
    }

    /// The scale of the zoomed view. Setting it zooms at once, about the
    /// centre of what is shown, within the minimum and maximum.
    open var zoomScale: CGFloat {
        get { storedZoomScale }
        set { setZoomScale(newValue, animated: false) }
    }

    /// Zooms to `scale`, kept within the minimum and maximum, about the
    /// centre of what is shown. Nothing happens without a view to zoom, or
    /// for a scale that is not a positive number. An animated change ends
    /// with `scrollViewDidEndZooming`.
    open func setZoomScale(_ scale: CGFloat, animated: Bool) {
        guard let view = zoomingView, scale.isFinite, scale > 0 else { return }
        let target = clampedZoomScale(scale)
        let centre = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        let anchor = view.convert(CGPoint(x: bounds.midX, y: bounds.midY), from: self)
        zoom(view, to: target, keeping: anchor, at: centre, animated: animated)
    }

    /// Zooms so that `rect`, in the zoomed view's coordinates, fills the
    /// scroll view as far as the zoom scales allow, centred. An empty or
    /// non-finite rect is ignored.
    open func zoom(to rect: CGRect, animated: Bool) {
        guard let view = zoomingView, rect.width > 0 || rect.height > 0, rect.isFinite else { return }
        let fit = min(rect.width > 0 ? bounds.width / rect.width : .infinity,
                      rect.height > 0 ? bounds.height / rect.height : .infinity)
        let centre = CGPoint(x: bounds.width / 2, y: bounds.height / 2)
        zoom(view, to: clampedZoomScale(fit), keeping: CGPoint(x: rect.midX, y: rect.midY), at: centre, animated: animated)
    }

    /// When true (the default), pinching past the minimum or maximum scale
    /// goes on with resistance and bounces back on release.
    open var bouncesZoom = true

    /// True while a pinch zooms the content.
    public internal(set) var isZooming = false
    /// True while the zoom scale bounces back into range after a pinch.
    public internal(set) var isZoomBouncing = false

    /// The recognizer that zooms; nil while zooming is impossible (the
    /// minimum and maximum scales are equal).
    open var pinchGestureRecognizer: UIPinchGestureRecognizer? { storedPinch }

    /// A value that is not finite (or a zoom scale that is not positive)
    /// would poison every offset worked out from it: like a view's
    /// geometry, it is refused and reported, and the old value kept.
    private func report(_ property: String, _ value: Any) {
        UIApplication.shared.diagnostics.report(Diagnostic(
            .invalidGeometry, "\(property) \(value) of \(self) is not valid; the old value was kept"))
    }

    /// A scroll view that leaves its window stops coasting or animating
    /// (its delegate hears that the motion ended), so that its timer does
    /// not run on for a view no longer on screen.
    override func windowWillChange(to newWindow: UIWindow?) {
        stopMotion()
    }

    // MARK: Internal state

    let storedPan = ScrollViewPanGestureRecognizer()
    let delayedTouchesRecognizer = DelayedTouchesBeganGestureRecognizer()
    var storedPinch: UIPinchGestureRecognizer?
    var storedZoomScale: CGFloat = 1
    /// The drag under way, from its start.
    var drag: DragState?
    /// The pinch under way.
    var pinch: PinchState?
    /// What moves the content on its own, and the display link that steps it.
    var motion = Motion.none
    var scrollIndicators = ScrollIndicators()
    /// Counts changes of ``motion``, so a frame can tell whether the
    /// delegate changed it while hearing of the frame's move.
    var motionGeneration = 0
    var motionLink: CADisplayLink?
    /// The time the last frame of the motion is shown at.
    var lastFrameTime: TimeInterval = 0
    /// Where the motion has taken the content exactly; the offset shown is
    /// this on the screen's pixel grid.
    var motionOffset: CGPoint = .zero
}
