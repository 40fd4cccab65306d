import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

// A sheet's detents (UISheetPresentationController.Detent) and its grabber:
// where it rests, how a drag moves it between detents, what the app's
// changes and animateChanges do, and what the delegate hears. Geometry:
// SheetMetrics. In the 400×800 window with no safe area the large detent's
// top is at 10 and the medium one's at 800 × (1 − 0.53) = 376.

@MainActor
@Suite struct SheetDetentTests {
    let largeTop: CGFloat = 10
    let mediumTop: CGFloat = 800 * (1 - SheetMetrics.mediumDetentFraction)

    /// How far the presenter is pushed back (0 to 1), read from its scale.
    private func pushBack(_ scene: SheetScene) -> CGFloat {
        (1 - scene.root.view.transform.a) / (1 - SheetMetrics.presenterScale)
    }

    @Test func aSheetWithMediumAndLargeDetentsStartsAtMediumWithThePresenterDimmedButNotPushedBack() {
        let scene = SheetScene { $0.detents = [.medium(), .large()] }
        #expect(abs(mediumTop - 376) < 1e-9)
        expectEqual(scene.card.frame, CGRect(x: 0, y: mediumTop, width: 400, height: 800 - mediumTop))
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        #expect(scene.sheet.selectedDetentIdentifier == nil)  // nil: the smallest detent
        expectEqual(scene.root.view.transform, .identity)
        expectEqual(scene.root.view.layer.cornerRadius, 0)
        expectEqual(scene.dimming.alpha, 1)
        // Order does not matter: the smallest detent is the medium one.
        let reversed = SheetScene { $0.detents = [.large(), .medium()] }
        expectEqual(reversed.card.frame.minY, mediumTop)
        // A medium-only sheet never pushes the presenter back either.
        let mediumOnly = SheetScene { $0.detents = [.medium()] }
        expectEqual(mediumOnly.card.frame.minY, mediumTop)
        expectEqual(mediumOnly.root.view.transform, .identity)
    }

