import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

// Page sheets, iOS 13's default presentation on iPhone: a card below the
// safe-area top, the presenter scaled back and dimmed behind it, dragged
// down to dismiss. Geometry: SheetMetrics (where each value comes from).

/// Logs what a sheet's delegate hears, and may refuse.
@MainActor
final class SheetDelegate: UISheetPresentationControllerDelegate {
    let log: CallLog
    var allowsDismissal = true
    init(_ log: CallLog) { self.log = log }

    func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool {
        log.add("shouldDismiss")
        return allowsDismissal
    }
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController) { log.add("willDismiss") }
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) { log.add("didDismiss") }
    func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) { log.add("didAttemptToDismiss") }
    func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheetPresentationController: UISheetPresentationController) {
        log.add("didChangeDetent \(sheetPresentationController.selectedDetentIdentifier?.rawValue ?? "nil")")
    }
}

/// A 400×800 window showing A, on the manual clock, and B presented over
/// it as a sheet (not animated; `configure` sets the sheet up first), with
/// a logging delegate.
@MainActor
struct SheetScene {
    let window: UIWindow
    let synthesizer: TouchSynthesizer
    let root: AppearanceLoggingController
    let presented: AppearanceLoggingController
    let delegate: SheetDelegate
    let log: CallLog

    init(safeAreaTop: CGFloat = 0, safeAreaBottom: CGFloat = 0, configure: (UISheetPresentationController) -> Void = { _ in }) {
        let log = CallLog()
        root = AppearanceLoggingController("A", log)
        (window, synthesizer) = makeScene(root)
        UIScreen.main.bounds = window.frame
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: safeAreaTop, left: 0, bottom: safeAreaBottom, right: 0)
        _ = UIApplication.shared.runLoop.useManualClock()
        UIApplication.shared.runLoop.runUntilIdle()
        presented = AppearanceLoggingController("B", log)
        delegate = SheetDelegate(log)
        presented.presentationController?.delegate = delegate
        configure(presented.sheetPresentationController!)
        root.present(presented, animated: false)
        log.clear()
        self.log = log
    }

    var sheet: UISheetPresentationController { presented.sheetPresentationController! }

    /// The card the presented view sits in.
    var card: UIView { presented.view.superview! }

    /// The view that dims what is behind the card.
    var dimming: UIView { card.superview!.subviews[0] }

    /// Drags from `start` by `distance` (negative: upward) in `step`-point
    /// steps every 16 ms; returns the finger.
    func drag(by distance: CGFloat, from start: CGPoint = CGPoint(x: 200, y: 300), step: CGFloat = 20) -> Int {
        let finger = synthesizer.touchDown(at: start)
        move(finger, from: start, by: distance, step: step)
        return finger
    }

    /// Moves `finger`, now at `start`, on by `distance` the same way.
    func move(_ finger: Int, from start: CGPoint, by distance: CGFloat, step: CGFloat = 20) {
        var moved: CGFloat = 0
        while abs(moved) < abs(distance) {
            moved = distance < 0 ? max(distance, moved - step) : min(distance, moved + step)
            synthesizer.advance(by: 0.016)
            synthesizer.touchMove(finger, to: CGPoint(x: start.x, y: start.y + moved))
        }
    }

    /// Lets go after resting long enough to have no speed, and lets the
    /// sheet settle.
    func letGoSlowly(_ finger: Int) {
        synthesizer.advance(by: 0.2)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 0.6)
    }
}

/// Whether `transform` is the presenter's behind a sheet at rest at full
/// height: scaled by `SheetMetrics.presenterScale` about its top centre,
/// its top at the safe-area top.
func isScaledBack(_ transform: CGAffineTransform, height: CGFloat, safeAreaTop: CGFloat) -> Bool {
    let scale = SheetMetrics.presenterScale
    return abs(transform.a - scale) < 1e-9 && abs(transform.d - scale) < 1e-9 && transform.b == 0 && transform.c == 0
        && transform.tx == 0 && abs(transform.ty - (safeAreaTop - height * (1 - scale) / 2)) < 1e-9
}

