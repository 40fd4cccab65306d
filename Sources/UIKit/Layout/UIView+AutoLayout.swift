/// UIView's Auto Layout interface: constraints, anchors, intrinsic size
/// priorities, margins, guides, the update-constraints pass and fitting sizes.
///
/// The view keeps its constraint state in a ``ViewLayoutState`` made the
/// first time it takes part; the engine lives at the root of the view tree
/// (``LayoutEngine``).
extension UIView: LayoutItem, AnchorProviding {
    // MARK: - Internal plumbing

    func ensureLayoutState() -> ViewLayoutState {
        if let layoutState { return layoutState }
        let state = ViewLayoutState()
        layoutState = state
        return state
    }

    var layoutVariables: LayoutVariables { ensureLayoutState().variables }
    var layoutParentView: UIView? { superview }
    var layoutOwnerView: UIView? { self }

    /// The topmost ancestor (the view itself if it has no superview).
    var layoutRoot: UIView {
        var root = self
        while let parent = root.superview { root = parent }
        return root
    }

    /// The engine of this view's tree, if the tree has one.
    var rootLayoutEngine: LayoutEngine? { layoutRoot.layoutState?.engine }

    /// The frame without the transform: where the engine's variables say the
    /// view is (UIKit's Auto Layout ignores transforms too).
    var untransformedFrame: CGRect {
        let size = bounds.size
        let anchor = layer.anchorPoint
        return CGRect(x: center.x - size.width * anchor.x, y: center.y - size.height * anchor.y,
                      width: size.width, height: size.height)
    }

    /// How far the alignment rectangle of the view's current frame lies
    /// inside it on each side (``alignmentRect(forFrame:)``): zero for most
    /// views.
    var alignmentInsetsInFrame: UIEdgeInsets {
        let frame = untransformedFrame
        let alignment = alignmentRect(forFrame: frame)
        return UIEdgeInsets(top: alignment.minY - frame.minY, left: alignment.minX - frame.minX,
                            bottom: frame.maxY - alignment.maxY, right: frame.maxX - alignment.maxX)
    }

    /// Moves and resizes the view to a rectangle the engine solved, through
    /// `bounds` and `center` so that a transform stays as it is.
    func applyEngineFrame(_ frame: CGRect) {
        guard frame.isFinite else { return }
        if bounds.size != frame.size {
            var newBounds = bounds
            newBounds.size = frame.size
            bounds = newBounds
        }
        let anchor = layer.anchorPoint
        let newCenter = CGPoint(x: frame.minX + frame.width * anchor.x, y: frame.minY + frame.height * anchor.y)
        if center != newCenter { center = newCenter }
    }

    func nearestCommonAncestor(with other: UIView) -> UIView? {
        var ancestors = Set<ObjectIdentifier>()
        var current: UIView? = self
        while let view = current {
            ancestors.insert(ObjectIdentifier(view))
            current = view.superview
        }
        current = other
        while let view = current {
            if ancestors.contains(ObjectIdentifier(view)) { return view }
            current = view.superview
        }
        return nil
    }

    /// Runs the engine of this view's tree: constraint updates, then the
    /// solution applied to frames. Called before `layoutSubviews()` and by
    /// `layoutIfNeeded()`.
    func updateConstraintBasedLayoutIfNeeded() {
        rootLayoutEngine?.updateLayoutIfNeeded()
    }

    /// The view's frame, bounds or centre changed: the engine follows the
    /// frames of views that translate their autoresizing masks.
    func layoutGeometryDidChange() {
        rootLayoutEngine?.geometryDidChange(of: self)
    }

    func runUpdateConstraints() {
        layoutState?.needsUpdateConstraints = false
        if let controller = owningViewController {
            controller.updateViewConstraints()
        } else {
            updateConstraints()
        }
    }

    /// The insets of a system guide from the view's bounds.
    func systemGuideInsets(_ role: GuideRole) -> UIEdgeInsets {
        switch role {
        case .custom, .scrollContent, .scrollFrame: return .zero
        case .safeArea: return safeAreaInsets
        case .margins, .readableContent: return marginInsetsInBounds
        }
    }

