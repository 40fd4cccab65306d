/// The base class of controls: views that track a touch themselves and turn
/// it into actions.
///
/// How a control tracks a touch, step by step:
/// 1. An enabled control takes the first touch that begins on it (it is the
///    touch's hit-test view). A disabled control takes none: its touches go
///    up the responder chain as a plain view's do, and so do touches it
///    does not take (a second finger).
/// 2. Touch began: ``isTouchInside`` becomes true and
///    ``beginTracking(_:with:)`` is asked. If it returns true the control
///    tracks the touch (``isTracking``), highlights, and sends `.touchDown`,
///    then `.touchDownRepeat` when the touch's `tapCount` is above 1. If it
///    returns false the control keeps the touch but does nothing with it.
/// 3. Touch moved, while tracking: ``isTouchInside`` is worked out again
///    (see ``ControlMetrics/touchInsideMargin``: the bounds grown by 70 pt
///    on every side, or wherever `point(inside:with:)` says yes) and the
///    highlight follows it. ``continueTracking(_:with:)`` is asked; false
///    ends the tracking there (no highlight, no more events for the
///    touch). Otherwise the control sends `.touchDragExit` or
///    `.touchDragEnter` if the touch crossed that edge, then
///    `.touchDragInside` or `.touchDragOutside`.
/// 4. Touch ended, while tracking: ``endTracking(_:with:)``, then
///    `.touchUpInside` or `.touchUpOutside` by the same rule of inside.
/// 5. Touch cancelled, while tracking (a gesture recognizer took it, the
///    system cancelled it, the control left its window):
///    ``cancelTracking(with:)``, then `.touchCancel`.
/// 6. A control disabled while it tracks stops: ``cancelTracking(with:)``
///    and no event, since disabled controls send none.
///
/// Events that happen together are sent one at a time in the order above;
/// an action registered for several of them runs once for each. Actions run
/// in the order they were added. See `UIControl+Actions.swift` for adding
/// them.
///
/// A control's own action wins over a gesture recognizer of an ancestor
/// that needs the same gesture (Apple: "default control actions prevent
/// overlapping gesture recognizer behavior"): each kind of control says
/// which gestures it claims (a button, a single tap); the gesture arena
/// fails such recognizers when they try to begin.
@preconcurrency @MainActor
open class UIControl: UIView {
    /// The events a control sends actions for. The raw values are UIKit's.
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let touchDown = Event(rawValue: 1 << 0)
        /// A touch down whose `tapCount` is above 1, sent after `.touchDown`.
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// A button's tap, or a value the user changed on a switch or slider.
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let applicationReserved = Event(rawValue: 0x0F00_0000)
        public static let systemReserved = Event(rawValue: 0xF000_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// What a control shows itself as. The raw values are UIKit's; `.normal`
    /// is the empty set.
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
        public static let application = State(rawValue: 0x00FF_0000)
        public static let reserved = State(rawValue: 0xFF00_0000)
    }

    /// Registered actions, in the order they were added (`UIControl+Actions.swift`).
    var registrations: [ActionRegistration] = []
    private var trackedTouch: UITouch?
    private var tracking = false
    private var touchInside = false

