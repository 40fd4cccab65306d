import HID

/// Decides which application gets each HID event, and keeps the promises
/// made to applications (the role of Android's input dispatcher).
///
/// The rules, each a sentence:
/// - Events go to the foreground application in the order they were read.
///   The foreground application is the one connected most recently, or the
///   one brought to the front by a switch; when it goes, the one in front
///   before it comes back.
/// - A touch sequence belongs to the application that was in front when its
///   finger went down, until the finger lifts: every phase of it goes there
///   and nowhere else, whatever happens to the foreground meanwhile.
/// - An application that loses a touch sequence (it went to the background,
///   stopped responding) gets the sequence cancelled; the rest of that
///   sequence goes nowhere. A sequence is cancelled, never cut short.
/// - Every event sent waits for its acknowledgement. An application whose
///   oldest unacknowledged event is older than the watchdog timeout is not
///   responding: this is reported, its touch sequences are cancelled, it
///   gets no new touch sequence, and what is queued for it is bounded.
///   Once it has acknowledged everything it responds again.
/// - Nothing here waits for an application: events are queued per client
///   and sent when its socket has room (see `EventServer`).
final class EventDispatcher {
    struct Configuration {
        /// Android's dispatching timeout is 5 s; tests use far less.
        var watchdogTimeout: Double = 5
        /// Events queued for a client beyond this are dropped (and reported),
        /// except cancellations, which never are.
        var maximumQueuedEvents = 1024
    }

    let configuration: Configuration
    /// Told about everything worth a line in the server's log.
    let report: (String) -> Void

    // Touched at every turn of the server's one thread: unchecked for exclusivity (see EventServer).
    /// Applications and recorders, in the order they said hello.
    @exclusivity(unchecked) private(set) var clients: [Client] = []
    /// Applications in the order they were last in front; the last is in front.
    @exclusivity(unchecked) private var frontOrder: [UInt32] = []

    /// Where each finger on the glass belongs.
    private struct Route {
        /// The application receiving this touch sequence; nil once it was
        /// cancelled or went down with no application to take it.
        var owner: UInt32?
        /// The contact as last seen, to cancel it where it is.
        var last: DigitizerContact
    }
    @exclusivity(unchecked) private var routes: [UInt32: Route] = [:]
    /// The timestamp of the last input event, so that time never runs back.
    @exclusivity(unchecked) private var lastInputTimestamp = -Double.infinity
    private let encoder = HIDPacketEncoder()

    init(configuration: Configuration = Configuration(), report: @escaping (String) -> Void) {
        self.configuration = configuration
        self.report = report
    }

    var foreground: Client? {
        guard let id = frontOrder.last else { return nil }
        return client(id)
    }

    func client(_ identifier: UInt32) -> Client? {
        clients.first { $0.identifier == identifier }
    }

    // MARK: Clients coming and going

    /// A client said hello. An application comes to the front.
    func add(_ client: Client, now: Double) {
        clients.append(client)
        if client.isApplication { bringToFront(client, now: now, tellIt: false) }
    }

    /// A client hung up, died or was dropped. Its touch sequences end here;
    /// if it was in front, the application in front before it comes back.
    func remove(_ client: Client, now: Double) {
        guard let index = clients.firstIndex(where: { $0 === client }) else { return }
        let wasInFront = foreground === client
        clients.remove(at: index)
        frontOrder.removeAll { $0 == client.identifier }
        for (id, route) in routes where route.owner == client.identifier {
            routes[id]?.owner = nil
        }
        if client.isApplication && client.unacknowledgedCount > 0 {
            report("\(describe(client)) left with \(client.unacknowledgedCount) events unacknowledged")
        }
        if wasInFront, let next = foreground {
            next.enqueue(ServerMessage.appState(.foreground).encoded())
            report("\(describe(next)) is in front")
        }
    }

    // MARK: Switching

    /// Brings the application called `name` to the front. Nil when done, else why not.
    func switchTo(name: String, now: Double) -> String? {
        guard let target = clients.last(where: { $0.isApplication && $0.name == name }) else {
            let names = clients.filter(\.isApplication).map(\.name.escapedForDisplay)
            return "no application called \"\(name.escapedForDisplay)\"; connected: \(names.isEmpty ? "none" : names.joined(separator: ", "))"
        }
        bringToFront(target, now: now, tellIt: true)
        return nil
    }

