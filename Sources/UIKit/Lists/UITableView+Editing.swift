import Foundation

/// Editing mode: the controls a row shows while the table is editing.
///
/// `setEditing(_:animated:)` passes the mode to the cells of the visible
/// rows first, then asks about each row, in order, as UIKit's guide to
/// table views describes it ("Inserting and Deleting Rows and Sections",
/// "Managing the Reordering of Rows"): the data source's `canEditRowAt`,
/// the delegate's `editingStyleForRowAt` (asked only for a row that can be
/// edited) and `shouldIndentWhileEditingRowAt`, then the data source's
/// `canMoveRowAt`. Rows that come on screen later are asked the same when
/// their cells are made.
///
/// - A row whose style is `.delete` shows a red button on its leading side.
///   A tap on it reveals the Delete button on the trailing side (the
///   delegate's `titleForDeleteConfirmationButtonForRowAt`), as a swipe
///   reveals actions; a tap on that asks the data source to
///   `commit(.delete, forRowAt:)`; a tap anywhere else hides it.
/// - A row whose style is `.insert` shows a green button; a tap on it asks
///   the data source to `commit(.insert, forRowAt:)` at once.
/// - A row that can move shows a reorder control on its trailing side
///   (`UITableView+Reordering.swift`).
///
/// Swift cannot see whether a data source implements `moveRowAt` (UIKit
/// shows reorder controls only when it does), so here a row shows one
/// when `canMoveRowAt` answers true; the default answer is false.
extension UITableView {
    /// The editing mode changed: the visible cells are told, then each row's
    /// controls are asked for.
    func passEditingToVisibleRows(animated: Bool) {
        for row in visibleRows { row.cell.setEditing(isEditing, animated: animated) }
        for row in visibleRows { configureEditingControls(of: row.cell, for: row.indexPath) }
    }

    /// Gives a cell the editing controls of its row (none outside editing mode).
    func configureEditingControls(of cell: UITableViewCell, for indexPath: IndexPath) {
        guard isEditing else {
            cell.editingStyle = .none
            cell.showsReorderControl = false
            return
        }
        let canEdit = dataSource?.tableView(self, canEditRowAt: indexPath) ?? false
        cell.editingStyle = canEdit ? tableDelegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete : .none
        cell.shouldIndentWhileEditing = tableDelegate?.tableView(self, shouldIndentWhileEditingRowAt: indexPath) ?? true
        cell.showsReorderControl = canMove(indexPath)
    }

    /// A row's delete or insert button was tapped.
    func editControlTapped(in cell: UITableViewCell) {
        guard isEditing, let indexPath = indexPath(for: cell) else { return }
        switch cell.editingStyle {
        case .delete:
            if swipedRow == indexPath {
                closeSwipe()
            } else {
                openDeleteConfirmation(for: indexPath, cell: cell)
            }
        case .insert:
            closeSwipe()
            dataSource?.tableView(self, commit: .insert, forRowAt: indexPath)
        case .none:
            break
        }
    }

    /// The Delete button of a row in editing mode, revealed on its trailing side.
    private func openDeleteConfirmation(for indexPath: IndexPath, cell: UITableViewCell) {
        let title = tableDelegate?.tableView(self, titleForDeleteConfirmationButtonForRowAt: indexPath) ?? "Delete"
        let delete = UIContextualAction(style: .destructive, title: title) { [weak self] _, _, completion in
            guard let self else { return }
            dataSource?.tableView(self, commit: .delete, forRowAt: indexPath)
            completion(true)
        }
        let configuration = UISwipeActionsConfiguration(actions: [delete])
        configuration.performsFirstActionWithFullSwipe = false
        openSwipeActions(configuration, for: indexPath, cell: cell)
    }
}
