/// One record of the kernel's evdev stream: `struct input_event` from
/// `<linux/input.h>`, as read from `/dev/input/event*`, a file or a FIFO, or
/// written as an `E:` line of an evemu recording.
///
/// On 64-bit Linux a record is 24 bytes in the machine's byte order (both
/// architectures this runs on are little-endian): `tv_sec` (Int64),
/// `tv_usec` (Int64), `type` (UInt16), `code` (UInt16), `value` (Int32).
public struct LinuxInputEvent: Equatable, Sendable {
    public var seconds: Int64
    public var microseconds: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    /// The size of one record in a stream.
    public static let size = 24

    public init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// A record at `time` seconds, split into whole seconds and microseconds.
    public init(time: Double, type: UInt16, code: UInt16, value: Int32) {
        let micro = (time * 1_000_000).rounded()
        let total = Int64(exactly: micro) ?? 0
        self.init(seconds: total / 1_000_000, microseconds: total % 1_000_000, type: type, code: code, value: value)
    }

    /// The record's time in seconds.
    public var time: Double { Double(seconds) + Double(microseconds) / 1_000_000 }

    /// The record's 24 bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        put(seconds)
        put(microseconds)
        put(type)
        put(code)
        put(value)
        return out
    }
}

/// The kernel's event types and codes that the readers use, named as in
/// `<linux/input-event-codes.h>`.
public enum LinuxInput {
    // Event types.
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_SW: UInt16 = 0x05
    public static let EV_LED: UInt16 = 0x11
    public static let EV_SND: UInt16 = 0x12
    public static let EV_REP: UInt16 = 0x14
    public static let EV_FF: UInt16 = 0x15
    public static let EV_PWR: UInt16 = 0x16
    public static let EV_FF_STATUS: UInt16 = 0x17
    public static let EV_MAX: UInt16 = 0x1f

    // Synchronisation codes.
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_CONFIG: UInt16 = 1
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    // Relative axes.
    public static let REL_X: UInt16 = 0x00
    public static let REL_Y: UInt16 = 0x01
    public static let REL_HWHEEL: UInt16 = 0x06
    public static let REL_WHEEL: UInt16 = 0x08
    public static let REL_WHEEL_HI_RES: UInt16 = 0x0b
    public static let REL_HWHEEL_HI_RES: UInt16 = 0x0c
    public static let REL_MAX: UInt16 = 0x0f

    // Absolute axes.
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let ABS_MT_TOUCH_MINOR: UInt16 = 0x31
    public static let ABS_MT_WIDTH_MAJOR: UInt16 = 0x32
    public static let ABS_MT_WIDTH_MINOR: UInt16 = 0x33
    public static let ABS_MT_ORIENTATION: UInt16 = 0x34
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    public static let ABS_MT_BLOB_ID: UInt16 = 0x38
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_PRESSURE: UInt16 = 0x3a
    public static let ABS_MT_DISTANCE: UInt16 = 0x3b
    public static let ABS_MT_TOOL_X: UInt16 = 0x3c
    public static let ABS_MT_TOOL_Y: UInt16 = 0x3d
    public static let ABS_MAX: UInt16 = 0x3f

    // Buttons (EV_KEY codes from BTN_MISC up).
    public static let BTN_MISC: UInt16 = 0x100
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_RIGHT: UInt16 = 0x111
    public static let BTN_MIDDLE: UInt16 = 0x112
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let KEY_MAX: UInt16 = 0x2ff

    /// `ABS_MT_TOOL_TYPE` values.
    public static let MT_TOOL_FINGER: Int32 = 0
    public static let MT_TOOL_PEN: Int32 = 1
    public static let MT_TOOL_PALM: Int32 = 2

    // Device properties (EVIOCGPROP bits).
    public static let INPUT_PROP_POINTER: Int = 0x00
    public static let INPUT_PROP_DIRECT: Int = 0x01

    /// A name for a type and code in diagnostics: `EV_ABS 0x35`.
    static func describe(type: UInt16, code: UInt16) -> String {
        let names: [UInt16: String] = [
            EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_REL: "EV_REL", EV_ABS: "EV_ABS", EV_MSC: "EV_MSC",
            EV_SW: "EV_SW", EV_LED: "EV_LED", EV_SND: "EV_SND", EV_REP: "EV_REP", EV_FF: "EV_FF",
            EV_PWR: "EV_PWR", EV_FF_STATUS: "EV_FF_STATUS",
        ]
        let typeName = names[type] ?? "type 0x\(String(type, radix: 16))"
        return "\(typeName) code 0x\(String(code, radix: 16))"
    }
}

/// Cuts a byte stream into ``LinuxInputEvent`` records. Bytes may arrive in
/// any slices (a FIFO delivers what the writer wrote so far); a record cut
/// across two reads is completed by the next.
public struct LinuxInputEventParser: Sendable {
    private var pending: [UInt8] = []
    /// Bytes consumed so far, for diagnostics that say where.
    public private(set) var byteOffset = 0

    public init() {}

    /// Bytes of an incomplete record waiting for the rest.
    public var pendingByteCount: Int { pending.count }

    /// Appends `bytes` and returns every record they complete.
    public mutating func parse(_ bytes: some Collection<UInt8>) -> [LinuxInputEvent] {
        var records: [LinuxInputEvent] = []
        parse(bytes, into: &records)
        return records
    }

    /// Appends `bytes` and appends every record they complete to `records`.
    public mutating func parse(_ bytes: some Collection<UInt8>, into records: inout [LinuxInputEvent]) {
        pending.append(contentsOf: bytes)
        let whole = pending.count / LinuxInputEvent.size
        guard whole > 0 else { return }
        records.reserveCapacity(records.count + whole)
        pending.withUnsafeBytes { raw in
            for index in 0..<whole {
                let at = index * LinuxInputEvent.size
                records.append(LinuxInputEvent(
                    seconds: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int64.self)),
                    microseconds: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: Int64.self)),
                    type: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at + 16, as: UInt16.self)),
                    code: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: at + 18, as: UInt16.self)),
                    value: Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at + 20, as: Int32.self))
                ))
            }
        }
        pending.removeFirst(whole * LinuxInputEvent.size)
        byteOffset += whole * LinuxInputEvent.size
    }
}
