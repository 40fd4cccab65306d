/// One step of an event's way through the application, as reported to
/// `UIApplication.traceHandler`: when it happened, which event and touches
/// it belongs to, and what happened (``Step``).
///
/// The steps follow the event: the HID event read from the input port
/// (source1), queued (source0), taken from the queue; the hit-test walk
/// (each `hitTest(_:with:)` called by UIKit, each `point(inside:with:)`,
/// with its point in that view's coordinates and its answer) and the view
/// and window the touch is bound to; the recognizers' changes of state with
/// the rule that caused each; each touch method the window calls and each
/// time a responder passes the call on to `next`; control events and the
/// actions they send; then the frame: layout, display, commit, and the
/// display showing the frame. `openuikit trace --json` writes them as JSON
/// lines (`docs/trace.md`).
@MainActor
public struct TraceRecord {
    /// When the step happened, in seconds of the run loop's clock
    /// (monotonic; a test's `ManualClock` makes it exact).
    public let timestamp: TimeInterval
    /// The event being delivered (numbered from 1 as the queue hands
    /// events out), or nil outside delivery (a timer, the frame's work).
    public let eventID: Int?
    /// The touches the step concerns (numbered from 1 as fingers land), if any.
    public let touchIDs: [Int]
    /// What happened.
    public let step: Step

    /// A record, as the application makes them (tests and tools may make their own).
    public init(timestamp: TimeInterval, eventID: Int?, touchIDs: [Int], step: Step) {
        self.timestamp = timestamp
        self.eventID = eventID
        self.touchIDs = touchIDs
        self.step = step
    }

    /// What happened.
    public enum Step {
        /// Source1 read a HID event from the input port. When it came from
        /// the event server, `serverReadTime` is when the server read it from
        /// its device and `serverSendTime` when the server sent it to this
        /// application (`CLOCK_MONOTONIC` seconds, the clock of the record's
        /// own `timestamp`).
        case hidEventReceived(HIDEventKind, serverReadTime: TimeInterval?, serverSendTime: TimeInterval?)
        /// Source0 turned a HID event into an event and appended it to the
        /// queue, which then holds `queueLength` undelivered events.
        case eventQueued(UIEvent.EventType, queueLength: Int)
        /// A frame that only moves fingers is held for the display's next
        /// frame, joining `frameCount - 1` held before it.
        case touchMovesHeld(frameCount: Int)
        /// The queue hands out the next event, with `touchCount` touches.
        case eventDelivery(UIEvent.EventType, touchCount: Int)
        /// UIKit calls `view.hitTest(point, with:)` (a window from the
        /// application, a subview from its superview's default `hitTest`).
        case hitTest(UIView, point: CGPoint)
        /// The default `hitTest` asked `view.point(inside:with:)`.
        case pointInside(UIView, point: CGPoint, result: Bool)
        /// What `view.hitTest` returned.
        case hitTestResult(UIView, result: UIView?)
        /// A touch that began is bound to `view` in `window` for its life
        /// (nil: no window's hit test found a view).
        case touchBound(view: UIView?, window: UIWindow?)
        /// A recognizer's state changed, and why.
        case gestureStateChanged(
            UIGestureRecognizer, from: UIGestureRecognizer.State, to: UIGestureRecognizer.State,
            reason: GestureChangeReason, other: UIGestureRecognizer?)
        /// The window is about to call a view's touch method with `touchCount` touches.
        case touchesDelivered(UITouch.Phase, to: UIView, touchCount: Int)
        /// A responder's default touch method passes the call on to `next`
        /// (nil: the chain ends there and nobody handles it).
        case touchesPassedToNext(UITouch.Phase, from: UIResponder, to: UIResponder?)
        /// A control sends its actions for `events`.
        case controlEvents(UIControl, UIControl.Event)
        /// A control's action is sent: `action` names it (a method, a
        /// `UIAction`'s title or identifier, or a selector), `target` is
        /// where it goes (nil: along the responder chain, or a closure).
        case actionSent(from: UIControl, action: String, target: AnyObject?)
        /// The update cycle lays out `view` (`layoutSubviews`).
        case layout(UIView)
        /// The update cycle draws `view`'s content (`draw(_:)`).
        case display(UIView)
        /// The implicit transaction's commit begins: the layout and display
        /// records that follow happen inside it, and then what changed is
        /// copied to the committed layer tree the compositor reads.
        case commit
        /// The event server's display showed a frame of this application
        /// (its `commitIdentifier`) at `time` (`CLOCK_MONOTONIC` seconds).
        case framePresented(commitIdentifier: UInt64, time: TimeInterval)
    }

