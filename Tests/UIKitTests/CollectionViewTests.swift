import TestExpectations
import Testing
@testable import UIKit

/// A collection data source and delegate that records selection, with items named "section.item".
@MainActor
final class CollectionLog: UICollectionViewDataSource, UICollectionViewDelegateFlowLayout {
    var counts: [Int]
    var entries: [String] = []
    var sizes: [IndexPath: CGSize] = [:]
    init(counts: [Int]) { self.counts = counts }

    func numberOfSections(in collectionView: UICollectionView) -> Int { counts.count }
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        cell.tag = indexPath.section * 1000 + indexPath.item
        return cell
    }
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize {
        sizes[indexPath] ?? (collectionViewLayout as! UICollectionViewFlowLayout).itemSize
    }
    func collectionView(_ collectionView: UICollectionView, didHighlightItemAt indexPath: IndexPath) { entries.append("didHighlight \(indexPath.item)") }
    func collectionView(_ collectionView: UICollectionView, didUnhighlightItemAt indexPath: IndexPath) { entries.append("didUnhighlight \(indexPath.item)") }
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) { entries.append("didSelect \(indexPath.item)") }
    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) { entries.append("didDeselect \(indexPath.item)") }
}

@MainActor
private func collectionScene(_ counts: [Int], width: CGFloat = 400, layout: UICollectionViewLayout)
    -> (UICollectionView, CollectionLog, TouchSynthesizer) {
    let window = makeWindow()
    let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: width, height: 800), collectionViewLayout: layout)
    collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
    let log = CollectionLog(counts: counts)
    collectionView.dataSource = log
    collectionView.delegate = log
    window.addSubview(collectionView)
    collectionView.layoutIfNeeded()
    return (collectionView, log, TouchSynthesizer(window: window))
}

@MainActor
private func frames(_ collectionView: UICollectionView, _ items: Range<Int>, section: Int = 0) -> [CGRect] {
    items.map { collectionView.layoutAttributesForItem(at: IndexPath(item: $0, section: section))!.frame }
}

@MainActor
@Suite struct CollectionViewTests {
    // MARK: Flow layout

