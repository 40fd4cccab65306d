import Foundation

/// A scroll view that shows rows in sections, one above the other, making
/// cells only for the rows on screen and reusing them as they scroll by.
///
/// Where the code is:
/// - this file: the properties, loading from the data source, registration
///   and reuse, and the layout pass that keeps a cell for each visible row;
/// - `TableGeometry.swift`: where every row lies, searched by halving;
/// - `UITableView+Queries.swift`: the questions about rows and geometry;
/// - `UITableView+Selection.swift`: highlight and selection, by touch and by code;
/// - `UITableView+Updates.swift`: inserting, deleting, reloading and moving
///   rows, validated as UIKit validates them;
/// - `UITableView+SwipeActions.swift`: the actions revealed by a horizontal swipe;
/// - `UITableView+Editing.swift`: editing mode's delete, insert and reorder controls;
/// - `UITableView+Reordering.swift`: moving a row by dragging it.
@preconcurrency @MainActor
open class UITableView: UIScrollView {
    /// The look of a table.
    public enum Style: Int, Sendable {
        /// Rows edge to edge; section headers stick to the top while their
        /// section is on screen.
        case plain
        /// Sections apart on a grey background; headers scroll with their rows.
        case grouped
        /// As `.grouped`, with each section inset from the sides and rounded.
        case insetGrouped
    }

    /// Where ``scrollToRow(at:at:animated:)`` puts the row.
    public enum ScrollPosition: Int, Sendable {
        /// As little scrolling as shows the row.
        case none
        case top
        case middle
        case bottom
    }

    /// How the rows an update inserts come in and the rows it deletes or
    /// reloads leave: `.left`, `.right`, `.top` and `.bottom` slide them
    /// from or to that side, `.none` shows the change at once, the others
    /// fade (UIKit's `.automatic` picks a slide by where the row is; here it
    /// fades). Rows that stay always slide to their new places.
    public enum RowAnimation: Int, Sendable {
        case fade, right, left, top, bottom, none, middle
        case automatic = 100
    }

    /// A value for heights that says "the standard size": for rows, the
    /// height of the cell's content (measured with Auto Layout when the
    /// content view has constraints, else its `sizeThatFits(_:)`); for headers and
    /// footers, the height their title needs (none without a title).
    public static let automaticDimension: CGFloat = -1

    /// The table's style, fixed when it is made.
    public let style: Style

