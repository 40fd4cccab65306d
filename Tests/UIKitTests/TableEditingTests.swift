import TestExpectations
import Testing
@testable import UIKit

/// A data source and delegate over a list of names that records, in order,
/// what the table asks about editing and moving, and what it tells.
@MainActor
final class EditingLog: UITableViewDataSource, UITableViewDelegate {
    var names: [String]
    var entries: [String] = []
    var unmovable: Set<Int> = []
    var uneditable: Set<Int> = []
    var inserting: Set<Int> = []
    /// Rows a move may not go past (the delegate retargets to this row).
    var lastTarget: Int?

    init(_ count: Int) { names = (0..<count).map { "r\($0)" } }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { names.count }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = names[indexPath.row]
        return cell
    }
    func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool {
        entries.append("canEdit \(indexPath.row)")
        return !uneditable.contains(indexPath.row)
    }
    func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        entries.append("canMove \(indexPath.row)")
        return !unmovable.contains(indexPath.row)
    }
    func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
        entries.append("editingStyle \(indexPath.row)")
        return inserting.contains(indexPath.row) ? .insert : .delete
    }
    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        entries.append("commit \(editingStyle == .delete ? "delete" : "insert") \(indexPath.row)")
        if editingStyle == .delete {
            names.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .automatic)
        }
    }
    func tableView(_ tableView: UITableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
                   toProposedIndexPath proposedDestinationIndexPath: IndexPath) -> IndexPath {
        entries.append("target \(sourceIndexPath.row)→\(proposedDestinationIndexPath.row)")
        if let lastTarget, proposedDestinationIndexPath.row > lastTarget { return IndexPath(row: lastTarget, section: 0) }
        return proposedDestinationIndexPath
    }
    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        entries.append("move \(sourceIndexPath.row)→\(destinationIndexPath.row)")
        names.insert(names.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
    }
    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        entries.append("shouldHighlight \(indexPath.row)")
        return true
    }
    func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) { entries.append("didHighlight \(indexPath.row)") }
    func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) { entries.append("didUnhighlight \(indexPath.row)") }
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { entries.append("didSelect \(indexPath.row)") }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { entries.append("willBeginDragging") }
}

@MainActor
@Suite struct TableEditingTests {
    /// A 400×800 window filled by a plain table of `count` 44-point rows.
    private func editingScene(_ count: Int = 10, configure: (UITableView, EditingLog) -> Void = { _, _ in })
        -> (UITableView, EditingLog, TouchSynthesizer) {
        let window = makeWindow()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 44
        let log = EditingLog(count)
        configure(table, log)
        table.dataSource = log
        table.delegate = log
        window.addSubview(table)
        window.layoutIfNeeded()
        log.entries.removeAll()
        return (table, log, TouchSynthesizer(window: window))
    }

    private func texts(_ table: UITableView) -> [String] {
        table.visibleCells.map { $0.textLabel?.text ?? "" }
    }

    private func cell(_ table: UITableView, _ row: Int) -> UITableViewCell {
        table.cellForRow(at: IndexPath(row: row, section: 0))!
    }