    @Test func aFullLineSpreadsItsSpareSpaceBetweenItemsAndTheLastLineIsPacked() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        // 350 wide: three items fit (100·3 + 10·2 = 320); the 30 points left widen each gap to 25.
        let (collectionView, log, _) = collectionScene([5], width: 350, layout: layout)
        expectEqual(frames(collectionView, 0..<3).map(\.minX), [0, 125, 250])
        #expect(frames(collectionView, 0..<3).allSatisfy { $0.minY == 0 })
        // The last line holds two items at the minimum spacing, from the left.
        #expect(frames(collectionView, 3..<5) == [CGRect(x: 0, y: 110, width: 100, height: 100),
                                                  CGRect(x: 110, y: 110, width: 100, height: 100)])
        expectEqual(collectionView.contentSize, CGSize(width: 350, height: 210))
        withExtendedLifetime(log) {}
    }

    @Test func exactFitsKeepTheMinimumSpacingAndInsetsAndSpacingsCount() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 50)
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 20
        layout.sectionInset = UIEdgeInsets(top: 5, left: 15, bottom: 7, right: 15)
        layout.headerReferenceSize = CGSize(width: 0, height: 30)
        // 350 − 30 of insets = 320: exactly three items at the minimum spacing.
        let (collectionView, log, _) = collectionScene([6, 1], width: 350, layout: layout)
        let firstLineXs: [CGFloat] = [15, 125, 235]
        let secondLineYs: [CGFloat] = [30 + 5 + 70, 105, 105]
        expectEqual(frames(collectionView, 0..<3).map(\.minX), firstLineXs)
        expectEqual(frames(collectionView, 3..<6).map(\.minY), secondLineYs)
        // Section 1 starts after section 0's bottom inset, with its own header.
        let sectionOneItem = CGRect(x: 15, y: 155 + 7 + 30 + 5, width: 100, height: 50)
        let sectionOneHeader = CGRect(x: 0, y: 162, width: 350, height: 30)
        expectEqual(frames(collectionView, 0..<1, section: 1), [sectionOneItem])
        #expect(collectionView.collectionViewLayout.layoutAttributesForSupplementaryView(
            ofKind: UICollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1))?.frame == sectionOneHeader)
        withExtendedLifetime(log) {}
    }

    @Test func aLoneItemIsCentredAndItemsAreCentredAcrossTheirLine() {
        let layout = UICollectionViewFlowLayout()
        let (collectionView, log, _) = collectionScene([3], width: 400, layout: layout)
        log.sizes = [IndexPath(item: 0, section: 0): CGSize(width: 300, height: 40),
                     IndexPath(item: 1, section: 0): CGSize(width: 300, height: 40),
                     IndexPath(item: 2, section: 0): CGSize(width: 50, height: 20)]
        layout.invalidateLayout()
        collectionView.layoutIfNeeded()
        // Item 0 is alone on its line (item 1 does not fit): centred. Items 1 and 2 share the last line.
        expectEqual(frames(collectionView, 0..<1), [CGRect(x: 50, y: 0, width: 300, height: 40)])
        #expect(frames(collectionView, 1..<3) == [CGRect(x: 0, y: 50, width: 300, height: 40),
                                                  CGRect(x: 310, y: 60, width: 50, height: 20)])
    }

    @Test func horizontalScrollingFillsColumns() {
        let layout = UICollectionViewFlowLayout()
        layout.scrollDirection = .horizontal
        layout.itemSize = CGSize(width: 100, height: 380)
        let (collectionView, log, _) = collectionScene([5], width: 400, layout: layout)
        // 800 tall: two items a column, the spare 40 points between them.
        expectEqual(frames(collectionView, 0..<3).map(\.origin), [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 420), CGPoint(x: 110, y: 0)])
        expectEqual(collectionView.contentSize, CGSize(width: 320, height: 800))
        withExtendedLifetime(log) {}
    }

    // MARK: Reuse and touch

    @Test func onlyVisibleItemsHaveCellsAndTheyAreReused() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let (collectionView, log, _) = collectionScene([3000], width: 320, layout: layout)
        // 3 items a row, rows every 110 points: 8 rows (0…7) touch the first 800 points.
        expectEqual(collectionView.visibleCells.count, 24)
        for step in 1...200 {
            collectionView.contentOffset = CGPoint(x: 0, y: CGFloat(step) * 37)
            collectionView.layoutIfNeeded()
        }
        #expect(collectionView.cellsMade <= 27)
        #expect(collectionView.visibleCells.allSatisfy { collectionView.indexPath(for: $0) != nil })
        expectEqual(collectionView.indexPathsForVisibleItems.first, IndexPath(item: 3 * Int(7400 / 110), section: 0))
        withExtendedLifetime(log) {}
    }

    @Test func anItemHighlightsAfterTheDelayAndIsSelectedOnLiftAndADragCancels() {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        let (collectionView, log, synthesizer) = collectionScene([100], width: 320, layout: layout)
        let finger = synthesizer.touchDown(at: CGPoint(x: 160, y: 50))
        #expect(log.entries.isEmpty)
        synthesizer.advance(by: 0.2)
        expectEqual(log.entries, ["didHighlight 1"])
        #expect(collectionView.cellForItem(at: IndexPath(item: 1, section: 0))?.isHighlighted == true)
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["didHighlight 1", "didUnhighlight 1", "didSelect 1"])
        expectEqual(collectionView.indexPathsForSelectedItems, [IndexPath(item: 1, section: 0)])
        log.entries.removeAll()
        synthesizer.advance(by: 1)
        let second = synthesizer.touchDown(at: CGPoint(x: 50, y: 500))
        synthesizer.advance(by: 0.2)
        synthesizer.drag(second, from: CGPoint(x: 50, y: 500), to: CGPoint(x: 50, y: 300))
        synthesizer.touchUp(second)
        expectEqual(log.entries, ["didHighlight 12", "didUnhighlight 12"])
        expectEqual(collectionView.indexPathsForSelectedItems, [IndexPath(item: 1, section: 0)])
    }

    // MARK: Compositional layout

    @Test func aCompositionalGridAndList() {
        let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.25),
                                                                             heightDimension: .fractionalHeight(1)))
        item.contentInsets = NSDirectionalEdgeInsets(top: 2, leading: 2, bottom: 2, trailing: 2)
        // A grid: rows of four quarter-width items, 100 points tall, 10 apart.
        let grid = NSCollectionLayoutGroup.horizontal(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1),
                                                                                         heightDimension: .absolute(100)),
                                                      subitem: item, count: 4)
        let gridSection = NSCollectionLayoutSection(group: grid)
        gridSection.interGroupSpacing = 10
        let listItem = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(44)))
        let list = NSCollectionLayoutSection(group: .vertical(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1),
                                                                                                 heightDimension: .absolute(44)),
                                                              subitems: [listItem]))
        let layout = UICollectionViewCompositionalLayout { index, environment in
            expectEqual(environment.container.contentSize.width, 400)
            return index == 0 ? gridSection : list
        }
        let (collectionView, log, _) = collectionScene([6, 3], width: 400, layout: layout)
        #expect(frames(collectionView, 0..<6) == [
            CGRect(x: 2, y: 2, width: 96, height: 96), CGRect(x: 102, y: 2, width: 96, height: 96),
            CGRect(x: 202, y: 2, width: 96, height: 96), CGRect(x: 302, y: 2, width: 96, height: 96),
            CGRect(x: 2, y: 112, width: 96, height: 96), CGRect(x: 102, y: 112, width: 96, height: 96)])
        expectEqual(frames(collectionView, 0..<3, section: 1).map(\.minY), [210, 254, 298])
        expectEqual(collectionView.contentSize.height, 342)
        withExtendedLifetime(log) {}
    }

    @Test func diffableCollectionAndBadUpdates() {
        let layout = UICollectionViewFlowLayout()
        let window = makeWindow()
        let collectionView = UICollectionView(frame: window.bounds, collectionViewLayout: layout)
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
        window.addSubview(collectionView)
        let dataSource = UICollectionViewDiffableDataSource<Int, String>(collectionView: collectionView) { view, indexPath, item in
            view.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        }
        var snapshot = NSDiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(["a", "b", "c"])
        dataSource.apply(snapshot)
        collectionView.selectItem(at: IndexPath(item: 2, section: 0), animated: false, scrollPosition: [])
        snapshot.insertItems(["z"], beforeItem: "a")
        dataSource.apply(snapshot)
        #expect(UIApplication.shared.diagnostics.entries.isEmpty)
        expectEqual(collectionView.visibleCells.count, 4)
        expectEqual(dataSource.itemIdentifier(for: IndexPath(item: 0, section: 0)), "z")
        expectEqual(collectionView.indexPathsForSelectedItems, [IndexPath(item: 3, section: 0)])  // "c" moved down
        // An update that does not match the data is reported, and the view reloads.
        collectionView.deleteItems(at: [IndexPath(item: 0, section: 0)])
        expectEqual(UIApplication.shared.diagnostics.entries.last?.message.contains("invalid number of rows in section 0"), true)
        expectEqual(collectionView.numberOfItems(inSection: 0), 4)
    }
}

