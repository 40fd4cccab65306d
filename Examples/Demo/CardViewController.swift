import UIKit

/// A card that follows pan, pinch and rotation together, and changes
/// colour on a long press.
final class CardViewController: UIViewController, UIGestureRecognizerDelegate {
    private let card = UIView(frame: CGRect(x: 95, y: 250, width: 200, height: 280))
    private var colors: [UIColor] = [.systemOrange, .systemTeal, .systemPink, .systemGreen]

    override init(nibName: String?, bundle: Bundle?) {
        super.init(nibName: nibName, bundle: bundle)
        tabBarItem = UITabBarItem(title: "Card", image: UIImage(systemName: "hand.thumbsup"), tag: 3)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemGroupedBackground
        card.center = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
        card.backgroundColor = colors[0]
        card.layer.cornerRadius = 16
        card.layer.shadowOpacity = 0.3
        card.layer.shadowRadius = 8
        card.layer.shadowOffset = CGSize(width: 0, height: 4)
        view.addSubview(card)

        let pan = UIPanGestureRecognizer()
        pan.addTarget(self, action: CardViewController.didPan)
        let pinch = UIPinchGestureRecognizer()
        pinch.addTarget(self, action: CardViewController.didPinch)
        let rotation = UIRotationGestureRecognizer()
        rotation.addTarget(self, action: CardViewController.didRotate)
        let press = UILongPressGestureRecognizer()
        press.addTarget(self, action: CardViewController.didLongPress)
        for recognizer in [pan, pinch, rotation, press] as [UIGestureRecognizer] {
            recognizer.delegate = self
            card.addGestureRecognizer(recognizer)
        }
    }

    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer) -> Bool {
        true
    }

    private func didPan(_ pan: UIPanGestureRecognizer) {
        let moved = pan.translation(in: view)
        card.center = CGPoint(x: card.center.x + moved.x, y: card.center.y + moved.y)
        pan.setTranslation(.zero, in: view)
        if pan.state == .ended { say("card moved to \(describe(card.center.x)),\(describe(card.center.y))") }
    }

    private func didPinch(_ pinch: UIPinchGestureRecognizer) {
        card.transform = card.transform.scaledBy(x: pinch.scale, y: pinch.scale)
        pinch.scale = 1
    }

    private func didRotate(_ rotation: UIRotationGestureRecognizer) {
        card.transform = card.transform.rotated(by: rotation.rotation)
        rotation.rotation = 0
    }

    private func didLongPress(_ press: UILongPressGestureRecognizer) {
        guard press.state == .began else { return }
        colors.append(colors.removeFirst())
        card.backgroundColor = colors[0]
        say("card pressed")
    }
}
