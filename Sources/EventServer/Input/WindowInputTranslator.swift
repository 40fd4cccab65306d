import HID

/// Turns the input of the window the server shows frames in (an X
/// window's pointer, keys and XInput 2 touches) into HID events.
///
/// The window is one more input device, so it is read the way a device
/// is: each X event becomes the `input_event` records a kernel driver would
/// send for it, ended by `SYN_REPORT`, and an ``EvdevTranslator`` makes the
/// HID events. The mouse is therefore the same `.indirectPointer` touch as
/// an evdev mouse's (down while the left button is), keys get their usages
/// from the same table (``LinuxKeyUsages``), and touches follow multi-touch
/// protocol type B, one slot per XInput touch.
///
/// Positions arrive in window pixels (fractions for touches) and leave in
/// screen points: the window shows the screen at `windowScale` pixels per
/// point, so a pixel is `1 / windowScale` points. X key codes are evdev
/// codes plus 8, as the X server's evdev and libinput drivers (and so
/// xkb's `evdev` keycodes) number them.
///
/// Pure: it reads values shaped like X events and never talks to an X server,
/// so tests feed it XInput 2 touches no test machine can make.
public struct WindowInputTranslator {
    /// One X event, as much of it as input needs.
    public enum Event: Equatable, Sendable {
        /// `ButtonPress`/`ButtonRelease`: X button 1 is the left button.
        case button(_ button: UInt32, isDown: Bool, x: Double, y: Double)
        /// `MotionNotify`.
        case motion(x: Double, y: Double)
        /// `KeyPress`/`KeyRelease` with the X key code.
        case key(keycode: UInt32, isDown: Bool)
        /// `XI_TouchBegin`, `XI_TouchUpdate`, `XI_TouchEnd`: `touch` is the
        /// event's `detail`, the touch's id for as long as it lasts.
        case touch(_ touch: UInt32, phase: TouchPhase, x: Double, y: Double)
        /// `FocusOut`: the keys held now come up elsewhere, so they come up here.
        case focusLost
    }

    /// Which XInput 2 touch event: `XI_TouchBegin`, `XI_TouchUpdate` or `XI_TouchEnd`.
    public enum TouchPhase: Equatable, Sendable {
        case begin, update, end
    }

    /// X numbers key codes from 8; the evdev driver's are the kernel's plus 8.
    public static let keycodeOffset: UInt32 = 8
    /// Touches followed at once; more are ignored and reported.
    public static let maximumTouches = 10
    /// Positions are passed on as 1/256 of a window pixel, so that an XInput
    /// touch's fractional position survives the integer `input_event`.
    static let subpixels = 256.0

    /// The screen the window shows, whose points positions are given in.
    public let screen: Screen
    /// Window pixels per screen point.
    public let windowScale: Double
    private var evdev: EvdevTranslator
    private var keysDown: Set<UInt16> = []
    /// The slot each XInput touch id is in.
    private var touchSlots: [UInt32: Int32] = [:]
    private var nextTrackingID: Int32 = 0
    private var extraProblems: [String] = []

    /// A translator for a window showing `screen` at `windowScale`, whose
    /// touches take their identifiers from the server's `identifiers`.
    public init(screen: Screen, windowScale: Double, identifiers: ContactIdentifiers = ContactIdentifiers()) {
        self.screen = screen
        self.windowScale = windowScale
        let width = Int32(clamping: Int((screen.width * windowScale * Self.subpixels).rounded()))
        let height = Int32(clamping: Int((screen.height * windowScale * Self.subpixels).rounded()))
        let horizontal = InputAxisRange(minimum: 0, maximum: max(width, 1))
        let vertical = InputAxisRange(minimum: 0, maximum: max(height, 1))
        let device = InputDeviceDescription(
            name: "the window",
            keys: [LinuxInput.BTN_LEFT],
            absoluteAxes: [
                LinuxInput.ABS_X: horizontal, LinuxInput.ABS_Y: vertical,
                LinuxInput.ABS_MT_POSITION_X: horizontal, LinuxInput.ABS_MT_POSITION_Y: vertical,
                LinuxInput.ABS_MT_SLOT: InputAxisRange(minimum: 0, maximum: Int32(Self.maximumTouches - 1)),
                LinuxInput.ABS_MT_TRACKING_ID: InputAxisRange(minimum: 0, maximum: Int32.max),
            ]
        )
        evdev = EvdevTranslator(device: device, screen: screen, identifiers: identifiers)
    }

