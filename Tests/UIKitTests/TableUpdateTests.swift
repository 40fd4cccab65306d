import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct TableUpdateTests {
    @Test func insertedRowsShiftTheOthersWhoKeepTheirCellsAndSelection() {
        let (table, log, _) = tableScene([10])
        let cellOfRow2 = table.cellForRow(at: IndexPath(row: 2, section: 0))!
        table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        let asked = log.cellsAsked
        log.rowCounts = [12]
        table.insertRows(at: [IndexPath(row: 0, section: 0), IndexPath(row: 5, section: 0)], with: .automatic)
        expectEqual(table.numberOfRows(inSection: 0), 12)
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0)) === cellOfRow2)
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
        expectEqual(log.cellsAsked, asked + 2)  // only the two new rows
        expectEqual(table.visibleCells.count, 12)
        expectEqual(cellOfRow2.frame.minY, 132)  // row 3
    }

    @Test func deletesMovesAndReloadsInOneBatch() {
        let (table, log, synthesizer) = tableScene([6, 3])
        let row0 = table.cellForRow(at: IndexPath(row: 0, section: 0))!
        let row4 = table.cellForRow(at: IndexPath(row: 4, section: 0))!
        let asked = log.cellsAsked
        log.rowCounts = [4, 4]
        var completed = false
        table.performBatchUpdates({
            table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade)
            table.moveRow(at: IndexPath(row: 4, section: 0), to: IndexPath(row: 0, section: 1))
            table.reloadRows(at: [IndexPath(row: 0, section: 0)], with: .none)
        }, completion: { completed = $0 })
        // The completion waits for the rows to reach their places.
        #expect(!completed)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration + 0.1)
        #expect(completed)
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 1)) === row4)
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0)) !== row0)  // reloaded: a new cell
        expectEqual(log.cellsAsked, asked + 1)  // the reloaded row only
        expectEqual(table.visibleCells.count, 8)
    }

    @Test func countsThatDoNotAddUpAreReportedAndTheTableReloads() {
        let (table, log, _) = tableScene([5])
        log.rowCounts = [5]  // the data did not change…
        table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)  // …but a row is said to be new
        let report = UIApplication.shared.diagnostics.entries.last
        expectEqual(report?.kind, .invalidListUpdate)
        expectEqual(report?.message.contains("invalid number of rows in section 0"), true)
        expectEqual(report?.message.contains("after the update (5)"), true)
        expectEqual(report?.message.contains("(1 inserted, 0 deleted)"), true)
        // The table shows what the data source says.
        expectEqual(table.numberOfRows(inSection: 0), 5)
        expectEqual(table.visibleCells.count, 5)

        table.deleteRows(at: [IndexPath(row: 9, section: 0)], with: .automatic)
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("does not exist before the update"), true)
        log.rowCounts = [5, 2]
        table.performBatchUpdates({})
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("invalid number of sections"), true)
        expectEqual(table.numberOfSections, 2)
        table.endUpdates()
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("without beginUpdates"), true)
    }

    @Test func sectionsInsertedAndDeleted() {
        let (table, log, _) = tableScene([2, 2, 2])
        let lastSectionCell = table.cellForRow(at: IndexPath(row: 1, section: 2))!
        log.rowCounts = [2, 3, 2]
        table.performBatchUpdates {
            table.deleteSections(IndexSet(integer: 1), with: .automatic)
            table.insertSections(IndexSet(integer: 1), with: .automatic)
        }
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 2)) === lastSectionCell)
        expectEqual(table.numberOfRows(inSection: 1), 3)
    }

    // MARK: Animation (TableUpdateAnimation.swift)

    @Test func aDeletedRowFadesWhileTheRowsBelowSlideUpAndTheCompletionWaitsForTheEnd() throws {
        let (table, log, synthesizer) = tableScene([10])
        let deleted = table.cellForRow(at: IndexPath(row: 2, section: 0))!
        let below = table.cellForRow(at: IndexPath(row: 3, section: 0))!
        log.rowCounts = [9]
        var completions: [Bool] = []
        table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 2, section: 0)], with: .fade) },
                                  completion: { completions.append($0) })
        // The model is the new one at once.
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0)) === below)
        expectEqual(below.frame.minY, 88)
        #expect(!table.visibleCells.contains { $0 === deleted })
        // What is shown goes there over the update's duration: the row below slides up from
        // its old place (centre 154) to its new one (110); the deleted row fades where it was.
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let sliding = try #require(below.layer.presentation()).position.y
        #expect(sliding > 110 && sliding < 154)
        let fading = try #require(deleted.layer.presentation()).opacity
        #expect(fading > 0 && fading < 1)
        #expect(deleted.superview === table && !deleted.isHidden && !deleted.isUserInteractionEnabled)
        #expect(completions.isEmpty)
        // At the end the deleted row's cell waits for reuse and the completion runs.
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)
        expectEqual(completions, [true])
        try expectEqual(#require(below.layer.presentation()).position.y, 110)
        #expect(deleted.isHidden && deleted.alpha == 1 && deleted.isUserInteractionEnabled)
        #expect(table.dequeueReusableCell(withIdentifier: "row") === deleted)
    }

    @Test func insertedRowsComeFromTheSideTheirAnimationNames() throws {
        let (table, log, synthesizer) = tableScene([5])
        let first = table.cellForRow(at: IndexPath(row: 0, section: 0))!
        log.rowCounts = [6]
        table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .left)
        let inserted = table.cellForRow(at: IndexPath(row: 0, section: 0))!
        expectEqual(inserted.frame, CGRect(x: 0, y: 0, width: 400, height: 44))
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        // Halfway: the new row is on its way in from the left, the old first row on its way down.
        let x = try #require(inserted.layer.presentation()).position.x
        #expect(x > -200 && x < 200)
        #expect(inserted.layer.presentation()?.opacity == 1)
        let y = try #require(first.layer.presentation()).position.y
        #expect(y > 22 && y < 66)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)
        #expect(inserted.layer.presentation()?.position == CGPoint(x: 200, y: 22))
        #expect(first.layer.presentation()?.position == CGPoint(x: 200, y: 66))
    }

    @Test func withoutAnimationsAnUpdateIsShownAtOnce() throws {
        let (table, log, synthesizer) = tableScene([5])
        let deleted = table.cellForRow(at: IndexPath(row: 1, section: 0))!
        let below = table.cellForRow(at: IndexPath(row: 2, section: 0))!
        log.rowCounts = [4]
        var completed = false
        UIView.performWithoutAnimation {
            table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 1, section: 0)], with: .fade) },
                                      completion: { completed = $0 })
        }
        #expect(completed)
        #expect(deleted.isHidden)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        #expect(below.layer.presentation()?.position.y == 66)  // already at row 1
        // `.none` shows the deleted row's going at once, while the rows that stay still slide.
        let gone = table.cellForRow(at: IndexPath(row: 0, section: 0))!
        log.rowCounts = [3]
        table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .none)
        #expect(gone.isHidden)
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0)) === below)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let y = try #require(below.layer.presentation()).position.y
        #expect(y > 22 && y < 66)
    }
}