    /// The kind of a HID event.
    public enum HIDEventKind: String, Sendable {
        /// A frame of a touch screen's contacts.
        case digitizer
        /// A button or key going down or up.
        case button
        /// A motion event (a shake).
        case motion
    }

    /// The rule of the gesture arena that changed a recognizer's state.
    public enum GestureChangeReason: String, Sendable {
        /// The recognizer itself asked for the new state (its touch
        /// methods or timer): it recognized, changed, ended or failed.
        case requested
        /// `gestureRecognizerShouldBegin` (the delegate's or the view's)
        /// said no, or a control claimed the gesture for itself.
        case shouldBeginDenied
        /// A recognizer it requires to fail (`other`) recognized.
        case requiredFailureRecognized
        /// The recognizers it waited for have all failed: it may now
        /// begin or recognize as it asked.
        case requiredFailuresFailed
        /// Another recognizer sharing its touches (`other`) recognized
        /// and may not recognize simultaneously with it.
        case preventedBy
        /// The system took its touches away (`touchesCancelled`).
        case touchesCancelled
        /// It was disabled or taken off its view.
        case withdrawn
        /// Its gesture is over and its touches are gone: back to `.possible`.
        case reset
    }
}

/// What the tracing parts of the event path write through: it numbers
/// events and reads the clock only while a handler is set.
extension EventDeliveryState {
    /// Whether a trace handler is set. Every step of the event path that is
    /// traced tests this (or an event's ``UIEvent/tracing``) and nothing
    /// more while tracing is off.
    var isTracing: Bool { traceHandler != nil }

    /// Reports `step`, for `touches`, to the trace handler.
    func trace(_ step: TraceRecord.Step, touches: [UITouch] = []) {
        guard let traceHandler else { return }
        traceHandler(TraceRecord(
            timestamp: now(),
            eventID: isDeliveringEvent && currentEventID > 0 ? currentEventID : nil,
            touchIDs: Self.identifiers(of: touches),
            step: step))
    }

    /// Reports `step` for one touch.
    func trace(_ step: TraceRecord.Step, touch: UITouch) {
        trace(step, touches: [touch])
    }

    /// The default hit test asks `subview` for the view at `point` (in the
    /// subview's coordinates), with the call and its answer traced.
    func tracedHitTest(_ view: UIView, at point: CGPoint, with event: UIEvent?) -> UIView? {
        trace(.hitTest(view, point: point), touches: routedTouches)
        let result = view.hitTest(point, with: event)
        trace(.hitTestResult(view, result: result), touches: routedTouches)
        return result
    }

    /// A responder's default touch method passes `touches` on to `next`.
    func tracePassedOn(_ phase: UITouch.Phase, from responder: UIResponder, to next: UIResponder?, _ touches: Set<UITouch>) {
        var ordered: [UITouch] = []
        for touch in touches { ordered.append(touch) }
        trace(.touchesPassedToNext(phase, from: responder, to: next), touches: ordered)
    }

    /// The touches' trace numbers, in increasing order.
    private static func identifiers(of touches: [UITouch]) -> [Int] {
        var identifiers: [Int] = []
        for touch in touches { identifiers.append(touch.traceIdentifier) }
        identifiers.sort()
        return identifiers
    }

    /// The touch being bound to a view now, for the records of its hit test.
    var routedTouches: [UITouch] {
        guard let routedTouch else { return [] }
        return [routedTouch]
    }
}
