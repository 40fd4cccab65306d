import Foundation

/// Moving a row by dragging it.
///
/// Two touches pick a row up, as in UIKit:
/// - while the table is editing, a finger on the row's reorder control (the
///   three lines on its trailing side, shown for rows whose data source's
///   `canMoveRowAt` says yes) picks it up at once;
/// - with ``UITableView/dragInteractionEnabled``, a long press
///   (`UILongPressGestureRecognizer`'s half second) on such a row picks it
///   up outside editing mode, as UIKit's drag interaction does when it
///   reorders within the table.
///
/// Both are recognizers of the table's own; once one begins, the scroll
/// view's pan and the swipe pan may not, and the touch's highlight is
/// dropped as for a scroll. Then:
///
/// 1. The row lifts: its cell comes to the front and follows the finger up
///    and down, no further than the first row's top and the last row's
///    bottom.
/// 2. The row under the cell's centre is the proposed destination. Each time
///    the proposal changes, the delegate's `targetIndexPathForMoveFromRowAt` may
///    retarget it, and the rows between the source and the destination
///    make room: they stand one dragged-row height up or down.
/// 3. When the finger lifts, the data source hears
///    `moveRowAt(source, to: destination)` — also when the row is put back
///    where it was, as UIKit calls it — and the table moves the row, its
///    cell and selection going with it, as ``UITableView/moveRow(at:to:)``
///    does. A cancelled touch puts the row back and tells no one.
extension UITableView {
    /// A row picked up and following the finger.
    struct RowReordering {
        let source: IndexPath
        let cell: UITableViewCell
        /// The recognizer whose touch drags the row.
        let recognizer: UIGestureRecognizer
        /// The finger's height and the cell's top when the row lifted.
        let startY: CGFloat
        let startTop: CGFloat
        /// The place under the dragged row's centre, as last proposed to the delegate.
        var proposed: IndexPath
        /// Where the row would land now, after the delegate's retargeting.
        var destination: IndexPath
    }

    func setUpReordering() {
        reorderControlRecognizer.minimumPressDuration = 0
        reorderControlRecognizer.allowableMovement = .greatestFiniteMagnitude
        for recognizer in [reorderControlRecognizer, reorderPressRecognizer] {
            recognizer.addTarget(self, action: UITableView.reorderRecognizerChanged)
            addGestureRecognizer(recognizer)
        }
    }

    /// Whether one of the reorder recognizers may begin: a finger on a
    /// movable row's reorder control in editing mode, or a long press on a
    /// movable row with drag interaction outside it. While a row is being
    /// dragged, neither pan may begin. Nil for other recognizers.
    func reorderDecision(for gestureRecognizer: UIGestureRecognizer) -> Bool? {
        if gestureRecognizer === reorderControlRecognizer {
            guard isEditing, reordering == nil else { return false }
            let location = gestureRecognizer.location(in: self)
            guard let indexPath = indexPathForRow(at: location), let cell = cellForRow(at: indexPath),
                  let control = cell.shownReorderControl else { return false }
            return control.bounds.contains(control.convert(location, from: self))
        }
        if gestureRecognizer === reorderPressRecognizer {
            guard dragInteractionEnabled, !isEditing, reordering == nil,
                  let indexPath = indexPathForRow(at: gestureRecognizer.location(in: self)) else { return false }
            return canMove(indexPath)
        }
        if reordering != nil && (gestureRecognizer === panGestureRecognizer || gestureRecognizer === swipeRecognizer) {
            return false
        }
        return nil
    }

    /// Whether the data source lets the row move.
    func canMove(_ indexPath: IndexPath) -> Bool {
        dataSource?.tableView(self, canMoveRowAt: indexPath) ?? false
    }

    func reorderRecognizerChanged(_ recognizer: UIGestureRecognizer) {
        switch recognizer.state {
        case .began: reorderBegan(with: recognizer)
        case .changed: reorderMoved()
        case .ended: reorderEnded()
        case .cancelled, .failed: reorderCancelled()
        default: break
        }
    }

    /// Step 1: the row lifts.
    private func reorderBegan(with recognizer: UIGestureRecognizer) {
        scrollDidStart(with: recognizer.currentTouchesNotIgnored)
        cancelRowTracking()
        endSwipe()
        let location = recognizer.location(in: self)
        guard let source = indexPathForRow(at: location), let cell = cellForRow(at: source) else { return }
        bringSubviewToFront(cell)
        reordering = RowReordering(source: source, cell: cell, recognizer: recognizer, startY: location.y,
                                   startTop: cell.frame.minY, proposed: source, destination: source)
    }

