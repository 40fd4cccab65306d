import Foundation

/// Inserting, deleting, reloading and moving rows and sections.
///
/// The app changes its data first, then tells the table what changed, in
/// one call or several inside `performBatchUpdates(_:completion:)`. The
/// table checks the update as UIKit does (`ListUpdate.swift`); a failure is
/// reported with UIKit's numbers and the table reloads from its data
/// source, so it shows what the data source says and nothing is lost. When
/// the update holds, rows that stay keep their cells (the data source is
/// asked only for inserted and reloaded rows), their selection and, for
/// self-sizing rows, the height last measured until they are measured
/// again on screen.
///
/// The model changes at once; what is shown follows over a short
/// animation (`TableUpdateAnimation.swift`), after which a batch's
/// completion runs.
extension UITableView: ListUpdating {
    // MARK: Batches

    /// Applies the changes `updates` makes as one update, checked as a
    /// whole, then calls `completion` when it has been shown: at the end of
    /// its animation, with whether the animation ran to its end, or at
    /// once, with true, when nothing is animated.
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        beginUpdates()
        updates?()
        endUpdates()
        if let completion { whenUpdateShown(completion) }
    }

    /// Starts a batch: the changes until the matching ``endUpdates()`` are one update.
    public func beginUpdates() {
        updateBatch.begin()
    }

    /// Ends a batch and applies it.
    public func endUpdates() {
        guard updateBatch.isOpen else {
            return reportListProblem("endUpdates() without beginUpdates(); ignored")
        }
        if let update = updateBatch.end() { applyCheckedUpdate(update) }
    }

    // MARK: Rows

    /// Rows were inserted into the data (index paths after the update).
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record {
            $0.insertedRows += indexPaths
            $0.insertionAnimation = animation
        }
    }

    /// Rows were deleted from the data (index paths before the update).
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record {
            $0.deletedRows += indexPaths
            $0.deletionAnimation = animation
        }
    }

    /// Rows changed: their cells are asked for again (index paths before the update).
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record {
            $0.reloadedRows += indexPaths
            $0.insertionAnimation = animation
            $0.deletionAnimation = animation
        }
    }

    /// A row moved from `indexPath` (before) to `newIndexPath` (after); its cell goes with it.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.moves.append((indexPath, newIndexPath)) }
    }

    // MARK: Sections

    /// Sections were inserted (indexes after the update).
    public func insertSections(_ sections: IndexSet, with animation: RowAnimation) {
        record {
            $0.insertedSections.formUnion(sections)
            $0.insertionAnimation = animation
        }
    }

    /// Sections were deleted (indexes before the update).
    public func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {
        record {
            $0.deletedSections.formUnion(sections)
            $0.deletionAnimation = animation
        }
    }

    /// Sections changed: their rows are read again (indexes before the update).
    public func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {
        record {
            $0.reloadedSections.formUnion(sections)
            $0.insertionAnimation = animation
            $0.deletionAnimation = animation
        }
    }

    // MARK: Applying

    func applyCheckedUpdate(_ update: ListUpdate) {
        loadIfNeeded()
        lastUpdateAnimation = nil
        let new = computeGeometry(measuredHeights: measuredHeights(after: update))
        if let problem = update.firstProblem(old: geometry.rowCounts, new: new.rowCounts) {
            reportListProblem("Invalid update: \(problem). The table was reloaded from its data source.")
            return reloadData()
        }
        let animates = showsOverTime(update, in: self)
        var start = UpdateStart()
        // Rows that stay keep their cells at their new index paths; the others leave.
        var kept: [VisibleRow] = []
        for row in visibleRows {
            if let newPath = update.newIndexPath(of: row.indexPath) {
                kept.append(VisibleRow(indexPath: newPath, cell: row.cell))
                if animates { start.framesOfCellsThatStay[ObjectIdentifier(row.cell)] = row.cell.frame }
            } else {
                tableDelegate?.tableView(self, didEndDisplaying: row.cell, forRowAt: row.indexPath)
                if animates && update.deletionAnimation != .none {
                    start.leavingCells.append(row.cell)
                } else {
                    enqueueForReuse(row.cell)
                }
            }
        }
        kept.sort { $0.indexPath < $1.indexPath }
        visibleRows = kept
        var selection: [IndexPath] = []
        for selected in selectedRows {
            if let newPath = update.newIndexPath(of: selected) { selection.append(newPath) }
        }
        selectedRows = selection
        cancelRowTracking()
        endSwipe()
        geometry = new
        updateContentSize()
        // The new rows' cells are made now, as UIKit makes them for the update;
        // self-sizing rows on screen are measured again (an empty batch is how
        // apps ask for that: Apple's beginUpdates() documentation).
        setNeedsLayout()
        layoutIfNeeded()
        if animates { lastUpdateAnimation = animateUpdate(update, from: start) }
    }

    /// The heights self-sizing rows that stay had before `update`, at their
    /// index paths after it (reloaded rows are measured afresh).
    private func measuredHeights(after update: ListUpdate) -> [IndexPath: CGFloat] {
        var heights: [IndexPath: CGFloat] = [:]
        for (sectionIndex, section) in geometry.sections.enumerated() {
            for row in section.selfSized {
                guard let newPath = update.newIndexPath(of: IndexPath(row: row, section: sectionIndex)) else { continue }
                heights[newPath] = section.rowTops[row + 1] - section.rowTops[row]
            }
        }
        return heights
    }
}
