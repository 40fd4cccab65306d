import DrawingTestSupport
import Testing
@testable import UIKit

// UIAlertController: presenting, choosing an action (dismissal, then the
// handler), disabled actions, taps outside, button order, and pictures.

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
        let point = centre(of: delete, in: alert, window: window)
        let finger = synthesizer.touchDown(at: point)
        #expect(alert.button(for: delete)!.isHighlighted && log.entries.isEmpty)
        synthesizer.touchUp(finger)
        #expect(log.entries == ["Delete presented: false"])
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
        #expect(log.entries == ["sheet cancelled"] && root.presentedViewController == nil)
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
