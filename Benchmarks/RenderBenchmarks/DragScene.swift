import UIKit

/// A finger dragging a card across the cards scene: what a user feels as
/// touch-to-pixel latency, less the wait for the display's next refresh.
///
/// Each step is one HID frame that moves the finger by 10 pt. It goes the
/// whole way: the input port, the run loop, the queue, the pan gesture
/// recognizer, whose action moves the card by its translation, the update
/// cycle's commit at the end of the turn, and the compositor drawing the
/// damaged rectangles (where the card was and where it is now, over the
/// cards beneath). A step's time runs from the frame's arrival to the
/// frame buffer holding the moved card. The finger goes back and forth
/// along a horizontal line, 8 ms of the run loop's clock between steps (a
/// 125 Hz touch screen), outside the timed part.
@MainActor
final class DragScene {
    let cards: CardsScene
    let card: UIView
    private let synthesizer: TouchSynthesizer
    private var finger: Int
    private var step = 0
    private static let startPoint = CGPoint(x: 300, y: 1000)
    private static let stepLength: CGFloat = 10
    private static let stepsPerSweep = 40
    private static let stepInterval: TimeInterval = 0.008

    init(cards: CardsScene) {
        self.cards = cards
        card = UIView(frame: CGRect(x: 200, y: 940, width: 240, height: 120))
        card.backgroundColor = UIColor(red: 0.95, green: 0.95, blue: 0.97, alpha: 1)
        card.layer.cornerRadius = 16
        card.layer.borderWidth = 1
        card.layer.borderColor = UIColor.gray.cgColor
        synthesizer = TouchSynthesizer(window: cards.window)
        finger = 0
        card.addGestureRecognizer(UIPanGestureRecognizer { [unowned self] in drag($0 as! UIPanGestureRecognizer) })
        cards.window.addSubview(card)
        UIApplication.shared.runLoop.runUntilIdle()
        _ = cards.compositor.renderFrame()
        finger = synthesizer.touchDown(at: Self.startPoint)
        // Past the pan's movement threshold, so that every timed step is a
        // change of a recognized pan.
        for _ in 0..<3 { _ = moveOneStep() }
    }

    private func drag(_ pan: UIPanGestureRecognizer) {
        let translation = pan.translation(in: card.superview)
        card.center = CGPoint(x: card.center.x + translation.x, y: card.center.y + translation.y)
        pan.setTranslation(.zero, in: card.superview)
    }

    /// One step of the finger: the rectangles the frame drew again, and
    /// the seconds from the HID frame's arrival to the frame buffer's update.
    func moveOneStep() -> (damage: [CGRect], seconds: Double) {
        synthesizer.advance(by: Self.stepInterval)
        step += 1
        let sweep = step % (2 * Self.stepsPerSweep)
        let along = sweep < Self.stepsPerSweep ? sweep : 2 * Self.stepsPerSweep - sweep
        let point = CGPoint(x: Self.startPoint.x + CGFloat(along) * Self.stepLength, y: Self.startPoint.y)
        let start = now()
        synthesizer.touchMove(finger, to: point)
        let damage = cards.compositor.renderFrame()
        return (damage, now() - start)
    }
}
