import TestExpectations
import Testing
@testable import UIKit

/// A cell with one multi-line label pinned inside its content view by
/// constraints: 16 points from the sides, 11 from the top and bottom.
@MainActor
final class NoteCell: UITableViewCell {
    let note = constrainedLabel(lines: 0)

    override init(style: CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        contentView.pinInside(note, horizontal: 16, vertical: 11)
    }

    required init?(coder: NSCoder) { nil }
}

/// Rows of notes, each row's text given by the test.
@MainActor
final class NoteSource: UITableViewDataSource {
    var notes: [String]
    /// The rows whose cells were asked for, in order.
    var cellsAsked: [Int] = []
    init(_ notes: [String]) { self.notes = notes }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { notes.count }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        cellsAsked.append(indexPath.row)
        let cell = tableView.dequeueReusableCell(withIdentifier: "note", for: indexPath) as! NoteCell
        cell.note.text = notes[indexPath.row]
        return cell
    }
}

/// The height `text` takes in a 17-point multi-line label `width` wide.
@MainActor
private func wrappedHeight(_ text: String, width: CGFloat) -> CGFloat {
    labelSize(text, wrappingAt: width).height
}

@MainActor
@Suite struct SelfSizingCellTests {
    /// A 400×800 table of self-sizing note cells (estimated 60 points).
    private func noteTable(_ notes: [String], delegate: UITableViewDelegate? = nil) -> (UITableView, NoteSource) {
        let window = makeWindow()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(NoteCell.self, forCellReuseIdentifier: "note")
        table.rowHeight = UITableView.automaticDimension
        table.estimatedRowHeight = 60
        let source = NoteSource(notes)
        table.delegate = delegate
        table.dataSource = source
        window.addSubview(table)
        window.layoutIfNeeded()
        return (table, source)
    }

    @Test func rowsWithConstrainedLabelsTakeTheHeightOfTheirWrappedText() {
        let notes = ["Fig", longNote] + Array(repeating: "Pear", count: 40)
        let (table, source) = noteTable(notes)
        let oneLine = wrappedHeight("Fig", width: 368)
        let wrapped = wrappedHeight(longNote, width: 368)
        #expect(wrapped >= 3 * oneLine)  // the long note does wrap
        // Content: 11 + text + 11; then the separator's pixel below the content view (UIKit's).
        // Row tops are running sums of thirds of a point: compared to a hair.
        let separator: CGFloat = 1.0 / 3
        #expect(abs(table.rectForRow(at: IndexPath(row: 0, section: 0)).height - (22 + oneLine + separator)) < 1e-9)
        #expect(abs(table.rectForRow(at: IndexPath(row: 1, section: 0)).height - (22 + wrapped + separator)) < 1e-9)
        #expect(abs(table.rectForRow(at: IndexPath(row: 1, section: 0)).minY - (22 + oneLine + separator)) < 1e-9)
        // Rows not shown yet keep the estimate.
        expectEqual(table.rectForRow(at: IndexPath(row: 41, section: 0)).height, 60)
        // The label was laid out at the width the constraints give it, wrapped to the rows' height.
        let cell = table.cellForRow(at: IndexPath(row: 1, section: 0)) as! NoteCell
        expectEqual(cell.contentView.frame.height, 22 + wrapped)
        expectEqual(cell.note.frame, CGRect(x: 16, y: 11, width: 368, height: wrapped))
        withExtendedLifetime(source) {}
    }

    @Test func aReusedCellIsMeasuredWithItsNewText() {
        let notes = (0..<60).map { $0 % 2 == 0 ? "Plum" : longNote }
        let (table, source) = noteTable(notes)
        let oneLine = wrappedHeight("Plum", width: 368)
        let wrapped = wrappedHeight(longNote, width: 368)
        // Scroll far enough that cells of short rows come back for long ones and the other way round.
        table.scrollToRow(at: IndexPath(row: 40, section: 0), at: .top, animated: false)
        table.window?.layoutIfNeeded()
        for cell in table.visibleCells {
            let row = table.indexPath(for: cell)!.row
            let expected = 22 + (row % 2 == 0 ? oneLine : wrapped) + 1.0 / 3
            #expect(abs(table.rectForRow(at: IndexPath(row: row, section: 0)).height - expected) < 1e-9)
            #expect(abs(cell.frame.height - expected) < 1e-9)
        }
        withExtendedLifetime(source) {}
    }

    @Test func aCellWithoutConstraintsStillSizesWithSizeThatFits() {
        final class FixedCell: UITableViewCell {
            override func sizeThatFits(_ size: CGSize) -> CGSize { CGSize(width: size.width, height: 73) }
        }
        let cell = FixedCell(style: .default, reuseIdentifier: nil)
        let size = cell.systemLayoutSizeFitting(CGSize(width: 300, height: 0), withHorizontalFittingPriority: .required,
                                                verticalFittingPriority: .fittingSizeLevel)
        expectEqual(size, CGSize(width: 300, height: 73))
    }

