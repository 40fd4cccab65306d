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
        // Past the large detent's top (the finger 24 points above it), it
        // stretches with resistance.
        scene.move(finger, from: CGPoint(x: 200, y: 300), by: -200)
        #expect(abs(scene.card.frame.minY - (largeTop - ScrollViewConstants.rubberBand(largeTop - (mediumTop - 400), dimension: SheetMetrics.maximumStretch))) < 1e-9)
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

    @Test func atItsLargestUndimmedDetentTheSheetLeavesWhatIsBehindItTouchable() {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.largestUndimmedDetentIdentifier = .medium
        }
        var taps = 0
        let button = UIButton(type: .system, primaryAction: UIAction { _ in taps += 1 })
        button.frame = CGRect(x: 100, y: 100, width: 200, height: 40)
        scene.root.view.addSubview(button)
        expectEqual(scene.dimming.alpha, 0)
        scene.synthesizer.tap(at: CGPoint(x: 200, y: 120))
        expectEqual(taps, 1)
        // Dragged up, the dimming comes with the top; at the large detent it
        // is all there and takes the touches around the sheet.
        let finger = scene.drag(by: -180, from: CGPoint(x: 200, y: 600))
        #expect(abs(scene.dimming.alpha - 180 / (mediumTop - largeTop)) < 1e-6)
        scene.letGoSlowly(finger)
        expectEqual(scene.sheet.selectedDetentIdentifier, .medium)
        expectEqual(scene.dimming.alpha, 0)
        scene.sheet.selectedDetentIdentifier = .large
        expectEqual(scene.dimming.alpha, 1)
        #expect(scene.window.hitTest(CGPoint(x: 200, y: 5), with: nil) === scene.dimming)
        scene.sheet.selectedDetentIdentifier = .medium
        #expect(scene.window.hitTest(CGPoint(x: 200, y: 120), with: nil) === button)
    }

    @Test func draggedUpAtItsLargestDetentTheSheetStretchesALittleAndSpringsBack() throws {
        let scene = SheetScene()  // [.large()]
        // 100 points up: the top rises less and less, never more than the
        // gap above the sheet (SheetMetrics.maximumStretch, 10 points); the
        // bottom stays, the presented view grows with the card.
        let finger = scene.drag(by: -100, from: CGPoint(x: 200, y: 400))
        let stretched = largeTop - ScrollViewConstants.rubberBand(100, dimension: SheetMetrics.maximumStretch)
        #expect(abs(scene.card.frame.minY - stretched) < 1e-9)
        #expect(stretched < largeTop - 8 && stretched > 0, "\(stretched)")
        expectEqual(scene.card.frame.maxY, 800)
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))
        scene.move(finger, from: CGPoint(x: 200, y: 300), by: -250)
        #expect(scene.card.frame.minY > 0 && scene.card.frame.minY < stretched, "\(scene.card.frame.minY)")
        // Let go, it springs back over SheetMetrics.stretchReturnDuration.
        scene.synthesizer.advance(by: 0.2)
        scene.synthesizer.touchUp(finger)
        scene.synthesizer.advance(by: SheetMetrics.stretchReturnDuration / 2)
        let returning = try #require(scene.card.layer.presentation()).frame.minY
        #expect(returning > 0 && returning < largeTop, "\(returning)")
        scene.synthesizer.advance(by: SheetMetrics.stretchReturnDuration / 2 + 0.02)
        expectEqual(try #require(scene.card.layer.presentation()).frame.minY, largeTop)
        expectEqual(scene.card.frame, CGRect(x: 0, y: largeTop, width: 400, height: 800 - largeTop))
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        #expect(scene.log.entries.isEmpty)
        expectEqual(scene.sheet.selectedDetentIdentifier ?? .large, .large)
    }

    // MARK: Custom detents (iOS 16)

    @Test func aCustomDetentRestsAtItsValueAboveTheBottomInsetAndTheUserDragsToIt() {
        var seen: [(maximum: CGFloat, vertical: UIUserInterfaceSizeClass)] = []
        let small = UISheetPresentationController.Detent.Identifier("small")
        let scene = SheetScene(safeAreaBottom: 34) {
            $0.detents = [.custom(identifier: small) { context in
                seen.append((context.maximumDetentValue, context.containerTraitCollection.verticalSizeClass))
                return 200
            }, .large()]
        }
        // The value is a height inside the safe area: the card is 200 points
        // plus the 34-point bottom inset high.
        expectEqual(scene.card.frame, CGRect(x: 0, y: 800 - 34 - 200, width: 400, height: 234))
        expectEqual(scene.presented.view.frame, scene.card.bounds)
        // Asked with the sheet's container: the large detent's value is the
        // most (800 − 10 at the top − 34 at the bottom), height regular.
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { $0.maximum == 756 && $0.vertical == .regular })
        // Dragged up part of the way and let go, it goes to the nearer
        // detent, and the delegate is told the custom one's identifier.
        scene.letGoSlowly(scene.drag(by: -300, from: CGPoint(x: 200, y: 650)))
        expectEqual(scene.card.frame.minY, largeTop)
        scene.letGoSlowly(scene.drag(by: 500))
        expectEqual(scene.card.frame.minY, 566)
        expectEqual(scene.sheet.selectedDetentIdentifier, small)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.large", "didChangeDetent small"])
    }

    @Test func customDetentsResolveInTheirContextInactiveOnesAreLeftOutAndValuesAreBounded() {
        // A resolver's nil makes its detent inactive: the large one is left,
        // so a drag down goes straight into the dismissal.
        let inactive = SheetScene { $0.detents = [.custom { _ in nil }, .large()] }
        expectEqual(inactive.card.frame.minY, largeTop)
        inactive.letGoSlowly(inactive.drag(by: 100))
        expectEqual(inactive.log.entries.first, "shouldDismiss")
        // Values above the most a detent can have rest at the large detent's
        // height; none active at all falls back to the large one.
        expectEqual(SheetScene { $0.detents = [.custom { _ in 5_000 }] }.card.frame.minY, largeTop)
        expectEqual(SheetScene { $0.detents = [.custom { _ in nil }] }.card.frame.minY, largeTop)
        // Without an identifier each gets its own.
        let first = UISheetPresentationController.Detent.custom { _ in 100 }
        let second = UISheetPresentationController.Detent.custom { _ in 100 }
        #expect(first.identifier != second.identifier)
        #expect(first.identifier.rawValue.hasPrefix("com.apple.UIKit.custom."))
        // resolvedValue(in:) answers for the system detents too; the medium
        // one is inactive in compact height (a container wider than tall).
        let upright = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        let context = SheetDetentContext(container: upright)
        expectEqual(context.maximumDetentValue, 790)
        expectEqual(UISheetPresentationController.Detent.large().resolvedValue(in: context), 790)
        expectEqual(UISheetPresentationController.Detent.medium().resolvedValue(in: context), 800 * SheetMetrics.mediumDetentFraction)
        expectEqual(first.resolvedValue(in: context), 100)
        let sideways = SheetDetentContext(container: UIView(frame: CGRect(x: 0, y: 0, width: 800, height: 400)))
        expectEqual(sideways.containerTraitCollection.verticalSizeClass, .compact)
        #expect(UISheetPresentationController.Detent.medium().resolvedValue(in: sideways) == nil)
    }

    // MARK: The grabber

    @Test func theGrabberIsDrawnOnlyWhenPreferredAndTouchesBesideItReachTheContent() throws {
        let scene = SheetScene()
        let grabber = try #require(scene.card.subviews.last)
        #expect(grabber !== scene.presented.view)
        expectEqual(grabber.alpha, 0)
        expectEqual(grabber.frame, CGRect(x: 182, y: 5, width: 36, height: 5))
        expectEqual(grabber.layer.cornerRadius, 2.5)
        let content = RecordingView(frame: scene.presented.view.bounds)
        scene.presented.view.addSubview(content)
        // Hidden, it takes no touches.
        scene.synthesizer.tap(at: CGPoint(x: 200, y: 10 + 7))
        expectEqual(content.phases, ["began", "ended"])
        scene.sheet.prefersGrabberVisible = true
        expectEqual(grabber.alpha, 1)
        // Shown, a touch beside it (more than SheetMetrics.grabberTouchOutset
        // away) reaches the content below.
        content.calls.removeAll()
        scene.synthesizer.tap(at: CGPoint(x: 200 - 18 - 17, y: 10 + 7))
        expectEqual(content.phases, ["began", "ended"])
        #expect(scene.window.hitTest(CGPoint(x: 200 - 18 - 15, y: 10 + 7 + 15), with: nil) === grabber)
    }

    @Test func aTapOnTheGrabberCyclesTheDetentsAndTellsTheDelegate() throws {
        let scene = SheetScene {
            $0.detents = [.medium(), .large()]
            $0.prefersGrabberVisible = true
        }
        scene.synthesizer.tap(at: CGPoint(x: 200, y: mediumTop + 7))
        // The model is at the large detent at once, shown moving there.
        expectEqual(scene.card.frame.minY, largeTop)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.large"])
        scene.synthesizer.advance(by: SheetMetrics.detentChangeDuration / 2)
        let halfWay = try #require(scene.card.layer.presentation()).frame.minY
        #expect(halfWay > largeTop + 1 && halfWay < mediumTop - 1, "\(halfWay)")
        scene.synthesizer.advance(by: SheetMetrics.detentChangeDuration)
        // From the largest detent, back to the smallest.
        scene.synthesizer.tap(at: CGPoint(x: 210, y: largeTop + 12))
        scene.synthesizer.advance(by: SheetMetrics.detentChangeDuration + 0.02)
        expectEqual(scene.card.frame.minY, mediumTop)
        expectEqual(scene.sheet.selectedDetentIdentifier, .medium)
        expectEqual(scene.log.entries, ["didChangeDetent com.apple.UIKit.large", "didChangeDetent com.apple.UIKit.medium"])
        // With one detent, a tap on it does nothing.
        let single = SheetScene { $0.prefersGrabberVisible = true }
        single.synthesizer.tap(at: CGPoint(x: 200, y: largeTop + 7))
        single.synthesizer.advance(by: 0.6)
        expectEqual(single.card.frame.minY, largeTop)
        #expect(single.log.entries.isEmpty)
        #expect(single.root.presentedViewController === single.presented)
    }

    /// A 200×400 window with a 20-point status bar: the presenter (light
    /// blue, a dark bar at its top) behind a white sheet at its medium
    /// detent with the grabber, and a blue block on the sheet.
    @Test func aMediumSheetWithItsGrabber() {
        let (window, root, presented) = makeSheetPictureScene(blockTop: 24)
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