@MainActor
@Suite struct DiffableDataSourceTests {
    enum Section: Hashable { case fruit, vegetables }

    @Test func snapshotsBuildAndReportBadIdentifiers() {
        _ = makeWindow()
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.fruit, .vegetables])
        snapshot.appendItems(["apple", "pear"], toSection: .fruit)
        snapshot.appendItems(["leek"])
        snapshot.insertItems(["fig"], beforeItem: "pear")
        snapshot.moveItem("apple", afterItem: "leek")
        expectEqual(snapshot.itemIdentifiers(inSection: .fruit), ["fig", "pear"])
        expectEqual(snapshot.itemIdentifiers(inSection: .vegetables), ["leek", "apple"])
        expectEqual(snapshot.numberOfItems, 4)
        expectEqual(snapshot.indexOfItem("leek"), 2)
        expectEqual(snapshot.sectionIdentifier(containingItem: "apple"), .vegetables)
        snapshot.appendItems(["fig"], toSection: .vegetables)
        expectEqual(snapshot.numberOfItems, 4)
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("already in the snapshot"), true)
        snapshot.deleteItems(["nothing", "pear"])
        snapshot.insertItems(["kiwi"], afterItem: "nothing")
        expectEqual(snapshot.itemIdentifiers, ["fig", "leek", "apple"])
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("no item nothing"), true)
    }

    @Test func applyingASnapshotUpdatesTheTableAndKeepsCellsOfItemsThatStay() {
        let window = makeWindow()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.rowHeight = 44
        table.register(UITableViewCell.self, forCellReuseIdentifier: "item")
        window.addSubview(table)
        var made: [String] = []
        let dataSource = UITableViewDiffableDataSource<Section, String>(tableView: table) { table, indexPath, item in
            made.append(item)
            let cell = table.dequeueReusableCell(withIdentifier: "item", for: indexPath)
            cell.textLabel?.text = item
            return cell
        }
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.fruit])
        snapshot.appendItems(["apple", "pear", "plum"])
        dataSource.apply(snapshot, animatingDifferences: false)
        expectEqual(table.visibleCells.map { $0.textLabel?.text }, ["apple", "pear", "plum"])
        let plum = table.cellForRow(at: IndexPath(row: 2, section: 0))
        made.removeAll()

        snapshot.deleteItems(["pear"])
        snapshot.insertItems(["fig"], beforeItem: "apple")
        snapshot.appendSections([.vegetables])
        snapshot.appendItems(["leek"], toSection: .vegetables)
        dataSource.apply(snapshot)
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
        expectEqual(made.sorted(), ["fig", "leek"])
        expectEqual(table.visibleCells.map { $0.textLabel?.text }, ["fig", "apple", "plum", "leek"])
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0)) === plum)
        expectEqual(dataSource.itemIdentifier(for: IndexPath(row: 0, section: 1)), "leek")
        expectEqual(dataSource.indexPath(for: "plum"), IndexPath(row: 2, section: 0))

        // Reordering items moves their cells.
        snapshot.moveItem("plum", beforeItem: "fig")
        made.removeAll()
        dataSource.apply(snapshot)
        #expect(made.isEmpty)
        expectEqual(table.visibleCells.map { $0.textLabel?.text }, ["plum", "fig", "apple", "leek"])
    }
}
