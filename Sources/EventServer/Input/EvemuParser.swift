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
    /// The most bytes of one event type's code mask (`B:`) kept: the
    /// largest type, keys, has codes up to `KEY_MAX` (0x2ff), 96 bytes.
    /// A header arriving on a FIFO could otherwise grow without end.
    public static let maximumMaskBytes = 96
    /// The most bytes of the property mask (`P:`) kept: evemu writes 8.
    public static let maximumPropertyBytes = 8

    private var line: [UInt8] = []
    private var isSkippingLongLine = false
    public private(set) var lineNumber = 0
    private var name: String?
    private var bits: [UInt16: [UInt8]] = [:]
    private var propertyBytes: [UInt8] = []
    private var axes: [UInt16: InputAxisRange] = [:]
    private var sawHeader = false
    /// Problems found since the last ``takeDiagnostics()``.
    public var diagnostics: [String] { problems.messages }
    private var problems = DiagnosticLimiter(prefix: "")

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
        problems.take()
    }

    /// Reads `bytes` and returns the events of the lines they complete.
    public mutating func parse(_ bytes: some Collection<UInt8>) -> [LinuxInputEvent] {
        var events: [LinuxInputEvent] = []
        // One non-generic loop over contiguous bytes, whatever collection came in.
        if bytes.withContiguousStorageIfAvailable({ parse($0, into: &events) }) == nil {
            Array(bytes).withUnsafeBufferPointer { parse($0, into: &events) }
        }
        return events
    }

    private mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, into events: inout [LinuxInputEvent]) {
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline ?? bytes.count
            if !isSkippingLongLine {
                let room = Self.maximumLineLength - line.count
                if end - start > room {
                    lineNumber += 1
                    problems.report("longer than", "line \(lineNumber): longer than \(Self.maximumLineLength) bytes; skipped")
                    isSkippingLongLine = true
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
            }
            guard newline != nil else { return }
            if isSkippingLongLine {
                isSkippingLongLine = false
            } else {
                readLine(into: &events)
            }
            line.removeAll(keepingCapacity: true)
            start = end + 1
        }
    }

    /// The text ended: reads a last line that had no newline.
    public mutating func finish() -> [LinuxInputEvent] {
        var events: [LinuxInputEvent] = []
        if !line.isEmpty && !isSkippingLongLine { readLine(into: &events) }
        line.removeAll()
        isSkippingLongLine = false
        problems.summarize(endedBy: nil)
        return events
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private mutating func readLine(into events: inout [LinuxInputEvent]) {
        lineNumber += 1
        // The line without its comment and the blanks around it, as bytes.
        var text = line[...]
        if let hash = text.firstIndex(of: UInt8(ascii: "#")) { text = text[..<hash] }
        while let last = text.last, Self.isBlank(last) { text = text.dropLast() }
        while let first = text.first, Self.isBlank(first) { text = text.dropFirst() }
        guard !text.isEmpty else { return }
        guard text.count >= 2, text[text.startIndex + 1] == UInt8(ascii: ":") else {
            problems.report("not an evemu line", "line \(lineNumber): not an evemu line (\(Self.excerpt(text))); skipped")
            return
        }
        let kind = text[text.startIndex]
        var rest = text.dropFirst(2)
        while let first = rest.first, Self.isBlank(first) { rest = rest.dropFirst() }
        let fields = rest.split(whereSeparator: Self.isBlank)
        switch kind {
        case UInt8(ascii: "E"):
            guard let event = Self.event(fields) else {
                problems.report("malformed event", "line \(lineNumber): malformed event (\(Self.excerpt(text))); skipped")
                return
            }
            events.append(event)
        case UInt8(ascii: "N"):
            sawHeader = true
            name = String(decoding: rest, as: UTF8.self)
        case UInt8(ascii: "I"):
            sawHeader = true
            guard fields.count == 4, fields.allSatisfy({ Self.number($0, radix: 16, limit: Int64(UInt16.max)) != nil }) else {
                problems.report("malformed device id", "line \(lineNumber): malformed device id (\(Self.excerpt(text))); skipped")
                return
            }
        case UInt8(ascii: "P"):
            sawHeader = true
            guard let bytes = Self.hexBytes(fields[...]) else {
                problems.report("malformed properties", "line \(lineNumber): malformed properties (\(Self.excerpt(text))); skipped")
                return
            }
            if propertyBytes.count + bytes.count > Self.maximumPropertyBytes {
                problems.report("properties too long", "line \(lineNumber): more than \(Self.maximumPropertyBytes) bytes of properties; the rest are ignored")
            }
            propertyBytes += bytes.prefix(max(0, Self.maximumPropertyBytes - propertyBytes.count))
        case UInt8(ascii: "B"):
            sawHeader = true
            guard let first = fields.first, let type = Self.number(first, radix: 16, limit: Int64(LinuxInput.EV_MAX)),
                let bytes = Self.hexBytes(fields.dropFirst())
            else {
                problems.report("malformed event bits", "line \(lineNumber): malformed event bits (\(Self.excerpt(text))); skipped")
                return
            }
            let kept = bits[UInt16(type), default: []].count
            if kept + bytes.count > Self.maximumMaskBytes {
                problems.report("event bits too long", "line \(lineNumber): more than \(Self.maximumMaskBytes) bytes of event bits for type \(type); the rest are ignored")
            }
            bits[UInt16(type), default: []] += bytes.prefix(max(0, Self.maximumMaskBytes - kept))
        case UInt8(ascii: "A"):
            sawHeader = true
            let values = fields.dropFirst().compactMap { Self.signedNumber($0) }
            guard fields.count == 5 || fields.count == 6, let code = Self.number(fields[0], radix: 16, limit: Int64(LinuxInput.ABS_MAX)),
                values.count == fields.count - 1
            else {
                problems.report("malformed axis", "line \(lineNumber): malformed axis (\(Self.excerpt(text))); skipped")
                return
            }
            axes[UInt16(code)] = InputAxisRange(
                minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                resolution: values.count > 4 ? values[4] : 0
            )
        case UInt8(ascii: "L"), UInt8(ascii: "S"):
            sawHeader = true
        default:
            problems.report(
                "unknown evemu line kind",
                "line \(lineNumber): unknown evemu line kind \"\(String(decoding: [kind], as: UTF8.self)):\"; skipped"
            )
        }
    }

    /// `seconds.microseconds type code value`.
    private static func event(_ fields: [ArraySlice<UInt8>]) -> LinuxInputEvent? {
        guard fields.count == 4, let type = number(fields[1], radix: 16, limit: Int64(UInt16.max)),
            let code = number(fields[2], radix: 16, limit: Int64(UInt16.max)), let value = signedNumber(fields[3])
        else { return nil }
        let time = fields[0]
        guard let dot = time.firstIndex(of: UInt8(ascii: ".")), let seconds = number(time[..<dot], radix: 10, limit: Int64(Int32.max) * 1000) else {
            return nil
        }
        // evemu writes six digits; fewer or more are read as a decimal fraction.
        let fraction = time[(dot + 1)...]
        guard !fraction.isEmpty, fraction.count <= 9, let digits = number(fraction.prefix(6), radix: 10, limit: 999_999) else { return nil }
        guard fraction.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        var microseconds = digits
        for _ in min(fraction.count, 6)..<6 { microseconds *= 10 }
        return LinuxInputEvent(seconds: seconds, microseconds: microseconds, type: UInt16(type), code: UInt16(code), value: Int32(value))
    }

    /// An unsigned number of `radix` digits no greater than `limit`.
    private static func number(_ digits: ArraySlice<UInt8>, radix: Int64, limit: Int64) -> Int64? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            let digit: Int64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = Int64(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = Int64(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            guard value <= limit else { return nil }
        }
        return value
    }

    /// A decimal `Int32`, with an optional sign.
    private static func signedNumber(_ text: ArraySlice<UInt8>) -> Int32? {
        var digits = text
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard let magnitude = number(digits, radix: 10, limit: Int64(Int32.max) + 1) else { return nil }
        return Int32(exactly: negative ? -magnitude : magnitude)
    }

    private static func hexBytes(_ fields: ArraySlice<ArraySlice<UInt8>>) -> [UInt8]? {
        var bytes: [UInt8] = []
        for field in fields {
            guard field.count <= 2, let byte = number(field, radix: 16, limit: 0xFF) else { return nil }
            bytes.append(UInt8(byte))
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

    private static func excerpt(_ text: ArraySlice<UInt8>) -> String {
        let shown = String(decoding: text.prefix(40), as: UTF8.self)
        return text.count > 40 ? "\"\(shown)…\"" : "\"\(shown)\""
    }
}
