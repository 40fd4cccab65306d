#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HID

/// Plays HID events with their recorded timing (or as fast as possible): a
/// file (a HID recording, an evemu recording or `input_event` records)
/// read as it plays, or a list of events.
///
/// Its descriptor is a timer that becomes readable when the next event is
/// due (see ``HIDReplaySchedule`` for the timing and timestamps). A file is
/// streamed: the source reads and decodes it a chunk at a time, keeping
/// about ``eventsPerRead`` events ahead of what has played, so that a file
/// of any size starts at once and takes little memory. Once the last event
/// has been returned, the next read ends the source.
public final class ReplaySource: InputSource {
    /// The most events one read returns, so that a replay as fast as
    /// possible leaves the server time for its other sources; also how many
    /// decoded events the source keeps ahead of what it has played.
    public static let eventsPerRead = 1024
    /// How much of a file one read decodes at most, so that a stretch of a
    /// file that makes no events (a long evemu header, records without a
    /// `SYN_REPORT`) cannot keep the server from its other sources.
    public static let bytesPerRead = 256 * 1024
    /// How much of a file is read from it at a time.
    public static let chunkSize = 64 * 1024

    public let name: String
    public let fileDescriptor: Int32
    private var schedule: HIDReplaySchedule
    private var file: StreamedFile?
    private var diagnostics: [String]

    /// A source that plays `events` from now. `diagnostics` are problems
    /// found while the events were made, handed on at the first read.
    public init(
        name: String, events: [HIDEvent], timing: HIDReplaySchedule.Timing, diagnostics: [String] = []
    ) throws(InputSourceError) {
        try Self.checkSpeed(of: timing, name: name)
        self.name = name
        self.diagnostics = diagnostics
        fileDescriptor = try SystemCalls.makeTimer()
        schedule = HIDReplaySchedule(events: events, timing: timing, start: SystemCalls.monotonicNow())
        armTimer()
    }

    /// A source that plays the file at `path` from now, reading it as it
    /// plays: a HID recording (told by its magic), an evemu recording or
    /// `input_event` records (see ``EvdevStreamDecoder``, which `screen`,
    /// `identifiers` and `device` are for). With `onlyRecording`, a file
    /// that is not a HID recording is refused.
    init(
        fileAt path: String, screen: Screen, identifiers: ContactIdentifiers, device: InputDeviceDescription?,
        timing: HIDReplaySchedule.Timing, onlyRecording: Bool = false
    ) throws(InputSourceError) {
        try Self.checkSpeed(of: timing, name: path)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDevices.openError(path: path, errno: errno) }
        let timer: Int32
        do {
            timer = try SystemCalls.makeTimer()
        } catch {
            close(descriptor)
            throw error
        }
        var opened = StreamedFile(path: path, descriptor: descriptor)
        let isRecording: Bool
        do {
            isRecording = try opened.startsWith(HIDRecording.magic)
        } catch {
            close(descriptor)
            close(timer)
            throw error
        }
        if onlyRecording && !isRecording {
            close(descriptor)
            close(timer)
            throw .unreadable("\(path): \(HIDRecordingError.notARecording)")
        }
        opened.decoder = isRecording
            ? .recording(HIDRecordingReader())
            : .records(EvdevStreamDecoder(name: path, screen: screen, identifiers: identifiers, device: device))
        name = path
        diagnostics = []
        fileDescriptor = timer
        file = opened
        schedule = HIDReplaySchedule(timing: timing, start: SystemCalls.monotonicNow())
        readAhead()
        armTimer()
    }

    /// A source that plays the HID recording at `path`, read as it plays. A
    /// damaged recording plays up to the damage, which a read reports.
    public convenience init(recordingAt path: String, timing: HIDReplaySchedule.Timing) throws(InputSourceError) {
        try self.init(
            fileAt: path, screen: Screen(width: 1, height: 1, scale: 1), identifiers: ContactIdentifiers(), device: nil,
            timing: timing, onlyRecording: true
        )
    }

    deinit {
        close(fileDescriptor)
        file?.close()
    }

    /// Events decoded and not yet played (for a list, every one not yet played).
    public var bufferedCount: Int { schedule.remainingCount }

    public func readEvents() throws(InputSourceError) -> [HIDEvent] {
        SystemCalls.drain(fileDescriptor)
        readAhead()
        guard !schedule.isFinished else { throw .endOfInput }
        let events = schedule.take(dueAt: SystemCalls.monotonicNow(), limit: Self.eventsPerRead)
        readAhead()
        armTimer()
        return events
    }

    public func takeDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    private static func checkSpeed(of timing: HIDReplaySchedule.Timing, name: String) throws(InputSourceError) {
        if case .recorded(let speed) = timing, !HIDReplaySchedule.isValid(speed) {
            throw .unreadable("\(name): replay speed \(speed) must be a finite number greater than 0")
        }
    }

    /// Decodes more of the file while fewer than ``eventsPerRead`` events
    /// wait to play, up to ``bytesPerRead`` bytes; at its end, gives the
    /// schedule the decoder's last events and closes it. A read error ends
    /// the file there, reported, as damage does.
    private func readAhead() {
        guard var reading = file else { return }
        var bytesRead = 0
        var decoded: [HIDEvent] = []
        var ended = false
        while !ended && schedule.remainingCount + decoded.count < Self.eventsPerRead && bytesRead < Self.bytesPerRead {
            switch reading.readChunk() {
            case .success(let bytes) where !bytes.isEmpty:
                bytesRead += bytes.count
                reading.decode(bytes, into: &decoded)
                ended = reading.hasStopped
            case .success:
                ended = true
            case .failure(let error):
                diagnostics.append("\(name): cannot read: \(SystemCalls.describe(error.code)); played up to here")
                ended = true
            }
        }
        if ended { reading.finish(into: &decoded) }
        diagnostics += reading.takeDiagnostics()
        schedule.append(decoded)
        if ended {
            reading.close()
            file = nil
            schedule.endOfEvents()
        } else {
            file = reading
        }
    }

    /// Readable when the next event is due; at once when the file must be
    /// read further before anything is due, or when the source has ended
    /// (so that the next read says so).
    private func armTimer() {
        SystemCalls.arm(fileDescriptor, at: schedule.nextDueTime ?? schedule.start)
    }
}

