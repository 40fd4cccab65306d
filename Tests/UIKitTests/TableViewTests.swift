import TestExpectations
import Testing
@testable import UIKit

/// A data source and delegate that records what the table asks and tells,
/// in order (`entries`), with rows named "section.row".
@MainActor
final class TableLog: UITableViewDataSource, UITableViewDelegate {
    var rowCounts: [Int]
    var entries: [String] = []
    var cellsAsked = 0
    var headerTitles: [Int: String] = [:]
    var footerTitles: [Int: String] = [:]
    var refusesHighlight: Set<IndexPath> = []
    var redirectsSelection: [IndexPath: IndexPath?] = [:]
    var trailingActions: [UIContextualAction] = []
    var leadingActions: [UIContextualAction] = []
    var heights: [IndexPath: CGFloat] = [:]
    var logsDisplay = false

    init(rowCounts: [Int]) { self.rowCounts = rowCounts }

    func numberOfSections(in tableView: UITableView) -> Int { rowCounts.count }
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { rowCounts[section] }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        cellsAsked += 1
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = "\(indexPath.section).\(indexPath.row)"
        return cell
    }
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { headerTitles[section] }
    func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { footerTitles[section] }
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { heights[indexPath] ?? tableView.rowHeight }

    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        if logsDisplay { entries.append("willDisplay \(name(indexPath))") }
    }
    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath) {
        if logsDisplay { entries.append("didEndDisplaying \(name(indexPath))") }
    }
    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        entries.append("shouldHighlight \(name(indexPath))")
        return !refusesHighlight.contains(indexPath)
    }
    func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) { entries.append("didHighlight \(name(indexPath))") }
    func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) { entries.append("didUnhighlight \(name(indexPath))") }
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        entries.append("willSelect \(name(indexPath))")
        if let redirect = redirectsSelection[indexPath] { return redirect }
        return indexPath
    }
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { entries.append("didSelect \(name(indexPath))") }
    func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
        entries.append("willDeselect \(name(indexPath))")
        return indexPath
    }
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) { entries.append("didDeselect \(name(indexPath))") }
    func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        trailingActions.isEmpty ? nil : UISwipeActionsConfiguration(actions: trailingActions)
    }
    func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        leadingActions.isEmpty ? nil : UISwipeActionsConfiguration(actions: leadingActions)
    }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { entries.append("willBeginDragging") }

    private func name(_ indexPath: IndexPath) -> String { "\(indexPath.section).\(indexPath.row)" }
}

/// A window filled by a 400×800 table of `style` with 44-point rows.
@MainActor
func tableScene(_ rowCounts: [Int] = [100], style: UITableView.Style = .plain,
                configure: (UITableView, TableLog) -> Void = { _, _ in })
    -> (UITableView, TableLog, TouchSynthesizer) {
    let window = makeWindow()
    let table = UITableView(frame: window.bounds, style: style)
    table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
    table.rowHeight = 44
    let log = TableLog(rowCounts: rowCounts)
    configure(table, log)
    // Each assignment reloads; the delegate goes first so that the rows
    // (a million in one test) are read once, with their delegate's heights.
    table.delegate = log
    table.dataSource = log
    window.addSubview(table)
    table.layoutIfNeeded()
    return (table, log, TouchSynthesizer(window: window))
}

@MainActor
private func texts(_ cells: [UITableViewCell]) -> [String] {
    cells.map { $0.textLabel?.text ?? "" }
}

@MainActor
@Suite struct TableViewTests {
    // MARK: Rows, reuse and geometry

    @Test func onlyTheVisibleRowsHaveCellsAndScrollingReusesThem() {
        let (table, log, _) = tableScene([1000])
        // 800 / 44 = 18.2: rows 0…18 show.
        expectEqual(table.indexPathsForVisibleRows?.count, 19)
        expectEqual(table.visibleCells.first?.textLabel?.text, "0.0")
        expectEqual(table.visibleCells.last?.textLabel?.text, "0.18")
        expectEqual(table.contentSize, CGSize(width: 400, height: 44_000))
        expectEqual(log.cellsAsked, 19)
        // Scroll the whole way down a row at a time: no more cells than fit plus one are ever made.
        var offset: CGFloat = 0
        while offset < 44_000 - 800 {
            offset = min(offset + 11, 44_000 - 800)
            table.contentOffset = CGPoint(x: 0, y: offset)
            table.layoutIfNeeded()
            #expect(table.visibleCells.count <= 20)
        }
        #expect(table.cellsMade <= 20)
        expectEqual(table.visibleCells.last?.textLabel?.text, "0.999")
        expectEqual(table.indexPathsForVisibleRows?.first, IndexPath(row: 981, section: 0))
        // Every visible cell sits at its row's rectangle.
        for cell in table.visibleCells {
            let indexPath = table.indexPath(for: cell)!
            expectEqual(cell.frame, table.rectForRow(at: indexPath))
            #expect(!cell.isHidden)
        }
    }