@MainActor
@Suite struct PageSheetTests {
    @Test func theDefaultStyleIsAPageSheetBelowTheSafeAreaWithThePresenterScaledBack() throws {
        let scene = SheetScene(safeAreaTop: 47)  // an iPhone 14's status bar
        let card = scene.card
        expectEqual(card.frame, CGRect(x: 0, y: 57, width: 400, height: 743))  // 47 + SheetMetrics.topGap
        expectEqual(scene.presented.view.frame, card.bounds)
        #expect(card.superview is UITransitionView)
        #expect(card.superview?.superview === scene.window)
        expectEqual(card.layer.cornerRadius, 10)
        #expect(card.layer.masksToBounds)
        expectEqual(card.layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        #expect(scene.presented.sheetPresentationController?.presentedView === card)
        // Behind: the presenter's view, 91.65 % of its size about its top
        // centre, its top at the safe area's, its corners rounded.
        let rootView = scene.root.view!
        #expect(rootView.window === scene.window)
        #expect(isScaledBack(rootView.transform, height: 800, safeAreaTop: 47))
        let shown = rootView.frame
        #expect(abs(shown.minY - 47) < 1e-9)
        #expect(abs(shown.width - 400 * SheetMetrics.presenterScale) < 1e-9)
        #expect(abs(shown.midX - 200) < 1e-9)
        expectEqual(rootView.layer.cornerRadius, SheetMetrics.presenterCornerRadius)

        scene.root.dismiss(animated: false)
        expectEqual(rootView.transform, .identity)
        expectEqual(rootView.layer.cornerRadius, 0)
        #expect(!rootView.layer.masksToBounds)
        expectEqual(scene.window.subviews, [rootView])
    }

    @Test func whichStylesAreSheets() {
        let window = makeWindow()
        let root = UIViewController()
        window.rootViewController = root
        for style in [UIModalPresentationStyle.automatic, .pageSheet, .formSheet, .fullScreen, .overFullScreen] {
            let presented = UIViewController()
            presented.modalPresentationStyle = style
            let isSheet = style != .fullScreen && style != .overFullScreen
            expectEqual((presented.sheetPresentationController != nil), isSheet, "\(style)")
            root.present(presented, animated: false)
            // A full-screen style keeps today's whole-window view and leaves
            // the presenter as it is.
            expectEqual((presented.view.frame == window.bounds), !isSheet, "\(style)")
            expectEqual((root.view.transform == .identity), !isSheet, "\(style)")
            root.dismiss(animated: false)
        }
        // UIKit's alerts present themselves (a custom style), not as sheets.
        let alert = UIAlertController(title: "t", message: nil, preferredStyle: .alert)
        expectEqual(alert.modalPresentationStyle, .custom)
        #expect(alert.sheetPresentationController == nil)
    }

    @Test func aTapOnTheDimmedPresenterDoesNothingAndOneOnTheSheetReachesIt() {
        let root = UIViewController()
        let (window, synthesizer) = makeScene(root)
        let behind = RecordingView(frame: root.view.bounds)
        var buttonTaps = 0
        let button = UIButton(type: .system, primaryAction: UIAction { _ in buttonTaps += 1 })
        button.frame = CGRect(x: 100, y: 0, width: 200, height: 40)
        root.view.addSubview(behind)
        root.view.addSubview(button)
        let presented = UIViewController()
        root.present(presented, animated: false)
        let content = RecordingView(frame: presented.view.bounds)
        presented.view.addSubview(content)
        // Above the sheet's top (10): the presenter's button, scaled back and dimmed.
        #expect(button.convert(button.bounds, to: window).contains(CGPoint(x: 200, y: 5)))
        synthesizer.tap(at: CGPoint(x: 200, y: 5))
        expectEqual(buttonTaps, 0)
        #expect(behind.calls.isEmpty)
        expectEqual(window.hitTest(CGPoint(x: 200, y: 5), with: nil)?.isDescendant(of: root.view), false)
        synthesizer.tap(at: CGPoint(x: 200, y: 400))
        expectEqual(content.phases, ["began", "ended"])
    }

    @Test func aSheetDraggedPastHalfWayFollowsTheFingerAndIsDismissed() throws {
        let scene = SheetScene()
        let card = scene.card
        let finger = scene.drag(by: 300)
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear"])
        // The card follows the finger from where it landed; the presenter
        // comes forward and the dimming lightens by the same fraction.
        #expect(abs(card.frame.minY - (10 + 300)) < 1e-9)
        let shown = 1 - 300.0 / 790
        let scale = 1 - (1 - SheetMetrics.presenterScale) * shown
        #expect(abs(scene.root.view.transform.a - scale) < 1e-9)
        #expect(scene.dimming !== card)
        #expect(abs(scene.dimming.alpha - shown) < 1e-6)
        scene.synthesizer.advance(by: 0.016)
        scene.synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 760))
        #expect(abs(card.frame.minY - (10 + 460)) < 1e-9, "frame by frame")
        scene.letGoSlowly(finger)
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear", "B didDisappear", "didDismiss"])
        #expect(scene.root.presentedViewController == nil)
        #expect(card.window == nil)
        expectEqual(scene.root.view.transform, .identity)
    }

    @Test func aSheetLetGoShortOfHalfWayGoesBackAndStays() {
        let scene = SheetScene()
        let finger = scene.drag(by: 200)
        scene.letGoSlowly(finger)
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear", "B willAppear", "B didAppear"])
        #expect(scene.root.presentedViewController === scene.presented)
        expectEqual(scene.card.frame.minY, 10)
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))
        // It can be dragged again.
        scene.log.clear()
        scene.letGoSlowly(scene.drag(by: 500))
        expectEqual(scene.log.entries.last, "didDismiss")
    }

    @Test func aFlingDismissesShortOfHalfWay() {
        let scene = SheetScene()
        // 120 points in 48 ms: 2,500 points per second, over two heights (1,600).
        let finger = scene.drag(by: 120, step: 40)
        scene.synthesizer.touchUp(finger)
        scene.synthesizer.advance(by: 0.6)
        #expect(scene.root.presentedViewController == nil)
        expectEqual(scene.log.entries.last, "didDismiss")
    }

    @Test func aModalSheetRefusesTheDragAndTellsTheDelegate() throws {
        let scene = SheetScene()
        scene.presented.isModalInPresentation = true
        let finger = scene.drag(by: 500)
        expectEqual(scene.log.entries, ["didAttemptToDismiss"])  // shouldDismiss is not even asked
        // Refused, the card goes on down with resistance (the scroll view's
        // rubber band over the container's height: 205 points for 500),
        // nothing behind it changing; let go, it springs back.
        let pulled = 10 + ScrollViewConstants.rubberBand(500, dimension: 800)
        #expect(abs(scene.card.frame.minY - pulled) < 1e-9 && pulled > 200 && pulled < 250, "\(scene.card.frame.minY)")
        expectEqual(scene.card.frame.maxY, 800 + pulled - 10)  // moved, not resized
        expectEqual(scene.dimming.alpha, 1)
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))
        scene.synthesizer.advance(by: 0.2)
        scene.synthesizer.touchUp(finger)
        scene.synthesizer.advance(by: SheetMetrics.stretchReturnDuration / 2)
        let returning = try #require(scene.card.layer.presentation()).frame.minY
        #expect(returning > 11 && returning < pulled - 1, "\(returning)")
        scene.synthesizer.advance(by: SheetMetrics.stretchReturnDuration / 2 + 0.02)
        expectEqual(try #require(scene.card.layer.presentation()).frame.minY, 10)
        expectEqual(scene.card.frame.minY, 10)
        expectEqual(scene.log.entries, ["didAttemptToDismiss"])
        #expect(scene.root.presentedViewController === scene.presented)

        scene.presented.isModalInPresentation = false
        scene.delegate.allowsDismissal = false
        scene.log.clear()
        scene.letGoSlowly(scene.drag(by: 500))
        expectEqual(scene.log.entries, ["shouldDismiss", "didAttemptToDismiss"])
        expectEqual(scene.card.frame.minY, 10)
        #expect(scene.root.presentedViewController === scene.presented)
    }

    @Test func dismissingInCodeTellsTheDelegateNothing() {
        let scene = SheetScene()
        scene.root.dismiss(animated: true)
        scene.synthesizer.advance(by: 0.6)
        expectEqual(scene.log.entries, ["B willDisappear", "B didDisappear"])
    }

    /// A 200×400 window with a 20-point status bar: the presenter (light
    /// blue, a dark bar at its top) and a white sheet with a blue block.
    @Test func aSheetHalfWayUpAndAtRest() {
        let (window, root, presented) = makeSheetPictureScene(blockTop: 16)
        _ = UIApplication.shared.runLoop.useManualClock()
        UIApplication.shared.runLoop.runUntilIdle()
        root.present(presented, animated: true)
        UIApplication.shared.runLoop.advance(by: ModalTransitionMetrics.slideDuration / 2 - 1.0 / 60 + 0.001)
        let halfWay = snapshot(of: window)
        // Half way up (ease-in-out at half time): the card's top at 400 − 370 / 2.
        expectEqual(rgba(halfWay, 200, 2 * 215 + 4), [255, 255, 255, 255])
        #expect(rgba(halfWay, 200, 2 * 215 - 4) != [255, 255, 255, 255])
        expectMatchesReference(halfWay, named: "page-sheet-half-way", tolerance: 2)
        UIApplication.shared.runLoop.advance(by: ModalTransitionMetrics.slideDuration)
        let atRest = snapshot(of: window)
        // The bar's scaled top shows between the status bar and the sheet,
        // dimmed by 10 %: 0.3 × 0.9 of white.
        #expect(close(rgba(atRest, 200, 2 * 25), [69, 69, 69, 255], tolerance: 2), "\(rgba(atRest, 200, 2 * 25))")
        expectEqual(rgba(atRest, 2, 2 * 25), [0, 0, 0, 255])  // beside the scaled presenter: the window's black
        #expect(rgba(atRest, 1, 2 * 30 + 1) != [255, 255, 255, 255])  // the sheet's rounded corner
        expectMatchesReference(atRest, named: "page-sheet-at-rest", tolerance: 2)
    }
}