/// Updates shown over time (`CollectionUpdateAnimation.swift`), on the manual clock.
@MainActor
@Suite struct CollectionUpdateAnimationTests {
    /// Four 100-point items a line across a 400-point collection view.
    private func grid(_ count: Int, layout: UICollectionViewFlowLayout = UICollectionViewFlowLayout())
        -> (UICollectionView, CollectionLog, TouchSynthesizer) {
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.minimumInteritemSpacing = 0
        layout.minimumLineSpacing = 0
        return collectionScene([count], layout: layout)
    }

    private func item(_ index: Int) -> IndexPath { IndexPath(item: index, section: 0) }

    @Test func aDeletedItemFadesWhileTheOthersMoveUpAndTheCompletionWaitsForTheEnd() throws {
        let (collectionView, log, synthesizer) = grid(12)
        let deleted = try #require(collectionView.cellForItem(at: item(1)))
        let next = try #require(collectionView.cellForItem(at: item(2)))
        let wrapping = try #require(collectionView.cellForItem(at: item(4)))
        log.counts = [11]
        var completions: [Bool] = []
        collectionView.performBatchUpdates({ collectionView.deleteItems(at: [item(1)]) }, completion: { completions.append($0) })
        // The model is the new one at once.
        #expect(collectionView.cellForItem(at: item(1)) === next)
        expectEqual(next.frame, CGRect(x: 100, y: 0, width: 100, height: 100))
        expectEqual(wrapping.frame, CGRect(x: 300, y: 0, width: 100, height: 100))
        #expect(!collectionView.visibleCells.contains { $0 === deleted })
        // Halfway: the items that stay are between their places; the deleted one fades where it was.
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let x = try #require(next.layer.presentation()).position.x
        #expect(x > 150 && x < 250)
        let wrapped = try #require(wrapping.layer.presentation()).position
        #expect(wrapped.x > 50 && wrapped.x < 350 && wrapped.y > 50 && wrapped.y < 150)
        let opacity = try #require(deleted.layer.presentation()).opacity
        #expect(opacity > 0 && opacity < 1)
        #expect(deleted.superview === collectionView && !deleted.isHidden && !deleted.isUserInteractionEnabled)
        #expect(completions.isEmpty)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)
        expectEqual(completions, [true])
        #expect(next.layer.presentation()?.position == CGPoint(x: 150, y: 50))
        #expect(wrapping.layer.presentation()?.position == CGPoint(x: 350, y: 50))
        #expect(deleted.isHidden && deleted.alpha == 1 && deleted.isUserInteractionEnabled)
        #expect(collectionView.dequeueReusableCell(withReuseIdentifier: "item", for: item(0)) === deleted)
    }

