import Testing
@testable import UIKit

/// A cell with one multi-line label pinned inside its content view by
/// constraints: 16 points from the sides, 11 from the top and bottom.
@MainActor
final class NoteCell: UITableViewCell {
    let note = UILabel()

    override init(style: CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        note.numberOfLines = 0
        note.font = .systemFont(ofSize: 17)
        note.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(note)
        NSLayoutConstraint.activate([
            note.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 16),
            note.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -16),
            note.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 11),
            note.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -11),
        ])
    }

    required init?(coder: NSCoder) { nil }
}

/// Rows of notes, each row's text given by the test.
@MainActor
final class NoteSource: UITableViewDataSource {
    var notes: [String]
    init(_ notes: [String]) { self.notes = notes }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { notes.count }
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "note", for: indexPath) as! NoteCell
        cell.note.text = notes[indexPath.row]
        return cell
    }
}

/// The height `text` takes in a 17-point multi-line label `width` wide.
@MainActor
private func wrappedHeight(_ text: String, width: CGFloat) -> CGFloat {
    let label = UILabel()
    label.numberOfLines = 0
    label.font = .systemFont(ofSize: 17)
    label.text = text
    return label.sizeThatFits(CGSize(width: width, height: .greatestFiniteMagnitude)).height
}

private let longNote = "A row whose note is long enough to wrap onto several lines in a table four hundred points wide, as notes do."

@MainActor
@Suite struct SelfSizingCellTests {
    /// A 400×800 table of self-sizing note cells (estimated 60 points).
    private func noteTable(_ notes: [String]) -> (UITableView, NoteSource) {
        let window = makeWindow()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(NoteCell.self, forCellReuseIdentifier: "note")
        table.rowHeight = UITableView.automaticDimension
        table.estimatedRowHeight = 60
        let source = NoteSource(notes)
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
        #expect(table.rectForRow(at: IndexPath(row: 41, section: 0)).height == 60)
        // The label was laid out at the width the constraints give it, wrapped to the rows' height.
        let cell = table.cellForRow(at: IndexPath(row: 1, section: 0)) as! NoteCell
        #expect(cell.contentView.frame.height == 22 + wrapped)
        #expect(cell.note.frame == CGRect(x: 16, y: 11, width: 368, height: wrapped))
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
        #expect(size == CGSize(width: 300, height: 73))
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
        #expect(label.frame == CGRect(x: 0, y: 0, width: 200, height: wrappedHeight(longNote, width: 200)))
        // Wider: fewer lines, at the next layout.
        container.frame.size.width = 390
        window.layoutIfNeeded()
        #expect(label.frame == CGRect(x: 0, y: 0, width: 390, height: wrappedHeight(longNote, width: 390)))
        #expect(wrappedHeight(longNote, width: 390) < wrappedHeight(longNote, width: 200))
    }
}
