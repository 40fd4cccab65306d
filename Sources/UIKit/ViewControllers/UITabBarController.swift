/// One tab of a tab bar: a title and an image (and an image for when it is
/// selected).
@preconcurrency @MainActor
open class UITabBarItem: NSObject {
    open var title: String? {
        didSet { onChange?() }
    }
    open var image: UIImage? {
        didSet { onChange?() }
    }
    /// Shown instead of ``image`` while selected; nil uses ``image``.
    open var selectedImage: UIImage? {
        didSet { onChange?() }
    }
    open var tag = 0
    /// A disabled item is greyed and ignores taps.
    open var isEnabled = true {
        didSet { onChange?() }
    }
    /// Lets the bar redraw the item when it changes.
    var onChange: (@MainActor () -> Void)?

    public override init() {
        super.init()
    }

    public convenience init(title: String?, image: UIImage?, tag: Int) {
        self.init()
        self.title = title
        self.image = image
        self.tag = tag
    }

    public convenience init(title: String?, image: UIImage?, selectedImage: UIImage?) {
        self.init()
        self.title = title
        self.image = image
        self.selectedImage = selectedImage
    }
}

/// What a tab bar tells about taps on its items.
@MainActor
public protocol UITabBarDelegate: AnyObject {
    func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem)
}

/// A bar of tabs at the bottom of the screen. Lifting a finger on an
/// enabled item selects it and tells the ``delegate``.
///
/// It looks like iOS 17's: a light bar with a hairline on top, each item
/// an image (a template, tinted) over a 10-point title, the selected item in
/// the tint and the others in ``unselectedItemTintColor`` (grey by default).
/// The items take the bar's top 49 points; the bar grows down into the
/// bottom of the safe area (over the home indicator), as UIKit's does.
@preconcurrency @MainActor
open class UITabBar: UIView {
    open weak var delegate: UITabBarDelegate?
    open private(set) var items: [UITabBarItem]?
    open var selectedItem: UITabBarItem? {
        didSet { updateButtons() }
    }
    /// The unselected items' colour; nil is ``UIColor/systemGray``.
    open var unselectedItemTintColor: UIColor? {
        didSet { updateButtons() }
    }
    /// Whether a tab bar controller's content reaches under the bar
    /// (UIKit's default: true; see ``UIViewController/edgesForExtendedLayout``).
    /// It decides layout only: the bar is drawn opaque either way (no blur).
    open var isTranslucent = true {
        didSet { superview?.setNeedsLayout() }
    }
    private var buttons: [TabBarButton] = []
    private let hairline = CALayer.partWithoutActions()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = ControlMetrics.tabBarBackgroundColor
        hairline.backgroundColor = UIColor.separator.cgColor
        layer.addSublayer(hairline)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        backgroundColor = ControlMetrics.tabBarBackgroundColor
        hairline.backgroundColor = UIColor.separator.cgColor
        layer.addSublayer(hairline)
    }

    open func setItems(_ items: [UITabBarItem]?, animated: Bool) {
        self.items = items
        for button in buttons { button.removeFromSuperview() }
        buttons.removeAll()
        for item in items ?? [] {
            let button = TabBarButton(item: item)
            button.addAction(UIAction { [weak self] _ in self?.tapped(item) }, for: .touchUpInside)
            item.onChange = { [weak self] in self?.updateButtons() }
            buttons.append(button)
            addSubview(button)
        }
        if let selectedItem, !(items ?? []).contains(where: { $0 === selectedItem }) { self.selectedItem = nil }
        updateButtons()
        setNeedsLayout()
    }

    private func tapped(_ item: UITabBarItem) {
        guard item.isEnabled else { return }
        delegate?.tabBar(self, didSelect: item)
    }

    private func updateButtons() {
        for button in buttons {
            button.show(selected: button.item === selectedItem, selectedColor: tintColor,
                        unselectedColor: unselectedItemTintColor ?? .systemGray)
        }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        updateButtons()
    }

    /// The items' 49 points and the bottom of the bar's safe area below them.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: Self.height(above: safeAreaInsets.bottom))
    }

    /// The bar's height over a bottom safe-area inset of `bottomInset`
    /// (49 points without one, 83 over an iPhone X's 34).
    static func height(above bottomInset: CGFloat) -> CGFloat {
        ControlMetrics.tabBarHeight + bottomInset
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        hairline.frame = CGRect(x: 0, y: 0, width: bounds.width, height: 1 / UIScreen.main.scale)
        let width = buttons.isEmpty ? 0 : bounds.width / CGFloat(buttons.count)
        for (index, button) in buttons.enumerated() {
            button.frame = CGRect(x: CGFloat(index) * width, y: 0, width: width, height: ControlMetrics.tabBarHeight)
        }
    }

    /// The button of `item`, for tests.
    func button(for item: UITabBarItem) -> UIControl? {
        buttons.first { $0.item === item }
    }
}

