import Foundation

/// Highlight and selection, by touch and by code.
///
/// A row is tracked through the touch methods the table view receives up
/// the responder chain from the cell's views (a control in a cell keeps
/// its touches to itself, so they never start a row's tracking):
///
/// 1. Touch began on a row, after the scroll view's content delay
///    (`ScrollViewContentTouches.swift`) or together with the lift for a
///    quick tap: if selection is allowed and `shouldHighlightRowAt` says
///    yes, the cell is highlighted and the delegate hears
///    `didHighlightRowAt`. A row that may not highlight cannot be selected
///    by this touch either, as in UIKit.
/// 2. Touch cancelled — a scroll began (the scroll view's pan cancels the
///    content's touches) or the system cancelled it: the highlight goes,
///    `didUnhighlightRowAt`, and nothing is selected.
/// 3. Touch ended inside the row: `willSelectRowAt` may redirect or
///    refuse; in a single-selection table the other selected rows are
///    deselected (`willDeselectRowAt`, `didDeselectRowAt`); the highlight
///    goes (`didUnhighlightRowAt`); the row is selected (`didSelectRowAt`).
///    In a multiple-selection table a touch on a selected row deselects it
///    instead. Ended outside the row: the highlight goes, nothing is selected.
///
/// Selecting by code (`selectRow(at:animated:scrollPosition:)`,
/// `deselectRow(at:animated:)`) tells the delegate nothing, as in UIKit.
extension UITableView {
    /// A touch on a row, from its began to its end.
    struct RowTracking {
        let touch: UITouch
        let indexPath: IndexPath
    }

    private var selectionIsAllowed: Bool { isEditing ? allowsSelectionDuringEditing : allowsSelection }
    private var multipleSelectionIsAllowed: Bool { isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }

    // MARK: By touch

    /// Step 1: a touch began on a row.
    func rowTouchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard rowTracking == nil, let touch = touches.first else { return passTouchesBegan(touches, with: event) }
        if closeSwipeActions(forTouchAt: touch.location(in: self)) { return }
        guard selectionIsAllowed, let indexPath = indexPathForRow(at: touch.location(in: self)),
              let cell = cellForRow(at: indexPath) else { return passTouchesBegan(touches, with: event) }
        guard tableDelegate?.tableView(self, shouldHighlightRowAt: indexPath) ?? true else { return }
        rowTracking = RowTracking(touch: touch, indexPath: indexPath)
        cell.setHighlighted(true, animated: false)
        tableDelegate?.tableView(self, didHighlightRowAt: indexPath)
    }

    func rowTouchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking = rowTracking, touches.contains(tracking.touch) else { return passTouchesMoved(touches, with: event) }
    }

    /// Step 3: the touch lifted.
    func rowTouchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking = rowTracking, touches.contains(tracking.touch) else { return passTouchesEnded(touches, with: event) }
        rowTracking = nil
        let liftedInside = rectForRow(at: tracking.indexPath).contains(tracking.touch.location(in: self))
        if liftedInside {
            selectByUser(tracking.indexPath)
        } else {
            unhighlight(tracking.indexPath)
        }
    }

    /// Step 2: the touch was cancelled.
    func rowTouchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let tracking = rowTracking, touches.contains(tracking.touch) else { return passTouchesCancelled(touches, with: event) }
        cancelRowTracking()
    }

    /// Drops the touch being tracked, and its highlight.
    func cancelRowTracking() {
        guard let tracking = rowTracking else { return }
        rowTracking = nil
        unhighlight(tracking.indexPath)
    }

    private func unhighlight(_ indexPath: IndexPath) {
        cellForRow(at: indexPath)?.setHighlighted(false, animated: false)
        tableDelegate?.tableView(self, didUnhighlightRowAt: indexPath)
    }

    private func selectByUser(_ indexPath: IndexPath) {
        if multipleSelectionIsAllowed && isRowSelected(indexPath) {
            unhighlight(indexPath)
            deselectByUser(indexPath)
            return
        }
        let target = tableDelegate?.tableView(self, willSelectRowAt: indexPath) ?? (tableDelegate == nil ? indexPath : nil)
        guard let target else { return unhighlight(indexPath) }
        guard geometry.contains(target) else {
            reportListProblem("willSelectRowAt returned \(target), which is no row; nothing was selected")
            return unhighlight(indexPath)
        }
        if !multipleSelectionIsAllowed {
            for other in selectedRows where other != target { deselectByUser(other) }
        }
        unhighlight(indexPath)
        if !isRowSelected(target) { selectedRows.append(target) }
        cellForRow(at: target)?.setSelected(true, animated: false)
        tableDelegate?.tableView(self, didSelectRowAt: target)
    }

    private func deselectByUser(_ indexPath: IndexPath) {
        let target = tableDelegate?.tableView(self, willDeselectRowAt: indexPath) ?? (tableDelegate == nil ? indexPath : nil)
        guard let target, isRowSelected(target) else { return }
        deselectRow(at: target, animated: false)
        tableDelegate?.tableView(self, didDeselectRowAt: target)
    }

    // MARK: By code

    /// The selected row (the first, in row order, if there are several); nil if none.
    public var indexPathForSelectedRow: IndexPath? {
        indexPathsForSelectedRows?.first
    }

    /// The selected rows in row order; nil if none.
    public var indexPathsForSelectedRows: [IndexPath]? {
        selectedRows.isEmpty ? nil : selectedRows.sorted()
    }

    func isRowSelected(_ indexPath: IndexPath) -> Bool {
        for selected in selectedRows where selected == indexPath { return true }
        return false
    }

    /// Selects a row (nil deselects every row) and scrolls it to
    /// `scrollPosition`; in a single-selection table the other rows are
    /// deselected. The delegate is not told. A row that does not exist is
    /// reported and nothing changes.
    public func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        loadIfNeeded()
        guard let indexPath else {
            for selected in selectedRows { cellForRow(at: selected)?.setSelected(false, animated: animated) }
            selectedRows.removeAll()
            return
        }
        guard geometry.contains(indexPath) else {
            return reportListProblem("selectRow(at: \(indexPath)): there is no such row")
        }
        guard selectionIsAllowed else { return }
        if !multipleSelectionIsAllowed {
            for selected in selectedRows where selected != indexPath { deselectRow(at: selected, animated: animated) }
        }
        if !isRowSelected(indexPath) { selectedRows.append(indexPath) }
        cellForRow(at: indexPath)?.setSelected(true, animated: animated)
        if scrollPosition != .none { scrollToRow(at: indexPath, at: scrollPosition, animated: animated) }
    }

    /// Deselects a row. The delegate is not told.
    public func deselectRow(at indexPath: IndexPath, animated: Bool) {
        var kept = 0
        for index in selectedRows.indices where selectedRows[index] != indexPath {
            selectedRows[kept] = selectedRows[index]
            kept += 1
        }
        selectedRows.removeSubrange(kept...)
        cellForRow(at: indexPath)?.setSelected(false, animated: animated)
    }
}
