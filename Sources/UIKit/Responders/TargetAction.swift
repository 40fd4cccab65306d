/// One action of a gesture recognizer or a control: a closure, or a method of
/// a weakly held target.
///
/// UIKit stores a target and a selector and sends the selector to the
/// target; there is no Objective-C runtime here, so the method reference
/// (`Target.didTap`, of type `(Target) -> () -> Void`) takes the selector's
/// place. The target is held weakly, as in UIKit: once it is gone the action
/// is orphaned and never runs again. The target is any object and the
/// method's type says what it must be, so that `Self.didTap`, whose type is
/// the class's dynamic `Self`, can name a method of `self`. This is the one home of that rule for
/// `UIGestureRecognizer.addTarget(_:action:)` and
/// `UIControl.addTarget(_:action:for:)`.
///
/// A class: a list of actions is walked on every change of a continuous
/// gesture, and copying a value holding a weak reference and a closure
/// costs far more than retaining one object.
@MainActor
final class TargetAction<Sender: AnyObject> {
    /// False for a closure, which lives as long as its owner keeps it.
    let hasTarget: Bool
    private(set) weak var target: AnyObject?
    private let perform: @MainActor (AnyObject?, Sender, UIEvent?) -> Void

    /// An action that calls `handler` with the sender.
    init(handler: @escaping @MainActor (Sender) -> Void) {
        hasTarget = false
        perform = { _, sender, _ in handler(sender) }
    }

    /// An action that calls a method of `target` taking no argument.
    init<Target: AnyObject>(target: AnyObject, action: @escaping (Target) -> @MainActor () -> Void) {
        hasTarget = true
        self.target = target
        perform = { target, _, _ in
            if let target = target as? Target { action(target)() }
        }
    }

    /// An action that calls a method of `target` taking the sender, as the
    /// type the method declares (a `UIButton` for a button's action, say);
    /// a sender of another type does not call it.
    init<Target: AnyObject, Argument>(target: AnyObject, action: @escaping (Target) -> @MainActor (Argument) -> Void) {
        hasTarget = true
        self.target = target
        perform = { target, sender, _ in
            if let target = target as? Target, let argument = sender as? Argument { action(target)(argument) }
        }
    }

    /// An action that calls a method of `target` taking the sender and the
    /// event that caused the action (nil for actions sent without one).
    init<Target: AnyObject, Argument>(
        target: AnyObject, action: @escaping (Target) -> @MainActor (Argument, UIEvent?) -> Void
    ) {
        hasTarget = true
        self.target = target
        perform = { target, sender, event in
            if let target = target as? Target, let argument = sender as? Argument { action(target)(argument, event) }
        }
    }

    /// The target is gone: the action will never run again.
    var isOrphaned: Bool { hasTarget && target == nil }

    /// Runs the action, unless its target is gone. A closure's action has
    /// no target to load (loading a weak reference is not free).
    func send(from sender: Sender, with event: UIEvent? = nil) {
        guard hasTarget else { return perform(nil, sender, event) }
        guard let target else { return }
        perform(target, sender, event)
    }
}
