import Foundation

/// A view a collection view shows and reuses: the base of cells, headers and footers.
@preconcurrency @MainActor
open class UICollectionReusableView: UIView {
    /// The identifier the collection view keeps the view under for reuse.
    open internal(set) var reuseIdentifier: String?
    /// The kind of a supplementary view made by the collection view; nil for a cell.
    var supplementaryKind: String?

    /// Called before the collection view hands the view out again.
    open func prepareForReuse() {}

    /// The attributes the view would like, given those the layout means to
    /// apply. The collection view asks when its layout sizes items by their
    /// content (a flow layout with an `estimatedItemSize`), before it shows
    /// the view. By default the size becomes the view's
    /// ``UIView/systemLayoutSizeFitting(_:withHorizontalFittingPriority:verticalFittingPriority:)``
    /// for the layout's size, pulled towards it at the fitting-size level in
    /// both directions, so a view grows or shrinks in both (Apple: "the
    /// default implementation adjusts the size values to accommodate
    /// changes made by a self-sizing cell"). Override it to fix one
    /// dimension: call super, or set the size from a fitting with
    /// `.required` for that dimension.
    open func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
        let preferred = layoutAttributes.copy() as! UICollectionViewLayoutAttributes
        preferred.size = systemLayoutSizeFitting(layoutAttributes.size, withHorizontalFittingPriority: .fittingSizeLevel,
                                                 verticalFittingPriority: .fittingSizeLevel)
        return preferred
    }

    /// How a collection view makes a view of a registered class.
    public required convenience init(registeredWithReuseIdentifier identifier: String) {
        self.init(frame: .zero)
        reuseIdentifier = identifier
    }
}

/// One item of a collection view: a content view, backgrounds for the
/// normal and selected states, and the highlight and selection the
/// collection view sets.
@preconcurrency @MainActor
open class UICollectionViewCell: UICollectionReusableView {
    /// Holds the cell's content: add your subviews here.
    public let contentView = UIView()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addSubview(contentView)
    }

    /// A view behind the content.
    open var backgroundView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let backgroundView { insertSubview(backgroundView, at: 0) }
            setNeedsLayout()
        }
    }

    /// A view behind the content while the cell is highlighted or selected; none by default.
    open var selectedBackgroundView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            updateSelectedBackground()
        }
    }

    /// Whether the cell shows a touch's highlight. The collection view sets it.
    open var isHighlighted = false {
        didSet { updateSelectedBackground() }
    }

    /// Whether the cell shows as selected. The collection view sets it.
    open var isSelected = false {
        didSet { updateSelectedBackground() }
    }

    private func updateSelectedBackground() {
        guard let selectedBackgroundView else { return }
        if isHighlighted || isSelected {
            if selectedBackgroundView.superview !== self { insertSubview(selectedBackgroundView, at: backgroundView == nil ? 0 : 1) }
            selectedBackgroundView.frame = bounds
        } else {
            selectedBackgroundView.removeFromSuperview()
        }
    }

    /// Clears the highlight and selection; call super when you override it.
    open override func prepareForReuse() {
        super.prepareForReuse()
        isHighlighted = false
        isSelected = false
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        contentView.frame = bounds
        backgroundView?.frame = bounds
        selectedBackgroundView?.frame = bounds
    }

    /// A cell whose content view places its subviews with constraints is
    /// measured by its content view, with Auto Layout; any other answers
    /// ``UIView/sizeThatFits(_:)``.
    open override func systemLayoutSizeFitting(_ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
                                               verticalFittingPriority: UILayoutPriority) -> CGSize {
        guard contentView.placesSubviewsWithConstraints else { return sizeThatFits(targetSize) }
        return contentView.systemLayoutSizeFitting(targetSize, withHorizontalFittingPriority: horizontalFittingPriority,
                                                   verticalFittingPriority: verticalFittingPriority)
    }
}

