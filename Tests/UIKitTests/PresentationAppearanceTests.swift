import Foundation
import TestExpectations
import Testing
@testable import UIKit

// When a presentation or dismissal tells its controllers they appear and
// disappear: at the transition's start and end, in iOS's order (logged on
// iOS 13+: present A→B full screen: A willDisappear, B willAppear, B
// didAppear, A didDisappear; dismiss: B willDisappear, A willAppear, A
// didAppear, B didDisappear; a page sheet, `.automatic` on iPhone, leaves
// A untold).

@MainActor
private final class DismissalDriver: UIViewControllerTransitioningDelegate {
    let interaction = UIPercentDrivenInteractiveTransition()
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        interaction
    }
}

@MainActor
@Suite struct PresentationAppearanceTests {
    /// A window showing a logging root controller, on the manual clock.
    private func scene(_ log: CallLog) -> (UIWindow, AppearanceLoggingController) {
        let root = AppearanceLoggingController("A", log)
        let (window, _) = makeScene(root)
        UIApplication.shared.runLoop.runUntilIdle()
        log.clear()
        return (window, root)
    }

    private func advance(_ seconds: TimeInterval) {
        UIApplication.shared.runLoop.advance(by: seconds)
    }

    /// A logging controller A showing in a window, and B to present from
    /// it with `style`; the window is kept alive by the caller.
    private func presentation(_ style: UIModalPresentationStyle) -> (CallLog, UIWindow, AppearanceLoggingController, AppearanceLoggingController) {
        let log = CallLog()
        let (window, root) = scene(log)
        let presented = AppearanceLoggingController("B", log)
        presented.modalPresentationStyle = style
        return (log, window, root, presented)
    }

    /// The standard slide's time, and a little more.
    private let slide = ModalTransitionMetrics.slideDuration

    @Test func aFullScreenPresentationTellsBothControllersAtItsStartAndItsEnd() {
        let (log, window, root, presented) = presentation(.fullScreen)
        defer { withExtendedLifetime(window) {} }
        root.present(presented, animated: true) { log.add("completion") }
        expectEqual(log.entries, ["A willDisappear", "B willAppear"])
        advance(slide / 2)
        expectEqual(log.entries.count, 2)  // the window move told nothing
        #expect(root.view.window === window)  // under the slide
        advance(slide / 2 + 0.05)
        expectEqual(log.entries, ["A willDisappear", "B willAppear", "B didAppear", "A didDisappear", "completion"])
        // UIKit takes the views under a full-screen presentation out of the
        // window once it has ended, and puts them back to dismiss it.
        #expect(root.view.window == nil && window.subviews.count == 1)

        log.clear()
        presented.dismiss(animated: true) { log.add("completion") }
        expectEqual(log.entries, ["B willDisappear", "A willAppear"])
        #expect(root.view.window === window && window.subviews.first === root.view)
        advance(slide / 2)
        expectEqual(log.entries.count, 2)
        advance(slide / 2 + 0.05)
        expectEqual(log.entries, ["B willDisappear", "A willAppear", "A didAppear", "B didDisappear", "completion"])
        expectEqual(window.subviews, [root.view])
    }

    @Test func aPageSheetLeavesThePresenterUntoldAndTheAutomaticStyleIsOne() {
        let log = CallLog()
        let (window, root) = scene(log)
        defer { withExtendedLifetime(window) {} }
        for style in [UIModalPresentationStyle.automatic, .pageSheet] {
            let presented = AppearanceLoggingController("B", log)
            presented.modalPresentationStyle = style
            root.present(presented, animated: true)
            expectEqual(log.entries, ["B willAppear"])
            advance(slide + 0.05)
            expectEqual(log.entries, ["B willAppear", "B didAppear"])
            #expect(root.view.window === window)  // a sheet leaves the presenter's views
            log.clear()
            root.dismiss(animated: true)
            expectEqual(log.entries, ["B willDisappear"])
            advance(slide + 0.05)
            expectEqual(log.entries, ["B willDisappear", "B didDisappear"])
            log.clear()
        }
    }

    @Test func withoutAnimationTheSameOrderRunsAtOnce() {
        let (log, window, root, presented) = presentation(.fullScreen)
        defer { withExtendedLifetime(window) {} }
        root.present(presented, animated: false)
        expectEqual(log.entries, ["A willDisappear (not animated)", "B willAppear (not animated)", "B didAppear", "A didDisappear"])
        log.clear()
        root.dismiss(animated: false)
        expectEqual(log.entries, ["B willDisappear (not animated)", "A willAppear (not animated)", "A didAppear", "B didDisappear"])
    }

    @Test func aChildOfThePresentedControllerHearsWithItsParent() {
        let (log, window, root, presented) = presentation(.automatic)
        defer { withExtendedLifetime(window) {} }
        let child = AppearanceLoggingController("B's child", log)
        presented.addChild(child)
        presented.view.addSubview(child.view)
        child.didMove(toParent: presented)
        root.present(presented, animated: true)
        expectEqual(log.entries, ["B willAppear", "B's child willAppear"])
        advance(slide + 0.05)
        expectEqual(log.entries.suffix(2), ["B didAppear", "B's child didAppear"])
    }

    @Test func aCancelledInteractiveDismissalTellsTheWayBack() {
        let (log, window, root, presented) = presentation(.fullScreen)
        defer { withExtendedLifetime(window) {} }
        root.present(presented, animated: false)
        let driver = DismissalDriver()
        presented.transitioningDelegate = driver
        log.clear()
        root.dismiss(animated: true)
        driver.interaction.update(0.3)
        advance(0.1)
        expectEqual(log.entries, ["B willDisappear", "A willAppear"])
        driver.interaction.cancel()
        advance(slide)
        // As a back swipe given up: the controller that was coming goes,
        // then the one that was going comes back.
        expectEqual(log.entries, ["B willDisappear", "A willAppear", "A willDisappear", "A didDisappear", "B willAppear", "B didAppear"])
        #expect(root.presentedViewController === presented)
        #expect(root.view.window == nil)  // out again, under the presentation that stays
    }
}
