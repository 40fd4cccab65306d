/// What a navigation bar asks and tells about its stack of items.
@MainActor
public protocol UINavigationBarDelegate: AnyObject {
    /// Whether the back button may pop `item` (true by default).
    func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem) -> Bool
    func navigationBar(_ navigationBar: UINavigationBar, didPop item: UINavigationItem)
}

extension UINavigationBarDelegate {
    public func navigationBar(_ navigationBar: UINavigationBar, shouldPop item: UINavigationItem) -> Bool { true }
    public func navigationBar(_ navigationBar: UINavigationBar, didPop item: UINavigationItem) {}
}

/// A bar at the top of the screen showing the top item of a stack of
/// ``UINavigationItem``s: its title (or title view) in the middle, a back
/// button to the item below on the leading side, and the item's buttons on
/// either side. A navigation controller keeps one in step with its
/// controllers; a tap on the back button pops the top controller.
///
/// The layout follows iOS 15 to 17 without large titles (measures in
/// ``NavigationMetrics``): 44 points high; the title 17-point semibold,
/// centred on the bar and pushed aside, then truncated, by the items; the
/// back button a chevron and the previous item's title, "Back" when that
/// does not fit, the chevron alone when neither does. Items run from each
/// edge inward, the first of each side outermost. Left-to-right layouts only.
@preconcurrency @MainActor
open class UINavigationBar: UIView {
    open weak var delegate: UINavigationBarDelegate?
    /// The stack, the top item last.
    open private(set) var items: [UINavigationItem]?
    open var topItem: UINavigationItem? { items?.last }
    /// The item below the top one: the back button leads to it.
    open var backItem: UINavigationItem? {
        guard let items, items.count > 1 else { return nil }
        return items[items.count - 2]
    }
    /// The bar's background colour; nil is iOS's light bar colour.
    open var barTintColor: UIColor? {
        didSet { backgroundColor = barTintColor ?? NavigationMetrics.barBackgroundColor }
    }
    /// Whether a navigation controller's content reaches under the bar
    /// (UIKit's default: true; see ``UIViewController/edgesForExtendedLayout``).
    /// It decides layout only: the bar is drawn opaque either way (no blur).
    open var isTranslucent = true {
        didSet { superview?.setNeedsLayout() }
    }
    /// Called instead of popping an item when the back button is tapped
    /// (a navigation controller pops its top controller).
    var backButtonAction: (@MainActor () -> Void)?

