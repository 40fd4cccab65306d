import UIKit

/// What `openuikit trace tap|long-press|pan` prints: a demo hierarchy with three
/// recognizers on one card, driven through the real input path, printing
/// every frame sent, every recognizer state change, every action and every
/// touch method called on a view, in order.
///
/// Window ← root ← card (40,100,300,200) ← badge (20,20,60,60). The card
/// has a tap, a long-press and a pan recognizer; the badge logs its touches.
@MainActor
enum GestureTrace {
    /// The article-style trace, or with `json` every trace record as a JSON
    /// line (`docs/trace.md`).
    static func run(_ gesture: TraceCommand.Gesture, json: Bool = false) -> String {
        let application = UIApplication.shared
        application.resetForTesting()
        var lines: [String] = []
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        window.makeKeyAndVisible()
        let root = NamedView(name: "root", frame: window.bounds)
        let card = NamedView(name: "card", frame: CGRect(x: 40, y: 100, width: 300, height: 200))
        let badge = NamedView(name: "badge", frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        window.addSubview(root)
        root.addSubview(card)
        card.addSubview(badge)

        let synthesizer = TouchSynthesizer(window: window)
        func log(_ line: String) {
            lines.append(String(format: "%7.3f  ", synthesizer.now) + line)
        }
        let tap = UITapGestureRecognizer { _ in log("    action: tap recognized") }
        tap.name = "tap"
        let longPress = UILongPressGestureRecognizer { recognizer in log("    action: long press \(recognizer.state)") }
        longPress.name = "long press"
        let pan = UIPanGestureRecognizer()
        pan.name = "pan"
        pan.addTarget(card) { _ in {
            let t = pan.translation(in: card), v = pan.velocity(in: card)
            log("    action: pan \(pan.state), translation (\(Int(t.x)), \(Int(t.y))), velocity (\(Int(v.x)), \(Int(v.y))) pt/s")
        } }
        for recognizer in [tap, longPress, pan] { card.addGestureRecognizer(recognizer) }

        application.traceHandler = { record in
            switch record.step {
            case .gestureStateChanged(let recognizer, let from, let to, _, _):
                log("  \(recognizer.name ?? "recognizer"): \(from) → \(to)")
            case .touchesDelivered(let phase, let view, let count):
                let name = (view as? NamedView)?.name ?? "\(type(of: view))"
                log("  \(name).touches\(phaseName(phase))(\(count) touch\(count == 1 ? "" : "es"))")
            default:
                break  // the article-style trace shows states and deliveries; --json shows every step
            }
        }

        if json {
            return JSONTrace.lines { perform(gesture, with: synthesizer, log: { _ in }) }
        }
        perform(gesture, with: synthesizer, log: log)
        application.traceHandler = nil
        return "demo: window ← root ← card (tap, long press, pan) ← badge; \(gesture.rawValue)\n"
            + lines.joined(separator: "\n") + "\n"
    }

    /// Runs the gesture's fingers, saying what they do through `log`.
    private static func perform(_ gesture: TraceCommand.Gesture, with synthesizer: TouchSynthesizer, log: (String) -> Void) {
        let start = CGPoint(x: 90, y: 150)  // on the badge
        switch gesture {
        case .tap:
            log("finger down at (90, 150)")
            let finger = synthesizer.touchDown(at: start)
            synthesizer.advance(by: 0.08)
            log("finger up")
            synthesizer.touchUp(finger)
        case .longPress:
            log("finger down at (90, 150)")
            let finger = synthesizer.touchDown(at: start)
            log("holding still for 0.6 s")
            synthesizer.advance(by: 0.6)
            log("finger up")
            synthesizer.touchUp(finger)
        case .pan:
            log("finger down at (90, 150)")
            let finger = synthesizer.touchDown(at: start)
            for step in 1...5 {
                synthesizer.advance(by: 0.016)
                let point = CGPoint(x: start.x + CGFloat(step) * 12, y: start.y + CGFloat(step) * 3)
                log("finger moves to (\(Int(point.x)), \(Int(point.y)))")
                synthesizer.touchMove(finger, to: point)
            }
            synthesizer.advance(by: 0.016)
            log("finger up")
            synthesizer.touchUp(finger)
        }
        synthesizer.advance(by: 0.5)
    }

    private static func phaseName(_ phase: UITouch.Phase) -> String {
        switch phase {
        case .began: "Began"
        case .moved: "Moved"
        case .stationary: "Stationary"
        case .ended: "Ended"
        case .cancelled: "Cancelled"
        }
    }
}

/// A plain view with a name for the trace.
@MainActor
final class NamedView: UIView {
    let name: String

    init(name: String, frame: CGRect) {
        self.name = name
        super.init(frame: frame)
        accessibilityIdentifier = name
    }

    required init?(coder: NSCoder) { nil }
}
