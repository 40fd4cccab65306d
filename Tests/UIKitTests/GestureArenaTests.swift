import GeometryTestSupport
import TestExpectations
import Testing
@testable import UIKit

/// The gesture arena on its own: built with a stand-in application and a
/// recording views' side, given touches by hand, as the window would give
/// them. No window, run loop or event queue takes part.
@MainActor
private final class Arena {
    let host = StandInEventPathHost()
    let delivery = EventDeliveryState()
    let views = RecordingViewTouchDelivery()
    let arena: GestureArena
    let event = UIEvent(type: .touches, timestamp: 0)
    /// Every recognizer's touch calls, resets and changes of state, in order.
    let log = CallLog()

    init() {
        arena = GestureArena(host: host, delivery: delivery, views: views)
        delivery.traceHandler = { [log] record in
            if case .gestureStateChanged(let recognizer, _, let new, _, _) = record.step { log.add("\(recognizer.name!) → \(new)") }
        }
    }

    /// One event bringing `touches` in `phase`, then the settling the
    /// application does after each event.
    func send(_ phase: UITouch.Phase, _ touches: UITouch...) {
        for touch in touches { touch.phase = phase }
        delivery.isDeliveringEvent = true
        arena.deliver(event, touches: touches)
        delivery.isDeliveringEvent = false
        arena.settle()
    }

    /// A whole touch sequence of one finger on `view`: down, a move, up.
    func tap(_ view: UIView) {
        let touch = Self.touch(on: view)
        send(.began, touch)
        send(.moved, touch)
        send(.ended, touch)
    }

    static func touch(on view: UIView, finger: UInt32 = 1) -> UITouch {
        let touch = UITouch(fingerIdentifier: finger)
        touch.view = view
        return touch
    }

    func entries(of recognizer: UIGestureRecognizer) -> [String] {
        let prefix = recognizer.name! + " "
        return log.entries.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

/// A recognizer that logs what it is given and decides as its script says.
@MainActor
private final class Scripted: UIGestureRecognizer {
    enum Decision { case recognize, begin, fail }
    let log: CallLog
    /// What to do on receiving touches in a phase.
    var script: [UITouch.Phase: Decision] = [:]
    /// Whether recognizing stops the others (``canPrevent(_:)``).
    var preventsOthers = true

    init(_ name: String, log: CallLog, script: [UITouch.Phase: Decision] = [:]) {
        self.log = log
        self.script = script
        super.init()
        self.name = name
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { received(.began, "began") }
    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) { received(.moved, "moved") }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { received(.ended, "ended") }
    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { received(.cancelled, "cancelled") }

    override func reset() {
        log.add("\(name!) reset")
        super.reset()
    }

    override func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { preventsOthers }

    private func received(_ phase: UITouch.Phase, _ word: String) {
        log.add("\(name!) \(word)")
        switch script[phase] {
        case .recognize: state = (state == .began || state == .changed) ? .ended : .recognized
        case .begin: state = state == .possible ? .began : .changed
        case .fail: state = (state == .began || state == .changed) ? .cancelled : .failed
        case nil: break
        }
    }
}

@MainActor
private final class Simultaneous: UIGestureRecognizerDelegate {
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool { true }
}

@MainActor
@Suite struct GestureArenaTests {
    // MARK: The first to recognize wins

    @Test func theFirstToRecognizeFailsTheOthersWhichGetNothingMore() {
        let arena = Arena()
        let outer = UIView(), inner = UIView()
        outer.addSubview(inner)
        let near = Scripted("near", log: arena.log, script: [.moved: .recognize])
        let far = Scripted("far", log: arena.log)
        inner.addGestureRecognizer(near)
        outer.addGestureRecognizer(far)
        arena.tap(inner)
        #expect(arena.log.entries == [
            "near began", "far began",
            "near moved", "near → ended", "far → failed",
            // The touch is still down: nobody is reset until it lifts.
            "near reset", "near → possible", "far reset", "far → possible",
        ])
    }

