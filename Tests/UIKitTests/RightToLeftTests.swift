import TestExpectations
import Testing
@testable import UIKit

/// Runs `body` in a clean application whose interface runs right to left
/// (as in an Arabic or Hebrew localization), with its window.
///
/// The direction is put back before the test returns: the main actor runs
/// the next test straight after, and one that draws `.natural` text without
/// a window of its own (LabelTests) would otherwise draw it right-aligned.
@MainActor
private func inRightToLeftApplication(_ body: @MainActor (UIWindow) throws -> Void) rethrows {
    let window = makeWindow()
    UIApplication.shared.userInterfaceLayoutDirection = .rightToLeft
    defer { UIApplication.shared.userInterfaceLayoutDirection = LayoutDirectionDefaults.direction() }
    try withExtendedLifetime(window) { try body(window) }
}

/// A view with a fixed frame in `window`, 300×200, for constraints to act in.
@MainActor
private func container(in window: UIWindow) -> UIView {
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 300, height: 200))
    window.addSubview(view)
    return view
}

@MainActor
private func constrainedView(in container: UIView) -> UIView {
    let view = UIView()
    view.translatesAutoresizingMaskIntoConstraints = false
    container.addSubview(view)
    return view
}

@MainActor
@Suite struct RightToLeftTests {
    // MARK: Direction

    @Test func theEffectiveDirectionIsTheSemanticAttributeAgainstTheApplications() {
        _ = makeWindow()
        let view = UIView()
        expectEqual(UIApplication.shared.userInterfaceLayoutDirection, .leftToRight)
        expectEqual(view.effectiveUserInterfaceLayoutDirection, .leftToRight)
        view.semanticContentAttribute = .forceRightToLeft
        expectEqual(view.effectiveUserInterfaceLayoutDirection, .rightToLeft)

        UIApplication.shared.userInterfaceLayoutDirection = .rightToLeft
        defer { UIApplication.shared.userInterfaceLayoutDirection = LayoutDirectionDefaults.direction() }
        let expected: [(UISemanticContentAttribute, UIUserInterfaceLayoutDirection)] = [
            (.unspecified, .rightToLeft), (.playback, .leftToRight), (.spatial, .leftToRight),
            (.forceLeftToRight, .leftToRight), (.forceRightToLeft, .rightToLeft),
        ]
        for (attribute, direction) in expected {
            view.semanticContentAttribute = attribute
            expectEqual(view.effectiveUserInterfaceLayoutDirection, direction)
            expectEqual(UIView.userInterfaceLayoutDirection(for: attribute), direction)
        }
        // Apple: the value does not pass down the tree.
        let parent = UIView()
        parent.semanticContentAttribute = .forceLeftToRight
        let child = UIView()
        parent.addSubview(child)
        expectEqual(child.effectiveUserInterfaceLayoutDirection, .rightToLeft)
    }

    @Test func theApplicationsDirectionComesFromItsLanguage() {
        func direction(_ environment: [String: String]) -> UIUserInterfaceLayoutDirection {
            LayoutDirectionDefaults.direction(environment: environment)
        }
        expectEqual(direction([:]), .leftToRight)
        expectEqual(direction(["LANG": "C.UTF-8"]), .leftToRight)
        expectEqual(direction(["LANG": "ar_EG.UTF-8"]), .rightToLeft)
        expectEqual(direction(["LANG": "en_US.UTF-8", "LC_MESSAGES": "he_IL.UTF-8"]), .rightToLeft)
        expectEqual(direction(["LC_ALL": "fa_IR", "LANG": "ar_EG.UTF-8"]), .rightToLeft)
        expectEqual(direction(["LANGUAGE": "en_GB:ar", "LANG": "ar_EG.UTF-8"]), .leftToRight)
        expectEqual(direction(["LANGUAGE": "ur", "LANG": "en_US.UTF-8"]), .rightToLeft)
    }

    // MARK: Auto Layout