    /// Problems found since the last call (touches past the limit, ends of
    /// touches never begun, keys with no usage), oldest first.
    public mutating func takeDiagnostics() -> [String] {
        let problems = extraProblems + evdev.takeDiagnostics()
        extraProblems.removeAll()
        return problems
    }

    /// Reads one event that happened at `time` (seconds, `CLOCK_MONOTONIC`);
    /// appends the HID events it makes to `events`.
    public mutating func translate(_ event: Event, at time: Double, into events: inout [HIDEvent]) {
        var records: [(type: UInt16, code: UInt16, value: Int32)] = []
        switch event {
        case .button(let button, let isDown, let x, let y):
            guard button == 1 else { return }  // Only the primary button makes a touch.
            records = position(x: x, y: y, xAxis: LinuxInput.ABS_X, yAxis: LinuxInput.ABS_Y)
            records.append((LinuxInput.EV_KEY, LinuxInput.BTN_LEFT, isDown ? 1 : 0))
        case .motion(let x, let y):
            records = position(x: x, y: y, xAxis: LinuxInput.ABS_X, yAxis: LinuxInput.ABS_Y)
        case .key(let keycode, let isDown):
            guard keycode >= Self.keycodeOffset, keycode - Self.keycodeOffset <= UInt32(LinuxInput.KEY_MAX) else {
                extraProblems.append("the window: X key code \(keycode) is outside the evdev range; ignored")
                return
            }
            let code = UInt16(keycode - Self.keycodeOffset)
            // X repeats a held key as more presses (detectable auto-repeat);
            // evdev calls those value 2, which a HID keyboard does not report.
            let value: Int32 = isDown ? (keysDown.contains(code) ? 2 : 1) : 0
            if isDown { keysDown.insert(code) } else if keysDown.remove(code) == nil { return }
            records = [(LinuxInput.EV_KEY, code, value)]
        case .touch(let touch, let phase, let x, let y):
            records = touchRecords(touch, phase: phase, x: x, y: y)
        case .focusLost:
            records = keysDown.sorted().map { (LinuxInput.EV_KEY, $0, 0) }
            keysDown.removeAll()
        }
        guard !records.isEmpty else { return }
        records.append((LinuxInput.EV_SYN, LinuxInput.SYN_REPORT, 0))
        for record in records {
            evdev.translate(LinuxInputEvent(time: time, type: record.type, code: record.code, value: record.value), into: &events)
        }
    }

    /// Reads events in order, all at `time`; returns the HID events they make.
    public mutating func translate(_ events: [Event], at time: Double) -> [HIDEvent] {
        var result: [HIDEvent] = []
        for event in events { translate(event, at: time, into: &result) }
        return result
    }

    /// The window went away: the touches still down are cancelled and the
    /// keys still down come up.
    public mutating func finish(at time: Double, into events: inout [HIDEvent]) {
        evdev.finish(at: time, into: &events)
        touchSlots.removeAll()
        keysDown.removeAll()
    }

    private func position(x: Double, y: Double, xAxis: UInt16, yAxis: UInt16) -> [(type: UInt16, code: UInt16, value: Int32)] {
        [(LinuxInput.EV_ABS, xAxis, Self.deviceUnits(x)), (LinuxInput.EV_ABS, yAxis, Self.deviceUnits(y))]
    }

    private static func deviceUnits(_ pixels: Double) -> Int32 {
        guard pixels.isFinite else { return 0 }
        return Int32(clamping: Int((pixels * subpixels).rounded()))
    }

