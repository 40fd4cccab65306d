/// One physical button or key held down, from the moment it goes down until
/// it comes up. The same object stands for the button in every event of that
/// time.
///
/// A press is bound when it begins to the key window and to that window's
/// first responder (or the window itself when there is none): every later
/// phase goes to that responder, even if another has become first
/// responder since, as a touch stays with its view.
@preconcurrency @MainActor
open class UIPress: NSObject {
    public enum Phase: Int, Sendable {
        case began, changed, stationary, ended, cancelled

        /// The order in which one event's phases reach a recognizer or responder.
        static let deliveryOrder: [Phase] = [.began, .changed, .ended, .cancelled]
    }

    /// Which button was pressed. The named values are UIKit's; a key of a
    /// hardware keyboard has a type of its own, outside them (see
    /// ``UIPress/PressType/init(keyboardKey:)``), and is identified by ``UIPress/key``.
    ///
    /// A structure rather than an enumeration because, as with UIKit's
    /// imported C enumeration, any raw value is a valid press type; a
    /// `switch` over it needs a plain `default:` case.
    public struct PressType: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int

        /// Always succeeds: every value is a press type.
        public init?(rawValue: Int) {
            self.rawValue = rawValue
        }

        private init(_ rawValue: Int) {
            self.rawValue = rawValue
        }

        /// The type of a press of a hardware keyboard's key: the key's HID
        /// usage plus 2000 (Return is 2040, the right arrow 2079). UIKit does
        /// not document these values; they are the ones iOS reports, which
        /// some apps compare against.
        public init(keyboardKey: UIKeyboardHIDUsage) {
            self.init(Self.keyboardBase + keyboardKey.rawValue)
        }

        static let keyboardBase = 2000

        public static let upArrow = PressType(0)
        public static let downArrow = PressType(1)
        public static let leftArrow = PressType(2)
        public static let rightArrow = PressType(3)
        public static let select = PressType(4)
        public static let menu = PressType(5)
        public static let playPause = PressType(6)
    }

    public internal(set) var phase: Phase = .began
    /// Seconds on the application's clock of the press's latest change.
    public internal(set) var timestamp: TimeInterval = 0
    public let type: PressType
    /// The key of a hardware keyboard; nil for a remote's or a device's button.
    public let key: UIKey?
    /// How hard the button is pressed: 1 while a (digital) button is down, 0 once it is up.
    public internal(set) var force: CGFloat = 0
    /// The key window when the press began. Held strongly, as a touch holds
    /// its window (a weak reference would slow every retain of the window).
    public internal(set) var window: UIWindow?
    /// The responder the press is delivered to: the first responder when it
    /// began (or the window, if there was none).
    public internal(set) weak var responder: UIResponder?

    /// The recognizers that receive this press, nearest the responder first.
    var gestureRecognizerList: [UIGestureRecognizer] = []

    /// The gesture recognizers receiving this press.
    public var gestureRecognizers: [UIGestureRecognizer]? {
        gestureRecognizerList.isEmpty ? nil : gestureRecognizerList
    }

    init(type: PressType, key: UIKey?) {
        self.type = type
        self.key = key
        super.init()
    }
}

/// An event carrying presses: the ones that changed, and every other press
/// still held, with phase `.stationary`.
@preconcurrency @MainActor
open class UIPressesEvent: UIEvent {
    /// The state of each press in this event, applied to the `UIPress`
    /// objects when the event is dispatched, so that events waiting in the
    /// queue never disturb the presses of the one being delivered.
    let pressSamples: [(press: UIPress, phase: UIPress.Phase)]

    init(pressSamples: [(press: UIPress, phase: UIPress.Phase)], timestamp: TimeInterval) {
        self.pressSamples = pressSamples
        super.init(type: .presses, timestamp: timestamp)
    }

    /// Every press held at this event.
    open var allPresses: Set<UIPress> { Set(pressSamples.map(\.press)) }

    /// The presses of this event that `gesture` receives.
    open func presses(for gesture: UIGestureRecognizer) -> Set<UIPress> {
        Set(pressSamples.map(\.press).filter { $0.gestureRecognizerList.containsIdentical(gesture) })
    }
}

/// A motion event (a shake) with the phase the HID event reported; UIKit
/// tells the phase by which responder method it calls.
final class UIMotionEvent: UIEvent {
    enum Phase {
        case began, ended, cancelled
    }

    let phase: Phase

    init(subtype: EventSubtype, phase: Phase, timestamp: TimeInterval) {
        self.phase = phase
        super.init(type: .motion, subtype: subtype, timestamp: timestamp)
    }
}