    /// A control that runs `primaryAction` for `.primaryActionTriggered`.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { adoptPrimaryAction(primaryAction) }
    }

    /// Registers the primary action; a button also takes its title and image.
    func adoptPrimaryAction(_ action: UIAction) {
        addAction(action, for: .primaryActionTriggered)
    }

    // MARK: State

    /// A disabled control takes no touches and sends no actions for them;
    /// disabling one that is tracking stops it (step 6).
    open var isEnabled = true {
        didSet {
            guard oldValue && !isEnabled && tracking else { return }
            tracking = false
            touchInside = false
            isHighlighted = false
            cancelTracking(with: nil)
        }
    }

    open var isSelected = false

    /// How content (a button's title and image) is placed across the control.
    public enum ContentHorizontalAlignment: Int, Sendable {
        case center = 0, left, right, fill, leading, trailing
    }

    /// How content is placed down the control.
    public enum ContentVerticalAlignment: Int, Sendable {
        case center = 0, top, bottom, fill
    }

    /// Where the content goes across the control; centred by default.
    open var contentHorizontalAlignment = ContentHorizontalAlignment.center {
        didSet { setNeedsLayout() }
    }

    /// Where the content goes down the control; centred by default.
    open var contentVerticalAlignment = ContentVerticalAlignment.center {
        didSet { setNeedsLayout() }
    }
    /// True while a tracked touch is inside; set by tracking, or by you.
    open var isHighlighted = false

    /// The state flags together: `.highlighted`, `.disabled`, `.selected`.
    open var state: State {
        var state = State.normal
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }

    /// Whether the control is tracking a touch now.
    open var isTracking: Bool { tracking }

    /// Whether the tracked touch is inside the control (bounds grown by
    /// ``ControlMetrics/touchInsideMargin``); false when not tracking.
    open var isTouchInside: Bool { touchInside }

    // MARK: Tracking, for subclasses

    /// A touch began on the control; return false not to track it. The default is true.
    open func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    /// The tracked touch moved; return false to stop tracking it. The default is true.
    open func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool { true }
    /// The tracked touch lifted.
    open func endTracking(_ touch: UITouch?, with event: UIEvent?) {}
    /// The tracked touch was cancelled, or the control disabled while tracking.
    open func cancelTracking(with event: UIEvent?) {}

    // MARK: Sending actions (see `UIControl+Actions.swift`)

    /// Runs every action registered for any of `controlEvents`, each once,
    /// in the order they were added. It works on a disabled control too:
    /// only touches are ignored while disabled.
    open func sendActions(for controlEvents: Event) {
        sendActions(for: controlEvents, with: nil)
    }

    /// Performs `action` with this control as its sender. Every `UIAction`
    /// the control runs for its events goes through here.
    open func sendAction(_ action: UIAction) {
        action.perform(sender: self)
    }

    /// Sends the named `action` to `target`, or along the responder chain
    /// for nil, with this control as the sender. Every named action the
    /// control sends for its events goes through here.
    open func sendAction(_ action: Selector, to target: Any?, for event: UIEvent?) {
        UIApplication.shared.sendAction(action, to: target, from: self, for: event)
    }

    /// Whether the control sends `.primaryActionTriggered` after `.touchUpInside`.
    var triggersPrimaryActionOnTouchUpInside: Bool { false }

    // MARK: Touches (the steps above)

    open override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        var others = touches
        if trackedTouch == nil, isEnabled, let touch = touches.first {
            others.remove(touch)
            trackedTouch = touch
            touchInside = true
            tracking = beginTracking(touch, with: event)
            if tracking {
                isHighlighted = true
                send(touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : [.touchDown], with: event)
            } else {
                touchInside = false
            }
        }
        if !others.isEmpty { super.touchesBegan(others, with: event) }
    }

    open override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = take(touches, passingOthersTo: super.touchesMoved, with: event), tracking else { return }
        let wasInside = touchInside
        touchInside = isInside(touch, with: event)
        isHighlighted = touchInside
        tracking = continueTracking(touch, with: event)
        guard tracking else {
            touchInside = false
            isHighlighted = false
            return
        }
        var events: [Event] = []
        if wasInside && !touchInside { events.append(.touchDragExit) }
        if !wasInside && touchInside { events.append(.touchDragEnter) }
        events.append(touchInside ? .touchDragInside : .touchDragOutside)
        send(events, with: event)
    }

    open override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = take(touches, passingOthersTo: super.touchesEnded, with: event) else { return }
        if tracking {
            touchInside = isInside(touch, with: event)
            isHighlighted = false
            endTracking(touch, with: event)
            if touchInside {
                send(triggersPrimaryActionOnTouchUpInside ? [.touchUpInside, .primaryActionTriggered] : [.touchUpInside], with: event)
            } else {
                send([.touchUpOutside], with: event)
            }
        }
        finishTracking()
    }

    open override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard take(touches, passingOthersTo: super.touchesCancelled, with: event) != nil else { return }
        if tracking {
            isHighlighted = false
            cancelTracking(with: event)
            send([.touchCancel], with: event)
        }
        finishTracking()
    }

    /// The control's touch among `touches`, if there; the others go up the chain.
    private final func take(
        _ touches: Set<UITouch>, passingOthersTo forward: @MainActor (Set<UITouch>, UIEvent?) -> Void, with event: UIEvent?
    ) -> UITouch? {
        guard let touch = trackedTouch, touches.contains(touch) else {
            forward(touches, event)
            return nil
        }
        if touches.count > 1 { forward(touches.subtracting([touch]), event) }
        return touch
    }

    private func finishTracking() {
        trackedTouch = nil
        tracking = false
        touchInside = false
    }

    /// Inside for drag and touch-up events: within the bounds grown by
    /// ``ControlMetrics/touchInsideMargin``, or inside by `point(inside:with:)`.
    private func isInside(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let point = touch.location(in: self)
        let margin = ControlMetrics.touchInsideMargin
        return bounds.insetBy(dx: -margin, dy: -margin).contains(point) || self.point(inside: point, with: event)
    }

    /// Sends `events` one at a time, stopping if an action ended the
    /// tracking (by disabling the control, say).
    private func send(_ events: [Event], with event: UIEvent?) {
        for controlEvent in events {
            guard tracking else { return }
            sendActions(for: controlEvent, with: event)
        }
    }
}