    private func bringToFront(_ client: Client, now: Double, tellIt: Bool) {
        let previous = foreground
        guard previous !== client else { return }
        if let previous {
            cancelTouchSequences(of: previous, now: now)
            previous.enqueue(ServerMessage.appState(.background).encoded())
        }
        frontOrder.removeAll { $0 == client.identifier }
        frontOrder.append(client.identifier)
        if tellIt { client.enqueue(ServerMessage.appState(.foreground).encoded()) }
        report("\(describe(client)) is in front")
    }

    // MARK: Events

    /// Routes one input event read at `readTime`.
    func dispatch(_ event: HIDEvent, readTime: Double) {
        let event = inOrder(event)
        for recorder in clients where recorder.role == .recorder {
            send(event, to: recorder, readTime: readTime, expectingAcknowledgement: false)
        }
        switch event {
        case .digitizer(let frame): dispatch(frame, readTime: readTime)
        case .button, .motion:
            guard let target = foreground else { return }
            send(event, to: target, readTime: readTime, expectingAcknowledgement: true)
        }
    }

    /// The event with a timestamp no earlier than the one before it: a source
    /// whose clock ran back (or that sent NaN) is reported, and its events
    /// are delivered at the last good time rather than dropped.
    private func inOrder(_ event: HIDEvent) -> HIDEvent {
        let timestamp = event.timestamp
        if timestamp >= lastInputTimestamp {
            lastInputTimestamp = timestamp
            return event
        }
        let fixed = lastInputTimestamp.isFinite ? lastInputTimestamp : 0
        if timestamp.isNaN || timestamp.isInfinite {
            report("an input event had timestamp \(timestamp); delivered at \(fixed)")
        } else {
            report("an input event's timestamp ran back by \(lastInputTimestamp - timestamp) s; delivered at \(fixed)")
        }
        lastInputTimestamp = fixed
        return event.stamped(fixed)
    }

    /// Splits a frame among the applications that own its contacts. A
    /// finger going down belongs to the foreground application if that one
    /// responds; otherwise its sequence goes nowhere.
    private func dispatch(_ frame: DigitizerFrame, readTime: Double) {
        var perOwner: [(owner: UInt32, contacts: [DigitizerContact], changed: Bool)] = []
        for contact in frame.contacts {
            let owner: UInt32?
            if contact.phase == .began {
                if let existing = routes[contact.identifier], existing.owner != nil {
                    report("contact \(contact.identifier) began again without ending; the new sequence replaces it")
                }
                if let front = foreground, front.isResponding {
                    owner = front.identifier
                } else {
                    owner = nil
                    if let front = foreground {
                        report("\(describe(front)) is not responding: a new touch sequence was not sent to it")
                    }
                }
                routes[contact.identifier] = Route(owner: owner, last: contact)
            } else if routes[contact.identifier] != nil {
                routes[contact.identifier]!.last = contact
                owner = routes[contact.identifier]!.owner
                if contact.phase == .ended || contact.phase == .cancelled { routes[contact.identifier] = nil }
            } else {
                // A finger already down when the server started, or after a
                // sequence was replaced: there is no application it belongs to.
                owner = nil
            }
            guard let owner else { continue }
            if let index = perOwner.firstIndex(where: { $0.owner == owner }) {
                perOwner[index].contacts.append(contact)
                perOwner[index].changed = perOwner[index].changed || contact.phase != .stationary
            } else {
                perOwner.append((owner, [contact], contact.phase != .stationary))
            }
        }
        for part in perOwner where part.changed {
            guard let target = client(part.owner) else { continue }
            let event = HIDEvent.digitizer(DigitizerFrame(timestamp: frame.timestamp, contacts: part.contacts))
            if target.queuedMessageCount >= configuration.maximumQueuedEvents {
                // Sending more phases would only lengthen a queue nobody reads;
                // dropping one would cut the sequence. Cancel it instead.
                report("\(describe(target)) has \(target.queuedMessageCount) events queued; its touch sequences are cancelled")
                cancelTouchSequences(of: target, now: readTime)
                continue
            }
            send(event, to: target, readTime: readTime, expectingAcknowledgement: true)
        }
    }

