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
public struct HIDReplaySchedule: Sendable {
    public enum Timing: Equatable, Sendable {
        /// The recorded intervals divided by `speed` (2 plays twice as fast).
        case recorded(speed: Double)
        case asFastAsPossible
    }

    public let timing: Timing
    public let start: Double
    private let events: [HIDEvent]
    private var nextIndex = 0
    private let firstTimestamp: Double
    private var lastRecordedTime: Double

    /// - Precondition: a recorded speed is finite and greater than zero
    ///   (``isValid(_:)`` checks a user's value).
    public init(events: [HIDEvent], timing: Timing, start: Double) {
        if case .recorded(let speed) = timing { precondition(Self.isValid(speed), "replay speed \(speed) is not finite and positive") }
        self.events = events
        self.timing = timing
        self.start = start
        firstTimestamp = events.lazy.map(\.timestamp).first(where: \.isFinite) ?? 0
        lastRecordedTime = firstTimestamp
    }

    /// Whether `speed` can be a replay speed.
    public static func isValid(_ speed: Double) -> Bool { speed.isFinite && speed > 0 }

    public var isFinished: Bool { nextIndex == events.count }
    public var remainingCount: Int { events.count - nextIndex }

    /// When the next event is due, nil when every event has been taken.
    public var nextDueTime: Double? {
        guard nextIndex < events.count else { return nil }
        switch timing {
        case .asFastAsPossible: return start
        case .recorded(let speed): return start + (recordedTime(of: events[nextIndex]) - firstTimestamp) / speed
        }
    }

    /// The events due at `now`, at most `limit` of them, with their playback timestamps.
    public mutating func take(dueAt now: Double, limit: Int = Int.max) -> [HIDEvent] {
        var taken: [HIDEvent] = []
        while taken.count < limit, nextIndex < events.count, let due = nextDueTime, due <= now {
            let recorded = recordedTime(of: events[nextIndex])
            let timestamp: Double
            switch timing {
            case .asFastAsPossible: timestamp = start + (recorded - firstTimestamp)
            case .recorded: timestamp = due
            }
            taken.append(events[nextIndex].retimed(to: timestamp))
            lastRecordedTime = recorded
            nextIndex += 1
        }
        return taken
    }

    private func recordedTime(of event: HIDEvent) -> Double {
        let time = event.timestamp
        return time.isFinite && time >= lastRecordedTime ? time : lastRecordedTime
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
