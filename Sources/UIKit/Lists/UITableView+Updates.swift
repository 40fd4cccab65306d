import Foundation

/// Inserting, deleting, reloading and moving rows and sections.
///
/// The app changes its data first, then tells the table what changed, in
/// one call or several inside `performBatchUpdates(_:completion:)`. As in
/// UIKit, a batch's deletions, reloads and the sources of moves are index
/// paths before the update; insertions and the destinations of moves are
/// index paths after it. The table then checks the update the way UIKit
/// does:
///
/// 1. every row and section it names exists (before or after, as above);
/// 2. the data source's new number of sections is the old one plus the
///    inserted and minus the deleted;
/// 3. each section that stays has the old number of rows plus those
///    inserted or moved in, minus those deleted or moved out.
///
/// UIKit stops the app with an `NSInternalInconsistencyException` when a
/// check fails; here the failure is reported (`Diagnostic.Kind.invalidListUpdate`,
/// with UIKit's numbers) and the table reloads from its data source, so
/// it shows what the data source says and nothing is lost. When the update
/// holds, rows that stay keep their cells (the data source is asked only
/// for inserted and reloaded rows) and their selection.
///
/// There is no animation: without Motion an update is shown at once,
/// whatever `RowAnimation` is given, and a batch's completion is called
/// with true as soon as it is applied.
extension UITableView {
    /// What one batch of changes says, collected until the batch ends.
    struct TableUpdate {
        var deletedSections = IndexSet()
        var insertedSections = IndexSet()
        var reloadedSections = IndexSet()
        var deletedRows: [IndexPath] = []
        var insertedRows: [IndexPath] = []
        var reloadedRows: [IndexPath] = []
        var moves: [(from: IndexPath, to: IndexPath)] = []
    }

    // MARK: Batches

