/// Reads evemu's text format, as `evemu-record` writes it: a device header
/// followed by one event per line.
///
/// ```
/// # EVEMU 1.3
/// N: Example Touch Screen
/// I: 0003 04f3 0001 0100
/// P: 02 00 00 00 00 00 00 00
/// B: 03 00 00 00 00 00 80 60 06
/// A: 35 0 1919 0 0 0
/// E: 0.000000 0003 0039 0012
/// E: 0.000000 0000 0000 0000	# SYN_REPORT
/// ```
///
/// `#` starts a comment, on a line of its own or after an event. `N:` names
/// the device; `I:` gives bus, vendor, product and version (hex); `P:` and
/// `B:` give property and event-code bitmasks as hex bytes (a `B:` line
/// starts with the event type; a long mask goes on over several lines);
/// `A: code min max fuzz flat resolution` gives an absolute axis (code in
/// hex, the rest decimal); `E: seconds.microseconds type code value` is one
/// `input_event` (type and code in hex, value decimal). `L:` and `S:` (LED
/// and switch states) are skipped.
///
/// The text may arrive in any slices (from a FIFO); a malformed line is
/// reported with its number and skipped, and the lines after it are read.
public struct EvemuParser: Sendable {
    /// The longest line read; a longer one is reported and skipped.
    public static let maximumLineLength = 4096

    private var line: [UInt8] = []
    private var isSkippingLongLine = false
    public private(set) var lineNumber = 0
    private var name: String?
    private var bits: [UInt16: [UInt8]] = [:]
    private var propertyBytes: [UInt8] = []
    private var axes: [UInt16: InputAxisRange] = [:]
    private var sawHeader = false
    /// Problems found since the last ``takeDiagnostics()``.
    public private(set) var diagnostics: [String] = []

    public init() {}

    /// The device the header describes; ``InputDeviceDescription/unknown(name:)``
    /// when there was no header line.
    public func device(fallbackName: String) -> InputDeviceDescription {
        guard sawHeader else { return .unknown(name: name ?? fallbackName) }
        var keys: Set<UInt16> = []
        var relative: Set<UInt16> = []
        for (type, bytes) in bits {
            let codes = Self.setBits(bytes)
            if type == LinuxInput.EV_KEY { keys = Set(codes) }
            if type == LinuxInput.EV_REL { relative = Set(codes) }
        }
        var absolute = axes
        // An axis in the EV_ABS mask without an A: line has no known range.
        for code in Self.setBits(bits[LinuxInput.EV_ABS] ?? []) where absolute[code] == nil {
            absolute[code] = InputAxisRange(minimum: 0, maximum: 0)
        }
        return InputDeviceDescription(
            name: name ?? fallbackName, keys: keys, relativeAxes: relative, absoluteAxes: absolute,
            properties: Set(Self.setBits(propertyBytes).map(Int.init))
        )
    }

