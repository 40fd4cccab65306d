import UIKit

/// The cards scene with every card animating its position and opacity
/// (linear, long enough never to end during a run): each frame is one
/// display refresh on the manual clock (the animation engine marks the 200
/// cards, the turn's commit copies their presentation values for the
/// refresh's target time) and the frame the compositor then draws, where
/// the cards were and where they are.
///
/// The cards move 20 pt a second, a third of a point per frame, so they
/// are between pixels. Their fade to half their opacity takes the run's
/// 10,000 s, so that at the frames measured every card's opacity is within
/// 1/10,000 of where it started (drawn as the same 8-bit alpha); with
/// `visibleFade` it goes to half and back every second instead, so the
/// cards are really translucent.
@MainActor
struct AnimatedCardsScene {
    let cards: CardsScene

    init(cards: CardsScene, visibleFade: Bool = false) {
        self.cards = cards
        let moving = cards.window.subviews.filter { $0 !== cards.marker }
        UIView.animate(withDuration: 10_000, delay: 0, options: [.curveLinear, .allowUserInteraction]) {
            for (index, card) in moving.enumerated() {
                card.center.x += CGFloat(index % 2 == 0 ? 200_000 : -200_000)
                if !visibleFade { card.alpha = card.alpha * 0.5 }
            }
        }
        if visibleFade {
            UIView.animate(withDuration: 1, delay: 0, options: [.curveLinear, .allowUserInteraction, .repeat, .autoreverse]) {
                for card in moving { card.alpha = card.alpha * 0.5 }
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
