import TestExpectations
import Testing
@testable import UIKit

/// A collection cell with one label pinned inside its content view, 8
/// points from every edge: its fitting size is the label's plus 16 each way.
@MainActor
class LabelCell: UICollectionViewCell {
    let label = constrainedLabel(lines: 1)

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentView.pinInside(label, horizontal: 8, vertical: 8)
    }

    required init?(coder: NSCoder) { nil }
}

/// A label cell that records the sizes the layout proposed, in the order it was asked.
@MainActor
final class TagCell: LabelCell {
    var proposedSizes: [CGSize] = []

    override func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
        proposedSizes.append(layoutAttributes.size)
        return super.preferredLayoutAttributesFitting(layoutAttributes)
    }
}

/// A label cell whose text wraps, that keeps the width the layout gives it
/// and sizes only its height (the usual override: a required horizontal fit).
@MainActor
final class FullWidthNoteCell: LabelCell {
    override init(frame: CGRect) {
        super.init(frame: frame)
        label.numberOfLines = 0
    }

    required init?(coder: NSCoder) { nil }

    override func preferredLayoutAttributesFitting(_ layoutAttributes: UICollectionViewLayoutAttributes) -> UICollectionViewLayoutAttributes {
        let attributes = super.preferredLayoutAttributesFitting(layoutAttributes)
        attributes.size = systemLayoutSizeFitting(layoutAttributes.size, withHorizontalFittingPriority: .required,
                                                  verticalFittingPriority: .fittingSizeLevel)
        return attributes
    }
}

/// Items that are words, each shown in a label cell of `identifier`'s class.
@MainActor
final class WordSource: UICollectionViewDataSource {
    var words: [String]
    let identifier: String
    var cellsAsked: [Int] = []
    init(_ words: [String], identifier: String) {
        self.words = words
        self.identifier = identifier
    }

    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { words.count }
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        cellsAsked.append(indexPath.item)
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: identifier, for: indexPath)
        (cell as? LabelCell)?.label.text = words[indexPath.item]
        return cell
    }
}

@MainActor
@Suite struct SelfSizingCollectionTests {
    private func scene(_ words: [String], layout: UICollectionViewFlowLayout, cell: UICollectionViewCell.Type,
                       size: CGSize = CGSize(width: 320, height: 200)) -> (UICollectionView, WordSource, UIWindow) {
        let window = makeWindow()
        let collectionView = UICollectionView(frame: CGRect(origin: .zero, size: size), collectionViewLayout: layout)
        let identifier = "\(cell)"
        collectionView.register(cell, forCellWithReuseIdentifier: identifier)
        let source = WordSource(words, identifier: identifier)
        collectionView.dataSource = source
        window.addSubview(collectionView)
        collectionView.layoutIfNeeded()
        return (collectionView, source, window)
    }

    private func frame(_ collectionView: UICollectionView, _ item: Int) -> CGRect {
        collectionView.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame
    }

    @Test func automaticSizeGivesEachItemItsCellsFittingSizeAndTheLinesFollow() {
        let layout = UICollectionViewFlowLayout()
        layout.estimatedItemSize = UICollectionViewFlowLayout.automaticSize
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 10
        let words = ["Fig", "Pomegranate", "Kiwi", "Passion fruit"]
        let (collectionView, source, window) = scene(words, layout: layout, cell: TagCell.self)
        let sizes = words.map { pixelCeil(labelSize($0)) }.map { CGSize(width: $0.width + 16, height: $0.height + 16) }
        for (item, size) in sizes.enumerated() {
            expectEqual(frame(collectionView, item).size, size)
        }
        // The lines are filled with the measured widths, not the 50-point guess.
        let firstLine = sizes[0].width + 10 + sizes[1].width + 10 + sizes[2].width <= 320
        expectEqual(firstLine, (frame(collectionView, 2).minY == 0))
        // Each cell was asked once, with the size the layout had guessed for it.
        for cell in collectionView.visibleCells {
            expectEqual((cell as! TagCell).proposedSizes.count, 1)
        }
        #expect(((collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as! TagCell).proposedSizes)
                == [layout.itemSize])
        // The cells wear their measured frames.
        expectEqual(collectionView.cellForItem(at: IndexPath(item: 1, section: 0))!.frame, frame(collectionView, 1))
        expectEqual(source.cellsAsked.sorted(), [0, 1, 2, 3])
        withExtendedLifetime((source, window)) {}
    }

    @Test func anEstimateHoldsForItemsNotYetShownAndTheContentSizeFollowsMeasuring() {
        let layout = UICollectionViewFlowLayout()
        layout.estimatedItemSize = CGSize(width: 300, height: 100)
        layout.minimumLineSpacing = 0
        let words = Array(repeating: "Note", count: 50)
        let (collectionView, source, window) = scene(words, layout: layout, cell: FullWidthNoteCell.self)
        let measured = pixelCeil(labelSize("Note")).height + 16
        // Width kept at the estimate's 300 (a required fit), height measured.
        expectEqual(frame(collectionView, 0).size, CGSize(width: 300, height: measured))
        // Shown items are measured; the rest still count 100 points each.
        let shown = source.cellsAsked.count
        expectEqual(shown, Int((200 / measured).rounded(.up)))
        expectEqual(frame(collectionView, shown).height, 100)
        #expect(abs(collectionView.contentSize.height - (CGFloat(shown) * measured + CGFloat(50 - shown) * 100)) < 1e-9)
        // Scrolling on measures what comes into view.
        collectionView.contentOffset.y = 400
        collectionView.layoutIfNeeded()
        let visible = collectionView.indexPathsForVisibleItems.map(\.item)
        for item in visible { expectEqual(frame(collectionView, item).height, measured) }
        withExtendedLifetime((source, window)) {}
    }

    @Test func aWrappedLabelTakesTheHeightOfItsLinesAtTheWidthItIsGiven() {
        let layout = UICollectionViewFlowLayout()
        layout.estimatedItemSize = CGSize(width: 200, height: 40)
        let long = "A note long enough to wrap onto several lines in a two hundred point wide cell."
        let (collectionView, source, window) = scene([long], layout: layout, cell: FullWidthNoteCell.self)
        let text = labelSize(long, wrappingAt: 184)
        #expect(text.height > 2 * labelSize("A").height)
        expectEqual(frame(collectionView, 0).size, CGSize(width: 200, height: pixelCeil(text).height + 16))
        withExtendedLifetime((source, window)) {}
    }

    @Test func withoutAnEstimateCellsAreNotAskedAndReloadingMeasuresAgain() {
        let layout = UICollectionViewFlowLayout()
        let (collectionView, source, window) = scene(["Fig"], layout: layout, cell: TagCell.self)
        let cell = collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as! TagCell
        #expect(cell.proposedSizes.isEmpty)
        expectEqual(frame(collectionView, 0).size, CGSize(width: 50, height: 50))

        layout.estimatedItemSize = UICollectionViewFlowLayout.automaticSize
        collectionView.reloadData()
        collectionView.layoutIfNeeded()
        let fig = pixelCeil(labelSize("Fig"))
        expectEqual(frame(collectionView, 0).size, CGSize(width: fig.width + 16, height: fig.height + 16))
        source.words = ["Pomegranate"]
        collectionView.reloadData()
        collectionView.layoutIfNeeded()
        let pomegranate = pixelCeil(labelSize("Pomegranate"))
        expectEqual(frame(collectionView, 0).size, CGSize(width: pomegranate.width + 16, height: pomegranate.height + 16))
        withExtendedLifetime((source, window)) {}
    }
}
