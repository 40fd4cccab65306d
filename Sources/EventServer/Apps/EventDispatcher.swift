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
        /// Events queued for a client, or waiting for its acknowledgement,
        /// beyond this are dropped (and reported), except cancellations,
        /// which never are.
        var maximumQueuedEvents = 1024
        /// Contacts one source may hold down at once: a device's readers
        /// follow at most 64 slots (`EvdevTranslator.maximumSlotCount`), and
        /// an injector or a recording gets no more. A contact beginning past
        /// it is refused (reported; its sequence goes nowhere).
        var maximumContactsPerSource = EvdevTranslator.maximumSlotCount
        /// Contacts all sources together may hold down: ten sources' worth,
        /// which keeps the cancellation frame of everything an application
        /// owns well inside one message (``HIDWireFormat/maximumContactsPerFrame``).
        var maximumContacts = 10 * EvdevTranslator.maximumSlotCount
        /// How far an event may be older than the last one delivered from
        /// another source without a word: each source's events are in
        /// order, but two sources read in one turn (a touch screen and a
        /// keyboard, a device and an injector) interleave by their delays
        /// in reaching the server. A quarter of a second, as the FIFO's
        /// drift bound (`FIFOInputSource.maximumDrift`): far more than
        /// such delays, far less than a user notices.
        var interleavingTolerance = 0.25
    }

    let configuration: Configuration
    /// Told about everything worth a line in the server's log.
    let log: ServerLog

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
        /// The source it came from, which cancels it if it goes away.
        var origin: InputOrigin
    }
    @exclusivity(unchecked) private var routes: [UInt32: Route] = [:]
    /// How many routes each source holds: bounded, so that contacts that
    /// never end cannot grow the server (see ``Configuration``).
    @exclusivity(unchecked) private var routeCounts: [InputOrigin: Int] = [:]
    /// The timestamp of the last input event, so that time never runs back.
    @exclusivity(unchecked) private var lastInputTimestamp = -Double.infinity
    /// When the server read the last input event, of any source: the CPU
    /// latency request lapses when none came for a while
    /// (``WakeUpLatencyRequest/heldWithoutInput``).
    @exclusivity(unchecked) private(set) var lastReadTime = -Double.infinity
    /// Each source's last input timestamp as it gave it, so that a source
    /// whose own clock runs back is told from two sources interleaving.
    @exclusivity(unchecked) private var lastTimestampBySource: [InputOrigin: Double] = [:]
    /// A contact of one source and the identifier its source gave it.
    private struct SourceContact: Hashable {
        var origin: InputOrigin
        var identifier: UInt32
    }
    /// Contacts that began with an identifier another source's contact
    /// holds, and the identifier they go by instead, until they end.
    @exclusivity(unchecked) private var aliases: [SourceContact: UInt32] = [:]
    /// The next identifier to try for an alias, counting down from the
    /// top, far from the sources' own, which count up from 1.
    private var nextAlias = UInt32.max
    /// Input events dropped because no application was connected, since
    /// one was last in front.
    private var droppedForNoApplication = 0
    private let encoder = HIDPacketEncoder()

    init(configuration: Configuration = Configuration(), log: ServerLog) {
        self.configuration = configuration
        self.log = log
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
            log("\(describe(client)) left with \(client.unacknowledgedCount) events unacknowledged")
        }
        if wasInFront, let next = foreground {
            next.enqueue(ServerMessage.appState(.foreground).encoded())
            log("\(describe(next)) is in front")
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
        if droppedForNoApplication > 0 {
            log("no application in front: \(droppedForNoApplication) events dropped")
            droppedForNoApplication = 0
        }
        log("\(describe(client)) is in front")
    }

    /// An input event with no application to go to: said once, as the
    /// first is dropped; how many were, once an application comes to the front.
    private func dropForNoApplication() {
        if droppedForNoApplication == 0 { log("no application in front: input events are dropped until one connects") }
        droppedForNoApplication += 1
    }

    // MARK: Events

    /// Routes one input event that `origin` gave and the server read at `readTime`.
    func dispatch(_ event: HIDEvent, readTime: Double, from origin: InputOrigin) {
        lastReadTime = max(lastReadTime, readTime)
        var event = inOrder(event, from: origin)
        if case .digitizer(let frame) = event {
            let admitted = admitting(aliasing(frame, from: origin), from: origin)
            guard !admitted.contacts.isEmpty else { return }
            event = .digitizer(admitted)
        }
        for recorder in clients where recorder.role == .recorder {
            send(event, to: recorder, readTime: readTime, expectingAcknowledgement: false)
        }
        switch event {
        case .digitizer(let frame):
            // Its contacts are still followed (their routes), going nowhere.
            if foreground == nil { dropForNoApplication() }
            dispatch(frame, readTime: readTime, from: origin)
        case .button, .motion:
            guard let target = foreground else { return dropForNoApplication() }
            send(event, to: target, readTime: readTime, expectingAcknowledgement: true)
        }
    }

    /// The event with a timestamp no earlier than the one before it, so
    /// that what an application receives never goes back in time: an event
    /// older than the last is delivered at the last good time rather than
    /// dropped. That is reported when its source's own clock ran back (or
    /// it sent NaN), or when it is more than ``Configuration/interleavingTolerance``
    /// older than another source's last event; not when two sources read
    /// in one turn merely interleave.
    private func inOrder(_ event: HIDEvent, from origin: InputOrigin) -> HIDEvent {
        let timestamp = event.timestamp
        let sourcesLast = lastTimestampBySource[origin]
        if timestamp.isFinite { lastTimestampBySource[origin] = max(timestamp, sourcesLast ?? timestamp) }
        if timestamp >= lastInputTimestamp {
            lastInputTimestamp = timestamp
            return event
        }
        let fixed = lastInputTimestamp.isFinite ? lastInputTimestamp : 0
        if timestamp.isNaN || timestamp.isInfinite {
            log.report("timestamp not a number", "an input event had timestamp \(timestamp); delivered at \(fixed)")
        } else if let sourcesLast, timestamp < sourcesLast {
            log.report("timestamp ran back", "an input event's timestamp ran back by \(sourcesLast - timestamp) s from its source's previous one; delivered at \(fixed)")
        } else if lastInputTimestamp - timestamp > configuration.interleavingTolerance {
            log.report("timestamp behind another source's", "an input event's timestamp is \(lastInputTimestamp - timestamp) s behind another source's last one; delivered at \(fixed)")
        }
        lastInputTimestamp = fixed
        return event.stamped(fixed)
    }

    /// Splits a frame among the applications that own its contacts. A
    /// finger going down belongs to the foreground application if that one
    /// responds; otherwise its sequence goes nowhere.
    private func dispatch(_ frame: DigitizerFrame, readTime: Double, from origin: InputOrigin) {
        var perOwner: [(owner: UInt32, contacts: [DigitizerContact], changed: Bool)] = []
        for contact in frame.contacts {
            let owner: UInt32?
            if contact.phase == .began {
                if let existing = routes[contact.identifier] {
                    if existing.owner != nil {
                        log.report("contact began again", "contact \(contact.identifier) began again without ending; the new sequence replaces it")
                    }
                    removeRoute(contact.identifier)
                }
                if let front = foreground, front.isResponding {
                    owner = front.identifier
                } else {
                    owner = nil
                    if let front = foreground {
                        log.report("touch for an application not responding", "\(describe(front)) is not responding: a new touch sequence was not sent to it")
                    }
                }
                routes[contact.identifier] = Route(owner: owner, last: contact, origin: origin)
                routeCounts[origin, default: 0] += 1
            } else if routes[contact.identifier] != nil {
                routes[contact.identifier]!.last = contact
                owner = routes[contact.identifier]!.owner
                if contact.phase == .ended || contact.phase == .cancelled { removeRoute(contact.identifier) }
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
            if target.backlog >= configuration.maximumQueuedEvents {
                // Sending more phases would only lengthen a queue nobody reads;
                // dropping one would cut the sequence. Cancel it instead.
                log.report("touches cancelled for a backlog", "\(describe(target)) has \(target.backlog) events queued or unacknowledged; its touch sequences are cancelled")
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

    // MARK: Sources coming and going

    /// The frame with each contact under an identifier no other source's
    /// contact holds. Sources number their contacts themselves (an
    /// injector, a HID recording played, a device of this server), so two
    /// may give the same one: a contact that begins with an identifier
    /// another source's contact holds goes by an alias until it ends.
    private func aliasing(_ frame: DigitizerFrame, from origin: InputOrigin) -> DigitizerFrame {
        guard !aliases.isEmpty || frame.contacts.contains(where: { $0.phase == .began }) else { return frame }
        var aliased = frame
        for index in aliased.contacts.indices {
            let contact = aliased.contacts[index]
            let key = SourceContact(origin: origin, identifier: contact.identifier)
            if contact.phase == .began {
                aliases[key] = nil
                if let held = routes[contact.identifier], held.origin != origin { aliases[key] = freshAlias() }
            }
            guard let alias = aliases[key] else { continue }
            aliased.contacts[index].identifier = alias
            if contact.phase == .ended || contact.phase == .cancelled { aliases[key] = nil }
        }
        return aliased
    }

    /// An identifier no contact down holds.
    private func freshAlias() -> UInt32 {
        while routes[nextAlias] != nil || nextAlias == 0 { nextAlias = nextAlias == 0 ? .max : nextAlias - 1 }
        defer { nextAlias = nextAlias == 1 ? .max : nextAlias - 1 }
        return nextAlias
    }

    /// The frame with only the contacts the route tables have room for: a
    /// contact beginning past its source's share or the server's total is
    /// refused (and reported), and its sequence goes nowhere.
    private func admitting(_ frame: DigitizerFrame, from origin: InputOrigin) -> DigitizerFrame {
        guard frame.contacts.contains(where: { $0.phase == .began }) else { return frame }
        var admitted = frame
        admitted.contacts.removeAll(keepingCapacity: true)
        var fromOrigin = routeCounts[origin, default: 0]
        var total = routes.count
        for contact in frame.contacts {
            if contact.phase == .began && routes[contact.identifier] == nil {
                if fromOrigin >= configuration.maximumContactsPerSource || total >= configuration.maximumContacts {
                    let limit = fromOrigin >= configuration.maximumContactsPerSource
                        ? "its source already holds \(fromOrigin) contacts down (at most \(configuration.maximumContactsPerSource))"
                        : "\(total) contacts are already down (at most \(configuration.maximumContacts))"
                    log.report("contact refused", "contact \(contact.identifier) was refused: \(limit)")
                    continue
                }
                fromOrigin += 1
                total += 1
            }
            admitted.contacts.append(contact)
        }
        return admitted
    }

    /// A source went away (its end, an error, a device unplugged, an
    /// injector hanging up): every contact it still holds down is
    /// cancelled, where it last was, for whichever application owns it.
    /// Nothing else would ever end them.
    func endInput(from origin: InputOrigin, readTime: Double) {
        defer {
            lastTimestampBySource[origin] = nil
            if !aliases.isEmpty { aliases = aliases.filter { $0.key.origin != origin } }
        }
        guard routeCounts[origin, default: 0] > 0 else { return }
        var contacts: [DigitizerContact] = []
        for route in routes.values where route.origin == origin {
            var contact = route.last
            contact.phase = .cancelled
            contacts.append(contact)
        }
        contacts.sort { $0.identifier < $1.identifier }
        let timestamp = lastInputTimestamp.isFinite ? lastInputTimestamp : readTime
        dispatch(.digitizer(DigitizerFrame(timestamp: timestamp, contacts: contacts)), readTime: readTime, from: origin)
        routeCounts[origin] = nil
    }

    private func removeRoute(_ identifier: UInt32) {
        guard let route = routes.removeValue(forKey: identifier) else { return }
        let left = routeCounts[route.origin, default: 1] - 1
        routeCounts[route.origin] = left > 0 ? left : nil
    }

    private func send(
        _ event: HIDEvent, to client: Client, readTime: Double, expectingAcknowledgement: Bool, evenIfFull: Bool = false
    ) {
        if case .digitizer(let frame) = event, frame.contacts.count > HIDWireFormat.maximumContactsPerFrame {
            // More contacts than one message holds: as many frames as it
            // takes, at the same time, each within the protocol's maximum.
            for start in stride(from: 0, to: frame.contacts.count, by: HIDWireFormat.maximumContactsPerFrame) {
                let part = frame.contacts[start..<min(start + HIDWireFormat.maximumContactsPerFrame, frame.contacts.count)]
                send(.digitizer(DigitizerFrame(timestamp: frame.timestamp, contacts: Array(part))), to: client,
                     readTime: readTime, expectingAcknowledgement: expectingAcknowledgement, evenIfFull: evenIfFull)
            }
            return
        }
        if !evenIfFull && (client.queuedMessageCount >= configuration.maximumQueuedEvents
            || (expectingAcknowledgement && client.unacknowledgedCount >= configuration.maximumQueuedEvents)) {
            // A client that does not read fills its queue; one that reads and
            // does not acknowledge fills its wait queue. Either way the events
            // past the bound are dropped and counted, until it catches up.
            if client.droppedEventCount == 0 {
                log("\(describe(client)) has \(client.backlog) events queued or unacknowledged; further events to it are dropped until it catches up")
            }
            client.droppedEventCount += 1
            return
        }
        let sequence = client.nextSequence
        client.nextSequence += 1
        client.lastEventTimestamp = max(client.lastEventTimestamp, event.timestamp)
        client.enqueue(ServerMessage.encodeEvent(
            sequence: sequence, readTime: readTime, sendTime: monotonicSeconds(), event: event, encoder: encoder))
        if expectingAcknowledgement { client.unacknowledged.append((sequence, readTime)) }
    }

    // MARK: Acknowledgements and the watchdog

    func acknowledge(_ acknowledgement: ServerMessage.Acknowledgement, from client: Client) {
        guard client.acknowledge(acknowledgement.sequence) else {
            log.report("acknowledgement of no waiting event", "\(describe(client)) acknowledged event \(acknowledgement.sequence), which was not waiting; ignored")
            return
        }
        if !client.isResponding && client.unacknowledgedCount == 0 {
            client.isResponding = true
            if client.droppedEventCount > 0 {
                log("\(describe(client)) is responding again (\(client.droppedEventCount) events were dropped meanwhile)")
            } else {
                log("\(describe(client)) is responding again")
            }
            client.droppedEventCount = 0
        }
    }

    /// Marks applications not responding whose oldest event waited too long.
    func checkWatchdog(now: Double) {
        for client in clients where client.isApplication && client.isResponding {
            guard let oldest = client.oldestUnacknowledged, now >= oldest.dispatchTime + configuration.watchdogTimeout else { continue }
            client.isResponding = false
            log("\(describe(client)) is not responding: event \(oldest.sequence) unacknowledged for \(formatSeconds(now - oldest.dispatchTime)) (timeout \(formatSeconds(configuration.watchdogTimeout)))")
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

    /// Contacts down that the route tables follow, from every source.
    var contactsDown: Int { routes.count }

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

/// Where input came from: a source the server reads, or an injector
/// client. Its contacts are cancelled when it goes away.
struct InputOrigin: Hashable {
    private let identifier: ObjectIdentifier
    init(_ source: AnyObject) { identifier = ObjectIdentifier(source) }
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
