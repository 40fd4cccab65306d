import Foundation
import TestExpectations
import Testing
@testable import UIKit

// A sheet presented from inside a sheet: the one below goes back as a
// presenter does, rises a little (SheetMetrics.coveredSheetRise, Flutter's
// measurement of iOS 18) and hides its grabber (Apple's
// prefersGrabberVisible: hidden "when another sheet presents on top of
// it"). In the 400×800 window with no safe area a sheet's top is at 10.

@MainActor
@Suite struct SheetStackingTests {
    @Test func aSheetOnASheetPushesTheLowerOneBackAndHidesItsGrabberUntilDismissed() throws {
        let scene = SheetScene { $0.prefersGrabberVisible = true }
        let lower = scene.card
        let grabber = try #require(lower.subviews.last)
        expectEqual(grabber.alpha, 1)
        let upper = AppearanceLoggingController("C", scene.log)
        scene.presented.present(upper, animated: true)
        // Half way up, the grabber is fading out and the lower sheet going back.
        scene.synthesizer.advance(by: ModalTransitionMetrics.slideDuration / 2)
        let fading = try #require(grabber.layer.presentation()).opacity
        #expect(fading > 0.01 && fading < 0.99, "\(fading)")
        let goingBack = try #require(lower.layer.presentation()).transform.m11
        #expect(goingBack < 0.999 && goingBack > SheetMetrics.presenterScale + 0.001, "\(goingBack)")
        scene.synthesizer.advance(by: ModalTransitionMetrics.slideDuration)

        let upperCard = try #require(upper.view.superview)
        expectEqual(upperCard.frame, CGRect(x: 0, y: 10, width: 400, height: 790))
        expectEqual(grabber.alpha, 0)
        // The lower sheet: scaled as a presenter about its top centre, its
        // top raised by 0.5 % of the 800-point height, its own corners kept.
        let shown = lower.frame
        #expect(abs(shown.minY - (10 - 4)) < 1e-9, "\(shown)")
        #expect(abs(shown.width - 400 * SheetMetrics.presenterScale) < 1e-9)
        #expect(abs(shown.midX - 200) < 1e-9)
        expectEqual(lower.layer.cornerRadius, 10)
        expectEqual(lower.layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner])
        // The first presenter stays where the lower sheet put it.
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))
        // The upper sheet's dimming takes the touches on the lower one's top.
        let upperDimming = try #require(upperCard.superview?.subviews.first)
        #expect(scene.window.hitTest(CGPoint(x: 200, y: 8), with: nil) === upperDimming)

        // Dismissed, the lower sheet comes forward and shows its grabber.
        scene.presented.dismiss(animated: false)
        #expect(scene.presented.presentedViewController == nil)
        expectEqual(lower.transform, .identity)
        expectEqual(lower.frame, CGRect(x: 0, y: 10, width: 400, height: 790))
        expectEqual(grabber.alpha, 1)
        #expect(isScaledBack(scene.root.view.transform, height: 800, safeAreaTop: 0))
    }

    @Test func aLowerSheetCoveredAtItsMediumDetentKeepsItsPlaceAndMovesToANewDetentUnderItsTransform() {
        let scene = SheetScene { $0.detents = [.medium(), .large()] }
        let mediumTop = 800 * (1 - SheetMetrics.mediumDetentFraction)
        let upper = UIViewController()
        upper.sheetPresentationController?.detents = [.medium()]
        scene.presented.present(upper, animated: false)
        // A medium upper sheet pushes nothing back (as over a presenter),
        // but the grabber rule holds whatever the detent.
        expectEqual(scene.card.transform, .identity)
        expectEqual(scene.card.frame.minY, mediumTop)
        // The app moves the covered sheet: its card keeps its place under
        // the transform (set by bounds and centre).
        upper.sheetPresentationController?.detents = [.large()]
        #expect(abs(scene.card.frame.minY - (mediumTop - 4)) < 1e-9, "\(scene.card.frame)")
        scene.sheet.selectedDetentIdentifier = .large
        #expect(abs(scene.card.frame.minY - (10 - 4)) < 1e-9, "\(scene.card.frame)")
        #expect(abs(scene.card.frame.height - 790 * SheetMetrics.presenterScale) < 1e-9)
    }
}