    /// The problems found since the last call, oldest first.
    public mutating func takeDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    /// Reads `bytes` and returns the events of the lines they complete.
    public mutating func parse(_ bytes: some Collection<UInt8>) -> [LinuxInputEvent] {
        var events: [LinuxInputEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if isSkippingLongLine {
                    isSkippingLongLine = false
                } else {
                    readLine(into: &events)
                }
                line.removeAll(keepingCapacity: true)
                continue
            }
            if isSkippingLongLine { continue }
            if line.count == Self.maximumLineLength {
                lineNumber += 1
                diagnostics.append("line \(lineNumber): longer than \(Self.maximumLineLength) bytes; skipped")
                isSkippingLongLine = true
                line.removeAll(keepingCapacity: true)
                continue
            }
            line.append(byte)
        }
        return events
    }

    /// The text ended: reads a last line that had no newline.
    public mutating func finish() -> [LinuxInputEvent] {
        var events: [LinuxInputEvent] = []
        if !line.isEmpty && !isSkippingLongLine { readLine(into: &events) }
        line.removeAll()
        isSkippingLongLine = false
        return events
    }

    private mutating func readLine(into events: inout [LinuxInputEvent]) {
        lineNumber += 1
        var text = String(decoding: line, as: UTF8.self)
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        if text.last == "\r" { text.removeLast() }
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard !trimmed.isEmpty else { return }
        guard trimmed.count >= 2, trimmed.dropFirst().first == ":" else {
            diagnostics.append("line \(lineNumber): not an evemu line (\(Self.excerpt(trimmed))); skipped")
            return
        }
        let kind = trimmed.first!
        let rest = trimmed.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch kind {
        case "E":
            guard let event = Self.event(fields) else {
                diagnostics.append("line \(lineNumber): malformed event (\(Self.excerpt(trimmed))); skipped")
                return
            }
            events.append(event)
        case "N":
            sawHeader = true
            name = String(rest.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        case "I":
            sawHeader = true
            guard fields.count == 4, fields.allSatisfy({ UInt16($0, radix: 16) != nil }) else {
                diagnostics.append("line \(lineNumber): malformed device id (\(Self.excerpt(trimmed))); skipped")
                return
            }
        case "P":
            sawHeader = true
            guard let bytes = Self.hexBytes(fields) else {
                diagnostics.append("line \(lineNumber): malformed properties (\(Self.excerpt(trimmed))); skipped")
                return
            }
            propertyBytes += bytes
        case "B":
            sawHeader = true
            guard let first = fields.first, let type = UInt16(first, radix: 16), type <= LinuxInput.EV_MAX,
                let bytes = Self.hexBytes(fields.dropFirst())
            else {
                diagnostics.append("line \(lineNumber): malformed event bits (\(Self.excerpt(trimmed))); skipped")
                return
            }
            bits[type, default: []] += bytes
        case "A":
            sawHeader = true
            guard fields.count == 5 || fields.count == 6, let code = UInt16(fields[0], radix: 16), code <= LinuxInput.ABS_MAX,
                let values = Optional(fields.dropFirst().compactMap { Int32($0) }), values.count == fields.count - 1
            else {
                diagnostics.append("line \(lineNumber): malformed axis (\(Self.excerpt(trimmed))); skipped")
                return
            }
            axes[code] = InputAxisRange(
                minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                resolution: values.count > 4 ? values[4] : 0
            )
        case "L", "S":
            sawHeader = true
        default:
            diagnostics.append("line \(lineNumber): unknown evemu line kind \"\(kind):\"; skipped")
        }
    }

    /// `seconds.microseconds type code value`.
    private static func event(_ fields: [Substring]) -> LinuxInputEvent? {
        guard fields.count == 4, let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
            let value = Int32(fields[3])
        else { return nil }
        let time = fields[0].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count == 2, let seconds = Int64(time[0]), seconds >= 0, !time[1].isEmpty, time[1].count <= 9,
            time[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        // evemu writes six digits; fewer or more are read as a decimal fraction.
        let digits = time[1].count <= 6 ? String(time[1]) + String(repeating: "0", count: 6 - time[1].count) : String(time[1].prefix(6))
        guard let microseconds = Int64(digits) else { return nil }
        return LinuxInputEvent(seconds: seconds, microseconds: microseconds, type: type, code: code, value: value)
    }

    private static func hexBytes(_ fields: some Collection<Substring>) -> [UInt8]? {
        var bytes: [UInt8] = []
        for field in fields {
            guard field.count <= 2, let byte = UInt8(field, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    private static func setBits(_ bytes: [UInt8]) -> [UInt16] {
        var codes: [UInt16] = []
        for (index, byte) in bytes.enumerated() where byte != 0 && index < 0x2000 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.append(UInt16(index * 8 + bit)) }
        }
        return codes
    }

    private static func excerpt(_ text: Substring) -> String {
        text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
    }
}