    /// Step 2: the cell follows the finger; the destination follows the cell.
    private func reorderMoved() {
        guard var reordering else { return }
        let cell = reordering.cell
        let height = cell.frame.height
        let firstTop = geometry.sections.first { $0.rowCount > 0 }?.rowsTop ?? 0
        let lastBottom = geometry.sections.last { $0.rowCount > 0 }?.rowsBottom ?? 0
        let top = min(max(reordering.startTop + reordering.recognizer.location(in: self).y - reordering.startY, firstTop),
                      lastBottom - height)
        cell.frame.origin.y = top
        if let proposed = proposedDestination(atY: top + height / 2, for: reordering.source),
           proposed != reordering.proposed {
            reordering.proposed = proposed
            let target = tableDelegate?.tableView(self, targetIndexPathForMoveFromRowAt: reordering.source,
                                                  toProposedIndexPath: proposed) ?? proposed
            if isValidDestination(target, for: reordering.source) {
                reordering.destination = target
            } else {
                reportListProblem("targetIndexPathForMoveFromRowAt returned \(target), which is no place for the row; \(proposed) was used")
                reordering.destination = proposed
            }
            self.reordering = reordering
            makeRoom()
        }
    }

    /// The place the dragged row would take with its centre at `y`: the row
    /// under it, or for a section's header the section's first row and for
    /// its footer the place after its last (in the rows as they will be,
    /// without the dragged one). Nil above the first section.
    private func proposedDestination(atY y: CGFloat, for source: IndexPath) -> IndexPath? {
        guard let section = geometry.sectionIndex(atOrAbove: y) else { return nil }
        let bounds = geometry.sections[section]
        let count = bounds.rowCount - (section == source.section ? 1 : 0)
        if y < bounds.rowsTop { return IndexPath(row: 0, section: section) }
        if y >= bounds.rowsBottom { return IndexPath(row: max(0, count), section: section) }
        guard let row = geometry.row(in: section, at: y) else { return nil }
        return IndexPath(row: min(row, max(0, count)), section: section)
    }

    /// Whether the row could land at `destination`: an existing section,
    /// and a row no further than the end of it once the row has left its own.
    private func isValidDestination(_ destination: IndexPath, for source: IndexPath) -> Bool {
        guard destination.count == 2, let section = geometry.section(destination.section) else { return false }
        let count = section.rowCount - (destination.section == source.section ? 1 : 0)
        return destination.row >= 0 && destination.row <= count
    }

    /// How far the row at `indexPath` stands from its place while a row is
    /// dragged to another: one dragged-row height up for the rows after the
    /// source up to the destination, down for those from the destination
    /// up to the source.
    func reorderShift(of indexPath: IndexPath) -> CGFloat {
        guard let reordering, indexPath != reordering.source else { return 0 }
        let height = reordering.cell.frame.height
        let afterSource = indexPath > reordering.source
        // Where the row would be once the dragged row has left.
        var remaining = indexPath
        if indexPath.section == reordering.source.section && afterSource { remaining.row -= 1 }
        let atOrAfterDestination = remaining >= reordering.destination
        if afterSource && !atOrAfterDestination { return -height }
        if !afterSource && atOrAfterDestination { return height }
        return 0
    }

    /// Puts every visible row but the dragged one where it stands now.
    private func makeRoom() {
        guard let reordering else { return }
        for row in visibleRows where row.cell !== reordering.cell {
            let top = rectForRow(at: row.indexPath).minY + reorderShift(of: row.indexPath)
            if row.cell.frame.minY != top { row.cell.frame.origin.y = top }
        }
    }

    /// Step 3: the finger lifted; the row lands and the data source hears of it.
    private func reorderEnded() {
        guard let reordering else { return }
        self.reordering = nil
        dataSource?.tableView(self, moveRowAt: reordering.source, to: reordering.destination)
        if reordering.destination != reordering.source {
            moveRow(at: reordering.source, to: reordering.destination)
        } else {
            setNeedsLayout()
            layoutIfNeeded()
        }
    }

    /// A cancelled drag puts the row back.
    private func reorderCancelled() {
        guard reordering != nil else { return }
        reordering = nil
        setNeedsLayout()
        layoutIfNeeded()
    }
}