    /// Sends the application a frame cancelling every touch sequence it
    /// owns, and sends it nothing more of them.
    private func cancelTouchSequences(of client: Client, now: Double) {
        var cancelled: [DigitizerContact] = []
        for (id, route) in routes where route.owner == client.identifier {
            var contact = route.last
            contact.phase = .cancelled
            cancelled.append(contact)
            routes[id]?.owner = nil
        }
        guard !cancelled.isEmpty else { return }
        cancelled.sort { $0.identifier < $1.identifier }
        let timestamp = max(client.lastEventTimestamp, lastInputTimestamp.isFinite ? lastInputTimestamp : now)
        let frame = HIDEvent.digitizer(DigitizerFrame(timestamp: timestamp, contacts: cancelled))
        send(frame, to: client, readTime: now, expectingAcknowledgement: true, evenIfFull: true)
    }

    private func send(
        _ event: HIDEvent, to client: Client, readTime: Double, expectingAcknowledgement: Bool, evenIfFull: Bool = false
    ) {
        if !evenIfFull && client.queuedMessageCount >= configuration.maximumQueuedEvents {
            if client.droppedEventCount == 0 {
                report("\(describe(client)) has \(client.queuedMessageCount) events queued; further events to it are dropped until it reads")
            }
            client.droppedEventCount += 1
            return
        }
        let sequence = client.nextSequence
        client.nextSequence += 1
        client.lastEventTimestamp = max(client.lastEventTimestamp, event.timestamp)
        client.enqueue(ServerMessage.encodeEvent(sequence: sequence, readTime: readTime, event: event, encoder: encoder))
        if expectingAcknowledgement { client.unacknowledged.append((sequence, readTime)) }
    }

    // MARK: Acknowledgements and the watchdog

    func acknowledge(_ acknowledgement: ServerMessage.Acknowledgement, from client: Client) {
        guard client.acknowledge(acknowledgement.sequence) else {
            report("\(describe(client)) acknowledged event \(acknowledgement.sequence), which was not waiting; ignored")
            return
        }
        if !client.isResponding && client.unacknowledgedCount == 0 {
            client.isResponding = true
            if client.droppedEventCount > 0 {
                report("\(describe(client)) is responding again (\(client.droppedEventCount) events were dropped meanwhile)")
            } else {
                report("\(describe(client)) is responding again")
            }
            client.droppedEventCount = 0
        }
    }

    /// Marks applications not responding whose oldest event waited too long.
    func checkWatchdog(now: Double) {
        for client in clients where client.isApplication && client.isResponding {
            guard let oldest = client.oldestUnacknowledged, now >= oldest.dispatchTime + configuration.watchdogTimeout else { continue }
            client.isResponding = false
            report("\(describe(client)) is not responding: event \(oldest.sequence) unacknowledged for \(formatSeconds(now - oldest.dispatchTime)) (timeout \(formatSeconds(configuration.watchdogTimeout)))")
            cancelTouchSequences(of: client, now: now)
        }
    }

    /// When ``checkWatchdog(now:)`` must look next, if any application
    /// owes an acknowledgement. Nothing is marked here: the server first
    /// reads the acknowledgements that came meanwhile.
    func nextWatchdogDeadline() -> Double? {
        var next: Double?
        for client in clients where client.isApplication && client.isResponding {
            guard let oldest = client.oldestUnacknowledged else { continue }
            next = min(next ?? .infinity, oldest.dispatchTime + configuration.watchdogTimeout)
        }
        return next
    }

    // MARK: Listing

    func applicationStatuses() -> [ServerMessage.ApplicationStatus] {
        let front = foreground
        return clients.filter(\.isApplication).map { client in
            ServerMessage.ApplicationStatus(
                clientIdentifier: client.identifier, processIdentifier: client.credentials.processIdentifier,
                name: client.name, isForeground: client === front, isResponding: client.isResponding,
                unacknowledgedCount: UInt32(clamping: client.unacknowledgedCount)
            )
        }
    }

    /// The client as the log names it; its name, which the client chose, escaped.
    func describe(_ client: Client) -> String {
        "\"\(client.name.escapedForDisplay)\" (client \(client.identifier), pid \(client.credentials.processIdentifier))"
    }
}

func formatSeconds(_ seconds: Double) -> String {
    seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : "\((seconds * 100).rounded() / 100) s"
}

extension HIDEvent {
    /// The same event at another time.
    func stamped(_ timestamp: Double) -> HIDEvent {
        switch self {
        case .digitizer(var frame): frame.timestamp = timestamp; return .digitizer(frame)
        case .button(var button): button.timestamp = timestamp; return .button(button)
        case .motion(var motion): motion.timestamp = timestamp; return .motion(motion)
        }
    }
}