    @Test func leadingAndTrailingConstraintsFlipAndLeftAndRightDoNot() {
        inRightToLeftApplication { window in
            let root = container(in: window)
            let first = constrainedView(in: root), second = constrainedView(in: root)
            let pinned = constrainedView(in: root), absolute = constrainedView(in: root)
            NSLayoutConstraint.activate([
                first.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
                first.widthAnchor.constraint(equalToConstant: 50),
                // 8 after the first view's trailing edge: further left.
                second.leadingAnchor.constraint(equalTo: first.trailingAnchor, constant: 8),
                second.widthAnchor.constraint(equalToConstant: 40),
                // An inequality turns round with the axis: its trailing edge at
                // least 30 before the container's (the left edge) holds it 30
                // from the left, while a weak width of 500 pulls it wide.
                pinned.leadingAnchor.constraint(equalTo: root.leadingAnchor),
                pinned.trailingAnchor.constraint(lessThanOrEqualTo: root.trailingAnchor, constant: -30),
                absolute.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 10),
                absolute.widthAnchor.constraint(equalToConstant: 10),
            ] + [first, second, pinned, absolute].flatMap { view in
                [view.topAnchor.constraint(equalTo: root.topAnchor), view.heightAnchor.constraint(equalToConstant: 10)]
            })
            let wide = pinned.widthAnchor.constraint(equalToConstant: 500)
            wide.priority = .defaultLow
            wide.isActive = true
            root.layoutIfNeeded()
            expectEqual(first.frame.minX, 230)
            expectEqual(second.frame.minX, 182)
            #expect(pinned.frame.minX == 30 && pinned.frame.maxX == 300)
            expectEqual(absolute.frame.minX, 10)
        }
    }

    @Test func aViewsDirectionChangingFlipsTheConstraintsItHolds() {
        let window = makeWindow()
        let root = container(in: window)
        let view = constrainedView(in: root)
        NSLayoutConstraint.activate([
            view.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
            view.widthAnchor.constraint(equalToConstant: 50),
            view.topAnchor.constraint(equalTo: root.topAnchor),
            view.heightAnchor.constraint(equalToConstant: 10),
        ])
        root.layoutIfNeeded()
        expectEqual(view.frame.minX, 20)
        // The constraints are held by the container: its direction decides.
        root.semanticContentAttribute = .forceRightToLeft
        root.layoutIfNeeded()
        expectEqual(view.frame.minX, 230)
        root.semanticContentAttribute = .unspecified
        root.layoutIfNeeded()
        expectEqual(view.frame.minX, 20)
        withExtendedLifetime(window) {}
    }

    @Test func directionalMarginsPutTheLeadingMarginOnTheRight() {
        inRightToLeftApplication { window in
            let root = container(in: window)
            root.directionalLayoutMargins = NSDirectionalEdgeInsets(top: 0, leading: 24, bottom: 0, trailing: 4)
            #expect(root.layoutMargins.right == 24 && root.layoutMargins.left == 4)
            let view = constrainedView(in: root)
            NSLayoutConstraint.activate([
                view.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
                view.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
                view.topAnchor.constraint(equalTo: root.topAnchor),
                view.heightAnchor.constraint(equalToConstant: 10),
            ])
            root.layoutIfNeeded()
            #expect(view.frame.minX == 4 && view.frame.maxX == 276)
            // Set as directional, the margins follow a change of direction.
            root.semanticContentAttribute = .forceLeftToRight
            #expect(root.layoutMargins.left == 24 && root.layoutMargins.right == 4)
            root.layoutIfNeeded()
            #expect(view.frame.minX == 24 && view.frame.maxX == 296)
        }
    }

    @Test func aHorizontalStackViewRunsFromTheRight() {
        func stack(in window: UIWindow, forcing attribute: UISemanticContentAttribute) -> (UIView, UIView) {
            let first = UIView(), second = UIView()
            let stack = UIStackView(arrangedSubviews: [first, second])
            stack.frame = CGRect(x: 0, y: 0, width: 300, height: 44)
            stack.distribution = .fillEqually
            stack.spacing = 10
            stack.semanticContentAttribute = attribute
            window.addSubview(stack)
            stack.layoutIfNeeded()
            return (first, second)
        }
        inRightToLeftApplication { window in
            let (first, second) = stack(in: window, forcing: .unspecified)
            expectEqual(first.frame, CGRect(x: 155, y: 0, width: 145, height: 44))
            expectEqual(second.frame, CGRect(x: 0, y: 0, width: 145, height: 44))
            // Forced left to right (a playback row, say), it keeps its order.
            let (kept, _) = stack(in: window, forcing: .forceLeftToRight)
            expectEqual(kept.frame.minX, 0)
            // And in a left-to-right application, forcing it right to left
            // reverses it: the stack holds the constraints between its views.
            let leftToRight = makeWindow()
            let (reversed, _) = stack(in: leftToRight, forcing: .forceRightToLeft)
            expectEqual(reversed.frame.minX, 155)
            withExtendedLifetime((window, leftToRight)) {}
        }
    }

    // MARK: Lists

    /// A window filled by a table of one-section "Row N" cells with chevrons.
    private func chevronTable() -> (UITableView, TableLog, TouchSynthesizer) {
        tableScene([20]) { table, _ in table.register(ChevronCell.self, forCellReuseIdentifier: "row") }
    }

    @Test func aTableCellIsItsLeftToRightLayoutInAMirror() {
        let (ltrTable, ltrLog, ltrSynthesizer) = chevronTable()
        let ltr = ltrTable.cellForRow(at: IndexPath(row: 1, section: 0))!
        let ltrFrames = [ltr.contentView.frame, ltr.textLabel!.frame, ltr.shownAccessory!.frame]
        let ltrSeparator = ltr.separator.frame

        inRightToLeftApplication { window in
            let table = UITableView(frame: window.bounds, style: .plain)
            table.register(ChevronCell.self, forCellReuseIdentifier: "row")
            table.rowHeight = 44
            let log = TableLog(rowCounts: [20])
            table.dataSource = log
            window.addSubview(table)
            table.layoutIfNeeded()
            let rtl = table.cellForRow(at: IndexPath(row: 1, section: 0))!
            let rtlFrames = [rtl.contentView.frame, rtl.textLabel!.frame, rtl.shownAccessory!.frame]
            let widths = [rtl.bounds.width, rtl.contentView.bounds.width, rtl.bounds.width]
            for (index, frame) in rtlFrames.enumerated() {
                expectEqual(frame.size, ltrFrames[index].size)
                expectEqual(frame.minX, widths[index] - ltrFrames[index].maxX)
            }
            // The chevron is on the left, the text on the right.
            #expect(rtlFrames[2].maxX <= rtlFrames[0].minX)
            expectEqual(rtl.textLabel!.frame.maxX, rtl.contentView.bounds.width - TableViewMetrics.contentMargin)
            // The separator's left inset (16) is on the leading side: the right.
            expectEqual(rtl.separator.frame.maxX, 400 - ltrSeparator.minX)
            expectEqual(rtl.separator.frame.minX, 0)
            withExtendedLifetime((window, log, ltrLog, ltrSynthesizer)) {}
        }
    }

    @Test func aSwipeToTheRightUncoversTheTrailingActionsOnTheLeft() {
        inRightToLeftApplication { window in
            var performed: [String] = []
            let table = UITableView(frame: window.bounds, style: .plain)
            table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
            table.rowHeight = 44
            let log = TableLog(rowCounts: [20])
            log.trailingActions = [UIContextualAction(style: .destructive, title: "Delete") { action, _, done in
                performed.append(action.title ?? "")
                done(true)
            }]
            table.delegate = log
            table.dataSource = log
            window.addSubview(table)
            table.layoutIfNeeded()
            let synthesizer = TouchSynthesizer(window: window)
            let row = IndexPath(row: 2, section: 0)
            let cell = table.cellForRow(at: row)!
            // A drag to the left reveals nothing: there are no leading actions.
            // (The touch stays the row's: it is selected on lift, and its grey
            // background must not cover the actions uncovered next.)
            synthesizer.fling(from: CGPoint(x: 300, y: 110), to: CGPoint(x: 150, y: 110))
            #expect(table.swipedRow == nil)
            expectEqual(table.indexPathsForSelectedRows, [row])
            expectEqual(cell.contentView.frame.minX, 0)
            // A drag to the right opens the trailing actions, on the left side.
            synthesizer.advance(by: 1)
            let finger = synthesizer.touchDown(at: CGPoint(x: 100, y: 110))
            synthesizer.drag(finger, from: CGPoint(x: 100, y: 110), to: CGPoint(x: 200, y: 112))
            #expect(cell.contentView.frame.minX > 80)
            synthesizer.touchUp(finger)
            expectEqual(table.swipedRow, row)
            let buttonsWidth = cell.contentView.frame.minX
            #expect(buttonsWidth >= TableViewMetrics.minimumSwipeActionWidth)
            synthesizer.advance(by: 1)
            synthesizer.tap(at: CGPoint(x: buttonsWidth / 2, y: 110))
            expectEqual(performed, ["Delete"])
            #expect(table.swipedRow == nil)
            expectEqual(cell.contentView.frame.minX, 0)
            withExtendedLifetime((window, log)) {}
        }
    }

    @Test func aVerticalFlowLayoutFillsItsLinesFromTheRight() {
        inRightToLeftApplication { window in
            let layout = UICollectionViewFlowLayout()
            layout.itemSize = CGSize(width: 100, height: 100)
            let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 350, height: 800), collectionViewLayout: layout)
            collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
            let log = CollectionLog(counts: [5])
            collectionView.dataSource = log
            window.addSubview(collectionView)
            collectionView.layoutIfNeeded()
            @MainActor func minX(_ item: Int) -> CGFloat { collectionView.layoutAttributesForItem(at: IndexPath(item: item, section: 0))!.frame.minX }
            // Left to right these are 0, 125, 250, then 0 and 110 packed on the last line.
            expectEqual((0..<5).map(minX), [250, 125, 0, 250, 140])
            expectEqual(collectionView.cellForItem(at: IndexPath(item: 0, section: 0))!.frame.minX, 250)
            expectEqual(collectionView.indexPathForItem(at: CGPoint(x: 300, y: 50)), IndexPath(item: 0, section: 0))
            #expect(!layout.flipsHorizontallyInOppositeLayoutDirection)
            withExtendedLifetime((window, log)) {}
        }
    }

    @Test func aLayoutThatFlipsIsMirroredByTheCollectionView() {
        final class FlippingFlowLayout: UICollectionViewFlowLayout {
            override var flipsHorizontallyInOppositeLayoutDirection: Bool { true }
        }
        inRightToLeftApplication { window in
            let layout = FlippingFlowLayout()
            layout.scrollDirection = .horizontal
            layout.itemSize = CGSize(width: 100, height: 100)
            layout.minimumLineSpacing = 10
            let collectionView = UICollectionView(frame: CGRect(x: 0, y: 0, width: 350, height: 100), collectionViewLayout: layout)
            collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
            let log = CollectionLog(counts: [10])
            collectionView.dataSource = log
            window.addSubview(collectionView)
            collectionView.layoutIfNeeded()
            // Ten 100-point columns 10 apart: 1,090 points of content; item 0 at its right end.
            expectEqual(collectionView.contentSize.width, 1090)
            expectEqual(collectionView.layoutAttributesForItem(at: IndexPath(item: 0, section: 0))!.frame.minX, 990)
            expectEqual(collectionView.layoutAttributesForItem(at: IndexPath(item: 9, section: 0))!.frame.minX, 0)
            // The cells on screen at offset 0 are the last ones, shown where the layout's mirror puts them.
            expectEqual(collectionView.indexPathsForVisibleItems.map(\.item), [6, 7, 8, 9])
            expectEqual(collectionView.cellForItem(at: IndexPath(item: 9, section: 0))!.frame.minX, 0)
            expectEqual(collectionView.indexPathForItem(at: CGPoint(x: 50, y: 50)), IndexPath(item: 9, section: 0))
            withExtendedLifetime((window, log)) {}
        }
    }
}

/// A standard cell with a chevron.
@MainActor
final class ChevronCell: UITableViewCell {
    override init(style: CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        accessoryType = .disclosureIndicator
    }

    required init?(coder: NSCoder) { nil }
}
