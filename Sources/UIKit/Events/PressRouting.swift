/// Who gets a press or a motion event, and when.
///
/// 1. When a press begins, it is bound to the key window and to that
///    window's first responder, or to the window itself when it has none
///    (`FirstResponder.swift`). Its later phases go to the same responder,
///    even if another has become first responder since. A press that
///    begins while the application ignores interaction events (a view
///    controller transition no gesture drives) is bound to nothing and
///    never delivered, not even its release after the end, as a touch
///    that begins then; presses already down go on.
/// 2. The application sends a press event to the windows its changing
///    presses are bound to, and a motion event to the key window
///    (`UIApplication.sendEvent(_:)`, then `UIWindow.sendEvent(_:)`).
/// 3. Gesture recognizers first: a press that begins is offered to the
///    recognizers of its responder (when that is a view) and of the view's
///    ancestors, unless a delegate's `gestureRecognizer(_:shouldReceive:)`
///    says no; they receive its phases before the responder does
///    (`GestureArena.deliverPresses(_:in:)`).
/// 4. The window calls each responder once per phase, with all of that
///    responder's presses in that phase: `pressesBegan`, then
///    `pressesChanged`, `pressesEnded` and `pressesCancelled`. Presses held
///    but unchanged are in the event (`allPresses`) but not delivered.
/// 5. A motion goes to the key window's first responder as it is when the
///    event is delivered (or the window): `motionBegan`, `motionEnded` or
///    `motionCancelled` with the event's subtype (`.motionShake`).
/// 6. Responders pass what they do not handle up the chain, as
///    `UIResponder`'s defaults do: from a view to its controller or
///    superview, up to the window, the application and its delegate.
/// 7. A view that leaves its window cancels the presses bound to it or to a
///    responder inside it (a view, or a view controller whose view it is):
///    the responder receives `pressesCancelled` for them as the next event
///    in the queue, and the buttons' release is ignored. Leaving the front
///    cancels every press. Touches are cancelled the same way
///    (`TouchRouting.swift`, step 8).
@MainActor
enum PressRouting {
    /// Step 7: whether `press` is bound to `view` or a responder inside it.
    static func isBound(_ press: UIPress, inside view: UIView) -> Bool {
        guard let responderView = press.responder?.viewForFirstResponderStatus else { return false }
        return responderView.isDescendant(of: view)
    }

    /// Step 1, and the state this event carries for each press.
    static func prepare(_ event: UIPressesEvent, in application: UIApplication) {
        for (press, phase) in event.pressSamples {
            press.phase = phase
            if phase != .stationary { press.timestamp = event.timestamp }
            press.force = phase == .ended || phase == .cancelled ? 0 : 1
            if phase == .began, !application.isIgnoringInteractionEvents, let window = application.keyWindow {
                press.window = window
                press.responder = window.firstResponder ?? window
            }
        }
    }

    /// Step 2: the windows that receive `event`, each once.
    static func windows(for event: UIEvent, in application: UIApplication) -> [UIWindow] {
        guard let presses = event as? UIPressesEvent else { return application.keyWindow.map { [$0] } ?? [] }
        var windows: [UIWindow] = []
        for (press, phase) in presses.pressSamples where phase != .stationary {
            if let window = press.window, !windows.containsIdentical(window) { windows.append(window) }
        }
        return windows
    }

    /// Steps 3 to 5, for one window.
    static func deliver(_ event: UIEvent, in window: UIWindow) {
        if let motion = event as? UIMotionEvent {
            let responder = window.firstResponder ?? window
            switch motion.phase {
            case .began: responder.motionBegan(motion.subtype, with: motion)
            case .ended: responder.motionEnded(motion.subtype, with: motion)
            case .cancelled: responder.motionCancelled(motion.subtype, with: motion)
            }
            return
        }
        guard let event = event as? UIPressesEvent else { return }
        UIApplication.shared.gestureArena.deliverPresses(event, in: window)
        for phase in [UIPress.Phase.began, .changed, .ended, .cancelled] {
            var batches: [(responder: UIResponder, presses: Set<UIPress>)] = []
            for (press, pressPhase) in event.pressSamples where pressPhase == phase && press.window === window {
                // A responder that has gone away leaves its presses to the window.
                let responder = press.responder ?? window
                if let index = batches.firstPosition({ $0.responder === responder }) {
                    batches[index].presses.insert(press)
                } else {
                    batches.append((responder, [press]))
                }
            }
            for (responder, presses) in batches {
                switch phase {
                case .began: responder.pressesBegan(presses, with: event)
                case .changed: responder.pressesChanged(presses, with: event)
                case .ended: responder.pressesEnded(presses, with: event)
                case .cancelled: responder.pressesCancelled(presses, with: event)
                case .stationary: break
                }
            }
        }
    }
}
