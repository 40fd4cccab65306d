/// A HID event: what an input device reports, before any application sees it.
///
/// This is IOKit's `IOHIDEvent` role. A touch screen reports one
/// ``DigitizerFrame`` per scan holding every contact; keys and buttons report
/// ``ButtonEvent``s; the motion coprocessor reports ``MotionEvent``s. All
/// timestamps are seconds on the receiving application's monotonic clock.
public enum HIDEvent: Equatable, Sendable {
    case digitizer(DigitizerFrame)
    case button(ButtonEvent)
    case motion(MotionEvent)

    /// When the device reported the event, in seconds of monotonic time.
    public var timestamp: Double {
        switch self {
        case .digitizer(let frame): frame.timestamp
        case .button(let button): button.timestamp
        case .motion(let motion): motion.timestamp
        }
    }
}

/// One scan of a touch screen: every contact on the glass at that moment.
///
/// Contacts that did not change since the previous frame are still listed,
/// with phase ``DigitizerContact/Phase/stationary``, because an application
/// needs the whole picture in each frame (UIKit's `allTouches`).
public struct DigitizerFrame: Equatable, Sendable {
    public var timestamp: Double
    public var contacts: [DigitizerContact]

    public init(timestamp: Double, contacts: [DigitizerContact]) {
        self.timestamp = timestamp
        self.contacts = contacts
    }
}

/// One finger (or stylus) in a ``DigitizerFrame``.
public struct DigitizerContact: Equatable, Sendable {
    /// Where a contact is in its life. The raw values are the wire format's.
    public enum Phase: UInt8, Sendable, CaseIterable {
        case began = 0
        case moved = 1
        case stationary = 2
        case ended = 3
        /// The system took the contact away (an incoming call, an app switch).
        case cancelled = 4
    }

    /// What is touching the glass. The raw values are the wire format's.
    public enum Kind: UInt8, Sendable, CaseIterable {
        case finger = 0
        case indirect = 1
        case stylus = 2
        case indirectPointer = 3
    }

    /// Stable for the life of the contact, from began to ended or cancelled.
    public var identifier: UInt32
    public var phase: Phase
    public var kind: Kind
    /// Position in screen points.
    public var x: Double
    public var y: Double
    /// Radius of the contact area in points, and how far off it may be.
    public var majorRadius: Float
    public var majorRadiusTolerance: Float
    /// Force, where 1.0 is an average touch.
    public var force: Float
    public var maximumPossibleForce: Float

    public init(
        identifier: UInt32, phase: Phase, x: Double, y: Double, kind: Kind = .finger,
        majorRadius: Float = 10, majorRadiusTolerance: Float = 2,
        force: Float = 0, maximumPossibleForce: Float = 0
    ) {
        self.identifier = identifier
        self.phase = phase
        self.kind = kind
        self.x = x
        self.y = y
        self.majorRadius = majorRadius
        self.majorRadiusTolerance = majorRadiusTolerance
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
    }
}

/// A key or hardware button going down or up.
///
/// `usagePage` and `usage` are the USB HID usage tables' numbers (page 0x07 is
/// the keyboard, page 0x0C the consumer controls such as play/pause), which is
/// also how IOKit names keys.
public struct ButtonEvent: Equatable, Sendable {
    public var timestamp: Double
    public var usagePage: UInt16
    public var usage: UInt16
    public var isDown: Bool
    /// Modifier keys held, as a bit set whose meaning the receiver defines.
    public var modifierFlags: UInt32

    public init(timestamp: Double, usagePage: UInt16, usage: UInt16, isDown: Bool, modifierFlags: UInt32 = 0) {
        self.timestamp = timestamp
        self.usagePage = usagePage
        self.usage = usage
        self.isDown = isDown
        self.modifierFlags = modifierFlags
    }
}

/// A motion the device recognised, such as a shake.
public struct MotionEvent: Equatable, Sendable {
    public enum Kind: UInt8, Sendable, CaseIterable {
        case shake = 0
    }

    public enum Phase: UInt8, Sendable, CaseIterable {
        case began = 0
        case ended = 1
        case cancelled = 2
    }

    public var timestamp: Double
    public var kind: Kind
    public var phase: Phase

    public init(timestamp: Double, kind: Kind, phase: Phase) {
        self.timestamp = timestamp
        self.kind = kind
        self.phase = phase
    }
}