/// An item's button: the image over the title, in the state's colour.
@MainActor
private final class TabBarButton: UIControl {
    let item: UITabBarItem
    private let imageView = UIImageView(frame: .zero)
    private let label = UILabel(frame: .zero)

    init(item: UITabBarItem) {
        self.item = item
        super.init(frame: .zero)
        label.font = .systemFont(ofSize: ControlMetrics.tabBarTitleFontSize, weight: .medium)
        label.textAlignment = .center
        addSubview(imageView)
        addSubview(label)
    }

    required init?(coder: NSCoder) {
        nil
    }

    func show(selected: Bool, selectedColor: UIColor, unselectedColor: UIColor) {
        isEnabled = item.isEnabled
        let color = !item.isEnabled ? UIColor.tertiaryLabel : selected ? selectedColor : unselectedColor
        let image = selected ? item.selectedImage ?? item.image : item.image
        imageView.image = image.map { $0.renderingMode == .alwaysOriginal ? $0 : $0.withRenderingMode(.alwaysTemplate) }
        imageView.tintColor = color
        label.text = item.title
        label.textColor = color
        setNeedsLayout()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let side = ControlMetrics.tabBarImageSide
        imageView.frame = CGRect(x: bounds.midX - side / 2, y: ControlMetrics.tabBarImageTop, width: side, height: side)
        let titleHeight = ceil(label.sizeThatFits(.zero).height)
        label.frame = CGRect(x: 0, y: imageView.frame.maxY + ControlMetrics.tabBarTitleGap, width: bounds.width, height: titleHeight)
    }
}

/// What a tab bar controller asks and tells about the user's choices.
@MainActor
public protocol UITabBarControllerDelegate: AnyObject {
    /// Whether a tapped tab may be selected (not asked when the selection
    /// is set in code). Default: true.
    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool
    /// The user selected a tab (also when tapping the selected one).
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
    public func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool { true }
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
}

/// A container that shows one of its ``viewControllers`` at a time, chosen
/// with a ``tabBar`` at the bottom.
///
/// The bar grows into the bottom of the safe area. The selected controller's
/// view reaches under the bar, as in UIKit (the bar is translucent by
/// default, ``UITabBar/isTranslucent``): it fills the tab bar controller's
/// view and its safe area leaves out what the bar covers. A controller whose
/// ``UIViewController/edgesForExtendedLayout`` leaves out the bottom, or an
/// opaque bar without ``UIViewController/extendedLayoutIncludesOpaqueBars``,
/// has its view end above the bar.
///
/// Touch behaviour, as in UIKit: lifting a finger on a tab asks the
/// ``delegate``'s `tabBarController(_:shouldSelect:)`; if it agrees, the
/// tab's controller is shown (its view added above the bar, the previous
/// one's removed) and `tabBarController(_:didSelect:)` follows. Setting
/// ``selectedIndex`` or ``selectedViewController`` in code asks and tells
/// nothing. Each child's tab is its `tabBarItem` (a title from the
/// controller's `title` unless set).
@preconcurrency @MainActor
open class UITabBarController: UIViewController, UITabBarDelegate {
    public let tabBar = UITabBar(frame: .zero)
    open weak var delegate: UITabBarControllerDelegate?

