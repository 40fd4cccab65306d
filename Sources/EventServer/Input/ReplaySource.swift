#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HID

/// Plays a list of HID events with their recorded timing (or as fast as
/// possible): a HID recording being replayed, or a whole file of evdev
/// records or an evemu recording, decoded when it was opened.
///
/// Its descriptor is a timer that becomes readable when the next event is
/// due (see ``HIDReplaySchedule`` for the timing and timestamps). Once the
/// last event has been returned, the next read ends the source.
public final class ReplaySource: InputSource {
    /// The most events one read returns, so that a replay as fast as
    /// possible leaves the server time for its other sources.
    public static let eventsPerRead = 1024

    public let name: String
    public let fileDescriptor: Int32
    private var schedule: HIDReplaySchedule
    private var diagnostics: [String]

    /// A source that plays `events` from now. `diagnostics` are problems
    /// found while the events were made, handed on at the first read.
    public init(
        name: String, events: [HIDEvent], timing: HIDReplaySchedule.Timing, diagnostics: [String] = []
    ) throws(InputSourceError) {
        if case .recorded(let speed) = timing, !HIDReplaySchedule.isValid(speed) {
            throw .unreadable("\(name): replay speed \(speed) must be a finite number greater than 0")
        }
        self.name = name
        self.diagnostics = diagnostics
        fileDescriptor = try SystemCalls.makeTimer()
        schedule = HIDReplaySchedule(events: events, timing: timing, start: SystemCalls.monotonicNow())
        SystemCalls.arm(fileDescriptor, at: schedule.nextDueTime ?? schedule.start)
    }

    /// A source that plays the HID recording at `path`. A damaged recording
    /// plays up to the damage, which the first read reports.
    public convenience init(recordingAt path: String, timing: HIDReplaySchedule.Timing) throws(InputSourceError) {
        let bytes = try InputDevices.readWholeFile(path)
        let (events, error) = HIDRecording.decode(bytes)
        if error == .notARecording { throw .unreadable("\(path): \(HIDRecordingError.notARecording)") }
        try self.init(name: path, events: events, timing: timing, diagnostics: error.map { ["\(path): \($0)"] } ?? [])
    }

    deinit { close(fileDescriptor) }

    /// Events not yet played.
    public var remainingCount: Int { schedule.remainingCount }

    public func readEvents() throws(InputSourceError) -> [HIDEvent] {
        SystemCalls.drain(fileDescriptor)
        guard !schedule.isFinished else { throw .endOfInput }
        let events = schedule.take(dueAt: SystemCalls.monotonicNow(), limit: Self.eventsPerRead)
        // Still readable when finished, so that the next read ends the source.
        SystemCalls.arm(fileDescriptor, at: schedule.nextDueTime ?? schedule.start)
        return events
    }

    public func takeDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics
    }
}
