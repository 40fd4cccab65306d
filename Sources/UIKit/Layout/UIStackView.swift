/// Lays out a row or a column of views (its ``arrangedSubviews``) with
/// constraints it makes itself, as UIKit's does: tied to its edges (or
/// margins) along the ``axis``, spaced by ``spacing``, sized by their
/// intrinsic sizes or by the ``distribution``, and placed across the axis
/// by the ``alignment``. A hidden arranged view collapses to no length and
/// the others close the gap.
///
/// The constraints are rebuilt in the update-constraints pass after any
/// change, and carry UIKit's identifiers (`UISV-spacing`,
/// `UISV-canvas-connection`, …) so that conflict logs read the same.
@preconcurrency @MainActor
open class UIStackView: UIView {
    /// How the arranged views share the length along the axis.
    public enum Distribution: Int, Sendable {
        /// The views fill the stack; the one with the lowest hugging (when
        /// there is room) or compression resistance (when there is not)
        /// gives way.
        case fill
        /// All views get the same length.
        case fillEqually
        /// Lengths in proportion to the views' intrinsic lengths.
        case fillProportionally
        /// Intrinsic lengths, the room left shared equally between the views.
        case equalSpacing
        /// Intrinsic lengths, the centres equally far apart.
        case equalCentering
    }

    /// Where the arranged views go across the axis.
    public enum Alignment: Int, Sendable {
        case fill
        case leading
        case firstBaseline
        case center
        case trailing
        case lastBaseline

        public static var top: Alignment { .leading }
        public static var bottom: Alignment { .trailing }
    }

    /// A custom spacing value that means "use the stack's ``spacing``".
    public static let spacingUseDefault = CGFloat(Float.greatestFiniteMagnitude)
    /// A custom spacing value that means "use the system spacing" (8 points).
    public static let spacingUseSystem = CGFloat(Float.leastNormalMagnitude)

    open var axis: NSLayoutConstraint.Axis = .horizontal { didSet { arrangementDidChange() } }
    open var distribution: Distribution = .fill { didSet { arrangementDidChange() } }
    open var alignment: Alignment = .fill { didSet { arrangementDidChange() } }
    /// The space between adjacent arranged views (0 by default).
    open var spacing: CGFloat = 0 { didSet { arrangementDidChange() } }
    /// Whether vertical spacing is measured between baselines; accepted, and
    /// measured between edges here.
    open var isBaselineRelativeArrangement = false
    /// Whether the views are laid out within the layout margins rather than the bounds.
    open var isLayoutMarginsRelativeArrangement = false { didSet { arrangementDidChange() } }
    /// The views the stack lays out, in order; each is also a subview.
    open private(set) var arrangedSubviews: [UIView] = []

