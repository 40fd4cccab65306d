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
    /// True for the cancellation the application makes itself when a view
    /// leaves its window, as opposed to one reported by the digitizer.
    var isApplicationCancellation = false
}
