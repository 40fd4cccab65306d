/// A rectangle on screen that draws through its layer and handles events.
///
/// Every view is backed by a `CALayer` and is that layer's delegate. The
/// layer holds the geometry: `frame`, `bounds`, `center` and `transform` read
/// and write it, and the layer tree mirrors the view tree in the same order.
/// The view adds what layers do not have: events (it is a `UIResponder`),
/// hit-testing, and the view-controller relationship.
open class UIView: UIResponder, CALayerDelegate {
    /// The class of layer made for each view of this class.
    open class var layerClass: AnyClass { CALayer.self }

    public let layer: CALayer
    @exclusivity(unchecked) private var storedSubviews: [UIView] = []
    @exclusivity(unchecked) private var interactionEnabled = true {
        didSet { acceptsTouches = interactionEnabled && animationsBlockingTouches == 0 }
    }
    /// Animations of blocks without `.allowUserInteraction` running on the
    /// view: while any runs, the view and its subviews cannot be hit.
    var animationsBlockingTouches = 0 {
        didSet { acceptsTouches = interactionEnabled && animationsBlockingTouches == 0 }
    }
    /// Both of the above in one flag, read by every hit test.
    @exclusivity(unchecked) private var acceptsTouches = true
    /// The view controller whose root view this is, if any.
    weak var owningViewController: UIViewController?
    /// Auto Layout's state of the view (Layout/), made when the view first takes part.
    var layoutState: ViewLayoutState?

    public init(frame: CGRect) {
        layer = Self.makeLayer()
        super.init()
        adoptLayer(frame: frame)
    }

    public override convenience init() {
        self.init(frame: .zero)
    }

    /// Not for views: UIKit makes only delegates from their class.
    @available(*, unavailable)
    public required init(madeByUIKit _: MadeByUIKit) {
        fatalError("UIKit makes no views from a class")
    }

    /// The class, frame and tag. Read it on the main thread, like the view.
    nonisolated open override var description: String {
        MainActor.assumeIsolated { "<\(type(of: self)) frame = \(frame)\(tag != 0 ? " tag = \(tag)" : "")>" }
    }

    /// Designated, as in UIKit, so that subclasses can call
    /// `super.init(coder:)`. Interface archives are not read here: a view
    /// made from a coder is the view `init(frame: .zero)` makes.
    public required init?(coder: NSCoder) {
        layer = Self.makeLayer()
        super.init()
        adoptLayer(frame: .zero)
    }

    private static func makeLayer() -> CALayer {
        ((layerClass as? CALayer.Type) ?? CALayer.self).init()
    }

    private func adoptLayer(frame: CGRect) {
        layer.setOwningDelegate(self)
        interactionEnabled = Self.interactionEnabledByDefault
        self.frame = frame
        // A new view has no content yet: one whose class draws is marked, so
        // that a snapshot of it (`layer.render(in:)`) shows its drawing even
        // before it joins a window, as in UIKit.
        displayIfItsClassDraws()
    }

    /// Clears the unretained references to this view held by its layer,
    /// subviews and gesture recognizers. Views are released on the main
    /// thread, as in UIKit. (The deinitializer cannot be `isolated`: Swift
    /// 6.3 refuses that in a subclass of a `@preconcurrency` class.)
    deinit {
        MainActor.assumeIsolated {
            layer.setOwningDelegate(nil)
            for subview in storedSubviews { subview.superview = nil }
            for recognizer in attachedRecognizers { recognizer.view = nil }
        }
    }

    /// `isUserInteractionEnabled` of a new view of this class.
    class var interactionEnabledByDefault: Bool { true }

    // MARK: Geometry (stored in the layer)

    /// The view's extent in its superview's coordinates.
    open var frame: CGRect {
        get { layer.frame }
        set {
            guard newValue.isFinite else { return reportInvalidGeometry("frame", newValue) }
            let oldSize = layer.bounds.size
            layer.frame = newValue
            sizeDidChange(from: oldSize)
            if layoutState != nil { layoutGeometryDidChange() }
            safeAreaMayHaveChanged()
        }
    }