    open var viewControllers: [UIViewController]? {
        get { storedViewControllers.isEmpty && !hasViewControllers ? nil : storedViewControllers }
        set { setViewControllers(newValue, animated: false) }
    }
    private var storedViewControllers: [UIViewController] = []
    private var hasViewControllers = false
    private var storedSelectedIndex = 0

    /// The shown tab's index; out of range is refused.
    open var selectedIndex: Int {
        get { storedViewControllers.isEmpty ? NSNotFound : storedSelectedIndex }
        set {
            guard storedViewControllers.indices.contains(newValue) else { return }
            storedSelectedIndex = newValue
            showSelected()
        }
    }

    /// The shown tab's controller; one that is not a tab is refused.
    open var selectedViewController: UIViewController? {
        get { storedViewControllers.indices.contains(storedSelectedIndex) ? storedViewControllers[storedSelectedIndex] : nil }
        set {
            guard let newValue, let index = storedViewControllers.firstIndex(where: { $0 === newValue }) else { return }
            selectedIndex = index
        }
    }

    /// Makes `viewControllers` the tabs, as children, keeping the selected
    /// index when it is still in range.
    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {
        for child in storedViewControllers {
            child.willMove(toParent: nil)
            child.viewIfLoaded?.removeFromSuperview()
            child.removeFromParent()
        }
        storedViewControllers = viewControllers ?? []
        hasViewControllers = viewControllers != nil
        for child in storedViewControllers {
            addChild(child)
            child.didMove(toParent: self)
        }
        if !storedViewControllers.indices.contains(storedSelectedIndex) { storedSelectedIndex = 0 }
        tabBar.setItems(storedViewControllers.map(\.tabBarItem), animated: animated)
        showSelected()
    }

    open override func loadView() {
        view = UIView(frame: UIScreen.main.bounds)
        view.backgroundColor = .systemBackground
        tabBar.delegate = self
        view.addSubview(tabBar)
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        showSelected()
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let barHeight = UITabBar.height(above: view.safeAreaInsets.bottom)
        tabBar.frame = CGRect(x: 0, y: view.bounds.height - barHeight, width: view.bounds.width, height: barHeight)
        // The bar may have been marked for layout (its items set) before it
        // was in a window, when the mark could not reach its ancestors.
        tabBar.layoutIfNeeded()
        guard let selected = selectedViewController, let content = selected.viewIfLoaded else { return }
        let underBar = selected.extendsLayout(under: .bottom, translucentBar: tabBar.isTranslucent)
        content.frame = CGRect(x: 0, y: 0, width: view.bounds.width, height: view.bounds.height - (underBar ? 0 : barHeight))
        // The bar moved or came: the child's safe area follows it.
        UIApplication.shared.safeAreasInUse = true
        content.safeAreaMayHaveChanged()
    }

    /// The bar covers the bottom of the selected child's view that reaches
    /// under it, up to the bar's top edge.
    override func insetsCoveredByBars(ofChildView child: UIView) -> UIEdgeInsets {
        guard isViewLoaded, !tabBar.isHidden, tabBar.superview === view else { return .zero }
        let rect = child.convert(child.bounds, to: view)
        return UIEdgeInsets(top: 0, left: 0, bottom: min(max(0, rect.maxY - tabBar.frame.minY), rect.height), right: 0)
    }

    /// Puts the selected child's view above the bar and the others' away.
    private func showSelected() {
        tabBar.selectedItem = selectedViewController?.tabBarItem
        guard isViewLoaded else { return }
        for child in storedViewControllers where child !== selectedViewController {
            child.viewIfLoaded?.removeFromSuperview()
        }
        if let selected = selectedViewController, selected.view.superview !== view {
            view.insertSubview(selected.view, belowSubview: tabBar)
        }
        view.setNeedsLayout()
    }

    public func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem) {
        guard let index = storedViewControllers.firstIndex(where: { $0.tabBarItem === item }) else { return }
        let controller = storedViewControllers[index]
        guard delegate?.tabBarController(self, shouldSelect: controller) ?? true else { return }
        selectedIndex = index
        delegate?.tabBarController(self, didSelect: controller)
    }
}