/// Where a collection view's items come from.
@preconcurrency @MainActor
public protocol UICollectionViewDataSource: AnyObject {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    /// Default 1.
    func numberOfSections(in collectionView: UICollectionView) -> Int
    /// The header or footer view of a section, for layouts that place them.
    func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                        at indexPath: IndexPath) -> UICollectionReusableView
}

extension UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                               at indexPath: IndexPath) -> UICollectionReusableView {
        UICollectionReusableView()
    }
}

/// What a collection view tells its delegate about highlight, selection
/// and display. Touches follow the table view's rules
/// (`UITableView+Selection.swift`): highlight after the content delay,
/// selection at the lift inside the item, nothing after a scroll starts.
@preconcurrency @MainActor
public protocol UICollectionViewDelegate: UIScrollViewDelegate {
    func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool
    func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool
    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
}

extension UICollectionViewDelegate {
    public func collectionView(_ collectionView: UICollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, didEndDisplaying cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {}
}

/// A scroll view that shows items where its layout puts them, making cells
/// only for the items on screen and reusing them as they scroll by.
/// Selection by touch follows the table view's rules. Updates
/// (`performBatchUpdates`, `insertItems`, …) are checked as the table
/// view's are, then the visible items are shown again from the data source.
@preconcurrency @MainActor
open class UICollectionView: UIScrollView {
    /// The kind of a flow layout's section headers.
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    /// The kind of a flow layout's section footers.
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"

    /// Where ``scrollToItem(at:at:animated:)`` puts the item.
    public struct ScrollPosition: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let top = ScrollPosition(rawValue: 1 << 0)
        public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
        public static let bottom = ScrollPosition(rawValue: 1 << 2)
        public static let left = ScrollPosition(rawValue: 1 << 3)
        public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
        public static let right = ScrollPosition(rawValue: 1 << 5)
    }