/// A regular file being read a chunk at a time and decoded as it is read.
private struct StreamedFile {
    enum Decoder {
        case undecided
        case recording(HIDRecordingReader)
        case records(EvdevStreamDecoder)
    }

    let path: String
    let descriptor: Int32
    var decoder = Decoder.undecided
    /// Bytes read to tell what the file is, not yet decoded.
    private var head: [UInt8] = []
    private var hasReportedDamage = false

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Whether the file starts with `prefix`, reading as much as it takes;
    /// the bytes read are decoded with the first chunk.
    mutating func startsWith(_ prefix: [UInt8]) throws(InputSourceError) -> Bool {
        while head.count < prefix.count {
            switch SystemCalls.readChunk(descriptor, atMost: ReplaySource.chunkSize) {
            case .success(let bytes) where bytes.isEmpty: return false
            case .success(let bytes): head += bytes
            case .failure(let error): throw .unreadable("\(path): cannot read: \(SystemCalls.describe(error.code))")
            }
        }
        return head.starts(with: prefix)
    }

    /// The next bytes of the file (those read to tell what it is first);
    /// empty at its end.
    mutating func readChunk() -> Result<[UInt8], SystemError> {
        guard head.isEmpty else {
            defer { head = [] }
            return .success(head)
        }
        return SystemCalls.readChunk(descriptor, atMost: ReplaySource.chunkSize)
    }

    mutating func decode(_ bytes: [UInt8], into events: inout [HIDEvent]) {
        switch decoder {
        case .undecided: break
        case .recording(var reader):
            reader.read(bytes, into: &events)
            decoder = .recording(reader)
        case .records(var records):
            records.decode(bytes, into: &events)
            decoder = .records(records)
        }
    }

    /// Whether the decoder reads nothing more: a HID recording stops at its
    /// first damage, so the rest of the file need not be read.
    var hasStopped: Bool {
        if case .recording(let reader) = decoder { return reader.error != nil }
        return false
    }

    /// The file ended: what the decoder still holds (a contact still down
    /// is ended, see ``EvdevStreamDecoder/finish(into:)``; a recording cut
    /// short is damage).
    mutating func finish(into events: inout [HIDEvent]) {
        switch decoder {
        case .undecided: break
        case .recording(var reader):
            _ = reader.finish()
            decoder = .recording(reader)
        case .records(var records):
            records.finish(into: &events)
            decoder = .records(records)
        }
    }

    /// The problems found since the last call: a recording's damage once,
    /// or what the records' decoder reported.
    mutating func takeDiagnostics() -> [String] {
        switch decoder {
        case .undecided:
            return []
        case .recording(let reader):
            guard let error = reader.error, !hasReportedDamage else { return [] }
            hasReportedDamage = true
            return ["\(path): \(error)"]
        case .records(var records):
            defer { decoder = .records(records) }
            return records.takeDiagnostics()
        }
    }

    func close() { Glibc.close(descriptor) }
}
