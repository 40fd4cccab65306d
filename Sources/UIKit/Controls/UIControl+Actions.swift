/// One action registered on a control, with the events it is for.
@MainActor
struct ActionRegistration {
    enum Kind {
        /// A method of a weakly held target.
        case method(TargetAction<UIControl>)
        case action(UIAction)
        /// A named action for a weakly held target, or for the responder
        /// chain when `target` is nil.
        case named(Selector, target: WeakTarget?)
    }

    struct WeakTarget {
        weak var object: AnyObject?
    }

    var events: UIControl.Event
    let kind: Kind

    /// The target was released: the registration will never run again.
    var isOrphaned: Bool {
        switch kind {
        case .method(let method): method.isOrphaned
        case .action: false
        case .named(_, let target): target != nil && target?.object == nil
        }
    }

    /// The identifier of a `UIAction` registration.
    var identifier: UIAction.Identifier? {
        if case .action(let action) = kind { return action.identifier }
        return nil
    }

    /// The target, for the registrations that have one.
    var target: AnyObject? {
        switch kind {
        case .method(let method): method.target
        case .action: nil
        case .named(_, let target): target?.object
        }
    }
}

/// Adding and sending a control's actions.
///
/// There is no Objective-C runtime, so an action is one of three Swift forms:
/// - a `UIAction` (`addAction(_:for:)`), one per identifier;
/// - a method of a weakly held target, the form gesture recognizers use too:
///   `addTarget(self, action: Self.didTap, for: .touchUpInside)`, where the
///   method takes nothing or the control;
/// - a named action (`Selector`), sent through
///   `UIApplication.sendAction(_:to:from:for:)`: to a weakly held target,
///   or with a nil target along the responder chain, as a menu's "Copy"
///   reaches whichever responder can copy.
extension UIControl {
    // MARK: Targets and actions

    /// Calls a method of `target` (held weakly) taking no argument for
    /// `controlEvents`: `addTarget(self, action: Self.save, for: .touchUpInside)`.
    public final func addTarget<Target: AnyObject>(
        _ target: AnyObject, action: @escaping (Target) -> @MainActor () -> Void, for controlEvents: Event
    ) {
        registrations.append(ActionRegistration(events: controlEvents, kind: .method(TargetAction(target: target, action: action))))
    }

    /// Calls a method of `target` (held weakly) taking the control for `controlEvents`.
    public final func addTarget<Target: AnyObject, Control: UIControl>(
        _ target: AnyObject, action: @escaping (Target) -> @MainActor (Control) -> Void, for controlEvents: Event
    ) {
        registrations.append(ActionRegistration(events: controlEvents, kind: .method(TargetAction(target: target, action: action))))
    }

    /// Calls a method of `target` (held weakly) taking the control and the
    /// event that caused the action, for `controlEvents`, as an Objective-C
    /// action `tapped(_:forEvent:)` is:
    /// `addTarget(self, action: Self.tapped, for: .touchUpInside)`. The event
    /// is nil for actions sent by ``sendActions(for:)``.
    public final func addTarget<Target: AnyObject, Control: UIControl>(
        _ target: AnyObject, action: @escaping (Target) -> @MainActor (Control, UIEvent?) -> Void, for controlEvents: Event
    ) {
        registrations.append(ActionRegistration(events: controlEvents, kind: .method(TargetAction(target: target, action: action))))
    }

    /// Sends the named `action` for `controlEvents` to `target` (held
    /// weakly), or along the responder chain when `target` is nil. Adding
    /// the same target and action again adds the events to it.
    public func addTarget(_ target: AnyObject?, action: Selector, for controlEvents: Event) {
        let index = registrations.firstPosition { registration in
            guard case .named(let name, let existing) = registration.kind, name == action else { return false }
            return existing == nil ? target == nil : existing?.object === target
        }
        if let index {
            registrations[index].events.formUnion(controlEvents)
        } else {
            var weakTarget: ActionRegistration.WeakTarget?
            if let target { weakTarget = ActionRegistration.WeakTarget(object: target) }
            registrations.append(ActionRegistration(events: controlEvents, kind: .named(action, target: weakTarget)))
        }
    }

