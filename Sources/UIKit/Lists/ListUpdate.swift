import Foundation

/// One batch of changes to a table or collection view, and UIKit's checks
/// of it. Deletions, reloads and the sources of moves are index paths
/// before the update; insertions and the destinations of moves are index
/// paths after it. The checks, in order:
///
/// 1. every row and section it names exists (before or after, as above);
/// 2. the data source's new number of sections is the old one plus the
///    inserted and minus the deleted;
/// 3. each section that stays has the old number of rows plus those
///    inserted or moved in, minus those deleted or moved out.
///
/// UIKit stops the app with an `NSInternalInconsistencyException` when a
/// check fails; the views report the failure (`Diagnostic.Kind.invalidListUpdate`,
/// with UIKit's numbers) and reload from their data source.
struct ListUpdate {
    var deletedSections = IndexSet()
    var insertedSections = IndexSet()
    var reloadedSections = IndexSet()
    var deletedRows: [IndexPath] = []
    var insertedRows: [IndexPath] = []
    var reloadedRows: [IndexPath] = []
    var moves: [(from: IndexPath, to: IndexPath)] = []
    /// Whether the change is shown over time (`ListUpdateAnimation`);
    /// false for a diffable snapshot applied without animating differences.
    var isAnimated = true
    /// How a table's inserted rows come in and its deleted or reloaded
    /// rows' cells leave: the last `RowAnimation` given for each in the batch.
    var insertionAnimation = UITableView.RowAnimation.automatic
    var deletionAnimation = UITableView.RowAnimation.automatic

