/// Sending a named action (a `Selector`) to the responder that performs it.
///
/// With a target, the action goes to that target. With a nil target, the
/// search starts at the key window's first responder, or, when there is
/// none, at the sender if it is a responder (a control in a window), or
/// else at the key window; from there `target(forAction:withSender:)` walks
/// `next` until a responder can perform the action (by default: it
/// implements it, see `UIResponder.handler(forAction:)`, and its
/// `canPerformAction(_:withSender:)` agrees). The action runs once, on the
/// first responder found; if none is found by the end of the chain, nothing
/// runs.
extension UIApplication {
    /// Sends `action` to `target`, or along the responder chain when
    /// `target` is nil. Returns whether a responder performed it. A target
    /// that does not implement the action is reported and nothing runs.
    /// `event` is the event that caused the action, if any; handlers receive
    /// only the sender.
    @discardableResult
    public func sendAction(_ action: Selector, to target: Any?, from sender: Any?, for event: UIEvent?) -> Bool {
        let performer: Any?
        if let target {
            performer = target
        } else {
            let start = firstResponder ?? (sender as? UIResponder) ?? keyWindow
            performer = start?.target(forAction: action, withSender: sender)
        }
        guard let performer else { return false }
        guard let handler = (performer as? UIResponder)?.handler(forAction: action) else {
            diagnostics.report(Diagnostic(.unhandledAction, "\(performer) does not perform \(action); nothing ran"))
            return false
        }
        handler(sender)
        return true
    }
}
