/// An object that can handle events: views, view controllers, windows and
/// the application.
///
/// Responders form a chain through ``next``. The default implementations of
/// the touch, press and motion methods pass the call to `next`, and a
/// nil-targeted action looks for its performer the same way
/// (``target(forAction:withSender:)``), so an event that a responder
/// does not handle travels up the chain; an override that does not call
/// `super` stops it there. Where the chain ends, the event is dropped.
///
/// A responder is an `NSObject` (Foundation's), as in UIKit: it compares
/// and hashes by identity, so views and controllers can be kept in sets and
/// compared with `==`, and it answers `isKind(of:)`, `description` and the rest.
@preconcurrency @MainActor
open class UIResponder: NSObject {
    public override init() {
        super.init()
    }

    /// Makes a responder of the receiving class when UIKit has only the
    /// class: the application delegate of `@main` or of a class name given
    /// to `UIApplicationMain`, and a scene's delegate. iOS makes them
    /// through the Objective-C runtime; Swift on Linux can make an object
    /// from a class only through a `required` initialiser, so this is it.
    ///
    /// A subclass that declares no initialiser inherits it, which is what
    /// Xcode's templates write (`class AppDelegate: UIResponder,
    /// UIApplicationDelegate`). A direct subclass of `UIResponder` that
    /// declares initialisers of its own must also provide this one (calling
    /// `super.init(madeByUIKit:)`); views, view controllers, scenes and the
    /// application cannot be made this way and need not.
    public required init(madeByUIKit _: MadeByUIKit) {
        super.init()
    }

    /// What only UIKit can pass to ``init(madeByUIKit:)``.
    public struct MadeByUIKit: Sendable {
        init() {}
    }

    /// Called in UIKit once an object loaded from an interface archive (a
    /// nib or a storyboard) has all its outlets connected. Interface
    /// archives are not read here, so it is never called; it is an override
    /// point, so that views and controllers written for UIKit (which call
    /// `super.awakeFromNib()`) compile unchanged. The default does nothing.
    open func awakeFromNib() {}

    /// The next responder in the chain, or nil at its end. Each kind of
    /// responder computes it (see `UIView`, `UIViewController`, `UIWindow`
    /// and `UIApplication`); the base class has none.
    open var next: UIResponder? { nil }

    // MARK: Touches

    /// One or more new touches began in a view or window.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        let next = self.next
        if let tracing = event?.tracing { tracing.tracePassedOn(.began, from: self, to: next, touches) }
        next?.touchesBegan(touches, with: event)
    }

    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        let next = self.next
        if let tracing = event?.tracing { tracing.tracePassedOn(.moved, from: self, to: next, touches) }
        next?.touchesMoved(touches, with: event)
    }

    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        let next = self.next
        if let tracing = event?.tracing { tracing.tracePassedOn(.ended, from: self, to: next, touches) }
        next?.touchesEnded(touches, with: event)
    }

    /// The system took the touches away (a call came in, the view left its
    /// window): forget what was tracked for them.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        let next = self.next
        if let tracing = event?.tracing { tracing.tracePassedOn(.cancelled, from: self, to: next, touches) }
        next?.touchesCancelled(touches, with: event)
    }

    // MARK: Presses and motion (delivered to the first responder; see `PressRouting.swift`)

    /// Buttons or keys went down.
    open func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        next?.pressesBegan(presses, with: event)
    }

    open func pressesChanged(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        next?.pressesChanged(presses, with: event)
    }

    open func pressesEnded(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        next?.pressesEnded(presses, with: event)
    }

    open func pressesCancelled(_ presses: Set<UIPress>, with event: UIPressesEvent?) {
        next?.pressesCancelled(presses, with: event)
    }

    /// A motion (a shake) began.
    open func motionBegan(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        next?.motionBegan(motion, with: event)
    }

    open func motionEnded(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        next?.motionEnded(motion, with: event)
    }

    open func motionCancelled(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
        next?.motionCancelled(motion, with: event)
    }

    // MARK: First responder (see `FirstResponder.swift`)

    /// Whether this responder may become the first responder; false by default.
    open var canBecomeFirstResponder: Bool { false }

    /// Makes this responder the first responder of its window, which then
    /// receives presses, motion and nil-targeted actions first. Fails if
    /// ``canBecomeFirstResponder`` is false, if the responder is not in a
    /// window, or if the current first responder refuses to resign.
    @discardableResult
    open func becomeFirstResponder() -> Bool { takeFirstResponderStatus() }

    /// Whether this responder lets another become first responder; true by default.
    open var canResignFirstResponder: Bool { true }

    /// Gives up first-responder status; false if ``canResignFirstResponder``
    /// is false. Overrides must call super.
    @discardableResult
    open func resignFirstResponder() -> Bool { giveUpFirstResponderStatus() }

    /// Whether this responder is the first responder of some window.
    open var isFirstResponder: Bool { windowHoldingFirstResponderStatus != nil }

    // MARK: Named actions (see `Selector.swift` and `ActionDispatch.swift`)

    /// Performs a named action, called with the action's sender.
    public typealias ActionHandler = @MainActor (_ sender: Any?) -> Void

    /// The method that performs `action`, or nil if this responder does not
    /// implement it: the Swift form of responding to a selector. Override
    /// it to declare the actions a responder performs, and call super for
    /// the others. The default is nil.
    @preconcurrency open func handler(forAction action: Selector) -> ActionHandler? { nil }

    /// Whether this responder performs `action` now. The default is whether
    /// it implements it (``handler(forAction:)``); override to make an
    /// action depend on state (no selection, nothing to copy).
    open func canPerformAction(_ action: Selector, withSender sender: Any?) -> Bool {
        handler(forAction: action) != nil
    }

    /// The responder that performs `action`: this one if it can (by
    /// ``canPerformAction(_:withSender:)``), otherwise the answer of ``next``;
    /// nil at the end of the chain.
    open func target(forAction action: Selector, withSender sender: Any?) -> Any? {
        if canPerformAction(action, withSender: sender) { return self }
        return next?.target(forAction: action, withSender: sender)
    }
}