    @Test func recognizersAllowedTogetherBothRecognize() {
        let arena = Arena()
        let view = UIView()
        let delegate = Simultaneous()
        let first = Scripted("first", log: arena.log, script: [.moved: .begin, .ended: .recognize])
        let second = Scripted("second", log: arena.log, script: [.ended: .recognize])
        second.delegate = delegate
        view.addGestureRecognizer(first)
        view.addGestureRecognizer(second)
        arena.tap(view)
        expectEqual(arena.entries(of: first), ["began", "moved", "→ began", "ended", "→ ended", "reset", "→ possible"])
        expectEqual(arena.entries(of: second), ["began", "moved", "ended", "→ ended", "reset", "→ possible"])
    }

    @Test func aRecognizerThatBeganIsCancelledByALaterWinnerAndGetsNothingMore() {
        let arena = Arena()
        let view = UIView()
        let pan = Scripted("pan", log: arena.log, script: [.began: .begin, .moved: .begin])
        pan.preventsOthers = false  // so that the press stays in the game
        let press = Scripted("press", log: arena.log, script: [.moved: .recognize])
        view.addGestureRecognizer(pan)
        view.addGestureRecognizer(press)
        arena.tap(view)
        expectEqual(arena.entries(of: pan), ["began", "→ began", "moved", "→ changed", "→ cancelled", "reset", "→ possible"])
        expectEqual(arena.entries(of: press), ["began", "moved", "→ ended", "reset", "→ possible"])
    }

    // MARK: Required failure