    @Test func editingModeTellsTheCellsThenAsksEachRowForItsControls() {
        let (table, log, _) = editingScene(4) { _, log in
            log.unmovable = [1]
            log.inserting = [2]
            log.uneditable = [3]
        }
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        #expect(log.entries == ["canEdit 0", "editingStyle 0", "canMove 0",
                                "canEdit 1", "editingStyle 1", "canMove 1",
                                "canEdit 2", "editingStyle 2", "canMove 2",
                                "canEdit 3", "canMove 3"])
        #expect(table.visibleCells.allSatisfy { $0.isEditing })
        // A deletable, movable row: the content stands between the two controls.
        expectEqual(cell(table, 0).editingStyle, .delete)
        expectEqual(cell(table, 0).contentView.frame.minX, TableViewMetrics.editControlWidth)
        expectEqual(cell(table, 0).contentView.frame.width, 400 - TableViewMetrics.editControlWidth - TableViewMetrics.reorderControlWidth)
        expectEqual(cell(table, 0).shownReorderControl?.frame.minX, 400 - TableViewMetrics.reorderControlWidth)
        // Row 1 cannot move: no reorder control. Row 2 inserts. Row 3 cannot be edited: no control, no indent.
        #expect(cell(table, 1).shownReorderControl == nil)
        expectEqual(cell(table, 1).contentView.frame.width, 400 - TableViewMetrics.editControlWidth)
        expectEqual(cell(table, 2).editingStyle, .insert)
        expectEqual(cell(table, 3).editingStyle, .none)
        expectEqual(cell(table, 3).contentView.frame.minX, 0)
        // Out of editing mode: the controls go, the content takes the row again.
        table.setEditing(false, animated: false)
        table.window?.layoutIfNeeded()
        #expect(cell(table, 0).shownReorderControl == nil)
        expectEqual(cell(table, 0).contentView.frame, CGRect(x: 0, y: 0, width: 400, height: 44 - 1.0 / 3))
    }

    @Test func theDeleteButtonRevealsDeleteWhoseTapCommitsTheDeletion() {
        let (table, log, synthesizer) = editingScene(5)
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        log.entries.removeAll()
        // The red button of row 1, at the leading edge.
        synthesizer.tap(at: CGPoint(x: TableViewMetrics.editControlWidth / 2, y: 66))
        expectEqual(table.swipedRow, IndexPath(row: 1, section: 0))
        #expect(log.entries.isEmpty)
        let confirmationWidth = -cell(table, 1).contentView.frame.minX + TableViewMetrics.editControlWidth
        #expect(confirmationWidth >= TableViewMetrics.minimumSwipeActionWidth)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 400 - confirmationWidth / 2, y: 66))
        expectEqual(log.entries, ["commit delete 1"])
        expectEqual(log.names, ["r0", "r2", "r3", "r4"])
        expectEqual(texts(table), ["r0", "r2", "r3", "r4"])
        #expect(table.swipedRow == nil)
    }

    @Test func theInsertButtonCommitsAtOnceAndATapElsewhereHidesDelete() {
        let (table, log, synthesizer) = editingScene(5) { _, log in log.inserting = [4] }
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        log.entries.removeAll()
        synthesizer.tap(at: CGPoint(x: 19, y: 4 * 44 + 22))
        expectEqual(log.entries, ["commit insert 4"])
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 19, y: 22))
        expectEqual(table.swipedRow, IndexPath(row: 0, section: 0))
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 200, y: 300))
        #expect(table.swipedRow == nil)
        expectEqual(log.entries, ["commit insert 4"])
    }

    @Test func draggingTheReorderControlMovesTheRowAndTheOthersMakeRoom() {
        let (table, log, synthesizer) = editingScene(8)
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        log.entries.removeAll()
        let dragged = cell(table, 1)
        let grip = CGPoint(x: 400 - TableViewMetrics.reorderControlWidth / 2, y: 66)
        let finger = synthesizer.touchDown(at: grip)
        synthesizer.advance(by: 0.01)
        // Down by 98 points, in steps: the row's centre passes row 2's top (88), then row 3's (132).
        for step in 1...7 { synthesizer.touchMove(finger, to: CGPoint(x: grip.x, y: grip.y + CGFloat(step) * 14)) }
        expectEqual(dragged.frame.minY, 142)  // 44 + 98
        expectEqual(cell(table, 2).frame.minY, 44)   // rows 2 and 3 stand one row up
        expectEqual(cell(table, 3).frame.minY, 88)
        expectEqual(cell(table, 4).frame.minY, 176)  // row 4 stays
        expectEqual(table.contentOffset.y, 0)        // the table did not scroll
        synthesizer.touchUp(finger)
        // UIKit's order: the delegate retargets each new destination; the data source hears the move on lift.
        expectEqual(log.entries, ["target 1→2", "target 1→3", "move 1→3"])
        expectEqual(log.names.prefix(5), ["r0", "r2", "r3", "r1", "r4"])
        expectEqual(Array(texts(table).prefix(5)), ["r0", "r2", "r3", "r1", "r4"])
        for visible in table.visibleCells {
            expectEqual(visible.frame, table.rectForRow(at: table.indexPath(for: visible)!))
        }
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0)) === dragged)
    }

    @Test func theDelegateCanRetargetAMoveAndACancelledDragPutsTheRowBack() {
        let (table, log, synthesizer) = editingScene(8) { _, log in log.lastTarget = 2 }
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        log.entries.removeAll()
        let grip = CGPoint(x: 400 - TableViewMetrics.reorderControlWidth / 2, y: 22)
        var finger = synthesizer.touchDown(at: grip)
        synthesizer.advance(by: 0.01)
        for step in 1...8 { synthesizer.touchMove(finger, to: CGPoint(x: grip.x, y: grip.y + CGFloat(step) * 20)) }
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["target 0→1", "target 0→2", "target 0→3", "target 0→4", "move 0→2"])
        expectEqual(log.names.prefix(4), ["r1", "r2", "r0", "r3"])
        // A drag whose touch is cancelled tells no one and changes nothing.
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        finger = synthesizer.touchDown(at: grip)
        synthesizer.advance(by: 0.01)
        synthesizer.touchMove(finger, to: CGPoint(x: grip.x, y: grip.y + 60))
        synthesizer.cancelAllTouches()
        expectEqual(log.entries, ["target 0→1"])
        expectEqual(Array(texts(table).prefix(4)), ["r1", "r2", "r0", "r3"])
        expectEqual(cell(table, 0).frame.minY, 0)
        expectEqual(cell(table, 1).frame.minY, 44)
    }

    @Test func aRowThatCannotMoveScrollsInsteadOfLifting() {
        let (table, log, synthesizer) = editingScene(40) { _, log in log.unmovable = [1] }
        table.setEditing(true, animated: false)
        table.window?.layoutIfNeeded()
        log.entries.removeAll()
        synthesizer.fling(from: CGPoint(x: 381, y: 66), to: CGPoint(x: 381, y: 10))
        synthesizer.advance(by: 2)
        // Only the rows that came on screen were asked about (their controls); nothing moved.
        expectEqual(log.entries.first, "willBeginDragging")
        #expect(log.entries.filter { $0.hasPrefix("target") || $0.hasPrefix("move") }.isEmpty)
        #expect(table.contentOffset.y > 40)
    }

    @Test func aLongPressLiftsARowWhenDragInteractionIsEnabled() {
        let (table, log, synthesizer) = editingScene(8) { table, _ in table.dragInteractionEnabled = true }
        let start = CGPoint(x: 200, y: 4 * 44 + 22)
        let finger = synthesizer.touchDown(at: start)
        synthesizer.advance(by: 0.6)
        for step in 1...6 { synthesizer.touchMove(finger, to: CGPoint(x: start.x, y: start.y - CGFloat(step) * 22)) }
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        // The row highlighted after the content delay; the long press asked whether it may move,
        // and lifting it took the highlight; no selection.
        #expect(log.entries == ["shouldHighlight 4", "didHighlight 4", "canMove 4", "didUnhighlight 4",
                                "target 4→3", "target 4→2", "target 4→1", "move 4→1"])
        expectEqual(log.names.prefix(5), ["r0", "r4", "r1", "r2", "r3"])
        expectEqual(Array(texts(table).prefix(5)), ["r0", "r4", "r1", "r2", "r3"])
        #expect(table.indexPathsForSelectedRows == nil)
    }

    @Test func withoutDragInteractionALongPressIsATouchOnTheRow() {
        let (table, log, synthesizer) = editingScene(8)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 66))
        synthesizer.advance(by: 0.6)
        synthesizer.touchUp(finger)
        #expect(log.entries.filter { $0.hasPrefix("target") || $0.hasPrefix("move") }.isEmpty)
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 1, section: 0)])
    }
}