    /// How far the margins guide lies inside the bounds: the margins, from
    /// the safe area's edges if ``insetsLayoutMarginsFromSafeArea``; then,
    /// if ``preservesSuperviewLayoutMargins``, pushed in as far as the
    /// superview's own margins reach into the view (Apple: "the smallest
    /// amount needed to ensure that content is also inside the superview's
    /// margins").
    var marginInsetsInBounds: UIEdgeInsets {
        let margins = layoutMargins
        let safe = insetsLayoutMarginsFromSafeArea ? safeAreaInsets : .zero
        var insets = UIEdgeInsets(top: margins.top + safe.top, left: margins.left + safe.left,
                                  bottom: margins.bottom + safe.bottom, right: margins.right + safe.right)
        guard preservesSuperviewLayoutMargins, let superview else { return insets }
        let outer = superview.marginInsetsInBounds
        let container = superview.bounds
        let frame = untransformedFrame
        insets.top = max(insets.top, outer.top - (frame.minY - container.minY))
        insets.left = max(insets.left, outer.left - (frame.minX - container.minX))
        insets.bottom = max(insets.bottom, outer.bottom - (container.maxY - frame.maxY))
        insets.right = max(insets.right, outer.right - (container.maxX - frame.maxX))
        return insets
    }

    /// A system guide's rectangle worked out from the view alone.
    func systemGuideFrame(_ role: GuideRole) -> CGRect {
        if role == .scrollContent { return CGRect(origin: .zero, size: (self as? UIScrollView)?.contentSize ?? .zero) }
        if role == .scrollFrame { return bounds }
        var frame = CGRect(origin: .zero, size: bounds.size).inset(by: systemGuideInsets(role))
        if role == .readableContent && frame.width > LayoutMetrics.readableContentWidth {
            frame.origin.x += (frame.width - LayoutMetrics.readableContentWidth) / 2
            frame.size.width = LayoutMetrics.readableContentWidth
        }
        return frame
    }

    /// Resizes the subviews that lay out with autoresizing masks after this
    /// view's size changed from `oldSize`: each flexible part (margin or
    /// size) of a subview takes a share of the change in proportion to its
    /// current length, or an equal share if they are all zero.
    func autoresizeSubviews(fromOldSize oldSize: CGSize) {
        guard autoresizesSubviews else { return }
        let newSize = bounds.size
        for subview in subviews {
            guard let state = subview.layoutState, state.translatesAutoresizingMaskIntoConstraints,
                  !state.autoresizingMask.isEmpty else { continue }
            let mask = state.autoresizingMask
            var frame = subview.untransformedFrame
            let (x, width) = Self.autoresize(
                start: frame.minX, length: frame.width, oldTotal: oldSize.width, newTotal: newSize.width,
                flexibleStart: mask.contains(.flexibleLeftMargin), flexibleLength: mask.contains(.flexibleWidth),
                flexibleEnd: mask.contains(.flexibleRightMargin))
            let (y, height) = Self.autoresize(
                start: frame.minY, length: frame.height, oldTotal: oldSize.height, newTotal: newSize.height,
                flexibleStart: mask.contains(.flexibleTopMargin), flexibleLength: mask.contains(.flexibleHeight),
                flexibleEnd: mask.contains(.flexibleBottomMargin))
            frame = CGRect(x: x, y: y, width: width, height: height)
            subview.applyEngineFrame(frame)
        }
    }

    private static func autoresize(start: CGFloat, length: CGFloat, oldTotal: CGFloat, newTotal: CGFloat,
                                   flexibleStart: Bool, flexibleLength: Bool, flexibleEnd: Bool) -> (CGFloat, CGFloat) {
        let delta = newTotal - oldTotal
        guard delta != 0, flexibleStart || flexibleLength || flexibleEnd else { return (start, length) }
        let end = oldTotal - start - length
        let parts = [flexibleStart ? start : 0, flexibleLength ? length : 0, flexibleEnd ? end : 0]
        let flexibleCount = CGFloat([flexibleStart, flexibleLength, flexibleEnd].filter { $0 }.count)
        let sum = parts[0] + parts[1] + parts[2]
        func share(_ index: Int, _ flexible: Bool) -> CGFloat {
            guard flexible else { return 0 }
            return sum > 0 ? delta * parts[index] / sum : delta / flexibleCount
        }
        return (start + share(0, flexibleStart), length + share(1, flexibleLength))
    }

    // MARK: - Constraints

    /// The constraints installed in this view: those activated with this
    /// view as their items' nearest common ancestor, and those added here.
    public var constraints: [NSLayoutConstraint] { layoutState?.constraints ?? [] }