    /// Stops sending `controlEvents` to `target` (every target for nil):
    /// all its actions, or only the named `action`. Method references
    /// cannot be told apart, so they are removed by target only; `UIAction`s
    /// are removed with ``removeAction(_:for:)``.
    public func removeTarget(_ target: Any?, action: Selector?, for controlEvents: Event) {
        var object: AnyObject?
        if let target { object = target as AnyObject }
        removeEvents(controlEvents) { registration in
            if case .action = registration.kind { return false }
            if let object, registration.target !== object { return false }
            guard let action else { return true }
            if case .named(let name, _) = registration.kind { return name == action }
            return false
        }
    }

    // MARK: UIAction

    /// Runs `action` for `controlEvents`. An action with the identifier of
    /// one already registered replaces it; the same action added again
    /// gets the new events too.
    public func addAction(_ action: UIAction, for controlEvents: Event) {
        if let index = registrations.firstPosition({ $0.identifier == action.identifier }) {
            if case .action(let existing) = registrations[index].kind, existing === action {
                registrations[index].events.formUnion(controlEvents)
                return
            }
            registrations.remove(at: index)
        }
        registrations.append(ActionRegistration(events: controlEvents, kind: .action(action)))
    }

    /// Stops running `action` (or the action with its identifier) for `controlEvents`.
    public func removeAction(_ action: UIAction, for controlEvents: Event) {
        removeAction(identifiedBy: action.identifier, for: controlEvents)
    }

    /// Stops running the action with `actionIdentifier` for `controlEvents`.
    public func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: Event) {
        removeEvents(controlEvents) { $0.identifier == actionIdentifier }
    }

    private func removeEvents(_ controlEvents: Event, where matches: (ActionRegistration) -> Bool) {
        for index in registrations.indices where matches(registrations[index]) {
            registrations[index].events.subtract(controlEvents)
        }
        registrations.removeEvery { $0.events.isEmpty || $0.isOrphaned }
    }

    // MARK: What is registered

    /// The targets of the target-action pairs: each target that is
    /// `Hashable` (any responder) as itself, any other by its
    /// `ObjectIdentifier`. Nil-targeted actions have no target to list
    /// (UIKit may list `NSNull` for them; `NSNull` does not hash reliably
    /// in Foundation on Linux); their events are in ``allControlEvents``.
    public var allTargets: Set<AnyHashable> {
        var targets: Set<AnyHashable> = []
        for registration in registrations {
            guard let target = registration.target else { continue }
            targets.insert((target as? AnyHashable) ?? AnyHashable(ObjectIdentifier(target)))
        }
        return targets
    }

    /// Every event that some action is registered for.
    public var allControlEvents: Event {
        var events: Event = []
        for registration in registrations where !registration.isOrphaned { events.formUnion(registration.events) }
        return events
    }

    // MARK: Sending (the overridable entry points are in `UIControl.swift`)

    /// Runs the actions for `controlEvents`; `event` is the touch event
    /// that caused them, if any.
    func sendActions(for controlEvents: Event, with event: UIEvent?) {
        registrations.removeEvery { $0.isOrphaned }
        let tracing = UIApplication.shared.tracing
        tracing?.trace(.controlEvents(self, controlEvents))
        for registration in registrations where !registration.events.isDisjoint(with: controlEvents) {
            if let tracing { registration.traceSent(from: self, to: tracing) }
            switch registration.kind {
            case .method(let method):
                method.send(from: self, with: event)
            case .action(let action):
                sendAction(action)
            case .named(let name, nil):
                sendAction(name, to: nil, for: event)
            case .named(let name, let target?):
                if let object = target.object { sendAction(name, to: object, for: event) }
            }
        }
    }
}

extension ActionRegistration {
    /// Traces the sending of this action from `control`.
    func traceSent(from control: UIControl, to tracing: EventDeliveryState) {
        switch kind {
        case .method(let method):
            tracing.trace(.actionSent(from: control, action: "method", target: method.target))
        case .action(let action):
            let name = action.title.isEmpty ? action.identifier.rawValue : action.title
            tracing.trace(.actionSent(from: control, action: "UIAction \(name)", target: nil))
        case .named(let name, let target):
            tracing.trace(.actionSent(from: control, action: name.description, target: target?.object))
        }
    }
}
