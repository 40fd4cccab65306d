import Foundation

/// The questions about rows, sections and their geometry. Each one reads
/// the data source first if a reload is pending, as UIKit's do.
extension UITableView {
    /// The number of sections, as last read from the data source.
    public var numberOfSections: Int {
        loadIfNeeded()
        return geometry.sections.count
    }

    /// The number of rows in `section`, as last read; 0 for a section that does not exist.
    public func numberOfRows(inSection section: Int) -> Int {
        loadIfNeeded()
        return geometry.section(section)?.rowCount ?? 0
    }

    /// The cells on screen, top to bottom.
    public var visibleCells: [UITableViewCell] {
        layOutRowsIfNeeded()
        var cells: [UITableViewCell] = []
        cells.reserveCapacity(visibleRows.count)
        for row in visibleRows { cells.append(row.cell) }
        return cells
    }

    /// The index paths of the rows on screen, top to bottom; nil if there are none.
    public var indexPathsForVisibleRows: [IndexPath]? {
        layOutRowsIfNeeded()
        guard !visibleRows.isEmpty else { return nil }
        var paths: [IndexPath] = []
        paths.reserveCapacity(visibleRows.count)
        for row in visibleRows { paths.append(row.indexPath) }
        return paths
    }

    /// The cell of a row on screen; nil for a row that is not (it has none).
    public func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        layOutRowsIfNeeded()
        for row in visibleRows where row.indexPath == indexPath { return row.cell }
        return nil
    }

    /// The row of a cell on screen; nil for a cell that is not showing a row.
    public func indexPath(for cell: UITableViewCell) -> IndexPath? {
        layOutRowsIfNeeded()
        for row in visibleRows where row.cell === cell { return row.indexPath }
        return nil
    }

    /// The row under `point` (in the table's coordinates); nil over a
    /// header, a footer or no row.
    public func indexPathForRow(at point: CGPoint) -> IndexPath? {
        loadIfNeeded()
        guard point.x >= rowX, point.x < rowX + rowWidth,
              let section = geometry.sectionIndex(atOrAbove: point.y),
              let row = geometry.row(in: section, at: point.y) else { return nil }
        return IndexPath(row: row, section: section)
    }

    /// The rows that `rect` overlaps, top to bottom; nil if there are none.
    public func indexPathsForRows(in rect: CGRect) -> [IndexPath]? {
        loadIfNeeded()
        var paths: [IndexPath] = []
        var next = geometry.firstRow(endingBelow: rect.minY)
        while let current = next {
            guard geometry.rowSpan(section: current.section, row: current.row).top < rect.maxY else { break }
            paths.append(IndexPath(row: current.row, section: current.section))
            next = nextRow(after: current.section, current.row)
        }
        return paths.isEmpty ? nil : paths
    }

    /// A row's rectangle in the table's coordinates; `.zero` for a row that
    /// does not exist.
    public func rectForRow(at indexPath: IndexPath) -> CGRect {
        loadIfNeeded()
        guard geometry.contains(indexPath) else { return .zero }
        let span = geometry.rowSpan(section: indexPath.section, row: indexPath.row)
        return CGRect(x: rowX, y: span.top, width: rowWidth, height: span.bottom - span.top)
    }

    /// A section's rectangle, header to footer; `.zero` if it does not exist.
    public func rect(forSection section: Int) -> CGRect {
        loadIfNeeded()
        guard let geometry = geometry.section(section) else { return .zero }
        return CGRect(x: rowX, y: geometry.top, width: rowWidth, height: geometry.bottom - geometry.top)
    }

    /// A section header's rectangle where it scrolls with its section (not
    /// where it sticks); `.zero` if the section does not exist.
    public func rectForHeader(inSection section: Int) -> CGRect {
        loadIfNeeded()
        guard let geometry = geometry.section(section) else { return .zero }
        return CGRect(x: rowX, y: geometry.top, width: rowWidth, height: geometry.headerHeight)
    }

    /// A section footer's rectangle; `.zero` if the section does not exist.
    public func rectForFooter(inSection section: Int) -> CGRect {
        loadIfNeeded()
        guard let geometry = geometry.section(section) else { return .zero }
        return CGRect(x: rowX, y: geometry.rowsBottom, width: rowWidth, height: geometry.footerHeight)
    }

    /// The header view of a section on screen; nil otherwise.
    public func headerView(forSection section: Int) -> UITableViewHeaderFooterView? {
        layOutRowsIfNeeded()
        for item in visibleSupplementaries where item.section == section && item.isHeader {
            return item.view as? UITableViewHeaderFooterView
        }
        return nil
    }

    /// The footer view of a section on screen; nil otherwise.
    public func footerView(forSection section: Int) -> UITableViewHeaderFooterView? {
        layOutRowsIfNeeded()
        for item in visibleSupplementaries where item.section == section && !item.isHeader {
            return item.view as? UITableViewHeaderFooterView
        }
        return nil
    }

    /// Scrolls so that the row shows at `scrollPosition`, as far as the
    /// content allows. A row that does not exist is reported and nothing
    /// scrolls (UIKit raises an exception).
    public func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {
        loadIfNeeded()
        guard geometry.contains(indexPath) else {
            reportListProblem("scrollToRow(at: \(indexPath)): there is no such row")
            return
        }
        let rect = rectForRow(at: indexPath)
        let visibleHeight = bounds.height - adjustedContentInset.top - adjustedContentInset.bottom
        var y: CGFloat
        switch scrollPosition {
        case .none:
            scrollRectToVisible(rect, animated: animated)
            return
        case .top: y = rect.minY - adjustedContentInset.top
        case .middle: y = rect.midY - adjustedContentInset.top - visibleHeight / 2
        case .bottom: y = rect.maxY - adjustedContentInset.top - visibleHeight
        }
        let range = offsetRange.y
        y = min(max(y, range.lowerBound), range.upperBound)
        setContentOffset(CGPoint(x: contentOffset.x, y: y), animated: animated)
    }

    /// The visible rows brought up to date now rather than at the end of the run-loop turn.
    func layOutRowsIfNeeded() {
        layoutIfNeeded()
    }
}