    @Test func reusedCellsArePreparedAndTheDelegateHearsWhatCameAndWent() {
        final class CountingCell: UITableViewCell {
            var preparations = 0
            override func prepareForReuse() {
                super.prepareForReuse()
                preparations += 1
            }
        }
        let (table, log, _) = tableScene([100]) { table, log in
            table.register(CountingCell.self, forCellReuseIdentifier: "row")
            log.logsDisplay = true
        }
        #expect(table.visibleCells.allSatisfy { $0 is CountingCell })
        log.entries.removeAll()
        table.contentOffset = CGPoint(x: 0, y: 44)
        table.layoutIfNeeded()
        expectEqual(log.entries, ["didEndDisplaying 0.0", "willDisplay 0.19"])
        let reused = table.cellForRow(at: IndexPath(row: 19, section: 0)) as? CountingCell
        expectEqual(reused?.preparations, 1)
        #expect(table.cellForRow(at: IndexPath(row: 0, section: 0)) == nil)
    }

    @Test func geometryQueriesAnswerForSectionsHeadersAndFooters() {
        let (table, log, _) = tableScene([3, 0, 2]) { _, log in
            log.headerTitles = [0: "First", 2: "Third"]
            log.footerTitles = [2: "End"]
        }
        _ = log
        let header = TableViewMetrics.plainTitleHeight
        expectEqual(table.numberOfSections, 3)
        expectEqual(table.numberOfRows(inSection: 1), 0)
        expectEqual(table.numberOfRows(inSection: 7), 0)
        expectEqual(table.rectForHeader(inSection: 0), CGRect(x: 0, y: 0, width: 400, height: header))
        expectEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)), CGRect(x: 0, y: header, width: 400, height: 44))
        // Section 1 is empty and untitled: section 2's header follows section 0's last row.
        expectEqual(table.rectForHeader(inSection: 2).minY, header + 3 * 44)
        expectEqual(table.rectForRow(at: IndexPath(row: 1, section: 2)).minY, 2 * header + 4 * 44)
        expectEqual(table.rectForFooter(inSection: 2), CGRect(x: 0, y: 2 * header + 5 * 44, width: 400, height: header))
        expectEqual(table.contentSize.height, 3 * header + 5 * 44)
        expectEqual(table.rectForRow(at: IndexPath(row: 5, section: 0)), .zero)
        // Points: a row, a header, below everything.
        expectEqual(table.indexPathForRow(at: CGPoint(x: 10, y: header + 50)), IndexPath(row: 1, section: 0))
        #expect(table.indexPathForRow(at: CGPoint(x: 10, y: 5)) == nil)
        #expect(table.indexPathForRow(at: CGPoint(x: 10, y: 2_000)) == nil)
        #expect(table.indexPathsForRows(in: CGRect(x: 0, y: header + 40, width: 10, height: 100))
                == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0), IndexPath(row: 2, section: 0)])
        #expect(table.headerView(forSection: 0)?.textLabel?.text == "First")
        #expect(table.footerView(forSection: 2)?.textLabel?.text == "End")
    }

    @Test func rowHeightsFromTheDelegateAndSelfSizingCells() {
        final class TallCell: UITableViewCell {
            override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: size.width, height: 90) }
        }
        let (table, keptLog, _) = tableScene([30]) { table, log in
            log.heights = [IndexPath(row: 1, section: 0): 100]
            table.register(TallCell.self, forCellReuseIdentifier: "row")
        }
        expectEqual(table.rectForRow(at: IndexPath(row: 1, section: 0)), CGRect(x: 0, y: 44, width: 400, height: 100))
        expectEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).minY, 144)

        // rowHeight automatic: a row is estimated until its cell is measured (sizeThatFits).
        table.rowHeight = UITableView.automaticDimension
        table.estimatedRowHeight = 50
        expectEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).height, 50)
        table.layoutIfNeeded()
        expectEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).height, 90)
        expectEqual(table.rectForRow(at: IndexPath(row: 29, section: 0)).height, 50)  // not shown yet
        // Row 0 measured 90, row 1 kept the delegate's 100.
        expectEqual(table.rectForRow(at: IndexPath(row: 2, section: 0)).minY, 190)
        withExtendedLifetime(keptLog) {}
    }

    @Test func scrollToRowPutsTheRowWhereAsked() {
        let (table, keptLog, _) = tableScene([100])
        let row = IndexPath(row: 50, section: 0)
        table.scrollToRow(at: row, at: .top, animated: false)
        expectEqual(table.contentOffset.y, 2200)
        table.scrollToRow(at: row, at: .bottom, animated: false)
        expectEqual(table.contentOffset.y, 1444)  // 2244 - 800
        table.scrollToRow(at: row, at: .middle, animated: false)
        expectEqual(table.contentOffset.y, 1822)  // 2222 - 400
        table.scrollToRow(at: IndexPath(row: 99, section: 0), at: .top, animated: false)
        expectEqual(table.contentOffset.y, 3600)  // 4400 - 800: no further than the content goes
        expectEqual(table.visibleCells.last?.textLabel?.text, "0.99")
        withExtendedLifetime(keptLog) {}
    }

    @Test func plainHeadersStickToTheTopUntilTheNextSectionPushesThem() {
        let (table, keptLog, _) = tableScene([20, 20]) { _, log in log.headerTitles = [0: "A", 1: "B"] }
        let header = TableViewMetrics.plainTitleHeight
        table.contentOffset = CGPoint(x: 0, y: 300)
        table.layoutIfNeeded()
        #expect(table.headerView(forSection: 0)?.frame.minY == 300)
        // Section 1's header starts at 28 + 880 = 908; at offset 900 it pushes section 0's up.
        table.contentOffset = CGPoint(x: 0, y: 900)
        table.layoutIfNeeded()
        #expect(table.headerView(forSection: 0)?.frame.maxY == header + 20 * 44)
        #expect(table.headerView(forSection: 1)?.frame.minY == header + 20 * 44)
        table.contentOffset = CGPoint(x: 0, y: 1000)
        table.layoutIfNeeded()
        #expect(table.headerView(forSection: 0) == nil)
        #expect(table.headerView(forSection: 1)?.frame.minY == 1000)
        withExtendedLifetime(keptLog) {}
    }

    @Test func groupedStylesScrollTheirHeadersAndInsetGroupedRowsStandIn() {
        let (grouped, keptLog, _) = tableScene([2, 2], style: .grouped) { _, log in log.headerTitles = [0: "Fruit"] }
        expectEqual(grouped.rectForRow(at: IndexPath(row: 0, section: 0)).minY, TableViewMetrics.groupedHeaderTitleHeight)
        #expect(grouped.headerView(forSection: 0)?.textLabel?.text == "FRUIT")
        grouped.contentOffset = CGPoint(x: 0, y: 20)
        grouped.layoutIfNeeded()
        #expect(grouped.headerView(forSection: 0)?.frame.minY == 0)  // it scrolls away
        // The last row of a grouped section has no separator.
        #expect(grouped.cellForRow(at: IndexPath(row: 0, section: 0))?.separator.isHidden == false)
        #expect(grouped.cellForRow(at: IndexPath(row: 1, section: 0))?.separator.isHidden == true)

        let (inset, keptInsetLog, _) = tableScene([2], style: .insetGrouped)
        let inside = TableViewMetrics.insetGroupedSideInset
        expectEqual(inset.rectForRow(at: IndexPath(row: 0, section: 0)), CGRect(x: inside, y: TableViewMetrics.groupedEmptyHeaderHeight, width: 400 - 2 * inside, height: 44))
        let first = inset.cellForRow(at: IndexPath(row: 0, section: 0))!
        expectEqual(first.layer.cornerRadius, TableViewMetrics.insetGroupedCornerRadius)
        expectEqual(first.layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        #expect(inset.indexPathForRow(at: CGPoint(x: 5, y: 30)) == nil)  // beside the inset row
        withExtendedLifetime((keptLog, keptInsetLog)) {}
    }

    // MARK: Touch

    @Test func aRowHighlightsAfterTheContentDelayAndIsSelectedOnLift() {
        let (table, log, synthesizer) = tableScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 70))  // row 1
        let cell = table.cellForRow(at: IndexPath(row: 1, section: 0))!
        #expect(log.entries.isEmpty)
        #expect(!cell.isHighlighted)
        synthesizer.advance(by: ScrollViewConstants.contentTouchDelay + 0.01)
        expectEqual(log.entries, ["shouldHighlight 0.1", "didHighlight 0.1"])
        #expect(cell.isHighlighted)
        #expect(cell.selectedBackgroundView?.superview === cell)
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["shouldHighlight 0.1", "didHighlight 0.1", "willSelect 0.1", "didUnhighlight 0.1", "didSelect 0.1"])
        #expect(!cell.isHighlighted && cell.isSelected)
        expectEqual(table.indexPathForSelectedRow, IndexPath(row: 1, section: 0))
    }

    @Test func aQuickTapHighlightsAndSelectsAtTheLift() {
        let (table, log, synthesizer) = tableScene()
        synthesizer.tap(at: CGPoint(x: 100, y: 70))
        expectEqual(log.entries, ["shouldHighlight 0.1", "didHighlight 0.1", "willSelect 0.1", "didUnhighlight 0.1", "didSelect 0.1"])
        // Another row: the first is deselected, told before the new one is selected.
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 160))
        #expect(log.entries == ["shouldHighlight 0.3", "didHighlight 0.3", "willSelect 0.3", "willDeselect 0.1",
                                "didDeselect 0.1", "didUnhighlight 0.3", "didSelect 0.3"])
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.isSelected == false)
    }

    @Test func aDragCancelsTheHighlightAndScrolls() {
        let (table, log, synthesizer) = tableScene()
        let start = CGPoint(x: 100, y: 400)
        let finger = synthesizer.touchDown(at: start)
        synthesizer.advance(by: ScrollViewConstants.contentTouchDelay + 0.01)
        let cell = table.cellForRow(at: IndexPath(row: 9, section: 0))!
        #expect(cell.isHighlighted)
        synthesizer.drag(finger, from: start, to: CGPoint(x: 100, y: 200))
        #expect(!cell.isHighlighted)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 3)
        expectEqual(log.entries, ["shouldHighlight 0.9", "didHighlight 0.9", "didUnhighlight 0.9", "willBeginDragging"])
        #expect(table.contentOffset.y > 150)
        #expect(table.indexPathsForSelectedRows == nil)
    }

    @Test func aDragBeforeTheDelayNeverHighlights() {
        let (table, log, synthesizer) = tableScene()
        synthesizer.fling(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 100, y: 250), steps: 5, over: 0.08)
        synthesizer.advance(by: 3)
        expectEqual(log.entries, ["willBeginDragging"])
        #expect(table.contentOffset.y > 100)
    }

    @Test func willSelectCanRedirectOrRefuseAndShouldHighlightCanPreventSelection() {
        let (table, log, synthesizer) = tableScene { _, log in
            log.redirectsSelection[IndexPath(row: 1, section: 0)] = .some(IndexPath(row: 5, section: 0))
            log.redirectsSelection[IndexPath(row: 2, section: 0)] = .some(nil)
            log.refusesHighlight = [IndexPath(row: 3, section: 0)]
        }
        synthesizer.tap(at: CGPoint(x: 100, y: 70))
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 5, section: 0)])
        expectEqual(log.entries.last, "didSelect 0.5")
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 110))
        expectEqual(log.entries, ["shouldHighlight 0.2", "didHighlight 0.2", "willSelect 0.2", "didUnhighlight 0.2"])
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 5, section: 0)])
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 150))
        expectEqual(log.entries, ["shouldHighlight 0.3"])
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 5, section: 0)])
    }

    @Test func allowsSelectionAndMultipleSelection() {
        let (table, log, synthesizer) = tableScene()
        table.allowsSelection = false
        synthesizer.tap(at: CGPoint(x: 100, y: 70))
        #expect(log.entries.isEmpty)
        table.allowsSelection = true
        table.allowsMultipleSelection = true
        for y in [70.0, 160, 70] {
            synthesizer.advance(by: 1)
            synthesizer.tap(at: CGPoint(x: 100, y: y))
        }
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 3, section: 0)])
        expectEqual(log.entries.suffix(3), ["didUnhighlight 0.1", "willDeselect 0.1", "didDeselect 0.1"])
        // By code: the delegate is not told.
        log.entries.removeAll()
        table.selectRow(at: IndexPath(row: 7, section: 0), animated: false, scrollPosition: .none)
        table.deselectRow(at: IndexPath(row: 3, section: 0), animated: false)
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 7, section: 0)])
        #expect(table.cellForRow(at: IndexPath(row: 7, section: 0))?.isSelected == true)
        #expect(log.entries.isEmpty)
    }

    @Test func aLiftOutsideTheRowSelectsNothing() {
        let (table, log, synthesizer) = tableScene()
        table.isScrollEnabled = false
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 70))
        synthesizer.advance(by: 0.2)
        synthesizer.touchMove(finger, to: CGPoint(x: 100, y: 300))
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["shouldHighlight 0.1", "didHighlight 0.1", "didUnhighlight 0.1"])
        #expect(table.indexPathsForSelectedRows == nil)
    }

    @Test func aControlInACellKeepsItsTouches() {
        final class SwitchCell: UITableViewCell {
            let toggle = UISwitch()
            override init(style: CellStyle, reuseIdentifier: String?) {
                super.init(style: style, reuseIdentifier: reuseIdentifier)
                contentView.addSubview(toggle)
                toggle.frame.origin = CGPoint(x: 300, y: 6)
            }
            required init?(coder: NSCoder) { fatalError() }
        }
        let (table, log, synthesizer) = tableScene { table, _ in table.register(SwitchCell.self, forCellReuseIdentifier: "row") }
        let cell = table.cellForRow(at: IndexPath(row: 1, section: 0)) as! SwitchCell
        let wasOn = cell.toggle.isOn
        synthesizer.tap(at: cell.toggle.convert(CGPoint(x: 10, y: 10), to: nil))
        #expect(cell.toggle.isOn != wasOn)
        #expect(log.entries.isEmpty)
        #expect(table.indexPathsForSelectedRows == nil)
    }

    // MARK: Swipe actions

    @Test func aHorizontalSwipeRevealsActionsAndAVerticalDragScrolls() {
        var performed: [String] = []
        let (table, log, synthesizer) = tableScene { _, log in
            log.trailingActions = [UIContextualAction(style: .destructive, title: "Delete") { action, _, done in
                performed.append(action.title ?? "")
                done(true)
            }]
        }
        let row = IndexPath(row: 2, section: 0)
        let cell = table.cellForRow(at: row)!
        // Sideways: the content follows the finger, the table does not scroll.
        let finger = synthesizer.touchDown(at: CGPoint(x: 300, y: 110))
        synthesizer.drag(finger, from: CGPoint(x: 300, y: 110), to: CGPoint(x: 200, y: 112))
        #expect(cell.contentView.frame.minX < -80)
        expectEqual(table.contentOffset.y, 0)
        synthesizer.touchUp(finger)
        expectEqual(table.swipedRow, row)
        let buttonsWidth = -cell.contentView.frame.minX
        #expect(buttonsWidth >= TableViewMetrics.minimumSwipeActionWidth)
        #expect(log.entries.filter { $0.hasPrefix("didSelect") || $0 == "willBeginDragging" }.isEmpty)
        // Tapping the button performs the action and closes the row.
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 400 - buttonsWidth / 2, y: 110))
        expectEqual(performed, ["Delete"])
        #expect(table.swipedRow == nil)
        expectEqual(cell.contentView.frame.minX, 0)
        // Up and down on the same row scrolls.
        synthesizer.advance(by: 1)
        synthesizer.fling(from: CGPoint(x: 300, y: 400), to: CGPoint(x: 295, y: 250))
        synthesizer.advance(by: 2)
        #expect(table.contentOffset.y > 100)
        #expect(table.swipedRow == nil)
        expectEqual(performed, ["Delete"])
    }

    @Test func aSwipeToTheRightRevealsTheLeadingActionsOnTheLeft() {
        var performed: [String] = []
        let (table, log, synthesizer) = tableScene { _, log in
            log.leadingActions = [UIContextualAction(style: .normal, title: "Pin") { action, _, done in
                performed.append(action.title ?? "")
                done(true)
            }]
        }
        let row = IndexPath(row: 3, section: 0)
        let cell = table.cellForRow(at: row)!
        // A row with leading actions only: a drag to the left uncovers nothing and leaves it closed.
        synthesizer.fling(from: CGPoint(x: 300, y: 154), to: CGPoint(x: 150, y: 154))
        #expect(table.swipedRow == nil)
        expectEqual(cell.contentView.frame.minX, 0)
        log.entries.removeAll()
        // To the right: the content follows the finger and the actions show on the left.
        synthesizer.advance(by: 1)
        let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 154))
        synthesizer.drag(finger, from: CGPoint(x: 100, y: 154), to: CGPoint(x: 200, y: 156))
        #expect(cell.contentView.frame.minX > 80)
        synthesizer.touchUp(finger)
        expectEqual(table.swipedRow, row)
        let buttonsWidth = cell.contentView.frame.minX
        #expect(buttonsWidth >= TableViewMetrics.minimumSwipeActionWidth)
        expectEqual(table.contentOffset.y, 0)
        #expect(log.entries.filter { $0.hasPrefix("didSelect") }.isEmpty)
        // The button on the left performs the action and closes the row.
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: buttonsWidth / 2, y: 154))
        expectEqual(performed, ["Pin"])
        #expect(table.swipedRow == nil)
        expectEqual(cell.contentView.frame.minX, 0)
    }

    @Test func aTouchElsewhereClosesOpenActionsAndSelectsNothing() {
        let (table, log, synthesizer) = tableScene { _, log in
            log.trailingActions = [UIContextualAction(style: .normal, title: "Flag") { _, _, done in done(true) }]
        }
        synthesizer.fling(from: CGPoint(x: 300, y: 110), to: CGPoint(x: 150, y: 110))
        expectEqual(table.swipedRow, IndexPath(row: 2, section: 0))
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 100, y: 300))
        #expect(table.swipedRow == nil)
        #expect(log.entries.isEmpty)
    }

    @Test func aFullSwipePerformsTheFirstAction() {
        var performed = 0
        let (table, keptLog, synthesizer) = tableScene { _, log in
            log.trailingActions = [UIContextualAction(style: .destructive, title: "Delete") { _, _, done in
                performed += 1
                done(true)
            }]
        }
        synthesizer.fling(from: CGPoint(x: 390, y: 110), to: CGPoint(x: 60, y: 110))
        expectEqual(performed, 1)
        #expect(table.swipedRow == nil)
        withExtendedLifetime(keptLog) {}
    }

    @Test func rowsWithoutActionsDoNotSwipe() {
        let (table, keptLog, synthesizer) = tableScene()
        let cell = table.cellForRow(at: IndexPath(row: 2, section: 0))!
        synthesizer.fling(from: CGPoint(x: 300, y: 110), to: CGPoint(x: 150, y: 110))
        expectEqual(cell.contentView.frame.minX, 0)
        #expect(table.swipedRow == nil)
        withExtendedLifetime(keptLog) {}
    }

    // MARK: Bad input

    @Test func aMillionRowsLoadAndScrollAnywhere() {
        let (table, keptLog, _) = tableScene([1_000_000])
        expectEqual(table.contentSize.height, 44_000_000)
        table.scrollToRow(at: IndexPath(row: 765_432, section: 0), at: .top, animated: false)
        expectEqual(table.indexPathsForVisibleRows?.first, IndexPath(row: 765_432, section: 0))
        expectEqual(table.visibleCells.count, 19)
        expectEqual(table.indexPathForRow(at: CGPoint(x: 1, y: 43_999_999)), IndexPath(row: 999_999, section: 0))
        withExtendedLifetime(keptLog) {}
    }

    @Test func wrongCountsAndUnregisteredIdentifiersAreReportedNotFatal() {
        let (table, log, _) = tableScene([5]) { table, _ in table.register(nil, forCellReuseIdentifier: "row") }
        // The identifier "row" has no class: each row gets a default cell, and a report.
        expectEqual(table.visibleCells.count, 5)
        #expect(UIApplication.shared.diagnostics.entries.contains { $0.kind == .invalidListUpdate })
        log.rowCounts = [-3]
        table.reloadData()
        expectEqual(table.numberOfRows(inSection: 0), 0)
        #expect(table.visibleCells.isEmpty)
        table.scrollToRow(at: IndexPath(row: 4, section: 0), at: .top, animated: false)
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("no such row"), true)
    }

    // MARK: Cells

    @Test func separatorInsetsComeFromTheTableUnlessTheCellSetsItsOwn() {
        let (table, _, _) = tableScene([30])
        let first = table.cellForRow(at: IndexPath(row: 0, section: 0))!
        // The default: the content margin on the left, a hairline (⅓ pt at 3×) at the bottom.
        let hairline = 1 / UIScreen.main.scale
        expectEqual(first.separator.frame, CGRect(x: 16, y: 44 - hairline, width: 384, height: hairline))
        // The table's inset is every cell's default (Apple: "sets the default inset for all cells").
        table.separatorInset = UIEdgeInsets(top: 0, left: 3, bottom: 0, right: 11)
        table.layoutIfNeeded()
        for cell in table.visibleCells {
            expectEqual(cell.separatorInset, UIEdgeInsets(top: 0, left: 3, bottom: 0, right: 11))
            expectEqual(cell.separator.frame, CGRect(x: 3, y: 44 - hairline, width: 386, height: hairline))
        }
        // A cell's own inset takes precedence; negative values count as zero.
        let second = table.cellForRow(at: IndexPath(row: 1, section: 0))!
        second.separatorInset = UIEdgeInsets(top: 0, left: -5, bottom: 0, right: 40)
        table.separatorInset = .zero
        table.layoutIfNeeded()
        expectEqual(second.separator.frame, CGRect(x: 0, y: 44 - hairline, width: 360, height: hairline))
        expectEqual(first.separator.frame, CGRect(x: 0, y: 44 - hairline, width: 400, height: hairline))
    }

    @Test func anImageStandsBeforeTheTextAndSelectionStyleNoneShowsNoSelection() {
        let (table, _, synthesizer) = tableScene([5])
        let cell = table.cellForRow(at: IndexPath(row: 1, section: 0))!
        cell.imageView?.image = UIImage(size: CGSize(width: 30, height: 24))
        cell.selectionStyle = .none
        cell.layoutIfNeeded()
        // The image at the content margin, centred down the row; the text 16 points after it.
        expectEqual(cell.imageView?.frame, CGRect(x: 16, y: 10, width: 30, height: 24))
        expectEqual(cell.textLabel?.frame.minX, 62)
        expectEqual(cell.textLabel?.frame.maxX, 384)
        // Tapping the row selects it, but nothing shows the selection.
        synthesizer.tap(at: CGPoint(x: 200, y: 66))
        expectEqual(table.indexPathsForSelectedRows, [IndexPath(row: 1, section: 0)])
        #expect(cell.isSelected)
        #expect(cell.selectedBackgroundView?.superview == nil)
        expectEqual(cell.textLabel?.isHighlighted, false)
        // With the default style the same tap shows the grey background behind the content.
        let other = table.cellForRow(at: IndexPath(row: 3, section: 0))!
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 200, y: 154))
        #expect(other.selectedBackgroundView?.superview === other)
        expectEqual(other.textLabel?.isHighlighted, true)
    }

    @Test func aCellGivenTheSameAccessoryAgainKeepsItsAccessoryView() {
        // A reused cell is configured again with what it had: its chevron is kept, not built and drawn again.
        let cell = UITableViewCell(style: .default, reuseIdentifier: "row")
        cell.accessoryType = .disclosureIndicator
        let chevron = cell.subviews.first { $0 is StandardAccessoryView }
        #expect(chevron != nil)
        cell.accessoryType = .disclosureIndicator
        expectEqual(cell.subviews.filter { $0 is StandardAccessoryView }.count, 1)
        #expect(cell.subviews.first { $0 is StandardAccessoryView } === chevron)
        // Another type replaces it.
        cell.accessoryType = .checkmark
        #expect(chevron?.superview == nil)
        expectEqual(cell.subviews.filter { $0 is StandardAccessoryView }.count, 1)
    }
}