    /// What the bar shows for the top item; during an interactive
    /// transition, ``incoming`` shows the item that will be on top.
    private var content = NavigationBarContent()
    private var incoming: NavigationBarContent?
    /// The stack a transition leads to.
    private var incomingItems: [UINavigationItem]?
    /// Whether the transition pushes (titles slide toward the leading side)
    /// rather than pops.
    private var isPushing = false
    private let hairline = CALayer()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUp()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUp()
    }

    private func setUp() {
        backgroundColor = NavigationMetrics.barBackgroundColor
        hairline.backgroundColor = UIColor.separator.cgColor
        layer.addSublayer(hairline)
        adopt(content)
    }

    private func adopt(_ content: NavigationBarContent) {
        content.backButtonAction = { [weak self] in self?.backButtonTapped() }
        content.frame = bounds
        addSubview(content)
    }

    // MARK: The stack

    open func setItems(_ items: [UINavigationItem]?, animated: Bool) {
        self.items = items
        content.show(items ?? [])
    }

    open func pushItem(_ item: UINavigationItem, animated: Bool) {
        setItems((items ?? []) + [item], animated: animated)
    }

    /// Takes the top item off (the only one too); returns it.
    @discardableResult
    open func popItem(animated: Bool) -> UINavigationItem? {
        guard var items, let top = items.popLast() else { return nil }
        setItems(items, animated: animated)
        return top
    }

    private func backButtonTapped() {
        if let backButtonAction { return backButtonAction() }
        guard let top = topItem, backItem != nil, delegate?.navigationBar(self, shouldPop: top) ?? true else { return }
        popItem(animated: true)
        delegate?.navigationBar(self, didPop: top)
    }

    // MARK: Transitions

    /// Shows `items` beside the current stack, hidden, for a navigation
    /// controller's animated transition: ``updateTransition(_:)`` cross-fades
    /// the two (in an animation, or following a gesture),
    /// ``endTransition(completed:)`` keeps one.
    func beginTransition(to items: [UINavigationItem], pushing: Bool) {
        isPushing = pushing
        incoming?.removeFromSuperview()
        let next = NavigationBarContent()
        adopt(next)
        next.alpha = 0
        incoming = next
        incomingItems = items
        // The incoming item's title view is taken from where it is only
        // when the transition completes; until then it shows where it was.
        next.show(items, takingTitleView: false)
    }

    /// How far the transition has gone: the current items fade out as the
    /// incoming ones fade in, and their titles slide half the bar's width
    /// apart (as iOS moves them): for a pop the current title toward the
    /// trailing edge and the incoming one in from the leading side, for a
    /// push the other way.
    func updateTransition(_ fraction: CGFloat) {
        let travel = (isPushing ? -1 : 1) * bounds.width / 2
        content.alpha = 1 - fraction
        content.titleOffset = fraction * travel
        incoming?.alpha = fraction
        incoming?.titleOffset = (fraction - 1) * travel
    }

    func endTransition(completed: Bool) {
        guard let incoming, let incomingItems else { return }
        self.incoming = nil
        self.incomingItems = nil
        if completed {
            content.removeFromSuperview()
            content = incoming
            items = incomingItems
            content.show(incomingItems)
        } else {
            incoming.removeFromSuperview()
            content.show(items ?? [])
        }
        content.alpha = 1
        content.titleOffset = 0
    }

    // MARK: Layout

    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: NavigationMetrics.barHeight)
    }

    open override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: NavigationMetrics.barHeight)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        hairline.frame = CGRect(x: 0, y: bounds.height, width: bounds.width, height: 1 / UIScreen.main.scale)
        content.frame = bounds
        incoming?.frame = bounds
    }

    /// The back button, for tests.
    var backButtonControl: UIControl { content.backButton }
    /// The title label, for tests.
    var titleLabelView: UILabel { content.titleLabel }
    /// The button or custom view showing `item`, for tests.
    func view(for item: UIBarButtonItem) -> UIView? { content.view(for: item) }
    /// The title label of the items an interactive transition leads to, for tests.
    var incomingTitleLabelView: UILabel? { incoming?.titleLabel }
}

/// What the bar shows for its top item: the title (or title view), the
/// back button to the item below, and the item's buttons, laid out as
/// ``UINavigationBar`` says.
@MainActor
private final class NavigationBarContent: UIView {
    let titleLabel = UILabel(frame: .zero)
    let backButton = BackButton()
    var backButtonAction: (@MainActor () -> Void)?
    private var topItem: UINavigationItem?
    private var backItem: UINavigationItem?
    private var itemViews: [UIView] = []
    private var titleView: UIView?
    /// How far the title (or title view) is moved sideways, for transitions.
    var titleOffset: CGFloat = 0 {
        didSet { applyTitleOffset() }
    }

    private func applyTitleOffset() {
        let shift = CGAffineTransform(translationX: titleOffset, y: 0)
        titleLabel.transform = shift
        titleView?.transform = shift
    }

