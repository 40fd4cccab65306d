/// One finger (or stylus) on the screen, from the moment it lands until it
/// lifts or is cancelled. The same object stands for the finger in every
/// event of that time.
///
/// A touch's ``view`` and ``window`` are fixed when it begins, by
/// hit-testing: every later phase goes to that view, even after the finger
/// has left it.
///
/// The touch's state is read and written many times per event, only on the
/// main actor, so its hot fields skip the runtime's dynamic exclusivity checks.
@preconcurrency @MainActor
open class UITouch: NSObject {
    public enum Phase: Int, Sendable {
        case began, moved, stationary, ended, cancelled

        /// The order in which one event's phases reach a view or recognizer.
        static let deliveryOrder: [Phase] = [.began, .moved, .ended, .cancelled]
    }

    public enum TouchType: Int, Sendable {
        case direct, indirect, pencil, indirectPointer
    }

    @exclusivity(unchecked) public internal(set) var phase: Phase = .began
    /// Seconds on the application's clock of the touch's latest change.
    @exclusivity(unchecked) public internal(set) var timestamp: TimeInterval = 0
    /// 1 for a single tap, 2 for the second tap of a double tap, and so on.
    @exclusivity(unchecked) public internal(set) var tapCount = 1
    @exclusivity(unchecked) public internal(set) var type: TouchType = .direct
    /// Radius of the contact area in points, and how far off it may be.
    @exclusivity(unchecked) public internal(set) var majorRadius: CGFloat = 0
    @exclusivity(unchecked) public internal(set) var majorRadiusTolerance: CGFloat = 0
    /// Force where 1.0 is an average touch; 0 on hardware without force sensing.
    @exclusivity(unchecked) public internal(set) var force: CGFloat = 0
    @exclusivity(unchecked) public internal(set) var maximumPossibleForce: CGFloat = 0

    /// The view the touch began in (its hit-test view), or nil if none was hit.
    @exclusivity(unchecked) public internal(set) var view: UIView?
    /// Held strongly, as UIKit declares it.
    @exclusivity(unchecked) public internal(set) var window: UIWindow?

    /// Locations in screen points; converted on demand for any view.
    @exclusivity(unchecked) var screenLocation = CGPoint.zero
    @exclusivity(unchecked) var previousScreenLocation = CGPoint.zero
    /// Where and when the touch began, in screen points, for tap counting
    /// and for a began phase held back from the view and delivered later.
    @exclusivity(unchecked) var startScreenLocation = CGPoint.zero
    @exclusivity(unchecked) var startTimestamp: TimeInterval = 0
    /// Identifier of the HID contact this touch stands for.
    let fingerIdentifier: UInt32
    /// The touch's number in trace records: 1 for the first finger that
    /// landed since launch, and so on (see `HIDEventTranslator`).
    var traceIdentifier = 0
    /// False when the routing rules keep the touch from its view
    /// (multiple-touch or exclusive-touch).
    @exclusivity(unchecked) var isDeliveredToView = true
    /// Set when the application ended the touch itself (its view left the
    /// window); later reports of the finger are then ignored.
    @exclusivity(unchecked) var isEndedByApplication = false
    /// True when an exclusive-touch view keeps the touch from everyone,
    /// gesture recognizers included.
    @exclusivity(unchecked) var isExcludedByExclusiveTouch = false
    /// The recognizers that receive this touch, nearest the view first.
    @exclusivity(unchecked) var gestureRecognizerList: [UIGestureRecognizer] = []
    /// How far the view has got with this touch, and the phases the
    /// recognizers' delays are holding back from it, oldest first.
    @exclusivity(unchecked) var viewDelivery = ViewDelivery.notStarted
    @exclusivity(unchecked) var heldPhases: [Phase] = []
    /// Set when the view was just given this frame's move as the one move
    /// standing for those held back, so that the frame's own move is not
    /// given again; cleared by the next frame.
    @exclusivity(unchecked) var moveReplayedThisFrame = false
    /// Every sample that moved the touch in its latest delivery, oldest
    /// first, when that delivery coalesced several frames; empty when it
    /// was of one frame, whose one sample is the touch itself
    /// (`CoalescedTouches.swift`).
    @exclusivity(unchecked) var coalescedSamples: [CoalescedTouchSample] = []
    /// The sample before the latest one that began or moved the touch:
    /// where and when, for the velocity `predictedTouches(for:)` uses.
    @exclusivity(unchecked) var priorSampleLocation = CGPoint.zero
    @exclusivity(unchecked) var priorSampleTimestamp: TimeInterval = 0
    /// The touches handed out as its coalesced and predicted touches,
    /// made the first time they are asked for and reused after that.
    var sampleTouchPool: SampleTouchPool?

    enum ViewDelivery {
        case notStarted, began, finished
    }

    /// Ended or cancelled.
    var isFinished: Bool { phase == .ended || phase == .cancelled }

    /// A set holding just this touch, handed to every recognizer and view
    /// that receives the touch alone, in every frame, so that the touch's
    /// life makes one set rather than one per receiver per frame. The set
    /// holds the touch, so it is dropped when the application is finished
    /// with the touch (``retire()``) and not made again after that.
    @exclusivity(unchecked) private var cachedSetOfSelf: Set<UITouch>?
    @exclusivity(unchecked) private var isRetired = false

    var setOfSelf: Set<UITouch> {
        if let cachedSetOfSelf { return cachedSetOfSelf }
        let set: Set<UITouch> = [self]
        if !isRetired { cachedSetOfSelf = set }
        return set
    }

    /// Lets go of what refers back to the touch: the application is done
    /// with it (it ended and its last phase reached its view), or was reset
    /// while it was on the screen.
    func retire() {
        isRetired = true
        cachedSetOfSelf = nil
    }

    /// The gesture recognizers receiving this touch.
    public var gestureRecognizers: [UIGestureRecognizer]? {
        gestureRecognizerList.isEmpty ? nil : gestureRecognizerList
    }

    init(fingerIdentifier: UInt32) {
        self.fingerIdentifier = fingerIdentifier
        super.init()
    }

    /// The current location in `view`'s coordinates, or in the window's for nil.
    open func location(in view: UIView?) -> CGPoint {
        Self.convertFromScreen(screenLocation, to: view, window: window)
    }

    /// The location at the previous event, in `view`'s coordinates, or in the window's for nil.
    open func previousLocation(in view: UIView?) -> CGPoint {
        Self.convertFromScreen(previousScreenLocation, to: view, window: window)
    }

    /// A point in screen points in `view`'s coordinates, or in `window`'s
    /// for a nil view (as the screen's with neither): how touches and
    /// gesture recognizers report locations.
    static func convertFromScreen(_ point: CGPoint, to view: UIView?, window: UIWindow?) -> CGPoint {
        if let view { return view.layer.convertFromRootSpace(point) }
        if let window { return window.layer.convertFromRootSpace(point) }
        return point
    }
}