    private mutating func touchRecords(_ touch: UInt32, phase: TouchPhase, x: Double, y: Double) -> [(type: UInt16, code: UInt16, value: Int32)] {
        let slot: Int32
        switch phase {
        case .begin:
            guard touchSlots[touch] == nil else {
                extraProblems.append("the window: touch \(touch) began twice; the second begin is read as a move")
                return touchRecords(touch, phase: .update, x: x, y: y)
            }
            let used = Set(touchSlots.values)
            guard let free = (0..<Int32(Self.maximumTouches)).first(where: { !used.contains($0) }) else {
                extraProblems.append("the window: touch \(touch) is past the \(Self.maximumTouches) touches followed at once; ignored")
                return []
            }
            slot = free
            touchSlots[touch] = slot
            let trackingID = nextTrackingID
            nextTrackingID = nextTrackingID == Int32.max ? 0 : nextTrackingID + 1
            return [(LinuxInput.EV_ABS, LinuxInput.ABS_MT_SLOT, slot)]
                + position(x: x, y: y, xAxis: LinuxInput.ABS_MT_POSITION_X, yAxis: LinuxInput.ABS_MT_POSITION_Y)
                + [(LinuxInput.EV_ABS, LinuxInput.ABS_MT_TRACKING_ID, trackingID)]
        case .update, .end:
            guard let known = touchSlots[touch] else {
                // A touch past the limit, or one that began before the window
                // listened: nothing of it was passed on.
                return []
            }
            slot = known
        }
        var records: [(type: UInt16, code: UInt16, value: Int32)] = [(LinuxInput.EV_ABS, LinuxInput.ABS_MT_SLOT, slot)]
        records += position(x: x, y: y, xAxis: LinuxInput.ABS_MT_POSITION_X, yAxis: LinuxInput.ABS_MT_POSITION_Y)
        if phase == .end {
            records.append((LinuxInput.EV_ABS, LinuxInput.ABS_MT_TRACKING_ID, -1))
            touchSlots[touch] = nil
        }
        return records
    }
}

/// Maps an X server's event times (milliseconds, 32 bits, from the
/// server's own clock) to `CLOCK_MONOTONIC` seconds.
///
/// Reading time alone would stamp every event read in one batch with one
/// time, losing the spacing of a drag's samples that velocities and
/// coalesced touches are computed from; the server's time alone is on
/// another clock (another machine's, for a remote display). So the server's
/// times keep their spacing and are anchored to the read time: the offset
/// is the smallest `read time − server time` seen, which the event with the
/// least delay sets, so a mapped time is never later than when the event
/// was read; the events read together anchor it before any is mapped. When the two clocks drift apart by more than ``maximumLag``,
/// the anchor moves to the latest read. Times never go back.
public struct XServerTimeMapper {
    /// How far behind the read time a mapped time may fall before the
    /// anchor is reset: longer than any delivery delay of a working server.
    public static let maximumLag = 0.25

    private var offset: Double?
    private var lastRaw: UInt32?
    private var wraps: Double = 0
    private var lastMapped = -Double.infinity

    public init() {}

    /// The monotonic time of an event stamped `serverTime` and read at `readTime`.
    public mutating func map(serverTime: UInt32, readTime: Double) -> Double {
        map(serverTimes: [serverTime], readTime: readTime)[0]
    }

    /// The monotonic times of events read together at `readTime`, in the
    /// order read. The whole batch anchors the clock before any is mapped,
    /// so the spacing of events that waited in one read is kept.
    public mutating func map(serverTimes: [UInt32], readTime: Double) -> [Double] {
        var seconds: [Double] = []
        for serverTime in serverTimes { seconds.append(unwrapped(serverTime)) }
        for serverSeconds in seconds {
            let candidate = readTime - serverSeconds
            if let current = offset, candidate >= current, candidate - current <= Self.maximumLag {
                continue  // This event came later than the best one did.
            }
            offset = candidate
        }
        return seconds.map { serverSeconds in
            let mapped = max(serverSeconds + (offset ?? readTime - serverSeconds), lastMapped)
            lastMapped = mapped
            return mapped
        }
    }

    /// The server's time in seconds, counting the 32-bit millisecond
    /// counter's wraps (every 49.7 days).
    private mutating func unwrapped(_ serverTime: UInt32) -> Double {
        if let lastRaw, serverTime < lastRaw, lastRaw - serverTime > UInt32.max / 2 {
            wraps += 1
        }
        lastRaw = serverTime
        return (wraps * 4_294_967_296 + Double(serverTime)) / 1000
    }

    /// A time for an event the X server does not stamp (focus lost, the
    /// connection gone): the last mapped time, so that times never go back.
    public func latest(readTime: Double) -> Double {
        lastMapped.isFinite ? lastMapped : readTime
    }
}