    init() {
        super.init(frame: .zero)
        titleLabel.font = .systemFont(ofSize: NavigationMetrics.titleFontSize, weight: .semibold)
        titleLabel.textColor = .label
        titleLabel.textAlignment = .center
        titleLabel.lineBreakMode = .byTruncatingTail
        addSubview(titleLabel)
        backButton.addAction(UIAction { [weak self] _ in self?.backButtonAction?() }, for: .touchUpInside)
        addSubview(backButton)
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// Shows the top of `items`, with a back button to the one below, and
    /// follows their changes. `takingTitleView` false leaves the top item's
    /// title view where it is.
    func show(_ items: [UINavigationItem], takingTitleView: Bool = true) {
        topItem = items.last
        backItem = items.count > 1 ? items[items.count - 2] : nil
        for item in items { item.onChange = { [weak self] in self?.rebuild(takingTitleView: true) } }
        rebuild(takingTitleView: takingTitleView)
    }

    /// Makes the item buttons and the title again and lays them out.
    private func rebuild(takingTitleView: Bool) {
        for view in itemViews { view.removeFromSuperview() }
        itemViews.removeAll()
        for item in (topItem?.leftBarButtonItems ?? []) + (topItem?.rightBarButtonItems ?? []) {
            item.onChange = { [weak self] in self?.rebuild(takingTitleView: true) }
            let view = item.customView ?? makeButton(for: item)
            itemViews.append(view)
            addSubview(view)
        }
        if let titleView, titleView !== topItem?.titleView, titleView.superview === self { titleView.removeFromSuperview() }
        titleView?.transform = .identity
        titleView = takingTitleView ? topItem?.titleView : nil
        if let titleView, titleView.superview !== self { addSubview(titleView) }
        applyTitleOffset()
        titleLabel.text = topItem?.title
        setNeedsLayout()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let height = bounds.height
        let spacing = NavigationMetrics.itemSpacing, gap = NavigationMetrics.titleGap
        let leftItems = topItem?.leftBarButtonItems ?? [], rightItems = topItem?.rightBarButtonItems ?? []
        let showsBack = backItem != nil && topItem?.hidesBackButton == false
            && (leftItems.isEmpty || topItem?.leftItemsSupplementBackButton == true)

        // The trailing items, from the edge inward.
        var trailing = bounds.width - NavigationMetrics.edgeMargin
        for (index, item) in rightItems.enumerated() {
            let view = itemViews[leftItems.count + index]
            let width = itemWidth(item, view)
            trailing -= width
            view.frame = CGRect(x: trailing, y: (height - itemHeight(item, view)) / 2, width: width, height: itemHeight(item, view))
            trailing -= spacing
        }
        trailing += rightItems.isEmpty ? 0 : spacing

        // The title (or title view), centred on the bar if it can be.
        let titleWidth = titleView.map { $0.bounds.width } ?? ceil(titleLabel.sizeThatFits(.zero).width)
        let centredTitleMinX = (bounds.width - titleWidth) / 2

        // The back button, with the longest title that keeps clear of the
        // centred title, then the leading items after it.
        var leading = NavigationMetrics.edgeMargin
        backButton.isHidden = !showsBack
        if showsBack {
            let limit = (titleWidth > 0 ? centredTitleMinX : trailing) - gap
            let candidates = [backTitle, NavigationMetrics.defaultBackTitle, ""]
            var chosen = ""
            for candidate in candidates where backButton.width(withTitle: candidate) <= limit {
                chosen = candidate
                break
            }
            backButton.title = chosen
            backButton.frame = CGRect(x: 0, y: 0, width: backButton.width(withTitle: chosen), height: height)
            leading = backButton.frame.maxX + spacing
        }
        for (index, item) in leftItems.enumerated() {
            let view = itemViews[index]
            let width = itemWidth(item, view)
            view.frame = CGRect(x: leading, y: (height - itemHeight(item, view)) / 2, width: width, height: itemHeight(item, view))
            leading += width + spacing
        }
        if !leftItems.isEmpty || showsBack { leading -= spacing }

        // Between the leading and trailing items, as near the centre as fits.
        let minX = leading + (leading > NavigationMetrics.edgeMargin ? gap : 0)
        let maxX = trailing - (trailing < bounds.width - NavigationMetrics.edgeMargin ? gap : 0)
        let width = min(titleWidth, max(0, maxX - minX))
        let x = min(max(centredTitleMinX, minX), maxX - width)
        if let titleView {
            let titleHeight = min(titleView.bounds.height > 0 ? titleView.bounds.height : height, height)
            place(titleView, in: CGRect(x: x, y: (height - titleHeight) / 2, width: width, height: titleHeight))
            titleLabel.isHidden = true
        } else {
            titleLabel.isHidden = false
            place(titleLabel, in: CGRect(x: x, y: 0, width: width, height: height))
        }
    }

    /// Puts `view` in `rect` by its bounds and centre, so that the title's
    /// sideways transform moves it from there.
    private func place(_ view: UIView, in rect: CGRect) {
        view.bounds = CGRect(origin: .zero, size: rect.size)
        view.center = CGPoint(x: rect.midX, y: rect.midY)
    }

    /// What the back button says before it is shortened: the item below's
    /// back button title, its title, or "Back".
    private var backTitle: String {
        guard let backItem else { return NavigationMetrics.defaultBackTitle }
        return backItem.backBarButtonItem?.title ?? backItem.backButtonTitle ?? backItem.title ?? NavigationMetrics.defaultBackTitle
    }

    private func itemWidth(_ item: UIBarButtonItem, _ view: UIView) -> CGFloat {
        if item.width > 0 || item.isSpace { return item.width }
        if item.customView != nil { return view.bounds.width }
        if item.image != nil { return NavigationMetrics.itemImageSide }
        return ceil(view.sizeThatFits(.zero).width)
    }

    /// A button is as high as the bar; a custom view keeps its height.
    private func itemHeight(_ item: UIBarButtonItem, _ view: UIView) -> CGFloat {
        item.customView == nil ? bounds.height : min(view.bounds.height, bounds.height)
    }

    /// The button or custom view showing `item`.
    func view(for item: UIBarButtonItem) -> UIView? {
        let items = (topItem?.leftBarButtonItems ?? []) + (topItem?.rightBarButtonItems ?? [])
        return items.firstIndex { $0 === item }.map { itemViews[$0] }
    }
}

/// The button of a bar button item: its title (semibold for `.done`) or
/// its image as a template, in the tint, grey when disabled; an empty,
/// hidden one for a space.
@MainActor
private func makeButton(for item: UIBarButtonItem) -> UIButton {
    let button = UIButton(type: .system)
    button.titleLabel?.font = .systemFont(ofSize: NavigationMetrics.itemFontSize, weight: item.style == .done ? .semibold : .regular)
    if let image = item.image {
        button.setImage(image.withRenderingMode(.alwaysTemplate), for: .normal)
    } else {
        button.setTitle(item.title, for: .normal)
    }
    button.isEnabled = item.isEnabled
    button.isHidden = item.isSpace
    button.addAction(UIAction { [weak item] _ in item?.performTap(with: nil) }, for: .touchUpInside)
    return button
}

/// The back button: a chevron and a title, in the tint, fading while pressed.
@MainActor
private final class BackButton: UIControl {
    private let chevron = BackChevronView(frame: CGRect(origin: .zero, size: NavigationMetrics.backChevronSize))
    private let label = UILabel(frame: .zero)