    static func contains(_ indexPath: IndexPath, counts: [Int]) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.section < counts.count
            && indexPath.row >= 0 && indexPath.row < counts[indexPath.section]
    }

    /// Checks 1–3 of the update, in UIKit's words; nil if it holds.
    func firstProblem(old: [Int], new: [Int]) -> String? {
        for section in deletedSections.union(reloadedSections) where section >= old.count {
            return "attempt to delete or reload section \(section), but there are only \(old.count) sections before the update"
        }
        for section in insertedSections where section >= new.count {
            return "attempt to insert section \(section), but there are only \(new.count) sections after the update"
        }
        var before = deletedRows + reloadedRows
        for move in moves { before.append(move.from) }
        for indexPath in before where !Self.contains(indexPath, counts: old) {
            return "attempt to delete, reload or move row \(indexPath.row) from section \(indexPath.section), which does not exist before the update"
        }
        var after = insertedRows
        for move in moves { after.append(move.to) }
        for indexPath in after where !Self.contains(indexPath, counts: new) {
            return "attempt to insert or move a row to \(indexPath.row) in section \(indexPath.section), which does not exist after the update"
        }
        let expectedSections = old.count - deletedSections.count + insertedSections.count
        if new.count != expectedSections {
            return "invalid number of sections. The number of sections after the update (\(new.count)) must be equal to "
                + "the number before the update (\(old.count)), plus or minus the number inserted or deleted "
                + "(\(insertedSections.count) inserted, \(deletedSections.count) deleted)"
        }
        for section in old.indices
        where !deletedSections.contains(section) && !reloadedSections.contains(section) {
            let newSection = newSectionIndex(of: section)!
            guard !insertedSections.contains(newSection) else { continue }
            let deleted = count(deletedRows, inSection: section)
            let inserted = count(insertedRows, inSection: newSection)
            var movedOut = 0, movedIn = 0
            for move in moves {
                if move.from.section == section && move.to.section != newSection { movedOut += 1 }
                if move.to.section == newSection && move.from.section != section { movedIn += 1 }
            }
            let expected = old[section] - deleted + inserted - movedOut + movedIn
            let actual = new[newSection]
            if actual != expected {
                return "invalid number of rows in section \(newSection). The number of rows contained in an existing section "
                    + "after the update (\(actual)) must be equal to the number of rows contained in that section before the "
                    + "update (\(old[section])), plus or minus the number of rows inserted or deleted from "
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
    func newSectionIndex(of section: Int) -> Int? {
        guard !deletedSections.contains(section) else { return nil }
        var index = section - deletedSections.count(in: 0..<section)
        for inserted in insertedSections where inserted <= index { index += 1 }
        return index
    }

    /// Where a row before the update is after it; nil if it was deleted or
    /// reloaded (a reloaded row gets a new cell), or its section was.
    func newIndexPath(of indexPath: IndexPath) -> IndexPath? {
        guard !reloadedSections.contains(indexPath.section),
              let section = newSectionIndex(of: indexPath.section) else { return nil }
        for deleted in deletedRows where deleted == indexPath { return nil }
        for reloaded in reloadedRows where reloaded == indexPath { return nil }
        for move in moves where move.from == indexPath { return move.to }
        var row = indexPath.row
        for deleted in deletedRows where deleted.section == indexPath.section && deleted.row < indexPath.row { row -= 1 }
        for move in moves where move.from.section == indexPath.section && move.from.row < indexPath.row { row -= 1 }
        var arrivals: [Int] = []
        for inserted in insertedRows where inserted.section == section { arrivals.append(inserted.row) }
        for move in moves where move.to.section == section { arrivals.append(move.to.row) }
        arrivals.sort()
        for arrival in arrivals where arrival <= row { row += 1 }
        return IndexPath(row: row, section: section)
    }
}

/// A table or collection view, as its update calls and the diffable data
/// sources see it: it collects changes into a batch and applies a batch as
/// one checked update (`applyCheckedUpdate(_:)`, which reloads when the
/// check fails), or reloads outright.
@MainActor
protocol ListUpdating: AnyObject {
    var updateBatch: ListUpdateBatch { get set }
    /// The last update's animation, while it may still be running.
    var lastUpdateAnimation: ListUpdateAnimation? { get }
    func reloadData()
    func applyCheckedUpdate(_ update: ListUpdate)
}

extension ListUpdating {
    /// Adds one change: to the open batch, or as an update of its own.
    func record(_ change: (inout ListUpdate) -> Void) {
        updateBatch.begin()
        updateBatch.record(change)
        if let update = updateBatch.end() { applyCheckedUpdate(update) }
    }
}

extension ListUpdate {
    /// Adds the changes of `other` (same index-path conventions).
    mutating func formUnion(_ other: ListUpdate) {
        deletedSections.formUnion(other.deletedSections)
        insertedSections.formUnion(other.insertedSections)
        reloadedSections.formUnion(other.reloadedSections)
        deletedRows += other.deletedRows
        insertedRows += other.insertedRows
        reloadedRows += other.reloadedRows
        moves += other.moves
        isAnimated = isAnimated && other.isAnimated
    }

    /// Whether the row at `indexPath` after the update shows new content:
    /// inserted, or in an inserted section, or reloaded (reloads are named
    /// by their index paths before the update, which is where they stay
    /// unless other rows of the batch move them).
    func bringsNewContent(to indexPath: IndexPath) -> Bool {
        insertedSections.contains(indexPath.section) || reloadedSections.contains(indexPath.section)
            || insertedRows.contains(indexPath) || reloadedRows.contains(indexPath)
    }
}

/// The batch a table or collection view is collecting: nested batches
/// make one update, applied when the outermost ends.
struct ListUpdateBatch {
    private(set) var update: ListUpdate?
    private var depth = 0

    var isOpen: Bool { depth > 0 }

    mutating func begin() {
        if depth == 0 { update = ListUpdate() }
        depth += 1
    }

    /// Ends one level; returns the update when the outermost batch ends.
    mutating func end() -> ListUpdate? {
        guard depth > 0 else { return nil }
        depth -= 1
        guard depth == 0 else { return nil }
        defer { update = nil }
        return update
    }

    /// Adds a change to the open batch.
    mutating func record(_ change: (inout ListUpdate) -> Void) {
        if update != nil { change(&update!) }
    }
}