    /// Installs a constraint in this view, whose subtree must hold its items;
    /// it becomes active. Prefer ``NSLayoutConstraint/isActive``.
    public func addConstraint(_ constraint: NSLayoutConstraint) {
        if let owner = constraint.owner {
            if owner === self { return }
            owner.removeConstraint(constraint)
        }
        if let invalidity = constraint.invalidity {
            return reportLayoutProblem("cannot install \(constraint): \(invalidity)")
        }
        for item in [constraint.firstItem, constraint.secondItem] {
            guard let item else { continue }
            guard let view = (item as? LayoutItem)?.layoutOwnerView, view.isDescendant(of: self) else {
                return reportLayoutProblem("cannot install \(constraint) in \(describeLayoutItem(self)): \(describeLayoutItem(item)) is not in its subtree")
            }
        }
        constraint.owner = self
        ensureLayoutState().constraints.append(constraint)
        LayoutEngine.engine(for: self).install(constraint)
    }

    public func addConstraints(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { addConstraint(constraint) }
    }

    /// Uninstalls a constraint from this view; it becomes inactive.
    public func removeConstraint(_ constraint: NSLayoutConstraint) {
        guard constraint.owner === self, let state = layoutState else { return }
        state.constraints.removeAll { $0 === constraint }
        constraint.owner = nil
        constraint.engine?.uninstall(constraint)
        constraint.engine = nil
    }

    public func removeConstraints(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { removeConstraint(constraint) }
    }