    /// Makes a collection view that places its items with `layout`.
    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
        backgroundColor = .systemBackground
    }

    public required init?(coder: NSCoder) {
        collectionViewLayout = UICollectionViewFlowLayout()
        super.init(coder: coder)
        collectionViewLayout.collectionView = self
    }

    /// The layout; setting one lays the items out again.
    open var collectionViewLayout: UICollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            collectionViewLayout.collectionView = self
            collectionViewLayout.invalidateLayout()
        }
    }

    /// Where the items come from. Held weakly; setting it reloads.
    open weak var dataSource: (any UICollectionViewDataSource)? {
        didSet { reloadData() }
    }

    /// The scroll view's delegate; one that is a ``UICollectionViewDelegate``
    /// is also told about items (and, for a flow layout, asked for sizes).
    open override weak var delegate: (any UIScrollViewDelegate)? {
        didSet {
            collectionDelegate = delegate as? any UICollectionViewDelegate
            collectionViewLayout.invalidateLayout()
        }
    }
    weak var collectionDelegate: (any UICollectionViewDelegate)?

    /// Whether the user can select items. Default true.
    open var allowsSelection = true
    /// Whether the user can select several items, each touch toggling one. Default false.
    open var allowsMultipleSelection = false

    // MARK: Registration and reuse

    private var cellClasses: [String: UICollectionViewCell.Type] = [:]
    private var supplementaryClasses: [String: UICollectionReusableView.Type] = [:]
    private var reusable: [String: [UICollectionReusableView]] = [:]

    /// Registers the class of the cells to make for `identifier`.
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass as? UICollectionViewCell.Type
    }

    /// Registers the class of the supplementary views of `elementKind` to make for `identifier`.
    open func register(_ viewClass: AnyClass?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String) {
        supplementaryClasses[elementKind + "\u{0}" + identifier] = viewClass as? UICollectionReusableView.Type
    }

    /// A cell for the item at `indexPath`: one waiting for reuse, or a new
    /// one of the registered class. An identifier nothing was registered
    /// for is reported (UIKit raises an exception) and a plain cell returned.
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        if let cell = reusable[identifier]?.popLast() as? UICollectionViewCell {
            cell.prepareForReuse()
            return cell
        }
        cellsMade += 1
        guard let cellClass = cellClasses[identifier] else {
            reportListProblem("no cell class is registered for the reuse identifier \"\(identifier)\"; a plain cell was used")
            return UICollectionViewCell(registeredWithReuseIdentifier: identifier)
        }
        return cellClass.init(registeredWithReuseIdentifier: identifier)
    }

    /// A supplementary view of `elementKind`, reused or new.
    open func dequeueReusableSupplementaryView(ofKind elementKind: String, withReuseIdentifier identifier: String,
                                               for indexPath: IndexPath) -> UICollectionReusableView {
        let key = elementKind + "\u{0}" + identifier
        if let view = reusable[key]?.popLast() {
            view.prepareForReuse()
            return view
        }
        guard let viewClass = supplementaryClasses[key] else {
            reportListProblem("no \(elementKind) class is registered for the reuse identifier \"\(identifier)\"; a plain view was used")
            return UICollectionReusableView(registeredWithReuseIdentifier: identifier)
        }
        let view = viewClass.init(registeredWithReuseIdentifier: identifier)
        view.supplementaryKind = elementKind
        return view
    }

    /// How many cells this collection view has made, for the tests of reuse.
    private(set) var cellsMade = 0

    private func enqueue(_ view: UICollectionReusableView, key: String?) {
        view.isHidden = true
        guard let key else { return view.removeFromSuperview() }
        reusable[key, default: []].append(view)
    }

    // MARK: Loading

    private var itemCounts: [Int] = []
    private var isLoaded = false

    /// Asks the data source again for everything, and lays it out.
    open func reloadData() {
        lastUpdateAnimation = nil
        for (indexPath, cell) in visibleItems {
            collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: indexPath)
            enqueue(cell, key: cell.reuseIdentifier)
        }
        visibleItems = [:]
        for (_, view) in visibleSupplementaries { enqueue(view, key: view.reuseKey) }
        visibleSupplementaries = [:]
        selectedItems = []
        tracking = nil
        isLoaded = false
        loadIfNeeded()
        collectionViewLayout.collectionViewDidReloadData()
        collectionViewLayout.invalidateLayout()
    }

    private func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        itemCounts = readCounts()
    }

    private func readCounts() -> [Int] {
        guard let dataSource else { return [] }
        var sections = dataSource.numberOfSections(in: self)
        if sections < 0 {
            reportListProblem("the data source's numberOfSections(in:) returned \(sections); read as 0")
            sections = 0
        }
        var counts: [Int] = []
        for section in 0..<sections {
            let count = dataSource.collectionView(self, numberOfItemsInSection: section)
            if count < 0 { reportListProblem("the data source's numberOfItemsInSection \(section) returned \(count); read as 0") }
            counts.append(max(0, count))
        }
        return counts
    }

    /// The number of sections, as last read from the data source.
    open var numberOfSections: Int {
        loadIfNeeded()
        return itemCounts.count
    }

    /// The number of items in `section`, as last read; 0 for a section that does not exist.
    open func numberOfItems(inSection section: Int) -> Int {
        loadIfNeeded()
        return section >= 0 && section < itemCounts.count ? itemCounts[section] : 0
    }

    func reportListProblem(_ message: String) {
        UIApplication.shared.diagnostics.report(Diagnostic(.invalidListUpdate, "\(type(of: self)): \(message)"))
    }

    // MARK: Layout

    private var visibleItems: [IndexPath: UICollectionViewCell] = [:]
    private var visibleSupplementaries: [String: UICollectionReusableView] = [:]

    open override var bounds: CGRect {
        get { super.bounds }
        set {
            let old = super.bounds
            if newValue.size != old.size || collectionViewLayout.shouldInvalidateLayout(forBoundsChange: newValue) {
                collectionViewLayout.needsPrepare = true
            }
            super.bounds = newValue
            if super.bounds != old { setNeedsLayout() }
        }
    }

    /// How many times one layout pass lays the visible items out again
    /// because cells it just showed preferred other sizes. Each round only
    /// measures the cells that came into view in the round before, so two
    /// or three rounds are usual; the bound keeps a cell whose preferred
    /// size never settles from stalling the pass (the next pass goes on).
    static let maximumSelfSizingRounds = 8

    /// Keeps a cell for every item the layout places in view, and no other.
    /// With a layout that sizes items by their content, each cell is asked
    /// for its preferred attributes when it comes into view; if the layout
    /// says they need a new layout, the items are laid out again.
    open override func layoutSubviews() {
        super.layoutSubviews()
        loadIfNeeded()
        var rounds = 1
        while layOutVisibleElements() && rounds < Self.maximumSelfSizingRounds { rounds += 1 }
    }

    /// One round of ``layoutSubviews()``; returns whether a cell's preferred
    /// attributes invalidated the layout.
    private func layOutVisibleElements() -> Bool {
        collectionViewLayout.prepareIfNeeded()
        let size = collectionViewLayout.collectionViewContentSize
        if contentSize != size { contentSize = size }
        let attributes = collectionViewLayout.layoutAttributesForElements(in: layoutRect(bounds)) ?? []
        var wantedItems: [IndexPath: UICollectionViewLayoutAttributes] = [:]
        var wantedSupplementaries: [String: UICollectionViewLayoutAttributes] = [:]
        for element in attributes where !element.isHidden {
            if element.representedElementCategory == .cell {
                if itemExists(element.indexPath) { wantedItems[element.indexPath] = element }
            } else if let kind = element.representedElementKind {
                wantedSupplementaries[kind + "\u{0}\(element.indexPath)"] = element
            }
        }
        for (indexPath, cell) in visibleItems where wantedItems[indexPath] == nil {
            visibleItems[indexPath] = nil
            collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: indexPath)
            enqueue(cell, key: cell.reuseIdentifier)
        }
        for (key, view) in visibleSupplementaries where wantedSupplementaries[key] == nil {
            visibleSupplementaries[key] = nil
            enqueue(view, key: view.reuseKey)
        }
        var preferredAttributesInvalidated = false
        for indexPath in wantedItems.keys.sorted() {
            let element = wantedItems[indexPath]!
            let cell: UICollectionViewCell
            if let visible = visibleItems[indexPath] {
                cell = visible
                apply(element, to: cell)
            } else {
                cell = dataSource?.collectionView(self, cellForItemAt: indexPath) ?? UICollectionViewCell()
                if cell.superview !== self { insertSubview(cell, at: 0) }
                cell.isHidden = false
                cell.isSelected = selectedItems.contains(indexPath)
                visibleItems[indexPath] = cell
                apply(element, to: cell)
                if collectionViewLayout.sizesItemsByContent {
                    let preferred = cell.preferredLayoutAttributesFitting(element.copy() as! UICollectionViewLayoutAttributes)
                    if collectionViewLayout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: element) {
                        collectionViewLayout.adoptPreferredAttributes(preferred)
                        preferredAttributesInvalidated = true
                    }
                }
                collectionDelegate?.collectionView(self, willDisplay: cell, forItemAt: indexPath)
            }
        }
        for (key, element) in wantedSupplementaries {
            let view: UICollectionReusableView
            if let visible = visibleSupplementaries[key] {
                view = visible
            } else if let made = dataSource?.collectionView(self, viewForSupplementaryElementOfKind: element.representedElementKind!,
                                                             at: element.indexPath) {
                view = made
                if view.superview !== self { addSubview(view) }
                view.isHidden = false
                visibleSupplementaries[key] = view
            } else {
                continue
            }
            apply(element, to: view)
        }
        return preferredAttributesInvalidated
    }

    /// Whether the collection view mirrors its layout's horizontal
    /// coordinates (``UICollectionViewLayout/flipsHorizontallyInOppositeLayoutDirection``).
    private var flipsLayout: Bool {
        collectionViewLayout.flipsHorizontallyInOppositeLayoutDirection
            && effectiveUserInterfaceLayoutDirection != collectionViewLayout.developmentLayoutDirection
    }

    /// A rectangle in the layout's coordinates as the collection view's,
    /// or the other way round: the same unless the layout is flipped.
    private func layoutRect(_ rect: CGRect) -> CGRect {
        guard flipsLayout else { return rect }
        return CGRect(x: collectionViewLayout.collectionViewContentSize.width - rect.maxX, y: rect.minY,
                      width: rect.width, height: rect.height)
    }

    private func itemExists(_ indexPath: IndexPath) -> Bool {
        ListUpdate.contains(indexPath, counts: itemCounts)
    }

    private func apply(_ attributes: UICollectionViewLayoutAttributes, to view: UIView) {
        let frame = layoutRect(attributes.frame)
        if view.frame != frame { view.frame = frame }
        if view.alpha != attributes.alpha { view.alpha = attributes.alpha }
        view.layer.zPosition = CGFloat(attributes.zIndex)
    }

    // MARK: Queries

    /// The cells on screen, in item order.
    open var visibleCells: [UICollectionViewCell] {
        layoutIfNeeded()
        var cells: [UICollectionViewCell] = []
        for indexPath in visibleItems.keys.sorted() { cells.append(visibleItems[indexPath]!) }
        return cells
    }

    /// The index paths of the items on screen, in order.
    open var indexPathsForVisibleItems: [IndexPath] {
        layoutIfNeeded()
        return visibleItems.keys.sorted()
    }

    /// The cell of an item on screen; nil otherwise.
    open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        layoutIfNeeded()
        return visibleItems[indexPath]
    }

    /// The item a cell on screen shows; nil otherwise.
    open func indexPath(for cell: UICollectionViewCell) -> IndexPath? {
        layoutIfNeeded()
        for (indexPath, visible) in visibleItems where visible === cell { return indexPath }
        return nil
    }

    /// The item under `point` (in the collection view's coordinates); nil if none.
    open func indexPathForItem(at point: CGPoint) -> IndexPath? {
        layoutIfNeeded()
        let probe = CGRect(x: point.x, y: point.y, width: 1, height: 1)
        for element in collectionViewLayout.layoutAttributesForElements(in: layoutRect(probe)) ?? []
        where element.representedElementCategory == .cell && layoutRect(element.frame).contains(point) && itemExists(element.indexPath) {
            return element.indexPath
        }
        return nil
    }

    /// Where the layout puts an item, in the collection view's coordinates
    /// (mirrored, for a flipped layout).
    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        loadIfNeeded()
        collectionViewLayout.prepareIfNeeded()
        guard let attributes = collectionViewLayout.layoutAttributesForItem(at: indexPath) else { return nil }
        guard flipsLayout else { return attributes }
        let shown = attributes.copy() as! UICollectionViewLayoutAttributes
        shown.frame = layoutRect(attributes.frame)
        return shown
    }

    /// Scrolls so that the item shows at `scrollPosition`, as far as the
    /// content allows. An item that does not exist is reported; nothing scrolls.
    open func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        guard let frame = layoutAttributesForItem(at: indexPath)?.frame else {
            return reportListProblem("scrollToItem(at: \(indexPath)): there is no such item")
        }
        var offset = contentOffset
        if scrollPosition.contains(.top) { offset.y = frame.minY }
        if scrollPosition.contains(.centeredVertically) { offset.y = frame.midY - bounds.height / 2 }
        if scrollPosition.contains(.bottom) { offset.y = frame.maxY - bounds.height }
        if scrollPosition.contains(.left) { offset.x = frame.minX }
        if scrollPosition.contains(.centeredHorizontally) { offset.x = frame.midX - bounds.width / 2 }
        if scrollPosition.contains(.right) { offset.x = frame.maxX - bounds.width }
        if scrollPosition.isEmpty { return scrollRectToVisible(frame, animated: animated) }
        let range = offsetRange
        offset.x = min(max(offset.x, range.x.lowerBound), range.x.upperBound)
        offset.y = min(max(offset.y, range.y.lowerBound), range.y.upperBound)
        setContentOffset(offset, animated: animated)
    }

    // MARK: Selection (the table view's rules; see UITableView+Selection.swift)

    private var selectedItems: Set<IndexPath> = []
    private var tracking: (touch: UITouch, indexPath: IndexPath)?

    /// The selected items in order; nil if none.
    open var indexPathsForSelectedItems: [IndexPath]? {
        selectedItems.isEmpty ? nil : selectedItems.sorted()
    }

    /// Selects an item (nil deselects all); the delegate is not told.
    open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath else {
            for selected in selectedItems { visibleItems[selected]?.isSelected = false }
            selectedItems = []
            return
        }
        guard itemExists(indexPath) else { return reportListProblem("selectItem(at: \(indexPath)): there is no such item") }
        if !allowsMultipleSelection {
            for selected in selectedItems where selected != indexPath { deselectItem(at: selected, animated: animated) }
        }
        selectedItems.insert(indexPath)
        visibleItems[indexPath]?.isSelected = true
        if !scrollPosition.isEmpty { scrollToItem(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects an item; the delegate is not told.
    open func deselectItem(at indexPath: IndexPath, animated: Bool) {
        selectedItems.remove(indexPath)
        visibleItems[indexPath]?.isSelected = false
    }

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard tracking == nil, allowsSelection, let touch = touches.first,
              let indexPath = indexPathForItem(at: touch.location(in: self)), let cell = visibleItems[indexPath] else {
            return super.touchesBegan(touches, with: event)
        }
        guard collectionDelegate?.collectionView(self, shouldHighlightItemAt: indexPath) ?? true else { return }
        tracking = (touch, indexPath)
        cell.isHighlighted = true
        collectionDelegate?.collectionView(self, didHighlightItemAt: indexPath)
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking, touches.contains(tracking.touch) else { return super.touchesMoved(touches, with: event) }
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking, touches.contains(tracking.touch) else { return super.touchesEnded(touches, with: event) }
        self.tracking = nil
        let indexPath = tracking.indexPath
        let inside = layoutAttributesForItem(at: indexPath)?.frame.contains(tracking.touch.location(in: self)) ?? false
        unhighlight(indexPath)
        guard inside else { return }
        if allowsMultipleSelection && selectedItems.contains(indexPath) {
            guard collectionDelegate?.collectionView(self, shouldDeselectItemAt: indexPath) ?? true else { return }
            deselectItem(at: indexPath, animated: false)
            collectionDelegate?.collectionView(self, didDeselectItemAt: indexPath)
            return
        }
        guard collectionDelegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true else { return }
        if !allowsMultipleSelection {
            for selected in selectedItems.sorted() where selected != indexPath {
                deselectItem(at: selected, animated: false)
                collectionDelegate?.collectionView(self, didDeselectItemAt: selected)
            }
        }
        selectedItems.insert(indexPath)
        visibleItems[indexPath]?.isSelected = true
        collectionDelegate?.collectionView(self, didSelectItemAt: indexPath)
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking, touches.contains(tracking.touch) else { return super.touchesCancelled(touches, with: event) }
        self.tracking = nil
        unhighlight(tracking.indexPath)
    }

    private func unhighlight(_ indexPath: IndexPath) {
        visibleItems[indexPath]?.isHighlighted = false
        collectionDelegate?.collectionView(self, didUnhighlightItemAt: indexPath)
    }

    // MARK: Updates (checked as ListUpdate.swift says, shown as CollectionUpdateAnimation.swift says)

    var updateBatch = ListUpdateBatch()
    /// The animation of the last update, while it runs.
    var lastUpdateAnimation: ListUpdateAnimation?

    /// Applies the changes `updates` makes as one update, checked as a
    /// whole, then calls `completion` when it has been shown: at the end of
    /// its animation, with whether the animation ran to its end, or at
    /// once, with true, when nothing is animated.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updateBatch.begin()
        updates?()
        if let update = updateBatch.end() { applyCheckedUpdate(update) }
        if let completion { whenUpdateShown(completion) }
    }

    open func insertItems(at indexPaths: [IndexPath]) { record { $0.insertedRows += indexPaths } }
    open func deleteItems(at indexPaths: [IndexPath]) { record { $0.deletedRows += indexPaths } }
    open func reloadItems(at indexPaths: [IndexPath]) { record { $0.reloadedRows += indexPaths } }
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) { record { $0.moves.append((indexPath, newIndexPath)) } }
    open func insertSections(_ sections: IndexSet) { record { $0.insertedSections.formUnion(sections) } }
    open func deleteSections(_ sections: IndexSet) { record { $0.deletedSections.formUnion(sections) } }
    open func reloadSections(_ sections: IndexSet) { record { $0.reloadedSections.formUnion(sections) } }

    /// A checked update: items that stay keep their cells (at their new
    /// index paths) and their selection; the data source is asked only for
    /// the cells of items that are new on screen. The model changes at
    /// once; what is shown follows over an animation
    /// (`CollectionUpdateAnimation.swift`). A failed check is reported and
    /// everything reloads.
    func applyCheckedUpdate(_ update: ListUpdate) {
        loadIfNeeded()
        lastUpdateAnimation = nil
        let newCounts = readCounts()
        if let problem = update.firstProblem(old: itemCounts, new: newCounts) {
            reportListProblem("Invalid update: \(problem). The collection view was reloaded from its data source.")
            return reloadData()
        }
        let animates = showsOverTime(update, in: self)
        let start = animates ? updateStart(for: update) : UpdateStart()
        var kept: [IndexPath: UICollectionViewCell] = [:]
        var leaving: [(indexPath: IndexPath, cell: UICollectionViewCell)] = []
        for (indexPath, cell) in visibleItems {
            if let newPath = update.newIndexPath(of: indexPath) {
                kept[newPath] = cell
            } else {
                collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: indexPath)
                if animates { leaving.append((indexPath, cell)) } else { enqueue(cell, key: cell.reuseIdentifier) }
            }
        }
        visibleItems = kept
        for (_, view) in visibleSupplementaries { enqueue(view, key: view.reuseKey) }
        visibleSupplementaries = [:]
        var selection: Set<IndexPath> = []
        for selected in selectedItems {
            if let moved = update.newIndexPath(of: selected) { selection.insert(moved) }
        }
        selectedItems = selection
        tracking = nil
        itemCounts = newCounts
        collectionViewLayout.collectionViewDidReloadData()
        collectionViewLayout.invalidateLayout()
        layoutIfNeeded()
        if animates { lastUpdateAnimation = animateUpdate(from: start, leaving: leaving) }
    }

    /// The cell of an item leaving the screen goes to its reuse queue.
    func enqueueForReuse(_ cell: UICollectionViewCell) {
        enqueue(cell, key: cell.reuseIdentifier)
    }

    /// The cells on screen now, by the index path each will have.
    var visibleCellsByIndexPath: [IndexPath: UICollectionViewCell] { visibleItems }

    /// Converts a rectangle of the layout's coordinates into the collection view's.
    func viewRect(fromLayout rect: CGRect) -> CGRect { layoutRect(rect) }
}

extension UICollectionView: ListUpdating {}

extension UICollectionReusableView {
    /// The key a supplementary view is kept under for reuse: its kind and identifier.
    var reuseKey: String? {
        guard let reuseIdentifier, let supplementaryKind else { return nil }
        return supplementaryKind + "\u{0}" + reuseIdentifier
    }
}
