/// The first responder: one per window, the responder that receives presses,
/// motion events and nil-targeted actions before any other.
///
/// The rules, as UIKit's:
/// 1. A responder belongs to the window it is shown in: a view to its
///    `window`, a view controller to its view's window, a window to itself.
///    One that is in no window cannot become first responder.
/// 2. `becomeFirstResponder()` succeeds at once for the current first
///    responder. Otherwise it needs `canBecomeFirstResponder`; then the
///    window's current first responder is asked to resign
///    (`canResignFirstResponder`, then `resignFirstResponder()`), and if it
///    refuses, nothing changes.
/// 3. Each window has its own first responder; the key window's is the one
///    that presses, motion and nil-targeted actions start from.
/// 4. A first responder whose view leaves its window resigns: it is sent
///    `resignFirstResponder()` and loses the status whatever it answers,
///    because it can no longer receive what a first responder is sent.
extension UIResponder {
    /// Rule 1.
    var windowForFirstResponderStatus: UIWindow? {
        viewForFirstResponderStatus?.window
    }

    /// The view whose place in a window decides this responder's.
    var viewForFirstResponderStatus: UIView? {
        if let view = self as? UIView { return view }
        if let controller = self as? UIViewController { return controller.viewIfLoaded }
        return nil
    }

    /// The window whose first responder this is, if any.
    var windowHoldingFirstResponderStatus: UIWindow? {
        UIApplication.shared.windows.first { $0.firstResponder === self }
    }

    /// Rule 2: the default `becomeFirstResponder()`.
    func takeFirstResponderStatus() -> Bool {
        if isFirstResponder { return true }
        guard canBecomeFirstResponder, let window = windowForFirstResponderStatus else { return false }
        if let current = window.firstResponder {
            guard current.canResignFirstResponder, current.resignFirstResponder() else { return false }
        }
        window.firstResponder = self
        return true
    }

    /// The default `resignFirstResponder()`.
    func giveUpFirstResponderStatus() -> Bool {
        guard let window = windowHoldingFirstResponderStatus else { return true }
        guard canResignFirstResponder else { return false }
        window.firstResponder = nil
        return true
    }
}

extension UIWindow {
    /// Rule 4: `view` is leaving this window; a first responder inside it resigns.
    func resignFirstResponder(inside view: UIView) {
        guard let responder = firstResponder,
              let responderView = responder.viewForFirstResponderStatus, responderView.isDescendant(of: view)
        else { return }
        responder.resignFirstResponder()
        if firstResponder === responder { firstResponder = nil }
    }
}

extension UIApplication {
    /// The key window's first responder, where presses, motion and
    /// nil-targeted actions start.
    var firstResponder: UIResponder? { keyWindow?.firstResponder }
}
