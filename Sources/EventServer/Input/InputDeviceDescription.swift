/// An absolute axis of a device, as `EVIOCGABS` or an evemu `A:` line gives
/// it: `struct input_absinfo` without the current value.
public struct InputAxisRange: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (per radian for orientation), 0 when unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `value` mapped onto `0...extent`: the minimum to 0, the maximum to
    /// `extent`, clamped (a panel may report a little past its edges).
    /// Nil when the range is empty or reversed and so cannot scale.
    func scale(_ value: Int32, to extent: Double) -> Double? {
        guard maximum > minimum else { return nil }
        let fraction = (Double(value) - Double(minimum)) / (Double(maximum) - Double(minimum))
        return min(max(fraction, 0), 1) * extent
    }

    /// Screen points per device unit along an axis of `extent` points.
    func pointsPerUnit(over extent: Double) -> Double? {
        guard maximum > minimum else { return nil }
        return extent / (Double(maximum) - Double(minimum))
    }
}

/// What a device is and what it reports: its name, the event codes it
/// sends, its axis ranges and its properties. Read from the device with
/// `EVIOCGNAME`, `EVIOCGBIT`, `EVIOCGABS` and `EVIOCGPROP`, or from the
/// header of an evemu recording.
///
/// A stream of bare `input_event` records carries no description; such a
/// stream is read with ``unknown``, which accepts every kind of event and
/// takes absolute values as screen points.
public struct InputDeviceDescription: Equatable, Sendable {
    public var name: String
    /// `EV_KEY` codes the device sends (keys and buttons).
    public var keys: Set<UInt16>
    /// `EV_REL` codes the device sends.
    public var relativeAxes: Set<UInt16>
    /// `EV_ABS` codes the device sends, with their ranges.
    public var absoluteAxes: [UInt16: InputAxisRange]
    /// `INPUT_PROP_*` bits.
    public var properties: Set<Int>
    /// False for ``unknown``: nothing was said about the device.
    public var isKnown: Bool

    public init(
        name: String, keys: Set<UInt16> = [], relativeAxes: Set<UInt16> = [],
        absoluteAxes: [UInt16: InputAxisRange] = [:], properties: Set<Int> = []
    ) {
        self.name = name
        self.keys = keys
        self.relativeAxes = relativeAxes
        self.absoluteAxes = absoluteAxes
        self.properties = properties
        self.isKnown = true
    }

    /// A device nothing is known about: a plain stream of records.
    public static func unknown(name: String) -> InputDeviceDescription {
        var description = InputDeviceDescription(name: name)
        description.isKnown = false
        return description
    }

    /// What a device can be used as.
    public struct Capabilities: OptionSet, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A screen touched directly: multi-touch (type B) or a single
        /// `BTN_TOUCH` contact with absolute axes.
        public static let touchScreen = Capabilities(rawValue: 1 << 0)
        /// A mouse (relative axes) or an absolute pointer (a tablet, a
        /// virtual machine's pointer) with a primary button.
        public static let pointer = Capabilities(rawValue: 1 << 1)
        /// Keys that have USB HID usages.
        public static let keyboard = Capabilities(rawValue: 1 << 2)

        public var description: String {
            var parts: [String] = []
            if contains(.touchScreen) { parts.append("touch screen") }
            if contains(.pointer) { parts.append("pointer") }
            if contains(.keyboard) { parts.append("keyboard") }
            return parts.isEmpty ? "nothing usable" : parts.joined(separator: ", ")
        }
    }

    /// What the device can be used as; everything for ``unknown``.
    public var capabilities: Capabilities {
        guard isKnown else { return [.touchScreen, .pointer, .keyboard] }
        var result: Capabilities = []
        let hasAbsolutePosition = absoluteAxes[LinuxInput.ABS_X] != nil && absoluteAxes[LinuxInput.ABS_Y] != nil
        // A touchpad says INPUT_PROP_POINTER: its fingers move a pointer
        // rather than touch the screen, which this reader does not do.
        let isTouchpad = properties.contains(LinuxInput.INPUT_PROP_POINTER) && !properties.contains(LinuxInput.INPUT_PROP_DIRECT)
        if !isTouchpad {
            if hasMultiTouch || (hasAbsolutePosition && keys.contains(LinuxInput.BTN_TOUCH) && !keys.contains(LinuxInput.BTN_LEFT)) {
                result.insert(.touchScreen)
            }
        }
        let hasRelativePosition = relativeAxes.contains(LinuxInput.REL_X) && relativeAxes.contains(LinuxInput.REL_Y)
        if keys.contains(LinuxInput.BTN_LEFT) && (hasRelativePosition || (hasAbsolutePosition && !isTouchpad)) {
            result.insert(.pointer)
        }
        if keys.contains(where: { LinuxKeyUsages.usage(forKey: $0) != nil }) {
            result.insert(.keyboard)
        }
        return result
    }

    /// Whether the device speaks multi-touch protocol type B.
    var hasMultiTouch: Bool {
        absoluteAxes[LinuxInput.ABS_MT_POSITION_X] != nil && absoluteAxes[LinuxInput.ABS_MT_POSITION_Y] != nil
            && absoluteAxes[LinuxInput.ABS_MT_SLOT] != nil
    }
}
