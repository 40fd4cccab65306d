import Foundation

/// Watches touches and decides whether they make a gesture.
///
/// A recognizer is attached to a view and receives the touches of that view
/// and of its subviews before the hit-test view does (it is not a
/// responder). It moves through ``State``: discrete recognizers go from
/// `.possible` to `.recognized` (`.ended`) or `.failed`; continuous ones go
/// `.possible` → `.began` → `.changed`… → `.ended` or `.cancelled`, or
/// `.failed` before they begin. After a terminal state the recognizer is
/// ``reset()`` once its touches are gone, and is `.possible` again.
///
/// Subclass it as in UIKit: override the touch methods and `reset()`, and
/// set ``state``. Which recognizer may leave `.possible` when several share
/// touches is decided by the gesture arena (`GestureArena.swift`).
///
/// Actions: there is no Objective-C runtime, so actions are closures
/// (``init(handler:)``) or method references on a weakly held target
/// (`addTarget(self, action: Self.didPan)`).
@preconcurrency @MainActor
open class UIGestureRecognizer: NSObject {
    public enum State: Int, Sendable, CustomStringConvertible {
        case possible, began, changed, ended, cancelled, failed
        /// The state of a discrete recognizer that recognized its gesture.
        public static let recognized = State.ended

        public var description: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }
    }

    @exclusivity(unchecked) private var actions: [TargetAction<UIGestureRecognizer>] = []
    // A recognizer's state is read and written many times per event, only
    // on the main actor and never through overlapping inout accesses, so the
    // hot fields below skip the runtime's dynamic exclusivity checks.
    @exclusivity(unchecked) var storedState = State.possible
    /// A transition out of `.possible` that waits for other recognizers to fail.
    @exclusivity(unchecked) var pendingState: State?
    /// The arena the recognizer takes part in, from the touch it is first
    /// given until it is reset; nil otherwise. Not retained: the arena
    /// clears it before either goes away.
    var arena: GestureArena? {
        get { arenaReference?.object }
        set { arenaReference = UnretainedReference(newValue) }
    }
    /// ``arena`` as a plain reference: every change of state asks for it,
    /// and an `unowned(unsafe)` optional is retained and released as it is read.
    @exclusivity(unchecked) private var arenaReference: UnretainedReference<GestureArena>?

    // The recognizer's lists of touches. The touches event and the arena
    // keep the touches alive; these say which concern the recognizer.

    /// The touches given to the recognizer that are on the screen, or that
    /// ended in the event being delivered, in the order they began.
    @exclusivity(unchecked) var currentTouches: [UITouch] = []
    /// Every touch given to the recognizer since its last reset, ended ones included.
    @exclusivity(unchecked) var touchesSinceReset: [UITouch] = []
    /// The touches the recognizer was told to ignore (``ignore(_:for:)``).
    @exclusivity(unchecked) var ignoredTouches: Set<UITouch> = []
    /// Touches whose delivery to the view this recognizer no longer holds
    /// back although it still watches them and is undecided (the scroll
    /// view's content-touch delay ends touch by touch).
    @exclusivity(unchecked) var releasedTouches: Set<UITouch> = []
    /// Recognizers this one waits for, from `require(toFail:)`.
    @exclusivity(unchecked) var explicitFailureRequirements: [WeakRecognizer] = []
    /// Where the touches were when the recognizer last saw any, in screen points.
    @exclusivity(unchecked) var lastScreenCentroid = CGPoint.zero

    public override init() {
        super.init()
    }

    /// The class, name and state. Read it on the main thread, like the recognizer.
    nonisolated open override var description: String {
        MainActor.assumeIsolated {
            guard let name else { return "<\(type(of: self)) state = \(state)>" }
            return "<\(type(of: self)) \"\(name)\" state = \(state)>"
        }
    }

    /// The recognizer's deadline. A gesture waits for one deadline at a
    /// time (the end of a tap, the start of a long press), and nearly every
    /// touch sets one, so the timer is made once and set again each time.
    @exclusivity(unchecked) private var deadline: RunLoopTimer?
    /// The run loop `deadline` belongs to: resetting the application replaces it.
    @exclusivity(unchecked) private var deadlineRunLoop: ObjectIdentifier?
    /// What happens when the deadline passes.
    @exclusivity(unchecked) private final var deadlineAction: (@MainActor (UIGestureRecognizer) -> Void)?

    isolated deinit {
        cancelDeadline()
    }

    /// Runs `body` on the run loop after `seconds`, in place of any deadline
    /// set before, unless the deadline is cancelled first. The arena cancels
    /// it as the recognizer is reset, so that no timeout of one gesture
    /// reaches the next. The timer holds the recognizer without a weak
    /// reference (which would slow every retain of it); the recognizer
    /// cancels it as it goes away.
    final func setDeadline(after seconds: TimeInterval, _ body: @escaping @MainActor (UIGestureRecognizer) -> Void) {
        deadlineAction = body
        let runLoop = UIApplication.shared.runLoop
        if let deadline, deadlineRunLoop == ObjectIdentifier(runLoop) {
            runLoop.reschedule(deadline, after: seconds)
            return
        }
        deadline?.invalidate()
        let recognizer = UnretainedReference(self)
        deadline = runLoop.schedule(after: seconds) { _ in
            let target = recognizer.object
            target.deadlineAction?(target)
        }
        deadlineRunLoop = ObjectIdentifier(runLoop)
    }

    /// A deadline that fails the recognizer if it is still undecided when it passes.
    func failAfter(_ seconds: TimeInterval) {
        setDeadline(after: seconds) { recognizer in
            if recognizer.state == .possible { recognizer.state = .failed }
        }
    }

    /// Stops the deadline, if one is set; it does not run.
    func cancelDeadline() {
        deadline?.invalidate()
    }

    /// A recognizer that calls `handler` on every action.
    public convenience init(handler: @escaping @MainActor (UIGestureRecognizer) -> Void) {
        self.init()
        actions.append(TargetAction(handler: handler))
    }

    /// A recognizer that calls `action` on `target`, held weakly:
    /// `UIPanGestureRecognizer(target: self, action: Self.didPan)`.
    public convenience init<Target: AnyObject>(target: AnyObject, action: @escaping (Target) -> @MainActor () -> Void) {
        self.init()
        actions.append(TargetAction(target: target, action: action))
    }

    /// A recognizer that calls `action` on `target`, held weakly, with itself.
    public convenience init<Target: AnyObject, Recognizer: UIGestureRecognizer>(
        target: AnyObject, action: @escaping (Target) -> @MainActor (Recognizer) -> Void
    ) {
        self.init()
        actions.append(TargetAction(target: target, action: action))
    }

    // MARK: Configuration

    @exclusivity(unchecked) public weak var delegate: (any UIGestureRecognizerDelegate)?
    /// The view it is attached to; not retained (the view owns its
    /// recognizers) and cleared when the view goes away.
    public internal(set) var view: UIView? {
        get { attachedView?.object }
        set { attachedView = UnretainedReference(newValue) }
    }

    /// The view as a plain reference: the arena asks whether there is one for
    /// every recognizer on every frame, and testing an `unowned(unsafe)`
    /// optional for nil retains and releases the view.
    @exclusivity(unchecked) private var attachedView: UnretainedReference<UIView>?

    /// Whether the recognizer is attached to a view.
    var isAttached: Bool { attachedView != nil }
    public var name: String?

    /// A disabled recognizer receives no touches; disabling one that is
    /// tracking fails it (or cancels it, once it has begun) and resets it.
    @exclusivity(unchecked) public var isEnabled = true {
        didSet {
            if oldValue && !isEnabled { arena?.withdraw(self) }
        }
    }

    /// The kinds of touch the recognizer receives, as `UITouch.TouchType`
    /// raw values; by default every kind. A touch of a kind not listed is
    /// never offered to it: a recognizer that allows only `.direct` does not
    /// see a mouse pointer's `.indirectPointer` touch, which still reaches
    /// the view and any other recognizer.
    public var allowedTouchTypes: [NSNumber] = UIGestureRecognizer.everyTouchType {
        didSet { allowedTouchTypeMask = Self.mask(of: allowedTouchTypes) }
    }
    /// `allowedTouchTypes` as bits by raw value, for the test made as every touch begins.
    @exclusivity(unchecked) private var allowedTouchTypeMask = UIGestureRecognizer.mask(of: UIGestureRecognizer.everyTouchType)

    private static let everyTouchType: [NSNumber] = [UITouch.TouchType.direct, .indirect, .pencil, .indirectPointer]
        .mapped { NSNumber(value: $0.rawValue) }

    private static func mask(of types: [NSNumber]) -> UInt64 {
        var mask: UInt64 = 0
        for type in types where (0..<64).contains(type.intValue) { mask |= 1 << UInt64(type.intValue) }
        return mask
    }

    /// Whether a touch of `type` may be offered to the recognizer.
    func allowsTouchType(_ type: UITouch.TouchType) -> Bool {
        (0..<64).contains(type.rawValue) && allowedTouchTypeMask & (1 << UInt64(type.rawValue)) != 0
    }

    /// The presses the recognizer receives, as `UIPress.PressType` raw
    /// values. Until it is set the recognizer receives every press,
    /// hardware keyboard keys included (their types, `PressType(keyboardKey:)`,
    /// cannot all be listed), and it reads as UIKit's seven named press
    /// types. Once set, a press of a type not listed is never offered to
    /// it; an empty list keeps every press from it.
    public var allowedPressTypes: [NSNumber] {
        get { storedAllowedPressTypes ?? UIGestureRecognizer.namedPressTypes }
        set { storedAllowedPressTypes = newValue }
    }
    private var storedAllowedPressTypes: [NSNumber]?

    private static let namedPressTypes: [NSNumber] = [
        UIPress.PressType.upArrow, .downArrow, .leftArrow, .rightArrow, .select, .menu, .playPause,
    ].mapped { NSNumber(value: $0.rawValue) }

    /// Whether a press of `type` may be offered to the recognizer.
    func allowsPressType(_ type: UIPress.PressType) -> Bool {
        guard let storedAllowedPressTypes else { return true }
        return storedAllowedPressTypes.anySatisfy { $0.intValue == type.rawValue }
    }

    /// When true (the default), recognizing cancels the touches in the view:
    /// it receives `touchesCancelled` for them and nothing more.
    @exclusivity(unchecked) public var cancelsTouchesInView = true
    /// When true, the view receives no `touchesBegan` until this recognizer
    /// fails; if it recognizes, the view never sees the touches. Default false.
    @exclusivity(unchecked) public var delaysTouchesBegan = false
    /// When true (the default), the view's `touchesEnded` waits until this
    /// recognizer has failed or recognized.
    @exclusivity(unchecked) public var delaysTouchesEnded = true

    // MARK: State

    /// The current state. Subclasses set it; transitions UIKit does not allow
    /// are refused (and reported). Leaving `.possible` goes through the arena,
    /// which may make the recognizer wait for others or fail it.
    public var state: State {
        get { storedState }
        set {
            // No closure here (withObject): a closure formed in main-actor
            // code and passed across modules is checked for its executor
            // at every call, which cost more than the retain.
            if let arenaReference {
                arenaReference.object.requestTransition(self, to: newValue)
            } else {
                UIApplication.shared.gestureArena.requestTransition(self, to: newValue)
            }
        }
    }

    /// Called after the recognizer ended, failed or was cancelled, before it
    /// watches new touches. Subclasses reset their own state and call super.
    open func reset() {}

    // MARK: Touches

    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {}
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {}

    /// Presses (buttons and keys) reach a recognizer attached to the press's
    /// responder or one of its ancestors, before the responder.
    open func pressesBegan(_ presses: Set<UIPress>, with event: UIPressesEvent) {}
    open func pressesChanged(_ presses: Set<UIPress>, with event: UIPressesEvent) {}
    open func pressesEnded(_ presses: Set<UIPress>, with event: UIPressesEvent) {}
    open func pressesCancelled(_ presses: Set<UIPress>, with event: UIPressesEvent) {}

    /// Stops delivering `touch` to this recognizer.
    open func ignore(_ touch: UITouch, for event: UIEvent) {
        ignoredTouches.insert(touch)
    }

    /// The current touches that have not ended and are not ignored, in the
    /// order they began: the fingers making the gesture now.
    var touchesStillDown: [UITouch] {
        if ignoredTouches.isEmpty && !currentTouches.containsUnretained(where: { $0.isFinished }) {
            return currentTouches
        }
        var touches: [UITouch] = []
        for touch in currentTouches where !touch.isFinished && !isIgnoring(touch) { touches.append(touch) }
        return touches
    }

    /// The current touches that are not ignored, ended ones included: those
    /// the recognizer is given, counts (``numberOfTouches``) and locates.
    var currentTouchesNotIgnored: [UITouch] {
        guard !ignoredTouches.isEmpty else { return currentTouches }
        var touches: [UITouch] = []
        for touch in currentTouches where !ignoredTouches.contains(touch) { touches.append(touch) }
        return touches
    }

    /// Whether this recognizer receives `touch`: it is current and not ignored.
    func receives(_ touch: UITouch) -> Bool {
        !isIgnoring(touch) && currentTouches.containsIdentical(touch)
    }

    private func isIgnoring(_ touch: UITouch) -> Bool {
        !ignoredTouches.isEmpty && ignoredTouches.contains(touch)
    }

    /// How many touches the recognizer is following.
    open var numberOfTouches: Int { currentTouchesNotIgnored.count }

    /// The centroid of the recognizer's touches in `view`'s coordinates (the
    /// window's for nil); where they last were once they have lifted.
    open func location(in view: UIView?) -> CGPoint {
        let touches = currentTouchesNotIgnored
        guard !touches.isEmpty else { return UITouch.convertFromScreen(lastScreenCentroid, to: view, window: self.view?.window) }
        var x: CGFloat = 0, y: CGFloat = 0
        for touch in touches {
            let p = touch.location(in: view)
            x += p.x
            y += p.y
        }
        return CGPoint(x: x / CGFloat(touches.count), y: y / CGFloat(touches.count))
    }

    /// The location of one of the recognizer's touches.
    open func location(ofTouch touchIndex: Int, in view: UIView?) -> CGPoint {
        let touches = currentTouchesNotIgnored
        guard touches.indices.contains(touchIndex) else { return location(in: view) }
        return touches[touchIndex].location(in: view)
    }

    /// The centroid of the active touches in screen points.
    func screenCentroid(of touches: [UITouch]) -> CGPoint {
        guard !touches.isEmpty else { return lastScreenCentroid }
        var x: CGFloat = 0, y: CGFloat = 0
        for touch in touches {
            x += touch.screenLocation.x
            y += touch.screenLocation.y
        }
        return CGPoint(x: x / CGFloat(touches.count), y: y / CGFloat(touches.count))
    }

    // MARK: Relationships

    /// Makes this recognizer wait, before it leaves `.possible`, until
    /// `otherGestureRecognizer` has failed; if the other recognizes, this one fails.
    open func require(toFail otherGestureRecognizer: UIGestureRecognizer) {
        guard otherGestureRecognizer !== self else { return }
        explicitFailureRequirements.removeEvery { $0.recognizer == nil || $0.recognizer === otherGestureRecognizer }
        explicitFailureRequirements.append(WeakRecognizer(otherGestureRecognizer))
    }

    /// Whether this recognizer, by recognizing, may stop `preventedGestureRecognizer`.
    open func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { true }
    /// Whether `preventingGestureRecognizer` may stop this one by recognizing.
    open func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { true }
    /// Subclass form of `require(toFail:)`, asked of every recognizer sharing touches.
    open func shouldRequireFailure(of otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// Subclass form of the reverse requirement.
    open func shouldBeRequiredToFail(by otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }

    // MARK: Actions

    /// Adds an action: a method of `target` (held weakly) taking no
    /// argument, named by its type: `addTarget(self, action: Self.didPan)`.
    public final func addTarget<Target: AnyObject>(_ target: AnyObject, action: @escaping (Target) -> @MainActor () -> Void) {
        actions.append(TargetAction(target: target, action: action))
    }

    /// The same, with the method's type taken from the target, so that a
    /// closure can stand for the method: `addTarget(model) { model in { … } }`.
    public final func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target) -> @MainActor () -> Void) {
        actions.append(TargetAction(target: target, action: action))
    }

    /// Adds an action: a method of `target` (held weakly) taking the recognizer.
    public final func addTarget<Target: AnyObject, Recognizer: UIGestureRecognizer>(
        _ target: AnyObject, action: @escaping (Target) -> @MainActor (Recognizer) -> Void
    ) {
        actions.append(TargetAction(target: target, action: action))
    }

    /// Removes every action of `target`; every action at all for nil.
    public func removeTarget(_ target: AnyObject?) {
        guard let target else {
            actions.removeAll()
            return
        }
        actions.removeEvery { $0.hasTarget && ($0.target === target || $0.target == nil) }
    }

    func sendActions() {
        if actions.anySatisfy({ $0.isOrphaned }) { actions.removeEvery { $0.isOrphaned } }
        for action in actions { action.send(from: self) }
    }
}

struct WeakRecognizer {
    weak var recognizer: UIGestureRecognizer?
    init(_ recognizer: UIGestureRecognizer) { self.recognizer = recognizer }
}

/// What a recognizer's delegate can decide. Every method has a default.
@preconcurrency @MainActor
public protocol UIGestureRecognizerDelegate: AnyObject {
    /// Asked when the recognizer tries to leave `.possible`; false fails it.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
    /// True lets both recognize together although they share touches.
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool
    /// True makes `gestureRecognizer` wait for `otherGestureRecognizer` to fail.
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRequireFailureOf otherGestureRecognizer: UIGestureRecognizer) -> Bool
    /// True makes `otherGestureRecognizer` wait for `gestureRecognizer` to fail.
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldBeRequiredToFailBy otherGestureRecognizer: UIGestureRecognizer) -> Bool
    /// False hides `touch` from the recognizer for the touch's whole life.
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool
    /// False hides `press` from the recognizer for the press's whole life.
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive press: UIPress) -> Bool
}

extension UIGestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldRequireFailureOf otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldBeRequiredToFailBy otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive touch: UITouch) -> Bool { true }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldReceive press: UIPress) -> Bool { true }
}
