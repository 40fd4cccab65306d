/// What the application and the parts of its event path (the touch router,
/// the gesture arena) share about delivery, read many times per event: an
/// object of its own, given to each part when it is made, so that a part
/// reads it directly (a question to the application would be a call, and
/// often a retain, each time).
@MainActor
final class EventDeliveryState {
    /// Whether an event is being delivered now: what waits for the end of
    /// an event (settling the arena, letting go of ended touches) waits.
    /// The application's event queue sets it.
    @exclusivity(unchecked) var isDeliveringEvent = false
    /// Called with each step of event handling worth seeing
    /// (`UIApplication.traceHandler`); nil costs nothing.
    @exclusivity(unchecked) var traceHandler: (@MainActor (TraceRecord) -> Void)?
    /// The clock trace records are timed by (the application's run loop's).
    var now: @MainActor () -> TimeInterval = { 0 }
    /// The number of the event being delivered, while tracing (0: none yet).
    var currentEventID = 0
    /// The touch being hit-tested and bound to its view, while tracing.
    var routedTouch: UITouch?

    /// Numbers the event the queue hands out now and traces its delivery.
    func beginTracedDelivery(of type: UIEvent.EventType, sampleCount: Int) {
        currentEventID += 1
        trace(.eventDelivery(type, touchCount: sampleCount))
    }
}

/// What the parts of the event path ask of the application they work in,
/// a few times per touch at most. Each part is given its host when it is
/// made, so that it can be built and tested alone: `UIApplication` answers
/// in an application, a test gives a stand-in.
@MainActor
protocol EventPathHost: AnyObject {
    /// Reports a problem the application survived.
    func report(_ diagnostic: Diagnostic)
    /// Step 1 of touch routing: the front-most visible window whose
    /// `hitTest(_:with:)` returns a view for a touch at `screenLocation`,
    /// and that view.
    func frontmostHit(at screenLocation: CGPoint, with event: UIEvent) -> (window: UIWindow, view: UIView)?
    /// Queues a frame of touch samples the application makes itself, timed
    /// now, behind the events already queued.
    func enqueueTouchFrameNow(_ samples: [TouchSample])
}

/// What the gesture arena tells the views' side of touch delivery (the touch
/// router) as recognizers decide: which touches the views may now see, and
/// which they must not.
@MainActor
protocol ViewTouchDelivery: AnyObject {
    /// A recognizer that delays touches began recognized: the touches whose
    /// began it held back never reach their views.
    func discardHeldBegan(of touches: [UITouch])
    /// A recognizer that cancels touches in its view recognized: the views
    /// get `touchesCancelled` for those they had begun, and nothing more.
    func cancelViewDelivery(of touches: [UITouch])
    /// A recognizer decided or was reset: the views get what recognizers
    /// no longer hold back of `touches`.
    func releaseHeldTouches(_ touches: [UITouch])
}

extension TouchRouter: ViewTouchDelivery {}