    /// Makes a table of `style`.
    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
        setUpTable()
    }

    /// A plain table.
    public override convenience init(frame: CGRect) {
        self.init(frame: frame, style: .plain)
    }

    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
        setUpTable()
    }

    private func setUpTable() {
        backgroundColor = style == .plain ? .systemBackground : .systemGroupedBackground
        alwaysBounceVertical = true
        setUpSwipeActions()
        setUpReordering()
    }

    // MARK: Data source and delegate

    /// Where the rows come from. Held weakly; setting it reloads the table.
    open weak var dataSource: (any UITableViewDataSource)? {
        didSet { reloadData() }
    }

    /// The scroll view's delegate; one that is a ``UITableViewDelegate`` is
    /// also asked about rows (the property keeps `UIScrollView`'s type:
    /// Swift cannot narrow an inherited property's type).
    open override weak var delegate: (any UIScrollViewDelegate)? {
        didSet {
            tableDelegate = delegate as? any UITableViewDelegate
            reloadData()
        }
    }

    /// ``delegate`` as a table delegate, kept so that each call does not
    /// have to test its type again.
    weak var tableDelegate: (any UITableViewDelegate)?

    // MARK: Sizes

    /// The height of every row whose delegate does not say otherwise.
    /// Default ``automaticDimension``: the cell's own height.
    open var rowHeight = UITableView.automaticDimension {
        didSet { reloadGeometryIfLoaded() }
    }

    /// The height a self-sizing row is given until its cell is measured.
    /// Default ``automaticDimension``: the standard row height.
    open var estimatedRowHeight = UITableView.automaticDimension {
        didSet { reloadGeometryIfLoaded() }
    }

    /// The height of every section header whose delegate does not say
    /// otherwise. Default ``automaticDimension``: the standard height for a
    /// title, or a custom view's own height (measured with Auto Layout when
    /// its content is placed by constraints).
    open var sectionHeaderHeight = UITableView.automaticDimension {
        didSet { reloadGeometryIfLoaded() }
    }

    /// The height of every section footer whose delegate does not say
    /// otherwise. Default ``automaticDimension``, as for headers.
    open var sectionFooterHeight = UITableView.automaticDimension {
        didSet { reloadGeometryIfLoaded() }
    }

    /// A view above the first section, as wide as the table; its height is kept.
    open var tableHeaderView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let tableHeaderView { addSubview(tableHeaderView) }
            reloadGeometryIfLoaded()
        }
    }

    /// A view below the last section, as wide as the table; its height is kept.
    open var tableFooterView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let tableFooterView { addSubview(tableFooterView) }
            reloadGeometryIfLoaded()
        }
    }

    /// The default inset of the cells' separators, for every cell that does
    /// not set its own. Default: the content margin on the left.
    open var separatorInset = UIEdgeInsets(top: 0, left: TableViewMetrics.contentMargin, bottom: 0, right: 0) {
        didSet { setNeedsLayout() }
    }

    /// Whether the cells, headers and footers keep their content views
    /// inside the table's safe area on the left and right (UIKit's default:
    /// true), so that content stays clear of a landscape iPhone's sensor
    /// housing while backgrounds and separators reach the edges.
    open var insetsContentViewsToSafeArea = true {
        didSet {
            guard insetsContentViewsToSafeArea != oldValue else { return }
            for subview in subviews { subview.setNeedsLayout() }
        }
    }

    /// Whether separators are drawn between rows.
    public enum SeparatorStyle: Int, Sendable {
        case none
        case singleLine
    }

    /// Default `.singleLine`.
    open var separatorStyle = SeparatorStyle.singleLine {
        didSet { setNeedsLayout() }
    }

    /// The separators' colour. Default `.separator`.
    open var separatorColor: UIColor? = .separator {
        didSet { setNeedsLayout() }
    }

    // MARK: Registration and reuse

    private var cellClasses: [String: UITableViewCell.Type] = [:]
    private var headerFooterClasses: [String: UITableViewHeaderFooterView.Type] = [:]
    /// Cells off screen, by reuse identifier, hidden but kept as subviews
    /// so that reusing one costs no change to the view tree.
    private var reusableCells: [String: ReuseQueue] = [:]

    /// The cells of one reuse identifier waiting to be shown again. A class,
    /// so that taking and adding a cell change it in place: changing an
    /// array inside the dictionary goes through the dictionary's modify
    /// accessors, whose coroutine frames are allocated on the heap each
    /// time (three allocations per row scrolled into view, callgrind).
    private final class ReuseQueue {
        var cells: [UITableViewCell] = []
    }
    private var reusableHeaderFooters: [String: [UITableViewHeaderFooterView]] = [:]

    /// Registers the class of the cells to make for `identifier` when none is
    /// waiting for reuse; a class that is not a `UITableViewCell` (or nil)
    /// removes the registration.
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass as? UITableViewCell.Type
    }

    /// Registers the class of the header and footer views to make for `identifier`.
    open func register(_ aClass: AnyClass?, forHeaderFooterViewReuseIdentifier identifier: String) {
        headerFooterClasses[identifier] = aClass as? UITableViewHeaderFooterView.Type
    }

    /// A cell waiting for reuse under `identifier`, prepared
    /// (``UITableViewCell/prepareForReuse()``); nil if there is none.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        guard let queue = reusableCells[identifier], let cell = queue.cells.popLast() else { return nil }
        cell.prepareForReuse()
        return cell
    }

    /// A cell for the row at `indexPath`: one waiting for reuse, or a new
    /// one of the class registered for `identifier`. UIKit raises an
    /// exception for an identifier nothing was registered for; here that is
    /// reported and a `.default` cell is returned.
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        let cell: UITableViewCell
        if let reused = dequeueReusableCell(withIdentifier: identifier) {
            cell = reused
        } else if let cellClass = cellClasses[identifier] {
            cell = cellClass.init(registeredWithReuseIdentifier: identifier)
            cellsMade += 1
        } else {
            reportListProblem("no cell class is registered for the reuse identifier \"\(identifier)\"; a default cell was used")
            cell = UITableViewCell(style: .default, reuseIdentifier: identifier)
            cellsMade += 1
        }
        // A whole frame: `cell.frame.size = …` would allocate the frame modify
        // accessor's coroutine frame (a view's frame is overridable).
        cell.frame = CGRect(origin: cell.frame.origin, size: CGSize(width: rowWidth, height: cell.frame.height))
        return cell
    }

    /// A header or footer view waiting for reuse under `identifier`, or a
    /// new one of the registered class; nil if neither exists.
    open func dequeueReusableHeaderFooterView(withIdentifier identifier: String) -> UITableViewHeaderFooterView? {
        if let view = reusableHeaderFooters[identifier]?.popLast() {
            view.prepareForReuse()
            return view
        }
        return headerFooterClasses[identifier]?.init(registeredWithReuseIdentifier: identifier)
    }

    /// How many cells this table has made, for the tests of reuse.
    private(set) var cellsMade = 0

    /// Hides a cell that left the screen and keeps it for its identifier.
    func enqueueForReuse(_ cell: UITableViewCell) {
        cell.isHidden = true
        cell.setHighlighted(false, animated: false)
        guard let identifier = cell.reuseIdentifier else {
            cell.removeFromSuperview()
            return
        }
        if let queue = reusableCells[identifier] {
            queue.cells.append(cell)
        } else {
            let queue = ReuseQueue()
            queue.cells.append(cell)
            reusableCells[identifier] = queue
        }
    }

    // MARK: Loading

    /// Where each section and row lies; rebuilt by ``reloadData()``.
    var geometry = TableGeometry()
    /// False until the data source is first read, and again after a reload
    /// is asked for, until the layout pass (or a question) reads it.
    private var isLoaded = false
    /// The width the geometry was worked out for.
    private var loadedWidth: CGFloat = -1

    /// The rows on screen, in order, each with its cell.
    var visibleRows: [VisibleRow] = []

    struct VisibleRow {
        var indexPath: IndexPath
        let cell: UITableViewCell
    }

    /// The headers and footers on screen.
    var visibleSupplementaries: [VisibleSupplementary] = []

    struct VisibleSupplementary {
        let section: Int
        let isHeader: Bool
        let view: UIView
    }

    /// Forgets every row and asks the data source again: counts, heights,
    /// and cells for the rows on screen. Selection is cleared, as in UIKit.
    open func reloadData() {
        endSwipe()
        for row in visibleRows {
            tableDelegate?.tableView(self, didEndDisplaying: row.cell, forRowAt: row.indexPath)
            enqueueForReuse(row.cell)
        }
        visibleRows.removeAll(keepingCapacity: true)
        removeVisibleSupplementaries()
        selectedRows.removeAll()
        cancelRowTracking()
        isLoaded = false
        loadIfNeeded()
        setNeedsLayout()
    }

    private func reloadGeometryIfLoaded() {
        guard isLoaded else { return }
        reloadData()
    }

    /// Reads the data source if it has not been read since the last reload.
    func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        loadedWidth = bounds.width
        geometry = computeGeometry()
        updateContentSize()
    }

    /// The width rows are laid out in (narrower in the inset-grouped style).
    var rowWidth: CGFloat {
        style == .insetGrouped ? max(0, bounds.width - 2 * TableViewMetrics.insetGroupedSideInset) : bounds.width
    }

    /// The left edge of rows, headers and footers.
    var rowX: CGFloat {
        style == .insetGrouped ? TableViewMetrics.insetGroupedSideInset : 0
    }

    /// The counts and heights of every section, from the data source and
    /// delegate. Counts below zero are reported and read as zero; heights
    /// that are negative or not finite are reported and read as the
    /// standard height. A self-sizing row found in `measuredHeights` (after
    /// an update: the height its cell gave before) starts at that height
    /// instead of its estimate, so that rows above the screen do not shift
    /// what is on it; it is measured again when it shows.
    func computeGeometry(measuredHeights: [IndexPath: CGFloat] = [:]) -> TableGeometry {
        var geometry = TableGeometry()
        geometry.top = tableHeaderView?.frame.height ?? 0
        guard let dataSource else {
            geometry.height = geometry.top
            return geometry
        }
        let sectionCount = checkedCount(dataSource.numberOfSections(in: self), "numberOfSections(in:)")
        geometry.sections.reserveCapacity(sectionCount)
        var y = geometry.top
        for section in 0..<sectionCount {
            let rowCount = checkedCount(dataSource.tableView(self, numberOfRowsInSection: section),
                                        "tableView(_:numberOfRowsInSection: \(section))")
            let headerHeight = headerHeight(for: section)
            var tops: [CGFloat] = []
            tops.reserveCapacity(rowCount + 1)
            var unmeasured: Set<Int> = [], selfSized: Set<Int> = []
            var rowY = y + headerHeight
            for row in 0..<rowCount {
                tops.append(rowY)
                var height = self.height(forRow: row, section: section)
                if height.isAutomatic {
                    unmeasured.insert(row)
                    if !measuredHeights.isEmpty, let measured = measuredHeights[IndexPath(row: row, section: section)] {
                        height.value = measured
                        selfSized.insert(row)
                    }
                }
                rowY += height.value
            }
            tops.append(rowY)
            let footerHeight = footerHeight(for: section)
            geometry.sections.append(TableGeometry.Section(top: y, headerHeight: headerHeight, rowTops: tops,
                                                           footerHeight: footerHeight, unmeasured: unmeasured,
                                                           selfSized: selfSized))
            y = rowY + footerHeight
        }
        geometry.height = y + (tableFooterView?.frame.height ?? 0)
        return geometry
    }

    private func checkedCount(_ count: Int, _ method: String) -> Int {
        guard count >= 0 else {
            reportListProblem("the data source's \(method) returned \(count); read as 0")
            return 0
        }
        return count
    }

    /// A row's height, and whether it still has to be measured from its cell.
    func height(forRow row: Int, section: Int) -> (value: CGFloat, isAutomatic: Bool) {
        let indexPath = IndexPath(row: row, section: section)
        let asked = tableDelegate?.tableView(self, heightForRowAt: indexPath) ?? rowHeight
        if asked == UITableView.automaticDimension {
            let estimate = tableDelegate?.tableView(self, estimatedHeightForRowAt: indexPath) ?? estimatedRowHeight
            // No estimate (automaticDimension), or none a row can have (zero, which UIKit
            // forbids for self-sizing rows, negative, not finite): the standard height.
            return (estimate > 0 && estimate.isFinite ? estimate : TableViewMetrics.defaultRowHeight, true)
        }
        guard asked >= 0 && asked.isFinite else {
            reportListProblem("the height \(asked) of row \(row) in section \(section) is not valid; the standard height was used")
            return (TableViewMetrics.defaultRowHeight, false)
        }
        return (asked, false)
    }

    private func headerHeight(for section: Int) -> CGFloat {
        let asked = tableDelegate?.tableView(self, heightForHeaderInSection: section) ?? sectionHeaderHeight
        if asked >= 0 && asked.isFinite { return asked }
        if let view = tableDelegate?.tableView(self, viewForHeaderInSection: section) { return fittingHeight(of: view) }
        let hasTitle = dataSource?.tableView(self, titleForHeaderInSection: section) != nil
        switch style {
        case .plain: return hasTitle ? TableViewMetrics.plainTitleHeight : 0
        case .grouped, .insetGrouped: return hasTitle ? TableViewMetrics.groupedHeaderTitleHeight : TableViewMetrics.groupedEmptyHeaderHeight
        }
    }

    private func footerHeight(for section: Int) -> CGFloat {
        let asked = tableDelegate?.tableView(self, heightForFooterInSection: section) ?? sectionFooterHeight
        if asked >= 0 && asked.isFinite { return asked }
        if let view = tableDelegate?.tableView(self, viewForFooterInSection: section) { return fittingHeight(of: view) }
        let hasTitle = dataSource?.tableView(self, titleForFooterInSection: section) != nil
        switch style {
        case .plain: return hasTitle ? TableViewMetrics.plainTitleHeight : 0
        case .grouped, .insetGrouped: return hasTitle ? TableViewMetrics.groupedFooterTitleHeight : TableViewMetrics.groupedEmptyFooterHeight
        }
    }

    /// The height of a custom header or footer view at the rows' width:
    /// measured with Auto Layout when its content is placed by constraints
    /// (the content view's, for a `UITableViewHeaderFooterView`), as UIKit
    /// sizes headers and footers whose height is ``automaticDimension``;
    /// otherwise its `sizeThatFits(_:)`.
    private func fittingHeight(of view: UIView) -> CGFloat {
        let target = CGSize(width: rowWidth, height: UIView.layoutFittingCompressedSize.height)
        let content = (view as? UITableViewHeaderFooterView)?.contentView ?? view
        guard content.placesSubviewsWithConstraints else { return view.sizeThatFits(target).height }
        return content.systemLayoutSizeFitting(target, withHorizontalFittingPriority: .required,
                                               verticalFittingPriority: .fittingSizeLevel).height
    }

    func updateContentSize() {
        let size = CGSize(width: bounds.width, height: geometry.height)
        if contentSize != size { contentSize = size }
    }

    /// Reports a data source or call that UIKit would stop the app for.
    func reportListProblem(_ message: String) {
        UIApplication.shared.diagnostics.report(Diagnostic(.invalidListUpdate, "\(type(of: self)): \(message)"))
    }

    // MARK: Layout: a cell for each visible row

    /// Scrolling lays the table out again: rows come into view and leave it.
    open override var bounds: CGRect {
        get { super.bounds }
        set {
            let old = super.bounds
            super.bounds = newValue
            if super.bounds != old { setNeedsLayout() }
        }
    }

    /// Keeps a cell for every row that shows and no other, places headers
    /// (sticky in the plain style) and footers, and the table's header and
    /// footer views.
    open override func layoutSubviews() {
        super.layoutSubviews()
        if isLoaded && loadedWidth != bounds.width { isLoaded = false }
        if !isLoaded {
            let offset = contentOffset
            reloadData()
            contentOffset = offset
        }
        layOutTableHeaderAndFooter()
        updateVisibleRows()
        updateVisibleSupplementaries()
    }

    private func layOutTableHeaderAndFooter() {
        if let header = tableHeaderView {
            header.frame = CGRect(x: 0, y: 0, width: bounds.width, height: header.frame.height)
        }
        if let footer = tableFooterView {
            let bottom = geometry.sections.last?.bottom ?? geometry.top
            footer.frame = CGRect(x: 0, y: bottom, width: bounds.width, height: footer.frame.height)
        }
    }

    /// The visible rows from the geometry: cells of rows that left go back
    /// to their reuse queue; rows that came get one from the data source.
    func updateVisibleRows() {
        let top = bounds.minY, bottom = bounds.maxY
        var wanted = geometry.firstRow(endingBelow: top)
        // Cells of rows no longer in view, or no longer rows (after an update), go first.
        var kept = 0
        for index in visibleRows.indices {
            let row = visibleRows[index]
            if isRowVisible(row.indexPath, top: top, bottom: bottom) {
                visibleRows[kept] = row
                kept += 1
            } else {
                tableDelegate?.tableView(self, didEndDisplaying: row.cell, forRowAt: row.indexPath)
                enqueueForReuse(row.cell)
            }
        }
        visibleRows.removeSubrange(kept...)
        // Then every row in view, in order, reusing the cells already there.
        var position = 0
        while let next = wanted {
            let (section, row) = next
            let span = geometry.rowSpan(section: section, row: row)
            guard span.top < bottom else { break }
            if position < visibleRows.count && visibleRows[position].indexPath.section == section
                && visibleRows[position].indexPath.row == row {
                let cell = visibleRows[position].cell
                if geometry.sections[section].unmeasured.contains(row) { measure(cell, section: section, row: row) }
                place(cell, section: section, row: row)
            } else {
                let indexPath = IndexPath(row: row, section: section)
                let cell = makeCell(for: indexPath)
                visibleRows.insert(VisibleRow(indexPath: indexPath, cell: cell), at: position)
                if geometry.sections[section].unmeasured.contains(row) { measure(cell, section: section, row: row) }
                place(cell, section: section, row: row)
                tableDelegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
            }
            position += 1
            wanted = nextRow(after: section, row)
        }
    }

    private func isRowVisible(_ indexPath: IndexPath, top: CGFloat, bottom: CGFloat) -> Bool {
        guard geometry.contains(indexPath) else { return false }
        let span = geometry.rowSpan(section: indexPath.section, row: indexPath.row)
        return span.bottom > top && span.top < bottom
    }

    func nextRow(after section: Int, _ row: Int) -> (section: Int, row: Int)? {
        if row + 1 < geometry.sections[section].rowCount { return (section, row + 1) }
        var next = section + 1
        while next < geometry.sections.count {
            if geometry.sections[next].rowCount > 0 { return (next, 0) }
            next += 1
        }
        return nil
    }

    /// The data source's cell for a row, shown.
    private func makeCell(for indexPath: IndexPath) -> UITableViewCell {
        let cell = dataSource?.tableView(self, cellForRowAt: indexPath)
            ?? UITableViewCell(style: .default, reuseIdentifier: nil)
        if cell.superview !== self { insertSubview(cell, at: 0) }
        cell.isHidden = false
        cell.setSelected(isRowSelected(indexPath), animated: false)
        cell.setEditing(isEditing, animated: false)
        configureEditingControls(of: cell, for: indexPath)
        return cell
    }

    /// A self-sizing row's height, from its cell's
    /// `systemLayoutSizeFitting(_:withHorizontalFittingPriority:verticalFittingPriority:)`
    /// at the row's width (Auto Layout in its content view, or its
    /// `sizeThatFits(_:)`); the content below moves, and the content offset
    /// with it if the row is above the top edge, so that what is on screen
    /// stays put.
    private func measure(_ cell: UITableViewCell, section: Int, row: Int) {
        geometry.sections[section].unmeasured.remove(row)
        geometry.sections[section].selfSized.insert(row)
        showSeparator(of: cell, section: section, row: row)
        let fitted = cell.systemLayoutSizeFitting(CGSize(width: rowWidth, height: UIView.layoutFittingCompressedSize.height),
                                                  withHorizontalFittingPriority: .required,
                                                  verticalFittingPriority: .fittingSizeLevel).height
        let height = fitted >= 0 && fitted.isFinite ? fitted : TableViewMetrics.defaultRowHeight
        let span = geometry.rowSpan(section: section, row: row)
        let delta = height - (span.bottom - span.top)
        guard delta != 0 else { return }
        geometry.setHeight(height, section: section, row: row)
        updateContentSize()
        if span.top < bounds.minY {
            var origin = super.bounds.origin
            origin.y += delta
            super.bounds.origin = origin
        }
    }

    private func place(_ cell: UITableViewCell, section: Int, row: Int) {
        // A row being dragged stays under the finger; the others make room for it.
        if let reordering, reordering.cell === cell { return }
        let span = geometry.rowSpan(section: section, row: row)
        var frame = CGRect(x: rowX, y: span.top, width: rowWidth, height: span.bottom - span.top)
        if reordering != nil { frame.origin.y += reorderShift(of: IndexPath(row: row, section: section)) }
        if cell.frame != frame { cell.frame = frame }
        let isLast = row == geometry.sections[section].rowCount - 1
        showSeparator(of: cell, section: section, row: row)
        if style == .insetGrouped {
            cell.layer.cornerRadius = TableViewMetrics.insetGroupedCornerRadius
            cell.layer.maskedCorners = roundedCorners(first: row == 0, last: isLast)
            cell.clipsToBounds = true
        }
    }

    /// Shows the cell's separator unless the table draws none or the row
    /// ends a section of a grouped style.
    private func showSeparator(of cell: UITableViewCell, section: Int, row: Int) {
        cell.tableSeparatorInset = separatorInset
        let isLast = row == geometry.sections[section].rowCount - 1
        let hidesSeparator = separatorStyle == .none || (isLast && style != .plain)
        guard cell.separator.isHidden != hidesSeparator else { return }
        cell.separator.isHidden = hidesSeparator
        cell.setNeedsLayout()
    }

    private func roundedCorners(first: Bool, last: Bool) -> CACornerMask {
        var corners: CACornerMask = []
        if first { corners.formUnion([.layerMinXMinYCorner, .layerMaxXMinYCorner]) }
        if last { corners.formUnion([.layerMinXMaxYCorner, .layerMaxXMaxYCorner]) }
        return corners
    }

    // MARK: Layout: headers and footers

    private func removeVisibleSupplementaries() {
        for item in visibleSupplementaries { recycle(item.view) }
        visibleSupplementaries.removeAll(keepingCapacity: true)
    }

    private func recycle(_ view: UIView) {
        if let standard = view as? UITableViewHeaderFooterView, let identifier = standard.reuseIdentifier {
            standard.isHidden = true
            reusableHeaderFooters[identifier, default: []].append(standard)
        } else {
            view.removeFromSuperview()
        }
    }

    /// The identifier the table keeps its own title headers and footers under.
    static let standardHeaderFooterIdentifier = "UITableView.standardHeaderFooter"

    /// Headers and footers of the sections in view; in the plain style a
    /// header sticks to the top edge while its section is on screen, pushed
    /// up by the next one.
    func updateVisibleSupplementaries() {
        let top = bounds.minY + adjustedContentInset.top, bottom = bounds.maxY
        var kept = 0
        for index in visibleSupplementaries.indices {
            let item = visibleSupplementaries[index]
            if let section = geometry.section(item.section), section.top < bottom, section.bottom > bounds.minY {
                visibleSupplementaries[kept] = item
                kept += 1
            } else {
                recycle(item.view)
            }
        }
        visibleSupplementaries.removeSubrange(kept...)
        var sectionIndex = geometry.sectionIndex(atOrAbove: bounds.minY) ?? 0
        while sectionIndex < geometry.sections.count {
            let section = geometry.sections[sectionIndex]
            if section.top >= bottom { break }
            if section.bottom > bounds.minY {
                if section.headerHeight > 0 {
                    let view = supplementary(section: sectionIndex, isHeader: true)
                    var y = section.top
                    if style == .plain {
                        y = min(max(section.top, top), section.bottom - section.headerHeight)
                    }
                    view.frame = CGRect(x: rowX, y: y, width: rowWidth, height: section.headerHeight)
                    if style == .plain { bringSubviewToFront(view) }
                }
                if section.footerHeight > 0 {
                    let view = supplementary(section: sectionIndex, isHeader: false)
                    view.frame = CGRect(x: rowX, y: section.rowsBottom, width: rowWidth, height: section.footerHeight)
                }
            }
            sectionIndex += 1
        }
    }

    /// The header or footer view of a section on screen, made if needed.
    private func supplementary(section: Int, isHeader: Bool) -> UIView {
        for item in visibleSupplementaries where item.section == section && item.isHeader == isHeader { return item.view }
        let custom = isHeader ? tableDelegate?.tableView(self, viewForHeaderInSection: section)
                              : tableDelegate?.tableView(self, viewForFooterInSection: section)
        let view: UIView
        if let custom {
            view = custom
        } else {
            let identifier = Self.standardHeaderFooterIdentifier
            let standard = reusableHeaderFooters[identifier]?.popLast() ?? UITableViewHeaderFooterView(reuseIdentifier: identifier)
            standard.prepareForReuse()
            let title = isHeader ? dataSource?.tableView(self, titleForHeaderInSection: section)
                                 : dataSource?.tableView(self, titleForFooterInSection: section)
            standard.configureStandard(title: title, tableStyle: style, isHeader: isHeader)
            view = standard
        }
        view.isHidden = false
        if view.superview !== self { addSubview(view) }
        visibleSupplementaries.append(VisibleSupplementary(section: section, isHeader: isHeader, view: view))
        if isHeader {
            tableDelegate?.tableView(self, willDisplayHeaderView: view, forSection: section)
        } else {
            tableDelegate?.tableView(self, willDisplayFooterView: view, forSection: section)
        }
        return view
    }

    // MARK: Editing (see UITableView+Editing.swift)

    /// Whether the table shows its rows' editing controls. Without Motion
    /// the change is not animated.
    open var isEditing: Bool {
        get { storedEditing }
        set { setEditing(newValue, animated: false) }
    }
    private var storedEditing = false

    /// Turns editing on or off for the table and every visible cell
    /// (`UITableView+Editing.swift`). A row's open swipe actions close.
    /// Without Motion the change is not animated.
    open func setEditing(_ editing: Bool, animated: Bool) {
        guard editing != storedEditing else { return }
        endSwipe()
        storedEditing = editing
        passEditingToVisibleRows(animated: animated)
    }

    // MARK: Reordering (see UITableView+Reordering.swift)

    /// Whether a long press on a row that can move picks it up to reorder
    /// it outside editing mode. Default false, as on an iPhone (UIKit's
    /// drag interaction; true by default on an iPad).
    open var dragInteractionEnabled = false

    /// The row being dragged, if any.
    var reordering: RowReordering?
    /// A finger on a reorder control in editing mode.
    let reorderControlRecognizer = UILongPressGestureRecognizer()
    /// A long press on a row, with drag interaction.
    let reorderPressRecognizer = UILongPressGestureRecognizer()

    // MARK: Selection (see UITableView+Selection.swift)

    /// Whether the user can select rows. Default true.
    open var allowsSelection = true
    /// Whether the user can select several rows, each touch toggling one. Default false.
    open var allowsMultipleSelection = false
    /// The selected rows, in the order they were selected.
    var selectedRows: [IndexPath] = []
    /// The touch on a row under way.
    var rowTracking: RowTracking?

    // The touch methods track a row (UITableView+Selection.swift); touches
    // that track none go up the responder chain.
    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { rowTouchesBegan(touches, with: event) }
    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { rowTouchesMoved(touches, with: event) }
    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { rowTouchesEnded(touches, with: event) }
    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { rowTouchesCancelled(touches, with: event) }
    func passTouchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { super.touchesBegan(touches, with: event) }
    func passTouchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { super.touchesMoved(touches, with: event) }
    func passTouchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { super.touchesEnded(touches, with: event) }
    func passTouchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { super.touchesCancelled(touches, with: event) }

    // MARK: Updates (see UITableView+Updates.swift)

    /// The batch being collected.
    var updateBatch = ListUpdateBatch()
    /// The animation of the last update, while it runs.
    var lastUpdateAnimation: ListUpdateAnimation?

    // MARK: Swipe actions (see UITableView+SwipeActions.swift)

    /// The swipe pan and the scroll view's pan: only one of them begins.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool {
        if let decision = reorderDecision(for: gestureRecognizer) { return decision }
        if let decision = swipeDecision(for: gestureRecognizer), !decision { return false }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    /// The swipe on a row under way or left open.
    var swipe: SwipeState?
    let swipeRecognizer = UIPanGestureRecognizer()

    /// Whether rows can be selected while editing. Default false.
    open var allowsSelectionDuringEditing = false
    /// Whether several rows can be selected while editing. Default false.
    open var allowsMultipleSelectionDuringEditing = false
}

extension UIView {
    /// The left and right safe-area insets a table's cell, header or footer
    /// keeps its content view out of: its own, when it is in a table that
    /// ``UITableView/insetsContentViewsToSafeArea``; none otherwise.
    var tableContentSafeAreaInsets: (left: CGFloat, right: CGFloat) {
        guard UIApplication.shared.safeAreasInUse, let table = superview as? UITableView, table.insetsContentViewsToSafeArea
        else { return (0, 0) }
        let insets = safeAreaInsets
        return (insets.left, insets.right)
    }
}