    /// Applies the changes `updates` makes as one update, checked as a
    /// whole, then calls `completion` (with true: there is no animation to
    /// interrupt).
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        beginUpdates()
        updates?()
        endUpdates()
        completion?(true)
    }

    /// Starts a batch: the changes until the matching ``endUpdates()`` are one update.
    public func beginUpdates() {
        if updateDepth == 0 { pendingUpdate = TableUpdate() }
        updateDepth += 1
    }

    /// Ends a batch and applies it.
    public func endUpdates() {
        guard updateDepth > 0 else {
            return reportListProblem("endUpdates() without beginUpdates(); ignored")
        }
        updateDepth -= 1
        guard updateDepth == 0, let update = pendingUpdate else { return }
        pendingUpdate = nil
        apply(update)
    }

    private func record(_ change: (inout TableUpdate) -> Void) {
        beginUpdates()
        if pendingUpdate != nil { change(&pendingUpdate!) }
        endUpdates()
    }

    // MARK: Rows

    /// Rows were inserted into the data (index paths after the update).
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.insertedRows += indexPaths }
    }

    /// Rows were deleted from the data (index paths before the update).
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.deletedRows += indexPaths }
    }

    /// Rows changed: their cells are asked for again (index paths before the update).
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
        record { $0.reloadedRows += indexPaths }
    }

    /// A row moved from `indexPath` (before) to `newIndexPath` (after); its cell goes with it.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.moves.append((indexPath, newIndexPath)) }
    }

    // MARK: Sections

    /// Sections were inserted (indexes after the update).
    public func insertSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.insertedSections.formUnion(sections) }
    }

    /// Sections were deleted (indexes before the update).
    public func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.deletedSections.formUnion(sections) }
    }

    /// Sections changed: their rows are read again (indexes before the update).
    public func reloadSections(_ sections: IndexSet, with animation: RowAnimation) {
        record { $0.reloadedSections.formUnion(sections) }
    }

    // MARK: Applying

    private func apply(_ update: TableUpdate) {
        loadIfNeeded()
        let old = geometry
        let new = computeGeometry()
        if let problem = firstProblem(of: update, old: old, new: new) {
            reportListProblem("Invalid update: \(problem). The table was reloaded from its data source.")
            return reloadData()
        }
        // Rows that stay keep their cells at their new index paths; the others leave.
        var kept: [VisibleRow] = []
        for row in visibleRows {
            if let newPath = newIndexPath(of: row.indexPath, in: update) {
                kept.append(VisibleRow(indexPath: newPath, cell: row.cell))
            } else {
                tableDelegate?.tableView(self, didEndDisplaying: row.cell, forRowAt: row.indexPath)
                enqueueForReuse(row.cell)
            }
        }
        kept.sort { $0.indexPath < $1.indexPath }
        visibleRows = kept
        var selection: [IndexPath] = []
        for selected in selectedRows {
            if let newPath = newIndexPath(of: selected, in: update) { selection.append(newPath) }
        }
        selectedRows = selection
        cancelRowTracking()
        endSwipe()
        geometry = new
        updateContentSize()
        // The new rows' cells are made now, as UIKit makes them for the update.
        setNeedsLayout()
        layoutIfNeeded()
    }

    /// Checks 1–3 of the update, in UIKit's words; nil if it holds.
    private func firstProblem(of update: TableUpdate, old: TableGeometry, new: TableGeometry) -> String? {
        for section in update.deletedSections.union(update.reloadedSections) where section >= old.sections.count {
            return "attempt to delete or reload section \(section), but there are only \(old.sections.count) sections before the update"
        }
        for section in update.insertedSections where section >= new.sections.count {
            return "attempt to insert section \(section), but there are only \(new.sections.count) sections after the update"
        }
        var before = update.deletedRows + update.reloadedRows
        for move in update.moves { before.append(move.from) }
        for indexPath in before where !old.contains(indexPath) {
            return "attempt to delete, reload or move row \(indexPath.row) from section \(indexPath.section), which does not exist before the update"
        }
        var after = update.insertedRows
        for move in update.moves { after.append(move.to) }
        for indexPath in after where !new.contains(indexPath) {
            return "attempt to insert or move a row to \(indexPath.row) in section \(indexPath.section), which does not exist after the update"
        }
        let expectedSections = old.sections.count - update.deletedSections.count + update.insertedSections.count
        if new.sections.count != expectedSections {
            return "invalid number of sections. The number of sections after the update (\(new.sections.count)) must be equal to "
                + "the number before the update (\(old.sections.count)), plus or minus the number inserted or deleted "
                + "(\(update.insertedSections.count) inserted, \(update.deletedSections.count) deleted)"
        }
        for section in old.sections.indices
        where !update.deletedSections.contains(section) && !update.reloadedSections.contains(section) {
            let newSection = newSectionIndex(of: section, in: update)!
            guard !update.insertedSections.contains(newSection) else { continue }
            let deleted = count(update.deletedRows, inSection: section)
            let inserted = count(update.insertedRows, inSection: newSection)
            var movedOut = 0, movedIn = 0
            for move in update.moves {
                if move.from.section == section && move.to.section != newSection { movedOut += 1 }
                if move.to.section == newSection && move.from.section != section { movedIn += 1 }
            }
            let expected = old.sections[section].rowCount - deleted + inserted - movedOut + movedIn
            let actual = new.sections[newSection].rowCount
            if actual != expected {
                return "invalid number of rows in section \(newSection). The number of rows contained in an existing section "
                    + "after the update (\(actual)) must be equal to the number of rows contained in that section before the "
                    + "update (\(old.sections[section].rowCount)), plus or minus the number of rows inserted or deleted from "
                    + "that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved "
                    + "into or out of that section (\(movedIn) moved in, \(movedOut) moved out)"
            }
        }
        return nil
    }

    private func count(_ indexPaths: [IndexPath], inSection section: Int) -> Int {
        var count = 0
        for indexPath in indexPaths where indexPath.section == section { count += 1 }
        return count
    }

    /// Where a section before the update is after it; nil if it was deleted.
    private func newSectionIndex(of section: Int, in update: TableUpdate) -> Int? {
        guard !update.deletedSections.contains(section) else { return nil }
        var index = section - update.deletedSections.count(in: 0..<section)
        for inserted in update.insertedSections where inserted <= index { index += 1 }
        return index
    }

    /// Where a row before the update is after it; nil if it was deleted or
    /// reloaded (a reloaded row gets a new cell), or its section was.
    private func newIndexPath(of indexPath: IndexPath, in update: TableUpdate) -> IndexPath? {
        guard !update.reloadedSections.contains(indexPath.section),
              let section = newSectionIndex(of: indexPath.section, in: update) else { return nil }
        for deleted in update.deletedRows where deleted == indexPath { return nil }
        for reloaded in update.reloadedRows where reloaded == indexPath { return nil }
        for move in update.moves where move.from == indexPath { return move.to }
        var row = indexPath.row
        for deleted in update.deletedRows where deleted.section == indexPath.section && deleted.row < indexPath.row { row -= 1 }
        for move in update.moves where move.from.section == indexPath.section && move.from.row < indexPath.row { row -= 1 }
        var arrivals: [Int] = []
        for inserted in update.insertedRows where inserted.section == section { arrivals.append(inserted.row) }
        for move in update.moves where move.to.section == section { arrivals.append(move.to.row) }
        arrivals.sort()
        for arrival in arrivals where arrival <= row { row += 1 }
        return IndexPath(row: row, section: section)
    }
}