    /// The view's own coordinate space: `bounds.origin` is the point shown at
    /// the top-left corner (a scroll view's content offset).
    open var bounds: CGRect {
        get { layer.bounds }
        set {
            guard newValue.isFinite else { return reportInvalidGeometry("bounds", newValue) }
            let oldBounds = layer.bounds
            layer.bounds = newValue
            sizeDidChange(from: oldBounds.size)
            if layoutState != nil { layoutGeometryDidChange() }
            safeAreaMayHaveChanged()
            if layer.bounds.origin != oldBounds.origin { subviewsSafeAreaMayHaveChanged() }
        }
    }

    /// A new size marks the view for layout (its layer does that) and its
    /// superview too, as in UIKit, where resizing a subview lays out its
    /// superview again; subviews with autoresizing masks follow it.
    private func sizeDidChange(from oldSize: CGSize) {
        guard layer.bounds.size != oldSize else { return }
        superview?.subviewsDidChange()
        if !storedSubviews.isEmpty { autoresizeSubviews(fromOldSize: oldSize) }
    }

    /// Marks the view for layout after a change to its subviews (added,
    /// removed, reordered, resized), as UIKit does; not while the view's
    /// own `layoutSubviews()` makes the change.
    private func subviewsDidChange() {
        guard !layer.isLayingOutSublayers else { return }
        setNeedsLayout()
    }

    /// The view's centre in its superview's coordinates: the layer's `position`.
    open var center: CGPoint {
        get { layer.position }
        set {
            guard newValue.isFinite else { return reportInvalidGeometry("center", newValue) }
            layer.position = newValue
            if layoutState != nil { layoutGeometryDidChange() }
            safeAreaMayHaveChanged()
        }
    }