    /// Whether the view's frame and autoresizing mask become constraints
    /// (true by default, as in UIKit). Set it to false for a view whose
    /// position and size the constraints decide.
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { layoutState?.translatesAutoresizingMaskIntoConstraints ?? true }
        set {
            guard newValue != translatesAutoresizingMaskIntoConstraints else { return }
            ensureLayoutState().translatesAutoresizingMaskIntoConstraints = newValue
            rootLayoutEngine?.layoutInputsDidChange(of: self)
        }
    }

    /// How the view resizes when its superview's size changes, if it lays
    /// out with its frame (``translatesAutoresizingMaskIntoConstraints``).
    public var autoresizingMask: AutoresizingMask {
        get { layoutState?.autoresizingMask ?? [] }
        set { ensureLayoutState().autoresizingMask = newValue }
    }

    /// Whether subviews are resized by their ``autoresizingMask`` when this
    /// view's size changes (true by default).
    public var autoresizesSubviews: Bool {
        get { layoutState?.autoresizesSubviews ?? true }
        set { ensureLayoutState().autoresizesSubviews = newValue }
    }

    // MARK: - Anchors

    public var leadingAnchor: NSLayoutXAxisAnchor { xAnchor(.leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { xAnchor(.trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { xAnchor(.left) }
    public var rightAnchor: NSLayoutXAxisAnchor { xAnchor(.right) }
    public var centerXAnchor: NSLayoutXAxisAnchor { xAnchor(.centerX) }
    public var topAnchor: NSLayoutYAxisAnchor { yAnchor(.top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { yAnchor(.bottom) }
    public var centerYAnchor: NSLayoutYAxisAnchor { yAnchor(.centerY) }
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { yAnchor(.firstBaseline) }
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { yAnchor(.lastBaseline) }
    public var widthAnchor: NSLayoutDimension { dimension(.width) }
    public var heightAnchor: NSLayoutDimension { dimension(.height) }

    // MARK: - Intrinsic size priorities

    /// How strongly the view resists growing beyond its intrinsic size
    /// (250, ``UILayoutPriority/defaultLow``, unless set).
    public func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        let hugging = layoutState?.contentHugging ?? (.defaultLow, .defaultLow)
        return axis == .horizontal ? hugging.horizontal : hugging.vertical
    }

    public func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        let state = ensureLayoutState()
        if axis == .horizontal { state.contentHugging.horizontal = priority } else { state.contentHugging.vertical = priority }
        rootLayoutEngine?.layoutInputsDidChange(of: self)
    }

    /// How strongly the view resists shrinking below its intrinsic size
    /// (750, ``UILayoutPriority/defaultHigh``, unless set).
    public func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        let resistance = layoutState?.compressionResistance ?? (.defaultHigh, .defaultHigh)
        return axis == .horizontal ? resistance.horizontal : resistance.vertical
    }

    public func setContentCompressionResistancePriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        let state = ensureLayoutState()
        if axis == .horizontal {
            state.compressionResistance.horizontal = priority
        } else {
            state.compressionResistance.vertical = priority
        }
        rootLayoutEngine?.layoutInputsDidChange(of: self)
    }

    // MARK: - The update-constraints pass

    /// Marks the view for the update-constraints pass: ``updateConstraints()``
    /// runs before the next layout.
    public func setNeedsUpdateConstraints() {
        ensureLayoutState().needsUpdateConstraints = true
        let engine = LayoutEngine.engine(for: self)
        engine.hasPendingConstraintUpdates = true
        engine.markNeedsUpdate()
    }

    public func needsUpdateConstraints() -> Bool {
        layoutState?.needsUpdateConstraints ?? false
    }

    /// Runs the update-constraints pass now, for this view and its subviews
    /// (subviews first).
    public func updateConstraintsIfNeeded() {
        var order: [UIView] = []
        var pending: [UIView] = [self]
        while let next = pending.popLast() {
            order.append(next)
            pending.append(contentsOf: next.subviews)
        }
        for view in order.reversed() where view.layoutState?.needsUpdateConstraints == true {
            view.runUpdateConstraints()
        }
    }

    // MARK: - Fitting size

    /// Whether the view's subviews are placed by constraints: the view holds
    /// constraints, or a view below it does not translate its autoresizing
    /// mask. Cells measure such a content view with Auto Layout and any
    /// other with `sizeThatFits(_:)` (WWDC 2014 session 226's two ways).
    var placesSubviewsWithConstraints: Bool {
        if !constraints.isEmpty { return true }
        var pending = subviews
        while let view = pending.popLast() {
            if !view.translatesAutoresizingMaskIntoConstraints { return true }
            pending.append(contentsOf: view.subviews)
        }
        return false
    }

    func fittingSize(_ targetSize: CGSize, horizontal: UILayoutPriority, vertical: UILayoutPriority) -> CGSize {
        guard targetSize.width.isFinite, targetSize.height.isFinite else {
            reportLayoutProblem("systemLayoutSizeFitting needs a finite target size, not \(targetSize)")
            return bounds.size
        }
        let engine = LayoutEngine.engine(for: self)
        engine.updateLayoutIfNeeded()
        let size = engine.fittingSize(of: self, target: targetSize, horizontal: horizontal, vertical: vertical)
        let scale = UIScreen.main.scale
        return CGSize(width: (size.width * scale).rounded(.up) / scale, height: (size.height * scale).rounded(.up) / scale)
    }

    // MARK: - Margins and guides

    /// The space the view keeps inside its edges for its content
    /// (8 points on each side unless set). A view controller's root view
    /// keeps at least the controller's
    /// ``UIViewController/systemMinimumLayoutMargins`` unless
    /// ``UIViewController/viewRespectsSystemMinimumLayoutMargins`` is false:
    /// the margins read back are the larger of the two on each side.
    public var layoutMargins: UIEdgeInsets {
        get {
            let margins = layoutState?.layoutMargins ?? LayoutMetrics.defaultLayoutMargins
            guard let minimum = systemMinimumMargins else { return margins }
            return UIEdgeInsets(top: max(margins.top, minimum.top), left: max(margins.left, minimum.left),
                                bottom: max(margins.bottom, minimum.bottom), right: max(margins.right, minimum.right))
        }
        set {
            layoutState?.directionalMargins = nil
            guard newValue != (layoutState?.layoutMargins ?? LayoutMetrics.defaultLayoutMargins) else { return }
            ensureLayoutState().layoutMargins = newValue
            marginsDidChange()
        }
    }

    /// The controller's minimum margins if this is the root view of a view
    /// controller that respects them.
    private var systemMinimumMargins: UIEdgeInsets? {
        guard let controller = owningViewController, controller.viewRespectsSystemMinimumLayoutMargins else { return nil }
        return Self.edgeInsets(controller.systemMinimumLayoutMargins, rightToLeft: isRightToLeft)
    }

    /// The margins, or what they are measured against, changed: the view
    /// hears it and its guides follow at the next layout pass.
    func marginsDidChange() {
        layoutMarginsDidChange()
        rootLayoutEngine?.markNeedsUpdate()
        setNeedsLayout()
    }

    /// Whether the superview's margins also keep this view's content in
    /// (false by default): where a superview margin reaches further into
    /// this view than the view's own margin, the margins guide takes the
    /// superview's. `layoutMargins` still reports the view's own margins.
    public var preservesSuperviewLayoutMargins: Bool {
        get { layoutState?.preservesSuperviewLayoutMargins ?? false }
        set {
            guard newValue != preservesSuperviewLayoutMargins else { return }
            ensureLayoutState().preservesSuperviewLayoutMargins = newValue
            marginsDidChange()
        }
    }

    /// The layout margins with leading and trailing edges: in a
    /// right-to-left view the leading margin is the right one. Margins set
    /// this way follow the view when its direction changes (UIKit: "use
    /// this property … to have the margins flip in right-to-left layouts").
    public var directionalLayoutMargins: NSDirectionalEdgeInsets {
        get {
            if let directional = layoutState?.directionalMargins, systemMinimumMargins == nil { return directional }
            let margins = layoutMargins
            return isRightToLeft
                ? NSDirectionalEdgeInsets(top: margins.top, leading: margins.right, bottom: margins.bottom, trailing: margins.left)
                : NSDirectionalEdgeInsets(top: margins.top, leading: margins.left, bottom: margins.bottom, trailing: margins.right)
        }
        set {
            layoutMargins = Self.edgeInsets(newValue, rightToLeft: isRightToLeft)
            ensureLayoutState().directionalMargins = newValue
        }
    }

    static func edgeInsets(_ insets: NSDirectionalEdgeInsets, rightToLeft: Bool) -> UIEdgeInsets {
        rightToLeft
            ? UIEdgeInsets(top: insets.top, left: insets.trailing, bottom: insets.bottom, right: insets.leading)
            : UIEdgeInsets(top: insets.top, left: insets.leading, bottom: insets.bottom, right: insets.trailing)
    }

    /// Margins set as directional ones flip with the view's direction.
    func flipDirectionalMargins() {
        guard let directional = layoutState?.directionalMargins else { return }
        directionalLayoutMargins = directional
    }

    /// Whether the margins are measured from the safe area's edges rather
    /// than the bounds' (true by default).
    public var insetsLayoutMarginsFromSafeArea: Bool {
        get { layoutState?.insetsLayoutMarginsFromSafeArea ?? true }
        set {
            ensureLayoutState().insetsLayoutMarginsFromSafeArea = newValue
            rootLayoutEngine?.markNeedsUpdate()
        }
    }

    /// The bounds inset by the layout margins, as a guide to constrain to.
    public var layoutMarginsGuide: UILayoutGuide {
        systemGuide(\.marginsGuide, role: .margins, identifier: "UIViewLayoutMarginsGuide")
    }

    /// The part of the bounds inside the safe area.
    public var safeAreaLayoutGuide: UILayoutGuide {
        systemGuide(\.safeAreaGuide, role: .safeArea, identifier: "UIViewSafeAreaLayoutGuide")
    }

    /// The margins narrowed to a width that reads well (at most 672 points), centred.
    public var readableContentGuide: UILayoutGuide {
        systemGuide(\.readableGuide, role: .readableContent, identifier: "UIViewReadableContentGuide")
    }

    func systemGuide(_ slot: ReferenceWritableKeyPath<ViewLayoutState, UILayoutGuide?>,
                             role: GuideRole, identifier: String) -> UILayoutGuide {
        let state = ensureLayoutState()
        if let guide = state[keyPath: slot] { return guide }
        let guide = UILayoutGuide(role: role, identifier: identifier)
        guide.owningView = self
        state[keyPath: slot] = guide
        return guide
    }

    /// The guides added to this view with ``addLayoutGuide(_:)``.
    public var layoutGuides: [UILayoutGuide] { layoutState?.layoutGuides ?? [] }

    public func addLayoutGuide(_ guide: UILayoutGuide) {
        guard guide.owningView !== self else { return }
        guide.owningView?.removeLayoutGuide(guide)
        guide.owningView = self
        ensureLayoutState().layoutGuides.append(guide)
    }

    /// Removes a guide, deactivating the constraints that use it.
    public func removeLayoutGuide(_ guide: UILayoutGuide) {
        guard guide.owningView === self, let state = layoutState else { return }
        if let engine = rootLayoutEngine {
            for constraint in engine.activeConstraints where constraint.firstItem === guide || constraint.secondItem === guide {
                constraint.isActive = false
            }
        }
        state.layoutGuides.removeAll { $0 === guide }
        guide.owningView = nil
    }

    // MARK: - Debugging

    /// Whether the constraints leave the view's position or size free to
    /// take more than one value.
    public var hasAmbiguousLayout: Bool {
        guard let engine = rootLayoutEngine else { return false }
        engine.updateLayoutIfNeeded()
        return engine.isAmbiguous(self)
    }

    /// Moves a view whose layout is ambiguous to another frame its
    /// constraints allow, at random (Apple: "randomly changes the frame of a
    /// view with an ambiguous layout between its different valid values"),
    /// to see which constraints are missing. Every constraint stays
    /// satisfied as before, and later layout passes keep the new frame; a
    /// view that is not ambiguous does not move. For debugging only.
    public func exerciseAmbiguityInLayout() {
        guard let engine = rootLayoutEngine else { return }
        engine.exerciseAmbiguity(of: self)
    }

    /// The active constraints that take part in the view's layout on `axis`.
    public func constraintsAffectingLayout(for axis: NSLayoutConstraint.Axis) -> [NSLayoutConstraint] {
        rootLayoutEngine?.constraintsAffecting(self, axis: axis) ?? []
    }
}
