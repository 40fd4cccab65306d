// Client code as written against Apple's UIKit: the documented imports for
// subclassing a gesture recognizer, and Core Graphics on its own.
import UIKit
import UIKit.UIGestureRecognizerSubclass
import CoreGraphics

final class TwoFingerRotation: UIGestureRecognizer {
    private(set) var rotation: CGFloat = 0
    private var startAngle: CGFloat?

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        if numberOfTouches > 2 { state = .failed }
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        guard numberOfTouches == 2 else { return }
        let a = location(ofTouch: 0, in: view), b = location(ofTouch: 1, in: view)
        let angle = atan2(b.y - a.y, b.x - a.x)
        if let startAngle {
            state = .changed
            rotation = angle - startAngle
        } else {
            startAngle = angle
            state = .began
        }
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        state = state == .possible ? .failed : .ended
    }

    override func reset() {
        super.reset()
        rotation = 0
        startAngle = nil
    }
}

@MainActor
func hitArea(of view: UIView) -> CGRect {
    view.bounds.insetBy(dx: -10, dy: -10).applying(CGAffineTransform(scaleX: 1, y: 1))
}