    /// A layout that brings inserted items down from above their place.
    final class DroppingLayout: UICollectionViewFlowLayout {
        override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
            guard let attributes = layoutAttributesForItem(at: itemIndexPath)?.copy() as? UICollectionViewLayoutAttributes else { return nil }
            attributes.frame.origin.y -= 200
            return attributes
        }
    }

    @Test func insertedItemsComeFromTheLayoutsInitialAttributesAndMovedOnesSlide() throws {
        let (collectionView, log, synthesizer) = grid(6, layout: DroppingLayout())
        let first = try #require(collectionView.cellForItem(at: item(0)))
        let fifth = try #require(collectionView.cellForItem(at: item(5)))
        log.counts = [7]
        var completed = false
        collectionView.performBatchUpdates({
            collectionView.insertItems(at: [item(0)])
            collectionView.moveItem(at: item(5), to: item(1))
        }, completion: { completed = $0 })
        let inserted = try #require(collectionView.cellForItem(at: item(0)))
        #expect(collectionView.cellForItem(at: item(1)) === fifth)
        #expect(collectionView.cellForItem(at: item(2)) === first)
        expectEqual(inserted.frame, CGRect(x: 0, y: 0, width: 100, height: 100))
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let falling = try #require(inserted.layer.presentation()).position
        #expect(falling.x == 50 && falling.y > -150 && falling.y < 50)
        #expect(inserted.layer.presentation()?.opacity == 1)
        let moving = try #require(fifth.layer.presentation()).position
        #expect(moving.x > 50 && moving.x < 250 && moving.y > 50 && moving.y < 150)
        #expect(!completed)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)
        #expect(completed)
        #expect(inserted.layer.presentation()?.position == CGPoint(x: 50, y: 50))
        #expect(fifth.layer.presentation()?.position == CGPoint(x: 150, y: 50))
        #expect(first.layer.presentation()?.position == CGPoint(x: 250, y: 50))
    }

    @Test func aReloadedItemCrossFadesAndWithoutAnimationsAnUpdateIsShownAtOnce() throws {
        let (collectionView, log, synthesizer) = grid(4)
        let old = try #require(collectionView.cellForItem(at: item(2)))
        collectionView.reloadItems(at: [item(2)])
        let new = try #require(collectionView.cellForItem(at: item(2)))
        #expect(new !== old)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let incoming = try #require(new.layer.presentation()).opacity
        let outgoing = try #require(old.layer.presentation()).opacity
        #expect(incoming > 0 && incoming < 1 && outgoing > 0 && outgoing < 1)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)

        let last = try #require(collectionView.cellForItem(at: item(3)))
        log.counts = [3]
        var completed = false
        UIView.performWithoutAnimation {
            collectionView.performBatchUpdates({ collectionView.deleteItems(at: [item(0)]) }, completion: { completed = $0 })
        }
        #expect(completed)
        synthesizer.advance(by: 0.01)
        #expect(last.layer.presentation()?.position == CGPoint(x: 250, y: 50), "at its new place at once")
    }

    /// Both diffable data sources animate their differences when asked,
    /// and call their completion at the animation's end; without
    /// animating differences, at once.
    @Test func applyingASnapshotAnimatesBothListViewsUnlessToldNot() throws {
        let window = makeWindow()
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.minimumInteritemSpacing = 0
        let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), collectionViewLayout: layout)
        collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
        let table = UITableView(frame: CGRect(x: 0, y: 400, width: 400, height: 400), style: .plain)
        table.rowHeight = 44
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        window.addSubview(collectionView)
        window.addSubview(table)
        let grid = UICollectionViewDiffableDataSource<Int, String>(collectionView: collectionView) { view, indexPath, _ in
            view.dequeueReusableCell(withReuseIdentifier: "item", for: indexPath)
        }
        let list = UITableViewDiffableDataSource<Int, String>(tableView: table) { view, indexPath, _ in
            view.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        }
        var snapshot = NSDiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(["a", "b", "c"])
        grid.apply(snapshot, animatingDifferences: false)
        list.apply(snapshot, animatingDifferences: false)
        let gridB = try #require(collectionView.cellForItem(at: IndexPath(item: 1, section: 0)))
        let listB = try #require(table.cellForRow(at: IndexPath(row: 1, section: 0)))
        let synthesizer = TouchSynthesizer(window: window)

        snapshot.deleteItems(["a"])
        var done: [String] = []
        grid.apply(snapshot) { done.append("grid") }
        list.apply(snapshot) { done.append("list") }
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration / 2)
        let gridX = try #require(gridB.layer.presentation()).position.x
        let listY = try #require(listB.layer.presentation()).position.y
        #expect(gridX > 50 && gridX < 150)
        #expect(listY > 22 && listY < 66)
        #expect(done.isEmpty)
        synthesizer.advance(by: TableViewMetrics.updateAnimationDuration)
        expectEqual(done, ["grid", "list"])

        snapshot.deleteItems(["b"])
        grid.apply(snapshot, animatingDifferences: false) { done.append("grid at once") }
        list.apply(snapshot, animatingDifferences: false) { done.append("list at once") }
        expectEqual(done, ["grid", "list", "grid at once", "list at once"])
    }
}
