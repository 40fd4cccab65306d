/// An event delivered to the application: a set of touches at one moment,
/// a press, or a motion.
///
/// For touches, one `UIEvent` stands for one digitizer frame: ``allTouches``
/// holds every touch on the screen at that moment, the ones that did not
/// change with phase `.stationary`.
@MainActor
open class UIEvent {
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
    public let timestamp: TimeInterval

    /// The per-touch state this event carries, in the order of the frame's
    /// contacts. It is applied to the `UITouch` objects when the event is
    /// dispatched, so events waiting in the queue never disturb the touches
    /// of the one being delivered.
    let touchSamples: [TouchSample]
    @exclusivity(unchecked) private var touchList: [UITouch] = []

    init(touchSamples: [TouchSample], timestamp: TimeInterval) {
        self.type = .touches
        self.subtype = .none
        self.timestamp = timestamp
        self.touchSamples = touchSamples
    }

    public init(type: EventType, subtype: EventSubtype = .none, timestamp: TimeInterval) {
        self.type = type
        self.subtype = subtype
        self.timestamp = timestamp
        self.touchSamples = []
    }

    /// The touches of the event, in frame order; set when it is dispatched.
    var touchesInOrder: [UITouch] {
        get { touchList }
        set { touchList = newValue }
    }

    /// Every touch on the screen at this event, or nil for events without touches.
    open var allTouches: Set<UITouch>? {
        type == .touches ? Set(touchList) : nil
    }

    /// The touches that belong to `view` (those that began on it).
    open func touches(for view: UIView) -> Set<UITouch>? {
        type == .touches ? Set(touchList.lazy.filter { $0.view === view }) : nil
    }

    /// The touches that `gesture` receives.
    open func touches(for gesture: UIGestureRecognizer) -> Set<UITouch>? {
        type == .touches ? Set(touchList.filtered { $0.gestureRecognizerList.containsObject(gesture) }) : nil
    }

    /// The touches that belong to `window`.
    open func touches(for window: UIWindow) -> Set<UITouch>? {
        type == .touches ? Set(touchList.lazy.filter { $0.window === window }) : nil
    }
}

/// The state of one touch in one digitizer frame, in screen points.
struct TouchSample {
    let touch: UITouch
    let phase: UITouch.Phase
    let location: CGPoint
    let majorRadius: CGFloat
    let majorRadiusTolerance: CGFloat
    let force: CGFloat
    let maximumPossibleForce: CGFloat
    /// True for the cancellation the application makes itself when a view
    /// leaves its window, as opposed to one reported by the digitizer.
    var isApplicationCancellation = false
}