    var title = "" {
        didSet {
            label.text = title
            setNeedsLayout()
        }
    }

    init() {
        super.init(frame: .zero)
        label.font = .systemFont(ofSize: NavigationMetrics.itemFontSize)
        chevron.isUserInteractionEnabled = false
        addSubview(chevron)
        addSubview(label)
        updateColours()
    }

    required init?(coder: NSCoder) {
        nil
    }

    /// The button's width showing `title`: the chevron's inset and width,
    /// and the title after its gap, then the chevron's inset again.
    func width(withTitle title: String) -> CGFloat {
        let chevronEnd = NavigationMetrics.backChevronLeading + NavigationMetrics.backChevronSize.width
        guard !title.isEmpty else { return chevronEnd + NavigationMetrics.backChevronLeading }
        let measured = UILabel(frame: .zero)
        measured.font = label.font
        measured.text = title
        return chevronEnd + NavigationMetrics.backChevronTitleGap + ceil(measured.sizeThatFits(.zero).width)
            + NavigationMetrics.backChevronLeading
    }

    override var isHighlighted: Bool {
        didSet { updateColours() }
    }

    override func tintColorDidChange() {
        super.tintColorDidChange()
        updateColours()
    }

    private func updateColours() {
        let alpha = isHighlighted ? ControlMetrics.systemButtonHighlightedAlpha : 1
        label.textColor = tintColor.withAlphaComponent(alpha)
        chevron.alpha = alpha
        chevron.setNeedsDisplay()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let size = NavigationMetrics.backChevronSize
        chevron.frame = CGRect(x: NavigationMetrics.backChevronLeading, y: (bounds.height - size.height) / 2,
                               width: size.width, height: size.height)
        let x = chevron.frame.maxX + NavigationMetrics.backChevronTitleGap
        label.frame = CGRect(x: x, y: 0, width: max(0, bounds.width - x - NavigationMetrics.backChevronLeading), height: bounds.height)
    }
}

/// The back chevron, stroked in the tint with round ends.
@MainActor
private final class BackChevronView: UIView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
    }

    required init?(coder: NSCoder) {
        nil
    }

    override func tintColorDidChange() {
        super.tintColorDidChange()
        setNeedsDisplay()
    }

    override func draw(_ rect: CGRect) {
        let inset = NavigationMetrics.backChevronLineWidth / 2
        let path = UIBezierPath()
        path.move(to: CGPoint(x: bounds.maxX - inset, y: bounds.minY + inset))
        path.addLine(to: CGPoint(x: bounds.minX + inset, y: bounds.midY))
        path.addLine(to: CGPoint(x: bounds.maxX - inset, y: bounds.maxY - inset))
        path.lineWidth = NavigationMetrics.backChevronLineWidth
        path.lineCapStyle = .round
        path.lineJoinStyle = .round
        tintColor.setStroke()
        path.stroke()
    }
}
