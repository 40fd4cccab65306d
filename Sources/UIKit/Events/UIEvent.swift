/// An event delivered to the application: a set of touches at one moment,
/// a press, or a motion.
///
/// For touches, the event stands for the latest digitizer frame: ``allTouches``
/// holds every touch on the screen at that moment, the ones that did not
/// change with phase `.stationary`. As in UIKit, the application has one
/// touches event and reuses it for every frame, so an event kept from an
/// earlier call shows the latest frame.
@preconcurrency @MainActor
open class UIEvent: NSObject {
    public enum EventType: Int, Sendable {
        case touches, motion, remoteControl, presses, scroll, hover, transform
    }

    public enum EventSubtype: Int, Sendable {
        case none = 0
        case motionShake = 1
    }

    public let type: EventType
    public let subtype: EventSubtype
    /// Seconds on the application's clock when the event happened.
    @exclusivity(unchecked) public internal(set) var timestamp: TimeInterval

    public init(type: EventType, subtype: EventSubtype = .none, timestamp: TimeInterval) {
        self.type = type
        self.subtype = subtype
        self.timestamp = timestamp
        super.init()
    }

    /// The touches of the frame being delivered, in frame order; filled in
    /// when a frame is dispatched, keeping the storage from frame to frame.
    @exclusivity(unchecked) var touchesInOrder: [UITouch] = []

    /// The application's delivery state while a trace handler is set, else
    /// nil: what hit-testing and the responders' default touch methods,
    /// which are given the event and nothing else, trace through.
    @exclusivity(unchecked) var tracing: EventDeliveryState?

    /// Takes `touch` out of the event once it is finished with (it ended and
    /// its last phase has reached its view), so that the event kept between
    /// frames does not keep the touch, its view and its window alive.
    func remove(_ touch: UITouch) {
        touchesInOrder.removeEvery { $0 === touch }
    }

    /// Every touch on the screen at this event, or nil for events without touches.
    open var allTouches: Set<UITouch>? {
        type == .touches ? Set(touchesInOrder) : nil
    }

    /// The touches that belong to `view` (those that began on it).
    open func touches(for view: UIView) -> Set<UITouch>? {
        type == .touches ? Set(touchesInOrder.lazy.filter { $0.view === view }) : nil
    }

    /// The touches that `gesture` receives.
    open func touches(for gesture: UIGestureRecognizer) -> Set<UITouch>? {
        type == .touches ? Set(touchesInOrder.filtered { $0.gestureRecognizerList.containsIdentical(gesture) }) : nil
    }

    /// The touches that belong to `window`.
    open func touches(for window: UIWindow) -> Set<UITouch>? {
        type == .touches ? Set(touchesInOrder.lazy.filter { $0.window === window }) : nil
    }

    /// Every sample reported for `touch` since the event was last
    /// delivered, in the order the touch screen reported them; the last is
    /// a copy of `touch`. Touch moves reach views once per frame, so a
    /// screen that scans faster than the display refreshes reports several
    /// samples per delivery: draw through all of them for a smooth line.
    /// Nil if `touch` is not in this event.
    ///
    /// Read them while handling the event: the objects are reused by the
    /// next delivery.
    open func coalescedTouches(for touch: UITouch) -> [UITouch]? {
        guard type == .touches, touchesInOrder.containsIdentical(touch) else { return nil }
        return touch.makeCoalescedTouches()
    }

    /// Where `touch` is predicted to be next, extrapolated from its last
    /// two samples (at most 8 ms and half their interval ahead, and only
    /// when they are 2 to 20 ms apart, as Android's resampler does); empty
    /// when the touch is not moving at such a pace. Nil if `touch` is not
    /// in this event. Draw them provisionally, and replace them with the
    /// real samples at the next delivery.
    open func predictedTouches(for touch: UITouch) -> [UITouch]? {
        guard type == .touches, touchesInOrder.containsIdentical(touch) else { return nil }
        return touch.makePredictedTouches()
    }
}

/// The state of one touch in one digitizer frame, in screen points. Frames
/// wait in the application's queue as samples; they are applied to the
/// `UITouch` objects when the frame is dispatched, so frames waiting in the
/// queue never disturb the touches of the one being delivered.
struct TouchSample {
    let touch: UITouch
    let phase: UITouch.Phase
    let location: CGPoint
    let majorRadius: CGFloat
    let majorRadiusTolerance: CGFloat
    let force: CGFloat
    let maximumPossibleForce: CGFloat
    /// The time of the frame the sample is from.
    var timestamp: TimeInterval = 0
    /// True for the cancellation the application makes itself when a view
    /// leaves its window, as opposed to one reported by the digitizer.
    var isApplicationCancellation = false
}
