import UIKit

/// The cards scene with every card animating its position and opacity
/// (one `UIView.animate` block, linear, long enough never to end during a
/// run): each frame is one display refresh on the manual clock (the
/// animation engine marks the 200 cards, the turn's commit copies their
/// presentation values for the refresh's target time) and the frame the
/// compositor then draws, where the cards were and where they are.
@MainActor
struct AnimatedCardsScene {
    let cards: CardsScene

    init(cards: CardsScene) {
        self.cards = cards
        UIView.animate(withDuration: 10_000, delay: 0, options: [.curveLinear, .allowUserInteraction]) {
            for (index, card) in cards.window.subviews.enumerated() where card !== cards.marker {
                card.center.x += CGFloat(index % 2 == 0 ? 200_000 : -200_000)
                card.alpha = card.alpha * 0.5
            }
        }
        UIApplication.shared.runLoop.runUntilIdle()
        _ = cards.compositor.renderFrame()
    }

    /// One refresh later: commit and composite.
    func frame() -> [CGRect] {
        UIApplication.shared.runLoop.advance(by: 1.0 / 60)
        return cards.compositor.renderFrame()
    }
}

/// The cards scene with one card (the 100×100 marker, above the others)
/// moving 1 pt per refresh: the damaged frame of an animation.
@MainActor
struct OneMovingCardScene {
    let cards: CardsScene

    init(cards: CardsScene) {
        self.cards = cards
        let marker = cards.marker
        UIView.animate(withDuration: 10_000, delay: 0, options: [.curveLinear, .allowUserInteraction]) {
            marker.center.x += 600_000
        }
        UIApplication.shared.runLoop.runUntilIdle()
        _ = cards.compositor.renderFrame()
    }

    func frame() -> [CGRect] {
        UIApplication.shared.runLoop.advance(by: 1.0 / 60)
        return cards.compositor.renderFrame()
    }
}
