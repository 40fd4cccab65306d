import HID

/// Turns the bytes of a file or FIFO into HID events, whatever the bytes
/// are: `struct input_event` records or an evemu recording, told apart by
/// their content. An evemu recording is text; a record's second half of
/// `tv_sec` is zero bytes for any time before 2106, so the first record of
/// a binary stream is never all text.
public struct EvdevStreamDecoder {
    /// What a stream turned out to hold.
    public enum Format: Equatable, Sendable {
        case undecided
        case records
        case evemu
    }

    public let name: String
    public let screen: Screen
    public private(set) var format: Format = .undecided
    private let identifiers: ContactIdentifiers
    private let recordsDevice: InputDeviceDescription?
    private var undecidedBytes: [UInt8] = []
    private var records = LinuxInputEventParser()
    private var evemu = EvemuParser()
    private var translator: EvdevTranslator?
    private var scratch: [LinuxInputEvent] = []
    private var diagnostics: [String] = []

    /// `device` describes the device behind a stream of bare records (its
    /// axis ranges scale positions); without it their values are taken as
    /// screen points. An evemu recording describes its own device.
    public init(
        name: String, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers(),
        device: InputDeviceDescription? = nil
    ) {
        self.name = name
        self.screen = screen
        self.identifiers = identifiers
        self.recordsDevice = device
    }

    /// Whether `bytes`, the start of a stream, are an evemu recording.
    public static func looksLikeEvemu(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        let isText = bytes.prefix(LinuxInputEvent.size).allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20...0x7E).contains($0) }
        return isText && (first == UInt8(ascii: "#") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first))
    }

    /// The device the stream describes: an evemu header's, or unknown.
    public var device: InputDeviceDescription {
        translator?.device ?? (format == .evemu ? evemu.device(fallbackName: name) : recordsDevice ?? .unknown(name: name))
    }

    /// The problems found since the last call, oldest first.
    public mutating func takeDiagnostics() -> [String] {
        diagnostics += evemu.takeDiagnostics().map { "\(name): \($0)" }
        if translator != nil { diagnostics += translator!.takeDiagnostics() }
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    /// Reads more of the stream; returns the HID events it completes.
    public mutating func decode(_ bytes: some Collection<UInt8>) -> [HIDEvent] {
        var events: [HIDEvent] = []
        decode(bytes, into: &events)
        return events
    }

    /// Reads more of the stream; appends the HID events it completes to `events`.
    public mutating func decode(_ bytes: some Collection<UInt8>, into events: inout [HIDEvent]) {
        switch format {
        case .undecided:
            undecidedBytes.append(contentsOf: bytes)
            guard undecidedBytes.count >= LinuxInputEvent.size else { return }
            decide()
            let pending = undecidedBytes
            undecidedBytes = []
            decode(pending, into: &events)
        case .records:
            scratch.removeAll(keepingCapacity: true)
            records.parse(bytes, into: &scratch)
            translate(scratch, into: &events)
        case .evemu:
            translate(evemu.parse(bytes), into: &events)
        }
    }

    /// The stream ended: reads what is left and ends what is still down
    /// (see ``EvdevTranslator/finish(at:into:)``).
    public mutating func finish(into events: inout [HIDEvent]) {
        if format == .undecided && !undecidedBytes.isEmpty {
            decide()
            let pending = undecidedBytes
            undecidedBytes = []
            decode(pending, into: &events)
        }
        switch format {
        case .records where records.pendingByteCount > 0:
            diagnostics.append("\(name): the stream ends with \(records.pendingByteCount) bytes that are not a whole \(LinuxInputEvent.size)-byte input_event record (at byte \(records.byteOffset)); dropped")
        case .evemu:
            translate(evemu.finish(), into: &events)
        default:
            break
        }
        if translator != nil { translator!.finish(into: &events) }
    }

    private mutating func decide() {
        format = Self.looksLikeEvemu(undecidedBytes) ? .evemu : .records
        if format == .records && recordsDevice == nil {
            diagnostics.append("\(name): bare input_event records carry no axis ranges, so their values are taken as screen points; give the device's ranges with --device-header (an evemu recording or evemu-describe output of the device)")
        }
    }

    private mutating func translate(_ records: [LinuxInputEvent], into events: inout [HIDEvent]) {
        guard !records.isEmpty else { return }
        if translator == nil {
            // The evemu header is complete once its first event arrives.
            translator = EvdevTranslator(device: device, screen: screen, identifiers: identifiers)
        }
        for record in records { translator!.translate(record, into: &events) }
    }
}