    /// A transform about the view's centre (the layer's anchor point).
    open var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set {
            guard [newValue.a, newValue.b, newValue.c, newValue.d, newValue.tx, newValue.ty].allSatisfy(\.isFinite) else {
                return reportInvalidGeometry("transform", newValue)
            }
            layer.setAffineTransform(newValue)
        }
    }

    private func reportInvalidGeometry(_ property: String, _ value: Any) {
        UIApplication.shared.diagnostics.report(
            Diagnostic(.invalidGeometry, "\(property) \(value) of \(self) is not finite; the old value was kept"))
    }

    // MARK: Appearance and interaction

    /// Opacity, the layer's `opacity`. Below 0.01 the view cannot be hit.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }

    /// A hidden view is not drawn and cannot be hit, nor can its subviews.
    open var isHidden: Bool {
        get { layer.isHidden }
        set {
            guard newValue != layer.isHidden else { return }
            layer.isHidden = newValue
            superview?.arrangedSubviewVisibilityDidChange(self)
        }
    }

    /// A subview was hidden or shown: a stack view rearranges.
    func arrangedSubviewVisibilityDidChange(_ subview: UIView) {}

    open var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// A view whose alpha channel masks this view and its subviews (its
    /// layer becomes the layer's `CALayer.mask`): where the mask view
    /// draws opaque pixels this view shows, where it draws nothing it does
    /// not. Its frame is in this view's bounds coordinates. It must not be
    /// in a view hierarchy: a view with a superview, or this view or one of
    /// its ancestors, is refused and reported, and the old mask kept. The
    /// mask does not change hit-testing: a touch where the mask hides the
    /// view still reaches it, as in UIKit.
    open var mask: UIView? {
        get {
            guard let storedMask, storedMask.layer === layer.mask else { return nil }
            return storedMask
        }
        set {
            guard newValue !== mask else { return }
            // The layer refuses a mask that contains this layer (a cycle).
            if newValue?.superview == nil { layer.mask = newValue?.layer }
            if layer.mask === newValue?.layer {
                storedMask = newValue
                newValue?.displayAsMask()
            } else if let newValue {
                UIApplication.shared.diagnostics.report(Diagnostic(
                    .hierarchyCycle, "\(newValue) cannot mask \(self): a mask view has no superview and is not the view or one of its ancestors; the old mask was kept"))
            }
        }
    }
    /// Keeps the mask view (and so its drawing) alive while its layer masks this view's.
    private var storedMask: UIView?

    open var backgroundColor: UIColor? {
        didSet { layer.backgroundColor = backgroundColor?.cgColor }
    }

    /// When false, the view and its subviews are skipped by hit-testing.
    open var isUserInteractionEnabled: Bool {
        get { interactionEnabled }
        set { interactionEnabled = newValue }
    }

    /// When false (the default), the view receives only the first touch of a
    /// multi-touch sequence.
    @exclusivity(unchecked) open var isMultipleTouchEnabled = false

    /// When true, while the view tracks a touch no other view in its window
    /// receives touches, and it receives none while another view tracks one.
    @exclusivity(unchecked) open var isExclusiveTouch = false

    open var tag = 0

    /// What the view shows, for right-to-left layouts: whether it flips
    /// with the interface (`.unspecified`, the default) or keeps a direction
    /// (`UIView+LayoutDirection.swift`).
    open var semanticContentAttribute = UISemanticContentAttribute.unspecified {
        didSet { if semanticContentAttribute != oldValue { layoutDirectionDidChange() } }
    }

    /// A string that identifies the view to tools and tests
    /// (`UIAccessibilityIdentification`); trace records and the inspector
    /// show it as the view's name.
    open var accessibilityIdentifier: String?

    /// This view or the first descendant (depth first) with `tag`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for subview in storedSubviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    // MARK: The view tree

    /// Not retained (the superview owns its subviews, as in UIKit): cleared
    /// on removal and when the superview goes away.
    public private(set) var superview: UIView? {
        get { superviewReference?.object }
        set { superviewReference = UnretainedReference(newValue) }
    }
    @exclusivity(unchecked) private var superviewReference: UnretainedReference<UIView>?

    /// The subviews, back to front.
    open var subviews: [UIView] { storedSubviews }

    /// The window the view is in, if any.
    open var window: UIWindow? {
        var current: UIView? = self
        while let view = current {
            if let window = view as? UIWindow { return window }
            current = view.superview
        }
        return nil
    }

    /// Whether the view is `view` or one of its descendants.
    public func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let node = current {
            if node === view { return true }
            current = node.superview
        }
        return false
    }

    /// Adds `view` in front of the other subviews, taking it from its
    /// current superview (if it is already a subview, it moves to the front).
    /// Its layer becomes the last sublayer, above any layer this view hosts
    /// itself, as `addSublayer(_:)` does.
    open func addSubview(_ view: UIView) {
        insert(view, layerPlacement: .onTop) { $0.count }
    }

    open func insertSubview(_ view: UIView, at index: Int) {
        insert(view) { _ in index }
    }

    /// Puts `view` just in front of `sibling`, and its layer directly above
    /// `sibling`'s layer (above any layer this view hosts there too, as in
    /// UIKit); when `sibling` is not a subview, `view` goes in front of the
    /// others.
    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) {
        guard sibling !== view else { return }
        guard sibling.superview === self else { return addSubview(view) }
        insert(view, layerPlacement: .above(sibling.layer)) { subviews in subviews.firstIndexIdentical(to: sibling)! + 1 }
    }

    /// Puts `view` just behind `sibling`, and its layer directly below
    /// `sibling`'s layer (so a layer this view hosts between the two
    /// subviews stays below the new one, as in UIKit); when `sibling` is not
    /// a subview, `view` goes in front of the others, as in UIKit.
    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) {
        guard sibling !== view else { return }
        guard sibling.superview === self else { return addSubview(view) }
        insert(view, layerPlacement: .below(sibling.layer)) { subviews in subviews.firstIndexIdentical(to: sibling)! }
    }

    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        insert(view, layerPlacement: .onTop) { $0.count }
    }

    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insert(view) { _ in 0 }
    }

    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        guard storedSubviews.indices.contains(index1), storedSubviews.indices.contains(index2), index1 != index2 else { return }
        storedSubviews.swapAt(index1, index2)
        for index in [min(index1, index2), max(index1, index2)] {
            placeLayer(of: storedSubviews[index], at: index)
        }
        subviewsDidChange()
    }

    /// Takes the view out of its superview (and its window, cancelling the
    /// touches it was tracking).
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        parent.willRemoveSubview(self)
        willMove(toSuperview: nil)
        if oldWindow != nil { propagateWillMove(toWindow: nil) }
        parent.detach(self)
        parent.subviewsDidChange()
        inheritedTintChanged()
        if oldWindow != nil { didMoveWindow(from: oldWindow) }
        safeAreaMayHaveChanged(throughSubtree: true)
        didMoveToSuperview()
    }

    /// Where a subview's layer goes among this view's sublayers.
    private enum LayerPlacement {
        /// The last sublayer, above any layer this view hosts itself.
        case onTop
        /// Directly above, or below, a sibling's layer.
        case above(CALayer), below(CALayer)
        /// Beside the layers of the neighbouring subviews.
        case besideNeighbours
    }

    /// Puts `view` among the subviews at the index `position` computes from
    /// the subviews without `view`, with every hook UIKit calls, and marks
    /// this view for layout, as UIKit does when its subviews change. A view
    /// that is `self` or one of its ancestors is refused: that would make a
    /// cycle.
    private func insert(_ view: UIView, layerPlacement: LayerPlacement = .besideNeighbours, position: ([UIView]) -> Int) {
        guard !isDescendant(of: view) else {
            UIApplication.shared.diagnostics.report(Diagnostic(
                .hierarchyCycle, "\(view) cannot become a subview of \(self), which is itself or inside it; nothing was changed"))
            return
        }
        if view.superview === self {
            storedSubviews.removeAll { $0 === view }
            let index = min(max(position(storedSubviews), 0), storedSubviews.count)
            storedSubviews.insert(view, at: index)
            placeLayer(of: view, at: index, layerPlacement)
            subviewsDidChange()
            return
        }
        let oldSuperview = view.superview
        let oldWindow = view.window
        let newWindow = window
        oldSuperview?.willRemoveSubview(view)
        view.willMove(toSuperview: self)
        if oldWindow !== newWindow { view.propagateWillMove(toWindow: newWindow) }
        oldSuperview?.detach(view)
        let index = min(max(position(storedSubviews), 0), storedSubviews.count)
        storedSubviews.insert(view, at: index)
        view.superview = self
        LayoutEngine.subtreeDidJoin(view)
        placeLayer(of: view, at: index, layerPlacement)
        subviewsDidChange()
        view.inheritedTintChanged()
        if oldWindow !== newWindow { view.didMoveWindow(from: oldWindow) }
        if newWindow == nil && isInMask { view.displayAsMask() }
        view.safeAreaMayHaveChanged(throughSubtree: true)
        view.didMoveToSuperview()
        didAddSubview(view)
    }

    /// The view and its subviews moved from `oldWindow` to the window they
    /// are in now: each hears `didMoveToWindow()`; leaving a window cancels
    /// the touches they were tracking and takes the first responder status
    /// from inside them.
    private func didMoveWindow(from oldWindow: UIWindow?) {
        propagateDidMoveToWindow()
        guard let oldWindow else { return }
        UIApplication.shared.viewDidLeaveWindow(self)
        oldWindow.resignFirstResponder(inside: self)
    }

    private func detach(_ view: UIView) {
        let oldRoot = layoutRoot
        storedSubviews.removeAll { $0 === view }
        view.superview = nil
        view.layer.removeFromSuperlayer()
        LayoutEngine.subtreeDidLeave(view, oldRoot: oldRoot)
    }

    /// Keeps the layer tree in the view tree's order. Beside its neighbours,
    /// the subview's layer goes just above the layer of the subview behind
    /// it, or just below the one in front of it, so sublayers the view hosts
    /// itself keep their places.
    private func placeLayer(of view: UIView, at index: Int, _ placement: LayerPlacement = .besideNeighbours) {
        switch placement {
        case .onTop: return layer.addSublayer(view.layer)
        case .above(let sibling): return layer.insertSublayer(view.layer, above: sibling)
        case .below(let sibling): return layer.insertSublayer(view.layer, below: sibling)
        case .besideNeighbours: break
        }
        if index > 0 {
            layer.insertSublayer(view.layer, above: storedSubviews[index - 1].layer)
        } else if storedSubviews.count > 1 {
            layer.insertSublayer(view.layer, below: storedSubviews[1].layer)
        } else {
            layer.addSublayer(view.layer)
        }
    }

    private func propagateWillMove(toWindow newWindow: UIWindow?) {
        owningViewController?.viewWillMove(toWindow: newWindow)
        windowWillChange(to: newWindow)
        willMove(toWindow: newWindow)
        for subview in storedSubviews { subview.propagateWillMove(toWindow: newWindow) }
    }

    /// What the view itself does as it leaves its window or joins another,
    /// before the overridable hooks run: a scroll view stops moving, so that
    /// no timer of a view that left the screen runs on. Called for every
    /// view of a window that goes away, too.
    func windowWillChange(to newWindow: UIWindow?) {}

    /// Tells this view and its subtree that their window is going away.
    func windowWillGoAway() {
        windowWillChange(to: nil)
        for subview in storedSubviews { subview.windowWillGoAway() }
    }

    private func propagateDidMoveToWindow() {
        if window != nil { displayIfItsClassDraws() }
        didMoveToWindow()
        for subview in storedSubviews { subview.propagateDidMoveToWindow() }
        owningViewController?.viewDidMoveToWindow(window)
    }

    // MARK: Hooks for subclasses

    open func willMove(toSuperview newSuperview: UIView?) {}
    open func didMoveToSuperview() {}
    open func willMove(toWindow newWindow: UIWindow?) {}
    open func didMoveToWindow() {}
    open func didAddSubview(_ subview: UIView) {}
    open func willRemoveSubview(_ subview: UIView) {}

    // MARK: Hit-testing (SPEC §2)

    /// Views more transparent than this are skipped by hit-testing, as in UIKit.
    public static let minimumHitTestableAlpha: CGFloat = 0.01

    /// The front-most descendant (or this view) that contains `point`, given
    /// in this view's coordinates; nil if the point is not in this view or
    /// the view cannot receive touches.
    ///
    /// The default: nil for a hidden view, a view with user interaction
    /// disabled (or being animated by a block without
    /// `.allowUserInteraction`), or one with alpha below 0.01 (the model
    /// value: a view animated to 0 stops being hit at once); nil if ``UIView/point(inside:with:)``
    /// says no (no subview is asked then); otherwise each subview is asked,
    /// from the front-most back, with the point converted into its
    /// coordinates, and the first answer wins; if none answers, this view.
    /// Every call here goes through the overridable methods, so an override
    /// at any level is honoured.
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        // Tracing (`UIApplication.traceHandler`) is decided here, once per
        // view: the walk is inlined here with no tracing, so that its tests
        // of `tracing` fold away, and runs out of line when traced. It
        // cannot be decided once for the whole walk: every level goes
        // through the overridable method, and an override that calls
        // `super` lands here again.
        if let tracing = event?.tracing { return tracedHitTestWalk(point, with: event, tracing: tracing) }
        return hitTestWalk(point, with: event, tracing: nil)
    }

    /// The default hit test while a trace handler is set.
    @inline(never)
    private func tracedHitTestWalk(_ point: CGPoint, with event: UIEvent?, tracing: EventDeliveryState) -> UIView? {
        hitTestWalk(point, with: event, tracing: tracing)
    }

    /// The default hit test's rule, reporting each step to `tracing` if given.
    @inline(__always)
    private func hitTestWalk(_ point: CGPoint, with event: UIEvent?, tracing: EventDeliveryState?) -> UIView? {
        // The flags are read from storage, as UIKit reads its own state; the
        // layer stores opacity as a Float, so an alpha of exactly 0.01 counts.
        guard acceptsTouches, !layer.isHidden, layer.opacity >= Float(UIView.minimumHitTestableAlpha) else { return nil }
        let inside = self.point(inside: point, with: event)
        if let tracing { tracing.trace(.pointInside(self, point: point, result: inside), touches: tracing.routedTouches) }
        guard inside else { return nil }
        // The hottest loop of a touch: the subviews are visited without
        // retaining each. The local copy keeps them alive, and keeps its
        // buffer valid if an override changes the subviews meanwhile.
        let candidates = storedSubviews
        let hit = candidates.firstResultFromBackUnretained { subview in
            let subviewPoint = subview.layer.convertFromSuperlayer(point)
            guard let tracing else { return subview.hitTest(subviewPoint, with: event) }
            return tracing.tracedHitTest(subview, at: subviewPoint, with: event)
        }
        return hit ?? self
    }

    /// Whether `point`, in this view's coordinates, is inside it: by default
    /// `bounds` with its minimum edges inside and its maximum edges outside.
    /// Override to shrink or extend the area that receives touches.
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool {
        layer.boundsContains(point)
    }

    // MARK: Gesture recognizers

    /// Read for every touch that begins, by the gesture arena (no exclusivity checks).
    @exclusivity(unchecked) private(set) var attachedRecognizers: [UIGestureRecognizer] = []

    /// The recognizers attached to this view, in the order they were added.
    open var gestureRecognizers: [UIGestureRecognizer]? {
        get { attachedRecognizers.isEmpty ? nil : attachedRecognizers }
        set {
            for recognizer in attachedRecognizers { removeGestureRecognizer(recognizer) }
            for recognizer in newValue ?? [] { addGestureRecognizer(recognizer) }
        }
    }

    /// Attaches `gestureRecognizer`, taking it from the view it was on.
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        guard gestureRecognizer.view !== self else { return }
        gestureRecognizer.view?.removeGestureRecognizer(gestureRecognizer)
        attachedRecognizers.append(gestureRecognizer)
        gestureRecognizer.view = self
    }

    /// Detaches `gestureRecognizer`; one that is tracking stops (fails, or
    /// is cancelled if it had begun) and is reset.
    open func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
        guard gestureRecognizer.view === self else { return }
        gestureRecognizer.arena?.withdraw(gestureRecognizer)
        attachedRecognizers.removeAll { $0 === gestureRecognizer }
        gestureRecognizer.view = nil
    }

    /// Asked when a recognizer attached to this view tries to leave
    /// `.possible`; false fails it. The default is true.
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }

    /// Whether this view, being the hit-test view, keeps `recognizer` of an
    /// ancestor from recognizing, because the view handles that gesture
    /// itself (a control and its tap). The default is false.
    func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool { false }

    // MARK: The responder chain

    /// The view's view controller if it is that controller's root view;
    /// otherwise its superview.
    open override var next: UIResponder? {
        if let owningViewController { return owningViewController }
        return superview
    }

    // MARK: CALayerDelegate

    /// The layer asks for content: the view draws it with ``draw(_:)``
    /// (see `UIView+Drawing.swift`).
    public func display(_ layer: CALayer) {
        if let tracing = UIApplication.shared.tracing { tracing.trace(.display(self)) }
        displayBackingStore()
    }

    /// The layer asks for layout: the view lays out its subviews.
    public func layoutSublayers(of layer: CALayer) {
        guard layer === self.layer else { return }
        if let tracing = UIApplication.shared.tracing { tracing.trace(.layout(self)) }
        owningViewController?.viewWillLayoutSubviews()
        updateConstraintBasedLayoutIfNeeded()
        layoutSubviews()
        owningViewController?.viewDidLayoutSubviews()
    }

    // MARK: Layout (the update cycle's first pass)

    /// Marks the view for layout: ``layoutSubviews()`` runs at the end of
    /// the run-loop turn (or at ``layoutIfNeeded()``), once however many
    /// times this is called.
    open func setNeedsLayout() {
        layer.setNeedsLayout()
    }

    /// Lays out now, top down, this view and every view below it that is
    /// marked for layout.
    open func layoutIfNeeded() {
        updateConstraintBasedLayoutIfNeeded()
        layer.layoutIfNeeded()
    }

    /// Places the subviews. By the time it runs, the subviews laid out by
    /// constraints are already where the constraints put them; override to
    /// set the frames of subviews yourself. Called by the layout pass, never
    /// directly.
    open func layoutSubviews() {}

    /// The size that best fits `size`: by default the current size.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    /// Resizes the view to ``sizeThatFits(_:)`` of its current size,
    /// keeping its origin.
    open func sizeToFit() {
        let fitting = sizeThatFits(bounds.size)
        guard fitting.width.isFinite, fitting.height.isFinite else { return }
        frame.size = CGSize(width: max(0, fitting.width), height: max(0, fitting.height))
    }

    /// The size the view's content asks for, or ``UIView/noIntrinsicMetric`` in a
    /// dimension where it asks for none (the default, in both).
    open var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }

    /// Says that ``intrinsicContentSize`` changed: the constraints that
    /// hold the view to it (hugging, compression resistance) take the new
    /// size at the next layout.
    open func invalidateIntrinsicContentSize() {
        setNeedsLayout()
        rootLayoutEngine?.layoutInputsDidChange(of: self)
    }

    // MARK: Auto Layout (Layout/UIView+AutoLayout.swift has the rest)

    /// Adds or changes the view's constraints in the update-constraints
    /// pass, which runs (subviews first) before layout for views marked with
    /// ``UIView/setNeedsUpdateConstraints()``. Call `super` at the end.
    open func updateConstraints() {}

    /// The margins changed.
    open func layoutMarginsDidChange() {}

    /// The safe area changed.
    open func safeAreaInsetsDidChange() {}

    /// The smallest size (for ``UIView/layoutFittingCompressedSize``) or the
    /// size closest to `targetSize` that the view's constraints allow, its
    /// width and height pulled towards the target at ``UILayoutPriority/fittingSizeLevel``.
    /// The view's frame does not change.
    open func systemLayoutSizeFitting(_ targetSize: CGSize) -> CGSize {
        systemLayoutSizeFitting(targetSize, withHorizontalFittingPriority: .fittingSizeLevel, verticalFittingPriority: .fittingSizeLevel)
    }

    /// The size closest to `targetSize` the constraints allow, with the
    /// width and height pulled towards it at the given priorities.
    open func systemLayoutSizeFitting(_ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
                                      verticalFittingPriority: UILayoutPriority) -> CGSize {
        fittingSize(targetSize, horizontal: horizontalFittingPriority, vertical: verticalFittingPriority)
    }

    /// A dimension in which a view has no intrinsic size.
    public static let noIntrinsicMetric: CGFloat = -1

    /// How far inside the frame the rectangle constraints align lies, on
    /// each side: none unless a subclass draws ornaments around its content
    /// (a shadow, a badge) that constraints should leave out. Constraints
    /// and the intrinsic size speak of that rectangle; the frame is grown
    /// around it.
    open var alignmentRectInsets: UIEdgeInsets { .zero }

    /// The rectangle constraints align for `frame`: the frame inset by
    /// ``alignmentRectInsets``. Override it with
    /// ``frame(forAlignmentRect:)`` when insets cannot say where the
    /// content is.
    open func alignmentRect(forFrame frame: CGRect) -> CGRect {
        frame.inset(by: alignmentRectInsets)
    }

    /// The frame for an alignment rectangle: the rectangle grown by
    /// ``alignmentRectInsets``, the inverse of ``alignmentRect(forFrame:)``.
    open func frame(forAlignmentRect alignmentRect: CGRect) -> CGRect {
        let insets = alignmentRectInsets
        return CGRect(x: alignmentRect.minX - insets.left, y: alignmentRect.minY - insets.top,
                      width: alignmentRect.width + insets.left + insets.right,
                      height: alignmentRect.height + insets.top + insets.bottom)
    }

    // MARK: Display (the update cycle's second pass)

    /// Marks the view's content stale: ``draw(_:)`` runs at the end of the
    /// run-loop turn.
    open func setNeedsDisplay() {
        layer.setNeedsDisplay()
    }

    /// Marks part of the content stale. The whole content is drawn again:
    /// the backing store is drawn whole.
    open func setNeedsDisplay(_ rect: CGRect) {
        layer.setNeedsDisplay(rect)
    }

    /// Draws the view's content into the current graphics context, in the
    /// view's coordinates. The default draws nothing; a view that overrides
    /// it gets a backing store at the screen's scale.
    open func draw(_ rect: CGRect) {
        reachedDefaultDraw = true
    }

    /// Set by the default ``draw(_:)`` (see `UIView+Drawing.swift`).
    var reachedDefaultDraw = false
    /// The tint set on this view; nil inherits the superview's.
    private var explicitTintColor: UIColor?

    /// The tint: the colour a view's interactive parts take (a system
    /// button's title, a slider's filled track). A view without a tint of
    /// its own takes its nearest ancestor's; a tree with none set takes
    /// UIKit's default, ``UIColor/systemBlue``. Setting nil goes back to
    /// inheriting.
    open var tintColor: UIColor! {
        get {
            var view: UIView? = self
            while let current = view {
                if let tint = current.explicitTintColor { return tint }
                view = current.superview
            }
            return .systemBlue
        }
        set {
            guard newValue != explicitTintColor else { return }
            explicitTintColor = newValue
            notifyTintChanged()
        }
    }

    /// Called when ``UIView/tintColor`` changes, for this view and every view
    /// below it that inherits it, also when a view moves under a superview
    /// of another tint. Views that draw with their tint redraw here; the
    /// default does nothing.
    open func tintColorDidChange() {}

    /// The superview changed: the inherited tint may have too.
    private func inheritedTintChanged() {
        guard explicitTintColor == nil else { return }
        notifyTintChanged()
    }

    private func notifyTintChanged() {
        tintColorDidChange()
        for subview in storedSubviews where subview.explicitTintColor == nil { subview.notifyTintChanged() }
    }

    /// How the content (the drawn backing store, or an image view's image)
    /// fills the bounds; `.redraw` draws it again at every new size.
    open var contentMode: ContentMode = .scaleToFill {
        didSet {
            layer.contentsGravity = contentMode.contentsGravity
            layer.needsDisplayOnBoundsChange = contentMode == .redraw
        }
    }

    /// How a view's content fills its bounds.
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw
        case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

        var contentsGravity: CALayerContentsGravity {
            switch self {
            case .scaleToFill, .redraw: .resize
            case .scaleAspectFit: .resizeAspect
            case .scaleAspectFill: .resizeAspectFill
            case .center: .center
            case .top: .top
            case .bottom: .bottom
            case .left: .left
            case .right: .right
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            }
        }
    }
}

