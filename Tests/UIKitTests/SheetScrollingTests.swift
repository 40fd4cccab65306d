import Foundation
import TestExpectations
import Testing
@testable import UIKit

// A scroll view in a sheet and the sheet's drag, as on iOS: a drag down
// while the content is at its top moves the sheet (the content stays at
// its top); an upward drag grows a sheet below its largest detent before
// the content scrolls (`prefersScrollingExpandsWhenScrolledToEdge`, Apple:
// "scrolling up in the sheet increases its detent instead of scrolling the
// sheet's content. After the sheet reaches its largest detent, scrolling
// begins"); otherwise the content scrolls and the sheet stays. A scroll
// view's pan ignores the first movement that starts it (20 points here,
// one step), so the content moves 20 points less than the finger.

@MainActor
@Suite struct SheetScrollingTests {
    /// A scroll view over the whole presented view, with content 2,000 points high.
    private func addScrollView(to scene: SheetScene, offset: CGFloat = 0) -> UIScrollView {
        let scrollView = UIScrollView(frame: scene.presented.view.bounds)
        scrollView.contentSize = CGSize(width: 400, height: 2000)
        scrollView.contentOffset = CGPoint(x: 0, y: offset)
        scene.presented.view.addSubview(scrollView)
        return scrollView
    }

    @Test func aDragDownWithTheContentAtItsTopMovesTheSheetAndNotTheContent() {
        let scene = SheetScene()
        let scrollView = addScrollView(to: scene)
        let finger = scene.drag(by: 500, from: CGPoint(x: 200, y: 200))
        #expect(abs(scene.card.frame.minY - (10 + 500)) < 1e-9)
        expectEqual(scrollView.contentOffset.y, 0)  // not pulled past its top
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear"])
        scene.letGoSlowly(finger)
        #expect(scene.root.presentedViewController == nil)
        expectEqual(scrollView.contentOffset.y, 0)
        #expect(!scrollView.isDecelerating)
    }

    @Test func scrolledContentScrollsToItsTopFirstAndThenTheSheetMoves() {
        let scene = SheetScene()
        let scrollView = addScrollView(to: scene, offset: 100)
        let finger = scene.drag(by: 100)
        expectEqual(scrollView.contentOffset.y, 20)
        expectEqual(scene.card.frame.minY, 10)
        #expect(scene.log.entries.isEmpty)
        // The content reaches its top 20 points on; the rest moves the sheet.
        scene.move(finger, from: CGPoint(x: 200, y: 400), by: 200)
        expectEqual(scrollView.contentOffset.y, 0)
        #expect(abs(scene.card.frame.minY - (10 + 180)) < 1e-9)
        // Back up: the sheet first, to its detent, then the content.
        scene.move(finger, from: CGPoint(x: 200, y: 600), by: -240)
        expectEqual(scene.card.frame.minY, 10)
        expectEqual(scrollView.contentOffset.y, 60)
        scene.letGoSlowly(finger)
        #expect(scene.root.presentedViewController === scene.presented)
        expectEqual(scene.card.frame.minY, 10)
        expectEqual(scrollView.contentOffset.y, 60)
    }

    @Test func anUpwardDragGrowsTheSheetToItsLargestDetentBeforeTheContentScrolls() {
        let scene = SheetScene { $0.detents = [.medium(), .large()] }
        let mediumTop = scene.card.frame.minY
        let scrollView = addScrollView(to: scene)
        let start = CGPoint(x: 200, y: 600)
        let finger = scene.drag(by: -200, from: start)
        #expect(abs(scene.card.frame.minY - (mediumTop - 200)) < 1e-9)
        expectEqual(scrollView.contentOffset.y, 0)
        // At the large detent's top the sheet stops and the content scrolls on.
        scene.move(finger, from: CGPoint(x: 200, y: 400), by: -300)
        expectEqual(scene.card.frame.minY, 10)
        #expect(abs(scrollView.contentOffset.y - (500 - (mediumTop - 10))) < 1e-9)
        scene.letGoSlowly(finger)
        expectEqual(scene.sheet.selectedDetentIdentifier, .large)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.large"])
    }

    @Test func withoutScrollingExpandsTheContentScrollsAndTheSheetStays() {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.prefersScrollingExpandsWhenScrolledToEdge = false
        }
        let mediumTop = scene.card.frame.minY
        let scrollView = addScrollView(to: scene)
        scene.letGoSlowly(scene.drag(by: -200, from: CGPoint(x: 200, y: 600)))
        expectEqual(scene.card.frame.minY, mediumTop)
        expectEqual(scrollView.contentOffset.y, 180)
        #expect(scene.log.entries.isEmpty)
    }

    @Test func contentTooShortToScrollLeavesTheDragToTheSheet() {
        let scene = SheetScene()
        let scrollView = addScrollView(to: scene)
        scrollView.contentSize = CGSize(width: 400, height: 100)
        let finger = scene.drag(by: 500, from: CGPoint(x: 200, y: 200))
        #expect(abs(scene.card.frame.minY - (10 + 500)) < 1e-9)
        scene.letGoSlowly(finger)
        #expect(scene.root.presentedViewController == nil)
    }
}