    @Test func aRecognizerWaitingForAnotherRecognizesWhenTheOtherFails() {
        let arena = Arena()
        let view = UIView()
        let single = Scripted("single", log: arena.log, script: [.ended: .recognize])
        let double = Scripted("double", log: arena.log, script: [.ended: .fail])
        single.require(toFail: double)
        view.addGestureRecognizer(single)
        view.addGestureRecognizer(double)
        arena.tap(view)
        // The single tap asks to recognize first and waits, still possible;
        // the double tap's failure lets it through, in the same event.
        #expect(Array(arena.log.entries.prefix(8)) == [
            "single began", "double began", "single moved", "double moved",
            "single ended", "double ended", "double → failed", "single → ended",
        ])
        expectEqual(arena.entries(of: single).filter { $0 == "reset" }.count, 1)
    }

    @Test func aRecognizerWaitingForAnotherFailsWhenTheOtherRecognizes() {
        let arena = Arena()
        let view = UIView()
        let single = Scripted("single", log: arena.log, script: [.moved: .recognize])
        let double = Scripted("double", log: arena.log, script: [.ended: .recognize])
        single.require(toFail: double)
        view.addGestureRecognizer(single)
        view.addGestureRecognizer(double)
        arena.tap(view)
        expectEqual(arena.entries(of: single), ["began", "moved", "ended", "→ failed", "reset", "→ possible"])
        expectEqual(arena.entries(of: double), ["began", "moved", "ended", "→ ended", "reset", "→ possible"])
    }

    @Test func aWaitingRecognizerWhoseBlockerIsFailedByAWinnerFailsToo() {
        // The winner's recognition fails the blocker, and that failure
        // would let the waiting one through: the winner prevents it as well.
        let arena = Arena()
        let view = UIView()
        let winner = Scripted("winner", log: arena.log, script: [.moved: .recognize])
        let blocker = Scripted("blocker", log: arena.log)
        let waiter = Scripted("waiter", log: arena.log, script: [.began: .recognize])
        waiter.require(toFail: blocker)
        for recognizer in [winner, blocker, waiter] { view.addGestureRecognizer(recognizer) }
        arena.tap(view)
        #expect(Array(arena.log.entries.prefix(7)) == [
            "winner began", "blocker began", "waiter began", "winner moved",
            "winner → ended", "blocker → failed", "waiter → failed",
        ])
        #expect(!arena.log.entries.contains("waiter → ended"))
    }

    // MARK: What the views' side and the application are told

    @Test func theViewsSideHearsOfEachDecision() {
        let arena = Arena()
        let view = UIView()
        let holder = Scripted("holder", log: arena.log, script: [.moved: .recognize])
        holder.delaysTouchesBegan = true
        view.addGestureRecognizer(holder)
        let touch = Arena.touch(on: view)
        arena.send(.began, touch)
        #expect(arena.views.calls.isEmpty)
        arena.send(.moved, touch)
        // Recognizing: the held began is dropped, the view's touches are
        // cancelled, and whatever is still held may go.
        expectEqual(arena.views.calls, ["discardHeldBegan 1", "cancelViewDelivery 1", "releaseHeldTouches 1"])
        arena.views.calls = []
        arena.send(.ended, touch)
        expectEqual(arena.views.calls, ["releaseHeldTouches 1"])  // the reset

        let failing = Arena()
        let failer = Scripted("failer", log: failing.log, script: [.moved: .fail])
        let other = UIView()
        other.addGestureRecognizer(failer)
        let second = Arena.touch(on: other)
        failing.send(.began, second)
        failing.send(.moved, second)
        expectEqual(failing.views.calls, ["releaseHeldTouches 1"])
    }

    @Test func anIllegalTransitionIsReportedToTheHostAndTheStateKept() {
        let arena = Arena()
        let view = UIView()
        final class Jumper: UIGestureRecognizer {
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { state = .changed }
        }
        let jumper = Jumper()
        view.addGestureRecognizer(jumper)
        arena.send(.began, Arena.touch(on: view))
        expectEqual(jumper.state, .possible)
        expectEqual(arena.host.reports.map(\.kind), [.illegalGestureTransition])
    }

    @Test func aDisabledRecognizerIsFailedResetAndGivenNothingMore() {
        let arena = Arena()
        let view = UIView()
        let recognizer = Scripted("r", log: arena.log)
        view.addGestureRecognizer(recognizer)
        let touch = Arena.touch(on: view)
        arena.send(.began, touch)
        recognizer.isEnabled = false
        arena.send(.moved, touch)
        arena.send(.ended, touch)
        expectEqual(arena.entries(of: recognizer), ["began", "→ failed", "reset", "→ possible"])
        #expect(recognizer.arena == nil)
        #expect(touch.gestureRecognizerList.isEmpty)
    }

    @Test func arenasAreIndependent() {
        let first = Arena(), second = Arena()
        let view = UIView(), otherView = UIView()
        let a = Scripted("a", log: first.log, script: [.began: .recognize])
        let b = Scripted("b", log: second.log)
        view.addGestureRecognizer(a)
        otherView.addGestureRecognizer(b)
        first.send(.began, Arena.touch(on: view))
        second.send(.began, Arena.touch(on: otherView))
        #expect(a.arena === first.arena && b.arena === second.arena)
        expectEqual(first.log.entries, ["a began", "a → ended"])
        expectEqual(second.log.entries, ["b began"])
    }

    // MARK: The invariants, over many random sequences

    /// Random recognizers on a chain of views, random scripts, random
    /// failure requirements (acyclic) and random pairs allowed together;
    /// one finger goes down, moves and lifts. Whatever happens: the winners
    /// are allowed together (so with no pair allowed, exactly one wins or
    /// all lose); a recognizer that waited for another did not win beside
    /// it; nothing is given to a recognizer after it failed or was
    /// cancelled; every recognizer is reset exactly once, at the end; and
    /// the arena is empty afterwards.
    @Test func invariantsHoldOverRandomSequences() {
        for seed in UInt64(1)...300 {
            var random = SeededGenerator(state: seed)
            let arena = Arena()
            let root = UIView()
            var views = [root]
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let child = UIView()
                views.last!.addSubview(child)
                views.append(child)
            }
            let count = Int.random(in: 1...5, using: &random)
            var recognizers: [Scripted] = []
            for index in 0..<count {
                var script: [UITouch.Phase: Scripted.Decision] = [:]
                for phase in [UITouch.Phase.began, .moved] {
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0: script[phase] = .recognize
                    case 1: script[phase] = .begin
                    case 2: script[phase] = .fail
                    default: break
                    }
                }
                // Everyone decides by the end, so that nobody is left waiting.
                script[.ended] = Bool.random(using: &random) ? .recognize : .fail
                let recognizer = Scripted("r\(index)", log: arena.log, script: script)
                views.randomElement(using: &random)!.addGestureRecognizer(recognizer)
                recognizers.append(recognizer)
            }
            var requirements: [(waiting: Int, for: Int)] = []
            for later in recognizers.indices {
                for earlier in 0..<later where Int.random(in: 0..<4, using: &random) == 0 {
                    recognizers[later].require(toFail: recognizers[earlier])
                    requirements.append((later, earlier))
                }
            }
            let together = PairDelegate()
            for a in recognizers.indices {
                for b in recognizers.indices where a < b && Int.random(in: 0..<5, using: &random) == 0 {
                    together.pairs.append((recognizers[a], recognizers[b]))
                }
            }
            for recognizer in recognizers { recognizer.delegate = together }

            let touch = Arena.touch(on: views.last!)
            arena.send(.began, touch)
            arena.send(.moved, touch)
            arena.send(.ended, touch)

            let winners = recognizers.filter { arena.entries(of: $0).contains("→ ended") }
            for (i, a) in winners.enumerated() {
                for b in winners[(i + 1)...] {
                    #expect(together.allows(a, b), "seed \(seed): \(a.name!) and \(b.name!) both won: \(arena.log.entries)")
                }
            }
            if together.pairs.isEmpty {
                #expect(winners.count <= 1, "seed \(seed)")
                if winners.isEmpty {
                    for recognizer in recognizers {
                        let entries = arena.entries(of: recognizer)
                        #expect(entries.contains("→ failed") || entries.contains("→ cancelled"), "seed \(seed): \(recognizer.name!) did not lose")
                    }
                }
            }
            for (waiting, blocker) in requirements {
                let bothWon = winners.contains { $0 === recognizers[waiting] } && winners.contains { $0 === recognizers[blocker] }
                #expect(!bothWon, "seed \(seed): r\(waiting) won beside r\(blocker), which it waited for")
            }
            for recognizer in recognizers {
                let entries = arena.entries(of: recognizer)
                if let out = entries.firstIndex(where: { $0 == "→ failed" || $0 == "→ cancelled" }) {
                    let touchCalls = ["began", "moved", "ended", "cancelled"]
                    #expect(!entries[(out + 1)...].contains { touchCalls.contains($0) },
                            "seed \(seed): \(recognizer.name!) was given touches after it was out: \(entries)")
                }
                expectEqual(entries.filter { $0 == "reset" }.count, 1, "seed \(seed): \(recognizer.name!): \(entries)")
                expectEqual(entries.suffix(2), ["reset", "→ possible"], "seed \(seed): \(recognizer.name!): \(entries)")
                #expect(recognizer.arena == nil && recognizer.state == .possible, "seed \(seed)")
            }
            #expect(touch.gestureRecognizerList.isEmpty, "seed \(seed)")
        }
    }
}

/// Allows the listed pairs of recognizers to recognize together.
@MainActor
private final class PairDelegate: UIGestureRecognizerDelegate {
    var pairs: [(UIGestureRecognizer, UIGestureRecognizer)] = []

    func allows(_ a: UIGestureRecognizer, _ b: UIGestureRecognizer) -> Bool {
        pairs.contains { ($0.0 === a && $0.1 === b) || ($0.0 === b && $0.1 === a) }
    }

    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool {
        allows(gestureRecognizer, otherGestureRecognizer)
    }
}
