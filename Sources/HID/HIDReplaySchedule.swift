/// When each event of a recorded stream is due when played back, and the
/// timestamp it then carries.
///
/// With ``Timing/recorded(speed:)`` the first event is due at `start` and
/// each later one after the recorded interval divided by the speed; each
/// event's timestamp becomes the moment it is due. With
/// ``Timing/asFastAsPossible`` every event is due at once; timestamps keep
/// the recorded intervals from `start`, so an application still sees the
/// gesture's own speed. Timestamps that go back in the recording (or are
/// not finite) are held at the previous one, so what plays never goes back.
///
/// The events may be given all at once or as they are read
/// (``append(_:)``, then ``endOfEvents()``): a player streaming a file
/// keeps only what it has read and not yet played.
public struct HIDReplaySchedule: Sendable {
    public enum Timing: Equatable, Sendable {
        /// The recorded intervals divided by `speed` (2 plays twice as fast).
        case recorded(speed: Double)
        case asFastAsPossible
    }

    public let timing: Timing
    public let start: Double
    /// Events given and not yet taken, from `nextIndex` on; the ones before
    /// it were taken and are dropped as more are given.
    private var events: [HIDEvent] = []
    private var nextIndex = 0
    /// The first finite recorded timestamp, which plays at `start`.
    private var firstTimestamp: Double?
    /// The recorded time of the last event taken, below which none plays.
    private var lastRecordedTime: Double?
    /// Whether every event of the stream has been given.
    public private(set) var hasAllEvents = false

    /// A schedule of every event of a stream.
    ///
    /// - Precondition: a recorded speed is finite and greater than zero
    ///   (``isValid(_:)`` checks a user's value).
    public init(events: [HIDEvent], timing: Timing, start: Double) {
        self.init(timing: timing, start: start)
        append(events)
        endOfEvents()
    }

    /// A schedule whose events are given as they are read.
    ///
    /// - Precondition: a recorded speed is finite and greater than zero.
    public init(timing: Timing, start: Double) {
        if case .recorded(let speed) = timing { precondition(Self.isValid(speed), "replay speed \(speed) is not finite and positive") }
        self.timing = timing
        self.start = start
    }

    /// Whether `speed` can be a replay speed.
    public static func isValid(_ speed: Double) -> Bool { speed.isFinite && speed > 0 }

    /// Gives the next events of the stream.
    public mutating func append(_ more: some Sequence<HIDEvent>) {
        precondition(!hasAllEvents, "events given after the end of the stream")
        if nextIndex > 0 && nextIndex * 2 >= events.count {
            events.removeFirst(nextIndex)
            nextIndex = 0
        }
        for event in more {
            if firstTimestamp == nil && event.timestamp.isFinite { firstTimestamp = event.timestamp }
            events.append(event)
        }
    }

    /// Says that every event of the stream has been given.
    public mutating func endOfEvents() { hasAllEvents = true }

    /// Whether every event has been given and taken.
    public var isFinished: Bool { hasAllEvents && nextIndex == events.count }
    /// Events given and not yet taken.
    public var remainingCount: Int { events.count - nextIndex }

    /// When the next event given is due; nil when every event given has been taken.
    public var nextDueTime: Double? {
        guard nextIndex < events.count else { return nil }
        switch timing {
        case .asFastAsPossible: return start
        case .recorded(let speed): return start + sinceFirst(recordedTime(of: events[nextIndex])) / speed
        }
    }

    /// The events due at `now`, at most `limit` of them, with their playback timestamps.
    public mutating func take(dueAt now: Double, limit: Int = Int.max) -> [HIDEvent] {
        var taken: [HIDEvent] = []
        while taken.count < limit, nextIndex < events.count, let due = nextDueTime, due <= now {
            let recorded = recordedTime(of: events[nextIndex])
            let timestamp: Double
            switch timing {
            case .asFastAsPossible: timestamp = start + sinceFirst(recorded)
            case .recorded: timestamp = due
            }
            taken.append(events[nextIndex].retimed(to: timestamp))
            lastRecordedTime = recorded
            nextIndex += 1
        }
        return taken
    }

    /// The event's recorded time, held at the last one taken when it goes
    /// back or is not finite; nil for an event before any finite time.
    private func recordedTime(of event: HIDEvent) -> Double? {
        let floor = lastRecordedTime ?? firstTimestamp
        let time = event.timestamp
        guard time.isFinite, floor.map({ time >= $0 }) ?? true else { return floor }
        return time
    }

    /// How long after the first event a recorded time is.
    private func sinceFirst(_ recorded: Double?) -> Double {
        guard let recorded, let firstTimestamp else { return 0 }
        return recorded - firstTimestamp
    }
}

extension HIDEvent {
    /// The same event at another time.
    public func retimed(to timestamp: Double) -> HIDEvent {
        switch self {
        case .digitizer(var frame):
            frame.timestamp = timestamp
            return .digitizer(frame)
        case .button(var button):
            button.timestamp = timestamp
            return .button(button)
        case .motion(var motion):
            motion.timestamp = timestamp
            return .motion(motion)
        }
    }
}
