/// An object that can handle events: views, view controllers, windows and
/// the application.
///
/// Responders form a chain through ``next``. The default implementations of
/// the touch methods pass the call to `next`, so an event that a responder
/// does not handle travels up the chain; an override that does not call
/// `super` stops it there. Where the chain ends, the event is dropped.
///
/// Responders compare and hash by identity, as `NSObject`s do in UIKit, so
/// that views and controllers can be kept in sets and compared with `==`.
@MainActor
open class UIResponder: Hashable {
    public init() {}

    nonisolated public static func == (lhs: UIResponder, rhs: UIResponder) -> Bool { lhs === rhs }
    nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The next responder in the chain, or nil at its end. Each kind of
    /// responder computes it (see `UIView`, `UIViewController`, `UIWindow`
    /// and `UIApplication`); the base class has none.
    open var next: UIResponder? { nil }

    // MARK: Touches

    /// One or more new touches began in a view or window.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesBegan(touches, with: event)
    }

    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesMoved(touches, with: event)
    }

    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesEnded(touches, with: event)
    }

    /// The system took the touches away (a call came in, the view left its
    /// window): forget what was tracked for them.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        next?.touchesCancelled(touches, with: event)
    }
}
