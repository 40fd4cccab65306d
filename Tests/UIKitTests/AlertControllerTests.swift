import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

// UIAlertController: presenting, choosing an action (dismissal, then the
// handler), disabled actions, taps outside, button order, pictures, and
// how alerts and action sheets come and go.

/// Moves the manual clock on by `seconds`, refreshing the display on the way.
@MainActor
private func advance(_ seconds: TimeInterval) {
    UIApplication.shared.runLoop.advance(by: seconds)
}

/// The time what is shown is worked out for: the last refresh's target.
@MainActor
private var shownTime: TimeInterval { AnimationEngine.current.frameTime }

/// Long enough for an alert or an action sheet to come or go.
private let transitionTime = max(AlertTransitionMetrics.alertDuration, AlertTransitionMetrics.sheetSlideDuration) + 0.05

@MainActor
@Suite struct AlertControllerTests {
    /// A window of `size` showing a plain root controller, and a synthesizer.
    private func presenter(_ size: CGSize = CGSize(width: 320, height: 568)) -> (UIViewController, UIWindow, TouchSynthesizer) {
        let window = makeWindow(frame: CGRect(origin: .zero, size: size))
        let root = UIViewController()
        window.rootViewController = root
        return (root, window, TouchSynthesizer(window: window))
    }

    /// The centre of `action`'s button in window coordinates.
    private func centre(of action: UIAlertAction, in alert: UIAlertController, window: UIWindow) -> CGPoint {
        alert.view.layoutIfNeeded()
        let button = alert.button(for: action)!
        let frame = button.convert(button.bounds, to: window)
        return CGPoint(x: frame.midX, y: frame.midY)
    }

    @Test func choosingAnActionDismissesThenCallsItsHandler() {
        let (root, window, synthesizer) = presenter()
        let log = CallLog()
        let alert = UIAlertController(title: "Delete?", message: "This cannot be undone.", preferredStyle: .alert)
        let cancel = UIAlertAction(title: "Cancel", style: .cancel) { _ in log.add("cancel") }
        let delete = UIAlertAction(title: "Delete", style: .destructive) { action in
            log.add("\(action.title!) presented: \(root.presentedViewController != nil)")
        }
        alert.addAction(cancel)
        alert.addAction(delete)
        root.present(alert, animated: true)
        #expect(root.presentedViewController === alert && alert.actions.count == 2)
        advance(transitionTime)  // the alert fades in
        let point = centre(of: delete, in: alert, window: window)
        let finger = synthesizer.touchDown(at: point)
        #expect(alert.button(for: delete)!.isHighlighted && log.entries.isEmpty)
        synthesizer.touchUp(finger)
        // The alert fades out first; the handler runs once it has gone.
        #expect(log.entries.isEmpty && root.presentedViewController === alert)
        advance(transitionTime)
        expectEqual(log.entries, ["Delete presented: false"])
        #expect(root.presentedViewController == nil && alert.view.window == nil)
    }

    @Test func anAlertOfTwoPutsCancelOnTheLeftAndASheetPutsItInItsOwnCardAtTheBottom() {
        let (root, window, _) = presenter()
        let alert = UIAlertController(title: "Title", message: nil, preferredStyle: .alert)
        let ok = UIAlertAction(title: "OK", style: .default), cancel = UIAlertAction(title: "Cancel", style: .cancel)
        alert.addAction(ok)
        alert.addAction(cancel)
        root.present(alert, animated: false)
        let okPoint = centre(of: ok, in: alert, window: window), cancelPoint = centre(of: cancel, in: alert, window: window)
        #expect(cancelPoint.x < okPoint.x && cancelPoint.y == okPoint.y, "side by side, cancel first")
        #expect(alert.card.frame.width == ControlMetrics.alertWidth && abs(alert.card.frame.midY - 284) < 1, "centred")
        alert.dismiss(animated: false)
        let sheet = UIAlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        let cancelSheet = UIAlertAction(title: "Cancel", style: .cancel), first = UIAlertAction(title: "First", style: .default)
        let second = UIAlertAction(title: "Second", style: .default)
        for action in [cancelSheet, first, second] { sheet.addAction(action) }
        root.present(sheet, animated: false)
        let points = [first, second, cancelSheet].map { centre(of: $0, in: sheet, window: window) }
        #expect(points[0].y < points[1].y && points[1].y < points[2].y, "stacked, cancel last: \(points)")
        let bottom = 568 - ControlMetrics.alertSheetBottomMargin - ControlMetrics.alertSheetButtonHeight / 2
        #expect(abs(points[2].y - bottom) < 1 && points[2].y - points[1].y == ControlMetrics.alertSheetButtonHeight + ControlMetrics.alertSheetCancelGap)
    }