    @Test func aMultiLineLabelWrapsAtTheWidthItsConstraintsGiveIt() {
        let window = makeWindow()
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 600))
        window.addSubview(container)
        let label = UILabel()
        label.numberOfLines = 0
        label.font = .systemFont(ofSize: 17)
        label.text = longNote
        label.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(label)
        NSLayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            label.trailingAnchor.constraint(equalTo: container.trailingAnchor),
            label.topAnchor.constraint(equalTo: container.topAnchor),
        ])
        window.layoutIfNeeded()
        expectEqual(label.frame, CGRect(x: 0, y: 0, width: 200, height: wrappedHeight(longNote, width: 200)))
        // Wider: fewer lines, at the next layout.
        container.frame.size.width = 390
        window.layoutIfNeeded()
        expectEqual(label.frame, CGRect(x: 0, y: 0, width: 390, height: wrappedHeight(longNote, width: 390)))
        #expect(wrappedHeight(longNote, width: 390) < wrappedHeight(longNote, width: 200))
    }

    /// A delegate that gives each row its own estimate and section 0 a
    /// header of its own.
    @MainActor
    final class EstimatingDelegate: UITableViewDelegate {
        var estimates: [CGFloat] = []
        var header: UIView?
        func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat {
            estimates[indexPath.row]
        }
        func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { header }
    }

    @Test func theDelegatesEstimatesStandInForRowsNotYetShown() {
        let delegate = EstimatingDelegate()
        // Row 30 has no estimate: the standard row height stands in (UIKit's automaticDimension estimate).
        delegate.estimates = (0..<40).map { $0 == 30 ? UITableView.automaticDimension : CGFloat(50 + $0) }
        let (table, source) = noteTable(Array(repeating: "Pear", count: 40), delegate: delegate)
        let measured = wrappedHeight("Pear", width: 368) + 22 + 1.0 / 3
        let shown = source.cellsAsked.count
        #expect(shown > 0 && shown < 29)
        #expect(abs(table.rectForRow(at: IndexPath(row: 0, section: 0)).height - measured) < 1e-9)
        // Row tops are running sums of thirds of a point: heights are compared to a hair.
        #expect(abs(table.rectForRow(at: IndexPath(row: 29, section: 0)).height - 79) < 1e-9)
        #expect(abs(table.rectForRow(at: IndexPath(row: 30, section: 0)).height - 44) < 1e-9)
        #expect(abs(table.rectForRow(at: IndexPath(row: 31, section: 0)).height - 81) < 1e-9)
        let estimated = (shown..<40).reduce(CGFloat(0)) { $0 + (delegate.estimates[$1] < 0 ? 44 : delegate.estimates[$1]) }
        #expect(abs(table.contentSize.height - (CGFloat(shown) * measured + estimated)) < 1e-9)
        withExtendedLifetime(source) {}
    }

    @Test func anEmptyBatchMeasuresTheRowsOnScreenAgainWithoutAskingForCells() {
        let notes = (0..<60).map { $0 % 3 == 0 ? longNote : "Plum" }
        let (table, source) = noteTable(notes)
        // Scroll down step by step so that the rows above the screen have been measured.
        for _ in 0..<8 {
            table.contentOffset.y += 100
            table.layoutIfNeeded()
        }
        let firstShown = table.indexPathsForVisibleRows!.first!.row
        #expect(firstShown > 5)
        let row = firstShown + 2
        let before = table.rectForRow(at: IndexPath(row: row, section: 0))
        let below = table.rectForRow(at: IndexPath(row: row + 1, section: 0))
        let asked = source.cellsAsked.count

        // Nothing changed: the rows above keep their measured heights and nothing on screen moves.
        table.beginUpdates()
        table.endUpdates()
        expectEqual(table.rectForRow(at: IndexPath(row: row, section: 0)), before)
        expectEqual(table.rectForRow(at: IndexPath(row: row + 1, section: 0)), below)

        // The cell's content grows: an empty batch measures it again, and the rows below move down.
        let cell = table.cellForRow(at: IndexPath(row: row, section: 0)) as! NoteCell
        let grown = longNote + " " + longNote
        source.notes[row] = grown
        cell.note.text = grown
        table.performBatchUpdates(nil)
        let height = wrappedHeight(grown, width: 368) + 22 + 1.0 / 3
        #expect(height > before.height)
        #expect(abs(table.rectForRow(at: IndexPath(row: row, section: 0)).height - height) < 1e-9)
        expectEqual(table.rectForRow(at: IndexPath(row: row, section: 0)).minY, before.minY)
        #expect(abs(table.rectForRow(at: IndexPath(row: row + 1, section: 0)).minY - (before.minY + height)) < 1e-9)
        #expect(abs(cell.frame.height - height) < 1e-9)
        expectEqual(source.cellsAsked.count, asked)  // no cell was asked for again
        withExtendedLifetime(source) {}
    }

    @Test func aHeaderLaidOutWithConstraintsTakesItsFittingHeight() {
        let delegate = EstimatingDelegate()
        delegate.estimates = Array(repeating: 60, count: 3)
        let header = UITableViewHeaderFooterView(reuseIdentifier: nil)
        let title = constrainedLabel(lines: 0)
        title.text = longNote
        header.contentView.pinInside(title, horizontal: 20, vertical: 8)
        delegate.header = header
        let (table, source) = noteTable(["Fig", "Kiwi", "Lime"], delegate: delegate)
        let expected = pixelCeil(labelSize(longNote, wrappingAt: 360)).height + 16
        #expect(labelSize(longNote, wrappingAt: 360).height > 2 * labelSize("A").height)
        expectEqual(table.rect(forSection: 0).minY, 0)
        expectEqual(table.rectForHeader(inSection: 0).height, expected)
        expectEqual(table.rectForRow(at: IndexPath(row: 0, section: 0)).minY, expected)
        expectEqual(title.frame, CGRect(x: 20, y: 8, width: 360, height: expected - 16))
        withExtendedLifetime(source) {}
    }
}