    private var customSpacings: [ObjectIdentifier: CGFloat] = [:]
    private var generatedConstraints: [NSLayoutConstraint] = []
    private var spacerGuides: [UILayoutGuide] = []

    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// A stack of `views`, which become its subviews.
    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    /// Appends a view to the arrangement (and to the subviews if it is not one).
    open func addArrangedSubview(_ view: UIView) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        guard view !== self else { return }
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(stackIndex, 0), arrangedSubviews.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        arrangementDidChange()
    }

    /// Takes a view out of the arrangement; it stays a subview (as in UIKit).
    open func removeArrangedSubview(_ view: UIView) {
        guard arrangedSubviews.contains(where: { $0 === view }) else { return }
        arrangedSubviews.removeAll { $0 === view }
        customSpacings[ObjectIdentifier(view)] = nil
        arrangementDidChange()
    }

    /// The space after one arranged view, instead of ``spacing``.
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings[ObjectIdentifier(arrangedSubview)] = spacing
        arrangementDidChange()
    }

    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? Self.spacingUseDefault
    }

    open override func willRemoveSubview(_ subview: UIView) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    override func arrangedSubviewVisibilityDidChange(_ subview: UIView) {
        if arrangedSubviews.contains(where: { $0 === subview }) { arrangementDidChange() }
    }

    private func arrangementDidChange() {
        setNeedsUpdateConstraints()
    }

    open override func updateConstraints() {
        rebuildArrangement()
        super.updateConstraints()
    }

    // MARK: - The constraints

    private func rebuildArrangement() {
        NSLayoutConstraint.deactivate(generatedConstraints)
        generatedConstraints = []
        for guide in spacerGuides { removeLayoutGuide(guide) }
        spacerGuides = []
        var visible: [UIView] = []
        for view in arrangedSubviews where !view.isHidden && view.superview === self { visible.append(view) }
        let canvas: AnyObject = isLayoutMarginsRelativeArrangement ? layoutMarginsGuide : self
        let along = AxisAttributes(axis)
        let across = AxisAttributes(axis == .horizontal ? .vertical : .horizontal)
        if !visible.isEmpty {
            add("UISV-canvas-connection", visible[0], along.start, .equal, canvas, along.start)
            add("UISV-canvas-connection", visible[visible.count - 1], along.end, .equal, canvas, along.end)
            arrangeAlongAxis(visible, along, canvas)
            alignAcrossAxis(visible, across, canvas)
        }
        collapseHiddenViews(along, across, canvas)
        NSLayoutConstraint.activate(generatedConstraints)
    }

    /// A hidden arranged view stays in the arrangement with no length along
    /// the axis, where the views before it end, and takes no spacing (UIKit's
    /// `UISV-hiding` constraint); across the axis it is aligned like the others.
    private func collapseHiddenViews(_ along: AxisAttributes, _ across: AxisAttributes, _ canvas: AnyObject) {
        var previousVisible: UIView?
        var hidden: [UIView] = []
        for view in arrangedSubviews where view.superview === self {
            guard view.isHidden else {
                previousVisible = view
                continue
            }
            hidden.append(view)
            add("UISV-hiding", view, along.size, .equal, nil, .notAnAttribute)
            if let previousVisible {
                add("UISV-spacing", view, along.start, .equal, previousVisible, along.end)
            } else {
                add("UISV-canvas-connection", view, along.start, .equal, canvas, along.start)
            }
        }
        if !hidden.isEmpty { alignAcrossAxis(hidden, across, canvas, suppressingAmbiguity: false) }
    }

    private func spacing(after view: UIView) -> CGFloat {
        let custom = customSpacing(after: view)
        if custom == Self.spacingUseDefault { return spacing }
        if custom == Self.spacingUseSystem { return LayoutMetrics.systemSpacing }
        return custom
    }

    private func arrangeAlongAxis(_ visible: [UIView], _ along: AxisAttributes, _ canvas: AnyObject) {
        var totalSpacing: CGFloat = 0
        for index in 1..<max(visible.count, 1) {
            let previous = visible[index - 1]
            let next = visible[index]
            let gap = spacing(after: previous)
            totalSpacing += gap
            switch distribution {
            case .fill, .fillEqually, .fillProportionally:
                add("UISV-spacing", next, along.start, .equal, previous, along.end, constant: gap)
            case .equalSpacing, .equalCentering:
                add("UISV-spacing", next, along.start, .greaterThanOrEqual, previous, along.end, constant: gap)
                let guide = UILayoutGuide()
                guide.identifier = "UISV-distributing"
                addLayoutGuide(guide)
                spacerGuides.append(guide)
                let edges = distribution == .equalSpacing ? (along.end, along.start) : (along.center, along.center)
                add("UISV-distributing-edge", guide, along.start, .equal, previous, edges.0)
                add("UISV-distributing-edge", guide, along.end, .equal, next, edges.1)
                if spacerGuides.count > 1 {
                    add("UISV-distributing", guide, along.size, .equal, spacerGuides[0], along.size)
                }
            }
        }
        switch distribution {
        case .fillEqually:
            for view in visible.dropFirst() {
                add("UISV-fill-equally", view, along.size, .equal, visible[0], along.size)
            }
        case .fillProportionally:
            var lengths: [CGFloat] = []
            for view in visible {
                let size = view.intrinsicContentSize
                lengths.append(max(0, along.axis == .horizontal ? size.width : size.height))
            }
            let total = lengths.reduce(0, +)
            for (index, view) in visible.enumerated() {
                let share = total > 0 ? lengths[index] / total : 1 / CGFloat(visible.count)
                // UIKit's proportional lengths give way only to required constraints.
                add("UISV-fill-proportionally", view, along.size, .equal, canvas, along.size,
                    multiplier: share, constant: -share * totalSpacing, priority: UILayoutPriority(999))
            }
        case .fill, .equalSpacing, .equalCentering:
            break
        }
    }

    private func alignAcrossAxis(_ visible: [UIView], _ across: AxisAttributes, _ canvas: AnyObject,
                                 suppressingAmbiguity: Bool = true) {
        var alignment = self.alignment
        if axis == .vertical && (alignment == .firstBaseline || alignment == .lastBaseline) { alignment = .leading }
        for view in visible {
            switch alignment {
            case .fill:
                add("UISV-alignment", view, across.start, .equal, canvas, across.start)
                add("UISV-alignment", view, across.end, .equal, canvas, across.end)
            case .leading:
                add("UISV-alignment", view, across.start, .equal, canvas, across.start)
                add("UISV-spanning-boundary", view, across.end, .lessThanOrEqual, canvas, across.end)
            case .trailing:
                add("UISV-alignment", view, across.end, .equal, canvas, across.end)
                add("UISV-spanning-boundary", view, across.start, .greaterThanOrEqual, canvas, across.start)
            case .center:
                add("UISV-alignment", view, across.center, .equal, canvas, across.center)
                add("UISV-spanning-boundary", view, across.start, .greaterThanOrEqual, canvas, across.start)
            case .firstBaseline, .lastBaseline:
                let baseline: NSLayoutConstraint.Attribute = alignment == .firstBaseline ? .firstBaseline : .lastBaseline
                if view !== visible[0] {
                    add("UISV-alignment", view, baseline, .equal, visible[0], baseline)
                }
                add("UISV-spanning-boundary", view, across.start, .greaterThanOrEqual, canvas, across.start)
                add("UISV-spanning-boundary", view, across.end, .lessThanOrEqual, canvas, across.end)
            }
        }
        if alignment != .fill && suppressingAmbiguity {
            // Without it the stack's breadth would be free above the widest
            // view: a very weak pull keeps it as small as its views allow.
            add("UISV-ambiguity-suppression", self, across.size, .equal, nil, .notAnAttribute, priority: UILayoutPriority(25))
        }
    }

    private func add(_ identifier: String, _ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute,
                     _ relation: NSLayoutConstraint.Relation, _ other: AnyObject?, _ otherAttribute: NSLayoutConstraint.Attribute,
                     multiplier: CGFloat = 1, constant: CGFloat = 0, priority: UILayoutPriority = .required) {
        let constraint = NSLayoutConstraint(item: item, attribute: attribute, relatedBy: relation, toItem: other,
                                            attribute: otherAttribute, multiplier: multiplier, constant: constant)
        constraint.identifier = identifier
        constraint.priority = priority
        generatedConstraints.append(constraint)
    }
}

/// The attributes of one axis: start and end edges, centre and length.
private struct AxisAttributes {
    let axis: NSLayoutConstraint.Axis
    let start: NSLayoutConstraint.Attribute
    let end: NSLayoutConstraint.Attribute
    let center: NSLayoutConstraint.Attribute
    let size: NSLayoutConstraint.Attribute

    init(_ axis: NSLayoutConstraint.Axis) {
        self.axis = axis
        if axis == .horizontal {
            (start, end, center, size) = (.leading, .trailing, .centerX, .width)
        } else {
            (start, end, center, size) = (.top, .bottom, .centerY, .height)
        }
    }
}