    @Test func draggingUpFromMediumGrowsTheSheetToLargeAndTellsTheDelegate() {
        let scene = SheetScene { $0.detents = [.medium(), .large()] }
        let start = CGPoint(x: 200, y: 500)
        let finger = scene.drag(by: -200, from: start)
        // The card's top follows the finger, the presented view resized with
        // it, and the presenter goes back by how far the top has risen.
        #expect(abs(scene.card.frame.minY - (mediumTop - 200)) < 1e-9)
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        #expect(abs(pushBack(scene) - 200 / (mediumTop - largeTop)) < 1e-9)
        #expect(scene.log.entries.isEmpty)
        scene.move(finger, from: CGPoint(x: 200, y: 300), by: -200)  // past the large detent's top: it stops there
        expectEqual(scene.card.frame.minY, largeTop)
        scene.letGoSlowly(finger)
        expectEqual(scene.card.frame.minY, largeTop)
        expectEqual(scene.card.frame.height, 800 - largeTop)
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        expectEqual(scene.sheet.selectedDetentIdentifier, .large)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.large"])
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))

        // Dragged down less than half way to medium, it goes back to large
        // and nobody is told; more than half way, it rests at medium.
        scene.log.clear()
        scene.letGoSlowly(scene.drag(by: 160))
        expectEqual(scene.card.frame.minY, largeTop)
        #expect(scene.log.entries.isEmpty)
        scene.letGoSlowly(scene.drag(by: 240))
        expectEqual(scene.card.frame.minY, mediumTop)
        expectEqual(scene.sheet.selectedDetentIdentifier, .medium)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.medium"])
        expectEqual(scene.root.view.transform, .identity)
    }

    @Test func aFlingGoesToTheNextDetentInItsDirectionWithoutDismissing() {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.selectedDetentIdentifier = .large
        }
        expectEqual(scene.card.frame.minY, largeTop)
        // 120 points in 48 ms: 2,500 points per second, over two heights (1,600).
        let finger = scene.drag(by: 120, step: 40)
        scene.synthesizer.touchUp(finger)
        scene.synthesizer.advance(by: 0.6)
        expectEqual(scene.card.frame.minY, mediumTop)
        #expect(scene.root.presentedViewController === scene.presented)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.medium"])
    }

    @Test func oneDragFromLargePastMediumDismisses() {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.selectedDetentIdentifier = .large
        }
        // Down to the medium detent the sheet shrinks; past it the drag
        // becomes the dismissal, the card following the finger on down.
        let finger = scene.drag(by: mediumTop - largeTop + 100)
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear"])
        #expect(abs(scene.card.frame.minY - (mediumTop + 100)) < 1e-9)
        expectEqual(scene.card.frame.height, 800 - mediumTop)
        #expect(abs(scene.dimming.alpha - (1 - 100 / (800 - mediumTop))) < 1e-6)
        scene.move(finger, from: CGPoint(x: 200, y: 300 + mediumTop - largeTop + 100), by: 200)
        scene.letGoSlowly(finger)
        #expect(scene.root.presentedViewController == nil)
        expectEqual(scene.log.entries.last, "didDismiss")
    }

    @Test func aDismissalGivenUpRestsAtTheSmallestDetent() {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.selectedDetentIdentifier = .large
        }
        scene.letGoSlowly(scene.drag(by: mediumTop - largeTop + 60))
        #expect(scene.root.presentedViewController === scene.presented)
        expectEqual(scene.card.frame.minY, mediumTop)
        expectEqual(scene.sheet.selectedDetentIdentifier, .medium)
        // The delegate hears of the new detent when the finger lets go.
        expectEqual(scene.log.entries, ["shouldDismiss", "willDismiss", "B willDisappear", "didChangeDetent com.apple.UIKit.medium",
                                        "B willAppear", "B didAppear"])
        expectEqual(scene.root.view.transform, .identity)
        expectEqual(scene.dimming.alpha, 1)
    }

    @Test func theAppsDetentChangesMoveTheSheetAtOnceOrAlongWithAnimateChangesAndTellNoOne() throws {
        let scene = SheetScene { $0.detents = [.medium(), .large()] }
        scene.sheet.selectedDetentIdentifier = .large
        expectEqual(scene.card.frame.minY, largeTop)
        #expect(scene.card.layer.animationKeys() == nil)  // not animated
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))

        scene.sheet.animateChanges { scene.sheet.selectedDetentIdentifier = .medium }
        // The model is there at once; what is shown moves over the duration.
        expectEqual(scene.card.frame.minY, mediumTop)
        expectEqual(scene.root.view.transform, .identity)
        scene.synthesizer.advance(by: SheetMetrics.detentChangeDuration / 2)
        let halfWay = try #require(scene.card.layer.presentation()).frame.minY
        #expect(halfWay > largeTop + 1 && halfWay < mediumTop - 1, "\(halfWay)")
        scene.synthesizer.advance(by: SheetMetrics.detentChangeDuration)
        expectEqual(try #require(scene.card.layer.presentation()).frame.minY, mediumTop)

        // Taking the selected detent out of the detents rests the sheet at the smallest left.
        scene.sheet.selectedDetentIdentifier = .large
        scene.sheet.detents = [.medium()]
        expectEqual(scene.card.frame.minY, mediumTop)
        #expect(scene.log.entries.isEmpty)
    }

    // MARK: The grabber

    @Test func theGrabberIsDrawnOnlyWhenPreferredAndLetsTouchesThrough() throws {
        let scene = SheetScene()
        let grabber = try #require(scene.card.subviews.last)
        #expect(grabber !== scene.presented.view)
        expectEqual(grabber.alpha, 0)
        expectEqual(grabber.frame, CGRect(x: 182, y: 5, width: 36, height: 5))
        expectEqual(grabber.layer.cornerRadius, 2.5)
        #expect(!grabber.isUserInteractionEnabled)
        scene.sheet.prefersGrabberVisible = true
        expectEqual(grabber.alpha, 1)
        // A touch on it reaches the content below.
        let content = RecordingView(frame: scene.presented.view.bounds)
        scene.presented.view.addSubview(content)
        scene.synthesizer.tap(at: CGPoint(x: 200, y: 10 + 7))
        expectEqual(content.phases, ["began", "ended"])
    }

    /// A 200×400 window with a 20-point status bar: the presenter (light
    /// blue, a dark bar at its top) behind a white sheet at its medium
    /// detent with the grabber, and a blue block on the sheet.
    @Test func aMediumSheetWithItsGrabber() {
        let root = UIViewController()
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 400))
        window.rootViewController = root
        window.backgroundColor = .black
        UIScreen.main.bounds = window.frame
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
        root.view.backgroundColor = UIColor(red: 0.6, green: 0.8, blue: 1, alpha: 1)
        let bar = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 64))
        bar.backgroundColor = UIColor(white: 0.3, alpha: 1)
        root.view.addSubview(bar)
        let presented = UIViewController()
        presented.view.backgroundColor = .white
        let block = UIView(frame: CGRect(x: 16, y: 24, width: 168, height: 40))
        block.backgroundColor = .blue
        presented.view.addSubview(block)
        presented.sheetPresentationController?.detents = [.medium()]
        presented.sheetPresentationController?.prefersGrabberVisible = true
        root.present(presented, animated: false)
        let picture = snapshot(of: window)
        let top = 400 * (1 - SheetMetrics.mediumDetentFraction)  // 188
        // The grabber: black at 20 % over white, 36×5 points, 5 below the
        // card's top; white beside it.
        #expect(close(rgba(picture, 200, Int(2 * (top + 7.5))), [204, 204, 204, 255], tolerance: 2), "\(rgba(picture, 200, Int(2 * (top + 7.5))))")
        expectEqual(rgba(picture, 2 * 100 + 40, Int(2 * (top + 7.5))), [255, 255, 255, 255])
        expectEqual(rgba(picture, 200, Int(2 * (top + 2))), [255, 255, 255, 255])
        // Behind, the presenter is where it was (not pushed back), dimmed by 10 %.
        #expect(close(rgba(picture, 2, 2 * 100), [138, 184, 230, 255], tolerance: 2), "\(rgba(picture, 2, 2 * 100))")
        expectMatchesReference(picture, named: "page-sheet-medium-grabber", tolerance: 2)
    }
}
