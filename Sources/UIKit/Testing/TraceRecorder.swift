/// Keeps the trace records of the last events, for tools that look back
/// at what just happened (the inspector's timeline): a ring of at most
/// `eventCapacity` events, each with at most `recordsPerEvent` records.
/// Records outside any event (a timer, the frame's work) join the event
/// before them.
///
/// ```swift
/// let recorder = TraceRecorder(eventCapacity: 20)
/// UIApplication.shared.traceHandler = recorder.record
/// ```
@MainActor
public final class TraceRecorder {
    /// The records of one event.
    public struct EventRecords {
        /// The event's number, or nil for records made before any event.
        public let eventID: Int?
        /// Its records, in order.
        public fileprivate(set) var records: [TraceRecord] = []
        /// Records dropped because the event had more than `recordsPerEvent`.
        public fileprivate(set) var droppedCount = 0
    }

    /// How many events are kept.
    public let eventCapacity: Int
    /// How many records of one event are kept.
    public let recordsPerEvent: Int
    /// The events kept, oldest first.
    public private(set) var events: [EventRecords] = []
    /// How many events were dropped from the front of the ring.
    public private(set) var droppedEventCount = 0

    /// A recorder keeping the last `eventCapacity` events, at most
    /// `recordsPerEvent` records of each (a hit test of a large tree makes
    /// two or three records per view it asks).
    public init(eventCapacity: Int = 50, recordsPerEvent: Int = 20_000) {
        precondition(eventCapacity > 0 && recordsPerEvent > 0, "a trace recorder keeps at least one record of one event")
        self.eventCapacity = eventCapacity
        self.recordsPerEvent = recordsPerEvent
    }

    /// Every record kept, in order.
    public var records: [TraceRecord] { events.flatMap(\.records) }

    /// Keeps `record`, dropping the oldest event if a new one makes too many.
    public func record(_ record: TraceRecord) {
        if let eventID = record.eventID, events.last?.eventID != eventID {
            events.append(EventRecords(eventID: eventID))
            if events.count > eventCapacity {
                events.removeFirst(events.count - eventCapacity)
                droppedEventCount += 1
            }
        } else if events.isEmpty {
            events.append(EventRecords(eventID: nil))
        }
        let last = events.count - 1
        if events[last].records.count < recordsPerEvent {
            events[last].records.append(record)
        } else {
            events[last].droppedCount += 1
        }
    }

    /// Forgets every record.
    public func removeAll() {
        events = []
        droppedEventCount = 0
    }
}
