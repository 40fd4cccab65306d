import TestExpectations
import Testing
import UIKit

/// The README's gesture example, compiled and run as written there.
@MainActor
@Suite struct ReadmeExampleTests {
    final class PhotoViewController: UIViewController {
        var log: [String] = []

        override func viewDidLoad() {
            super.viewDidLoad()
            view.addGestureRecognizer(UIPanGestureRecognizer(target: self, action: Self.didPan))
            let doubleTap = UITapGestureRecognizer { [unowned self] _ in log.append("zoom") }
            doubleTap.numberOfTapsRequired = 2
            let singleTap = UITapGestureRecognizer { [unowned self] _ in log.append("toggle chrome") }
            singleTap.require(toFail: doubleTap)
            view.addGestureRecognizer(singleTap)
            view.addGestureRecognizer(doubleTap)
        }

        func didPan(_ pan: UIPanGestureRecognizer) {
            log.append("pan \(pan.state)")
        }
    }

    /// The spelling, with the method named through `Self`, for a
    /// recognizer and for a control, in a class that is not final.
    class PanningView: UIView {
        var actions: [String] = []
        func didPan() { actions.append("didPan") }
        func didPanWith(_ pan: UIPanGestureRecognizer) { actions.append("didPanWith") }
        func didTouchUp(_ button: UIButton) { actions.append("didTouchUp") }

        func install(on button: UIButton) {
            let pan = UIPanGestureRecognizer()
            pan.addTarget(self, action: Self.didPan)
            pan.addTarget(self, action: Self.didPanWith)
            addGestureRecognizer(pan)
            button.addTarget(self, action: Self.didTouchUp, for: .touchUpInside)
        }
    }

    final class SubclassOfPanningView: PanningView {}

    @Test func methodsNamedThroughSelfCanBeTargets() {
        UIApplication.shared.resetForTesting()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        window.makeKeyAndVisible()
        let view = SubclassOfPanningView(frame: window.bounds)
        let button = UIButton(type: .system)
        button.frame = CGRect(x: 300, y: 700, width: 80, height: 40)
        window.addSubview(view)
        window.addSubview(button)
        view.install(on: button)
        let fingers = TouchSynthesizer(window: window)
        let finger = fingers.touchDown(at: CGPoint(x: 100, y: 100))
        fingers.touchMove(finger, to: CGPoint(x: 150, y: 100))
        fingers.touchUp(finger)
        fingers.tap(at: CGPoint(x: 320, y: 720))
        expectEqual(view.actions, ["didPan", "didPanWith", "didPan", "didPanWith", "didTouchUp"])
    }

    @Test func thePhotoControllerExampleWorksAsDescribed() {
        UIApplication.shared.resetForTesting()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        let controller = PhotoViewController()
        window.rootViewController = controller
        window.makeKeyAndVisible()
        let fingers = TouchSynthesizer(window: window)
        fingers.tap(at: CGPoint(x: 100, y: 100))
        fingers.advance(by: 0.5)
        fingers.tap(at: CGPoint(x: 100, y: 100))
        fingers.advance(by: 0.1)
        fingers.tap(at: CGPoint(x: 100, y: 100))
        let finger = fingers.touchDown(at: CGPoint(x: 100, y: 300))
        fingers.advance(by: 1.0 / 60)
        fingers.touchMove(finger, to: CGPoint(x: 150, y: 300))
        fingers.touchUp(finger)
        expectEqual(controller.log, ["toggle chrome", "zoom", "pan began", "pan ended"])
    }
}
