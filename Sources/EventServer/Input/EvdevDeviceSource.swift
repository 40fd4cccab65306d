#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxInput
import HID

/// A Linux evdev device node (`/dev/input/event*`): a touch screen, a mouse
/// or a keyboard.
///
/// Opened non-blocking; the device says what it is (`EVIOCGNAME`,
/// `EVIOCGBIT`, `EVIOCGPROP`) and gives its axis ranges (`EVIOCGABS`), which
/// scale its positions to the screen. Its timestamps are switched to
/// `CLOCK_MONOTONIC` (`EVIOCSCLOCKID`). After the kernel drops events, the
/// slots, keys and pointer are read back from the device (`EVIOCGMTSLOTS`,
/// `EVIOCGABS`, `EVIOCGKEY`). An unplugged device ends the source, with its
/// contacts cancelled.
public final class EvdevDeviceSource: InputSource {
    public let name: String
    public let fileDescriptor: Int32
    /// What the device said about itself.
    public let device: InputDeviceDescription
    private var parser = LinuxInputEventParser()
    private var translator: EvdevTranslator
    private var records: [LinuxInputEvent] = []
    private var usesMonotonicClock: Bool
    private var diagnostics: [String] = []
    private var isFinished = false

    /// Opens the device at `path`. Throws, saying what to do, when it
    /// cannot be opened or is not an evdev device.
    public init(path: String, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers()) throws(InputSourceError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDevices.openError(path: path, errno: errno) }
        guard let device = Self.describe(descriptor, path: path) else {
            close(descriptor)
            throw .unreadable("\(path): not an evdev input device (it does not answer EVIOCGBIT)")
        }
        self.name = path
        self.fileDescriptor = descriptor
        self.device = device
        usesMonotonicClock = openuikit_evdev_set_clock(descriptor, CLOCK_MONOTONIC) == 0
        translator = EvdevTranslator(device: device, screen: screen, identifiers: identifiers)
        if !usesMonotonicClock {
            diagnostics.append("\(path): the device's clock cannot be set to CLOCK_MONOTONIC; events are stamped when read")
        }
        let slotCount = min(Int(device.absoluteAxes[LinuxInput.ABS_MT_SLOT].map { $0.maximum + 1 } ?? 0), EvdevTranslator.maximumSlotCount)
        translator.readDeviceState = { [device] in Self.readState(descriptor, device: device, slotCount: slotCount) }
    }

    deinit { close(fileDescriptor) }

    public func readEvents() throws(InputSourceError) -> [HIDEvent] {
        guard !isFinished else { throw .endOfInput }
        var events: [HIDEvent] = []
        switch SystemCalls.readAvailable(fileDescriptor) {
        case .bytes(let bytes, let endOfFile):
            records.removeAll(keepingCapacity: true)
            parser.parse(bytes, into: &records)
            for record in records { translator.translate(record, into: &events) }
            if endOfFile { finish(into: &events, because: "the device closed") }
        case .failed(let error) where error == ENODEV:
            finish(into: &events, because: "the device was unplugged")
        case .failed(let error):
            finish(into: &events, because: "reading failed: \(SystemCalls.describe(error))")
        }
        diagnostics += translator.takeDiagnostics()
        if !usesMonotonicClock {
            let now = SystemCalls.monotonicNow()
            events = events.map { $0.retimed(to: now) }
        }
        return events
    }

    public func takeDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    private func finish(into events: inout [HIDEvent], because reason: String) {
        isFinished = true
        diagnostics.append("\(name): \(reason); its contacts are cancelled")
        translator.finish(at: SystemCalls.monotonicNow(), into: &events)
    }

    // MARK: - Asking the device

    /// The device's name, codes, axes and properties; nil if it is not an evdev device.
    static func describe(_ descriptor: Int32, path: String) -> InputDeviceDescription? {
        var types = [UInt8](repeating: 0, count: 4)
        guard openuikit_evdev_get_bits(descriptor, 0, &types, UInt32(types.count)) >= 0 else { return nil }
        var nameBytes = [CChar](repeating: 0, count: 256)
        let name = openuikit_evdev_get_name(descriptor, &nameBytes, UInt32(nameBytes.count - 1)) >= 0
            ? String(decoding: nameBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
        let keys = codes(descriptor, type: LinuxInput.EV_KEY, count: Int(LinuxInput.KEY_MAX) + 1)
        let relative = codes(descriptor, type: LinuxInput.EV_REL, count: Int(LinuxInput.REL_MAX) + 1)
        var axes: [UInt16: InputAxisRange] = [:]
        for code in codes(descriptor, type: LinuxInput.EV_ABS, count: Int(LinuxInput.ABS_MAX) + 1) {
            var info = input_absinfo()
            guard openuikit_evdev_get_abs(descriptor, UInt32(code), &info) >= 0 else { continue }
            axes[code] = InputAxisRange(minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
        }
        var propertyBytes = [UInt8](repeating: 0, count: 8)
        let properties = openuikit_evdev_get_properties(descriptor, &propertyBytes, UInt32(propertyBytes.count)) >= 0
            ? Set(setBits(propertyBytes).map(Int.init)) : []
        return InputDeviceDescription(name: name, keys: Set(keys), relativeAxes: Set(relative), absoluteAxes: axes, properties: properties)
    }

    private static func codes(_ descriptor: Int32, type: UInt16, count: Int) -> [UInt16] {
        var bytes = [UInt8](repeating: 0, count: (count + 7) / 8)
        guard openuikit_evdev_get_bits(descriptor, UInt32(type), &bytes, UInt32(bytes.count)) >= 0 else { return [] }
        return setBits(bytes)
    }

    private static func setBits(_ bytes: [UInt8]) -> [UInt16] {
        var codes: [UInt16] = []
        for (index, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.append(UInt16(index * 8 + bit)) }
        }
        return codes
    }

    /// What the device holds now: every slot, the keys down, the pointer.
    static func readState(_ descriptor: Int32, device: InputDeviceDescription, slotCount: Int) -> EvdevDeviceState {
        var state = EvdevDeviceState()
        if slotCount > 0 {
            func values(_ axis: UInt16) -> [Int32]? {
                guard device.absoluteAxes[axis] != nil else { return nil }
                var buffer = [Int32](repeating: 0, count: slotCount + 1)
                buffer[0] = Int32(axis)
                let size = UInt32(buffer.count * MemoryLayout<Int32>.size)
                guard openuikit_evdev_get_mt_slots(descriptor, &buffer, size) >= 0 else { return nil }
                return Array(buffer.dropFirst())
            }
            let ids = values(LinuxInput.ABS_MT_TRACKING_ID) ?? Array(repeating: -1, count: slotCount)
            let xs = values(LinuxInput.ABS_MT_POSITION_X) ?? Array(repeating: 0, count: slotCount)
            let ys = values(LinuxInput.ABS_MT_POSITION_Y) ?? Array(repeating: 0, count: slotCount)
            let majors = values(LinuxInput.ABS_MT_TOUCH_MAJOR)
            let pressures = values(LinuxInput.ABS_MT_PRESSURE)
            state.slots = (0..<slotCount).map {
                EvdevDeviceState.Slot(trackingID: ids[$0], x: xs[$0], y: ys[$0], touchMajor: majors?[$0], pressure: pressures?[$0])
            }
            var slot = input_absinfo()
            if openuikit_evdev_get_abs(descriptor, UInt32(LinuxInput.ABS_MT_SLOT), &slot) >= 0 { state.currentSlot = slot.value }
        }
        var keyBytes = [UInt8](repeating: 0, count: (Int(LinuxInput.KEY_MAX) + 8) / 8)
        if openuikit_evdev_get_keys(descriptor, &keyBytes, UInt32(keyBytes.count)) >= 0 {
            state.keysDown = Set(setBits(keyBytes))
        }
        var x = input_absinfo()
        var y = input_absinfo()
        if device.absoluteAxes[LinuxInput.ABS_X] != nil, device.absoluteAxes[LinuxInput.ABS_Y] != nil,
            openuikit_evdev_get_abs(descriptor, UInt32(LinuxInput.ABS_X), &x) >= 0,
            openuikit_evdev_get_abs(descriptor, UInt32(LinuxInput.ABS_Y), &y) >= 0
        {
            state.absoluteX = x.value
            state.absoluteY = y.value
        }
        return state
    }
}