    @Test func aDisabledActionIgnoresTapsAndASecondCancelIsRefused() {
        let (root, window, synthesizer) = presenter()
        let log = CallLog()
        let alert = UIAlertController(title: "Sign in", message: nil, preferredStyle: .alert)
        let signIn = UIAlertAction(title: "Sign In", style: .default) { _ in log.add("sign in") }
        signIn.isEnabled = false
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(signIn)
        UIApplication.shared.diagnostics.handler = { log.add("diagnostic: \($0.message)") }
        alert.addAction(UIAlertAction(title: "Never", style: .cancel))
        #expect(alert.actions.count == 2 && log.entries.count == 1 && log.entries[0].contains("already has a cancel action"))
        root.present(alert, animated: false)
        synthesizer.tap(at: centre(of: signIn, in: alert, window: window))
        #expect(root.presentedViewController === alert && log.entries.count == 1)
        signIn.isEnabled = true
        synthesizer.advance(by: 1)
        synthesizer.tap(at: centre(of: signIn, in: alert, window: window))
        #expect(log.entries.count == 1 && root.presentedViewController === alert)  // fading out
        advance(transitionTime)
        #expect(log.entries.last == "sign in" && root.presentedViewController == nil)
    }

    @Test func aTapOutsideAnActionSheetCancelsItButNotAnAlert() {
        let (root, _, synthesizer) = presenter()
        let log = CallLog()
        let alert = UIAlertController(title: "Alert", message: nil, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in log.add("alert cancelled") })
        root.present(alert, animated: false)
        synthesizer.tap(at: CGPoint(x: 160, y: 40))
        #expect(root.presentedViewController === alert && log.entries.isEmpty)
        alert.dismiss(animated: false)
        let sheet = UIAlertController(title: "Sheet", message: nil, preferredStyle: .actionSheet)
        sheet.addAction(UIAlertAction(title: "Share", style: .default))
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in log.add("sheet cancelled") })
        root.present(sheet, animated: false)
        synthesizer.advance(by: 1)
        synthesizer.tap(at: CGPoint(x: 160, y: 40))
        #expect(log.entries.isEmpty && root.presentedViewController === sheet)  // sliding down
        advance(transitionTime)
        #expect(log.entries == ["sheet cancelled"] && root.presentedViewController == nil)
    }

    @Test func anAlertFadesInShrinkingToItsSizeAsTheScreenDimsThenFadesOut() throws {
        let (root, window, _) = presenter()
        defer { withExtendedLifetime(window) {} }
        let alert = UIAlertController(title: "Delete?", message: nil, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        var presented = false
        root.present(alert, animated: true) { presented = true }
        let start = shownTime
        #expect(alert.card.transform == .identity && alert.card.alpha == 1 && alert.dimmingView.alpha == 1)  // the model, at once
        // AlertTransitionMetrics' spring: damping ratio ζ = 45.71 settling in
        // 0.404 s; the share of the change made at t is 1 − x(t), x the damped
        // oscillator's closed form (SpringParameters.displacement).
        let spring = SpringParameters(dampingRatio: Double(AlertTransitionMetrics.alertSpringDampingRatio),
                                      settlingIn: AlertTransitionMetrics.alertDuration)
        let scale = Double(AlertTransitionMetrics.alertInitialScale)
        for _ in 1...3 {
            advance(0.05)
            let p = spring.progress(at: shownTime - start)
            let card = try #require(alert.card.layer.presentation())
            let dimming = try #require(alert.dimmingView.layer.presentation())
            #expect(p > 0.3 && p < 1)
            #expect(abs(Double(card.opacity) - p) < 1e-4 && abs(Double(dimming.opacity) - p) < 1e-4, "at \(shownTime - start)")
            // The card's scale goes from 1.2 to 1: 1.2 + (1 − 1.2) · p.
            #expect(abs(Double(card.transform.m11) - (scale + (1 - scale) * p)) < 1e-6)
            #expect(abs(Double(card.transform.m22) - (scale + (1 - scale) * p)) < 1e-6)
            #expect(!presented)
        }
        advance(transitionTime)
        #expect(presented)
        try expectEqual(#require(alert.card.layer.presentation()).transform.m11, 1)

        var dismissed = false
        alert.dismiss(animated: true) { dismissed = true }
        let fadeStart = shownTime
        advance(0.05)
        let p = spring.progress(at: shownTime - fadeStart)
        let card = try #require(alert.card.layer.presentation())
        #expect(abs(Double(card.opacity) - (1 - p)) < 1e-4 && card.transform.m11 == 1, "fades where it is")
        #expect(abs(Double(try #require(alert.dimmingView.layer.presentation()).opacity) - (1 - p)) < 1e-4)
        #expect(root.presentedViewController === alert && !dismissed)
        advance(transitionTime)
        #expect(dismissed && root.presentedViewController == nil && alert.view.window == nil)
        #expect(alert.card.alpha == 1 && alert.dimmingView.alpha == 1)  // ready to be shown again
    }

    @Test func anActionSheetSlidesUpFromTheBottomEdgeAndDownToGo() throws {
        let (root, window, _) = presenter()
        defer { withExtendedLifetime(window) {} }
        let sheet = UIAlertController(title: nil, message: nil, preferredStyle: .actionSheet)
        sheet.addAction(UIAlertAction(title: "Share", style: .default))
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        var presented = false
        root.present(sheet, animated: true) { presented = true }
        let start = shownTime
        let cancelCard = try #require(sheet.cancelCard)
        // Both cards start with the card's top at the bottom edge (y 568) and
        // move together on the standard slide's ease-in-out curve.
        let travel = 568 - sheet.card.frame.minY
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        let duration = AlertTransitionMetrics.sheetSlideDuration
        advance(duration / 2)
        var p = curve.value(at: (shownTime - start) / duration)
        #expect(p > 0.2 && p < 0.8)
        for card in [sheet.card, cancelCard] {
            let shown = try #require(card.layer.presentation())
            #expect(abs(Double(shown.transform.m42) - Double(travel) * (1 - p)) < 1e-6, "\(card)")
            expectEqual(shown.opacity, 1)
        }
        #expect(abs(Double(try #require(sheet.dimmingView.layer.presentation()).opacity) - p) < 1e-4)
        advance(transitionTime)
        #expect(presented && sheet.card.layer.presentation()?.transform.m42 == 0)

        var dismissed = false
        sheet.dismiss(animated: true) { dismissed = true }
        let slideStart = shownTime
        advance(duration / 2)
        p = curve.value(at: (shownTime - slideStart) / duration)
        #expect(abs(Double(try #require(cancelCard.layer.presentation()).transform.m42) - Double(travel) * p) < 1e-6)
        #expect(abs(Double(try #require(sheet.dimmingView.layer.presentation()).opacity) - (1 - p)) < 1e-4)
        #expect(!dismissed)
        advance(transitionTime)
        #expect(dismissed && sheet.view.window == nil && cancelCard.transform == .identity)
    }

    @Test func pictureOfAnAlertFadingInAndASheetSlidingUp() {
        let (root, window, _) = presenter()
        UIScreen.main.scale = 1  // a ninth of the pixels of scale 3: the motion shows, the test stays quick
        root.view.backgroundColor = .systemTeal
        let alert = UIAlertController(title: "Delete this photo?", message: "It will be removed from all your devices.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Delete", style: .destructive))
        root.present(alert, animated: true)
        advance(0.05)  // a little over half way on the spring: larger than its size, half transparent
        expectMatchesReference(snapshot(window), named: "alert-fading-in", tolerance: 3)
        alert.dismiss(animated: false)
        let sheet = UIAlertController(title: "Share", message: nil, preferredStyle: .actionSheet)
        sheet.addAction(UIAlertAction(title: "Copy Link", style: .default))
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        root.present(sheet, animated: true)
        advance(AlertTransitionMetrics.sheetSlideDuration / 2)  // half way up on the ease-in-out curve
        expectMatchesReference(snapshot(window), named: "action-sheet-sliding-up", tolerance: 3)
    }

    @Test func whileAnAlertAnimatesInTouchesAreIgnoredEvenOnWhatIsBehindIt() {
        let (root, window, synthesizer) = presenter()
        let log = CallLog()
        let behind = UIButton(type: .system)
        behind.frame = CGRect(x: 100, y: 200, width: 120, height: 44)
        behind.addAction(UIAction { _ in log.add("button behind") }, for: .touchUpInside)
        root.view.addSubview(behind)
        let alert = UIAlertController(title: "Saved", message: nil, preferredStyle: .alert)
        let ok = UIAlertAction(title: "OK", style: .default) { _ in log.add("ok") }
        alert.addAction(ok)
        root.present(alert, animated: true)
        advance(0.1)
        // UIKit's presentation controller ignores interaction events while a
        // transition no gesture drives runs (Apple bug report 41217893): the
        // button behind the fading-in alert does not get the tap, and a
        // finger on OK is ignored until it lifts, even after the end.
        #expect(UIApplication.shared.isIgnoringInteractionEvents)
        synthesizer.tap(at: CGPoint(x: 160, y: 222))
        let point = centre(of: ok, in: alert, window: window)
        let finger = synthesizer.touchDown(at: point)
        #expect(alert.button(for: ok)?.isHighlighted == false)
        advance(transitionTime)
        #expect(!UIApplication.shared.isIgnoringInteractionEvents)
        synthesizer.touchUp(finger)
        advance(transitionTime)
        #expect(log.entries.isEmpty && root.presentedViewController === alert)
        synthesizer.tap(at: point)
        advance(transitionTime)
        #expect(log.entries == ["ok"] && root.presentedViewController == nil)
    }

    @Test func whileAnAlertAnimatesInPressesThatBeginAreIgnoredAndHeldOnesGoOn() {
        let (root, _, synthesizer) = presenter()
        let log = CallLog()
        let responder = PressView("responder", log: log)
        root.view.addSubview(responder)
        responder.becomeFirstResponder()
        synthesizer.pressDown(.upArrow)  // held from before the transition
        let alert = UIAlertController(title: "Saved", message: nil, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        root.present(alert, animated: true)
        advance(0.1)
        // Presses are interaction events as touches are (Apple's
        // isUserInteractionEnabled: "touch, press, keyboard, and focus
        // events"): one that begins during the transition is never
        // delivered, not even its release after the end; a held one ends.
        #expect(UIApplication.shared.isIgnoringInteractionEvents)
        synthesizer.pressDown(.select)
        synthesizer.pressUp(.upArrow)
        advance(transitionTime)
        #expect(!UIApplication.shared.isIgnoringInteractionEvents)
        synthesizer.pressUp(.select)
        synthesizer.pressDown(.select)
        synthesizer.pressUp(.select)
        expectEqual(log.entries, ["responder began up", "responder ended up", "responder began select", "responder ended select"])
    }

    @Test func alertAndActionSheetPictures() {
        let (root, window, _) = presenter()
        root.view.backgroundColor = .systemTeal
        let alert = UIAlertController(title: "Delete this photo?", message: "It will be removed from all your devices.", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Delete", style: .destructive))
        root.present(alert, animated: false)
        window.layoutIfNeeded()
        expectMatchesReference(snapshot(window), named: "alert", tolerance: 3)
        alert.dismiss(animated: false)
        let sheet = UIAlertController(title: "Share", message: nil, preferredStyle: .actionSheet)
        sheet.addAction(UIAlertAction(title: "Copy Link", style: .default))
        sheet.addAction(UIAlertAction(title: "Save Image", style: .default))
        let disabled = UIAlertAction(title: "Print", style: .default)
        disabled.isEnabled = false
        sheet.addAction(disabled)
        sheet.addAction(UIAlertAction(title: "Delete", style: .destructive))
        sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        root.present(sheet, animated: false)
        window.layoutIfNeeded()
        expectMatchesReference(snapshot(window), named: "action-sheet", tolerance: 3)
    }
}
