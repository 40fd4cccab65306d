#if canImport(Glibc)
import Glibc
#endif
import CLinuxInput
import HID

/// The event server (backboardd's and SpringBoard's role): it reads input
/// sources and sends their events to applications connected to its socket.
///
/// One thread does everything, in one `poll(2)` loop: accepting clients,
/// reading input sources, reading clients' messages, the watchdog, and
/// sending each client what is queued for it as far as its socket has
/// room. No call here waits on any one client.
public final class EventServer {
    public let configuration: ServerConfiguration
    private let listener: Int32
    let dispatcher: EventDispatcher
    /// Shows the front application's frames at each refresh.
    let presenter: FramePresenter
    /// Passes inspector messages between inspectors and applications.
    let inspectors: InspectorRelay
    /// Held while a finger is down and input comes, so that idle
    /// processors wake at once for the frames of a touch.
    let wakeUpLatency: WakeUpLatencyRequest
    private let log: ServerLog
    /// Set while `accept` cannot get a descriptor (`EMFILE`, `ENFILE`):
    /// the listener is left out of the poll until one is freed (a client
    /// or a source closed) or, for the whole system's table, a second has
    /// passed. Otherwise the waiting connection would wake every turn and
    /// fail again, at full speed.
    private var acceptPausedUntil: Double?
    /// Clients connected at once, in every role: enough for any desktop,
    /// and few enough that `openuikit apps` lists them all in one reply
    /// (each row is at most 269 bytes; see ``ServerProtocol/maximumMessageSize``),
    /// so the list needs no paging (docs/protocol.md says why).
    static let maximumClients = 200
    // State touched at every turn, by the one thread and never through
    // overlapping inout accesses, skips the runtime's exclusivity checks
    // (here and in the dispatcher and clients: a tenth of a turn's
    // instructions); the test script's exclusivity pass puts them back.
    @exclusivity(unchecked) private var sources: [any InputSource] = []
    /// Watches for devices plugged in later, and opens them.
    private var deviceMonitor: (monitor: InputDeviceMonitor, open: (String) -> Result<(any InputSource)?, InputSourceError>)?
    /// Connected clients that have not said hello yet.
    @exclusivity(unchecked) private var greeting: [Client] = []
    private var nextClientIdentifier: UInt32 = 1
    @exclusivity(unchecked) private var isStopped = false
    private var isShutDown = false
    /// SIGINT and SIGTERM, read as a descriptor while ``run(handlingSignals:)`` runs; -1 otherwise.
    @exclusivity(unchecked) private var signalDescriptor: Int32 = -1
    /// The descriptors of one turn's poll, kept from turn to turn: the
    /// listener, the signals, the device monitor, the sources, the clients.
    @exclusivity(unchecked) private var descriptors: [pollfd] = []
    /// Decodes injected events; each message's packet stands alone, and
    /// nothing of it is left here once it is read.
    @exclusivity(unchecked) private var injectedPackets = HIDPacketDecoder()
    /// The clients of the current turn, in the order of their descriptors,
    /// and how many events each owed acknowledgements for when polled.
    @exclusivity(unchecked) private var polledClients: [Client] = []
    @exclusivity(unchecked) private var owedWhenPolled: [Int] = []
    /// How many messages one client may have read per turn, so that a
    /// client flooding the server cannot starve the others.
    private static let messagesPerClientPerTurn = 256

    /// Makes the socket's directory (mode 0700) and starts listening;
    /// frames go to `display`, or nowhere (a ``HeadlessDisplay``) without one.
    public init(configuration: ServerConfiguration, display: (any DisplayOutput)? = nil) throws(EventServerError) {
        self.configuration = configuration
        let log = ServerLog(configuration.log)
        self.log = log
        self.dispatcher = EventDispatcher(configuration: .init(watchdogTimeout: configuration.watchdogTimeout), log: log)
        let screen = configuration.screen
        let output = display ?? HeadlessDisplay(
            pixelWidth: screen.pixelWidth, pixelHeight: screen.pixelHeight)
        do {
            presenter = FramePresenter(output: output, clock: try FrameClock(refreshRate: configuration.refreshRate), screen: screen)
        } catch {
            throw .display("cannot make the frame clock: \(error)")
        }
        wakeUpLatency = WakeUpLatencyRequest(devicePath: configuration.wakeUpLatencyDevice)
        let inspectors = InspectorRelay(log: log, mayInspect: configuration.mayInspect)
        self.inspectors = inspectors
        self.listener = try Self.listen(at: configuration.socketPath, ownsDirectory: configuration.ownsSocketDirectory)
        presenter.frameShown = { application, commit, buffer in
            inspectors.frameShown(of: application, commit: commit, buffer: buffer)
        }
    }

    /// Where frames are shown.
    public var display: any DisplayOutput { presenter.output }

    deinit {
        shutDown()
    }

    /// Reads `source` from now on, in the same loop as the clients.
    public func add(_ source: any InputSource) {
        sources.append(source)
    }

    /// Opens the devices `monitor` reports as plugged in (with `open`, which
    /// returns nil for a device that is no input the server uses) and
    /// stops reading those unplugged, in the same loop as everything else.
    public func watchDevices(
        with monitor: InputDeviceMonitor, open: @escaping (String) -> Result<(any InputSource)?, InputSourceError>
    ) {
        deviceMonitor = (monitor, open)
    }

    /// The connected applications, as `openuikit apps` lists them.
    public var applications: [ServerMessage.ApplicationStatus] { dispatcher.applicationStatuses() }

    /// Makes ``run(handlingSignals:)`` return after the current turn.
    public func stop() { isStopped = true }

    /// Serves until ``stop()`` is called or, when `handlingSignals`, until
    /// SIGINT or SIGTERM arrives; then shuts down.
    public func run(handlingSignals: Bool = true) {
        if handlingSignals {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            // Held pending, not delivered, and read from a descriptor in the
            // loop's poll: an idle server sleeps until there is something to do.
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            signalDescriptor = signalfd(-1, &signals, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
            if signalDescriptor < 0 {
                log("signalfd failed (\(String(cString: strerror(errno)))); looking for signals every 100 ms instead")
            }
        }
        while !isStopped {
            guard handlingSignals && signalDescriptor < 0 else {
                // Without signals to handle, a stop() is noticed within a second.
                runOnce(timeout: handlingSignals ? 3600 : 1)
                continue
            }
            runOnce(timeout: 0.1)
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 {
                log("stopping on a signal")
                isStopped = true
            }
        }
        shutDown()
    }

    /// Tells every client the server is going, closes everything and
    /// removes the socket file.
    public func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        let goodbye = ServerMessage.shutdown.encoded()
        for client in dispatcher.clients + greeting {
            // Best effort: a client whose socket is full learns it from the hang-up.
            _ = try? client.flush()
            client.socket.discardWaitingMessages()
            _ = try? client.socket.send(goodbye)
            client.socket.close()
        }
        greeting = []
        _ = wakeUpLatency.hold(false)
        log.summarize(final: true)
        close(listener)
        unlink(configuration.socketPath)
        if signalDescriptor >= 0 { close(signalDescriptor) }
        signalDescriptor = -1
    }

    // MARK: One turn

    /// Waits up to `timeout` seconds for something to do, does it, and
    /// sends what it queued.
    public func runOnce(timeout: Double) {
        var now = monotonicSeconds()
        var wakeUp = now + max(0, timeout)
        if let deadline = dispatcher.nextWatchdogDeadline() { wakeUp = min(wakeUp, deadline) }
        if let letGo = wakeUpLatency.letGoTime { wakeUp = min(wakeUp, letGo) }
        for client in greeting { wakeUp = min(wakeUp, client.connectTime + configuration.helloTimeout) }

        let sourceStart = 5
        let clientStart = sourceStart + sources.count
        descriptors.removeAllKeepingStorage()
        if let paused = acceptPausedUntil {
            wakeUp = min(wakeUp, paused)
            if now >= paused { acceptPausedUntil = nil }
        }
        descriptors.append(pollfd(fd: acceptPausedUntil == nil ? listener : -1, events: Int16(POLLIN), revents: 0))
        descriptors.append(pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0))
        descriptors.append(pollfd(fd: deviceMonitor?.monitor.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
        descriptors.append(pollfd(fd: presenter.clock.isRunning ? presenter.clock.fileDescriptor : -1, events: Int16(POLLIN), revents: 0))
        descriptors.append(pollfd(fd: presenter.output.fileDescriptor, events: Int16(POLLIN), revents: 0))
        for source in sources { descriptors.append(pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        polledClients.removeAllKeepingStorage()
        polledClients.append(contentsOf: dispatcher.clients)
        polledClients.append(contentsOf: greeting)
        owedWhenPolled.removeAllKeepingStorage()
        for client in polledClients {
            owedWhenPolled.append(client.unacknowledgedCount)
            // A hang-up or error is reported whatever is asked for.
            var events = Int16(client.queuedMessageCount > 0 ? POLLOUT : 0)
            // An awaited commit cannot wait: read at the refresh, it would
            // measure every frame as taking the whole lead, and the lead
            // could never come down.
            if !client.acknowledgementsCanWait || presenter.awaitsCommit(from: client) { events |= Int16(POLLIN) }
            descriptors.append(pollfd(fd: client.socket.fileDescriptor, events: events, revents: 0))
        }
        let milliseconds = Int32(min(max(0, ((wakeUp - now) * 1000).rounded(.up)), Double(Int32.max)))
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if ready < 0 && errno != EINTR { log.report("poll failed", "poll failed: \(String(cString: strerror(errno)))") }

        now = monotonicSeconds()
        if descriptors[0].revents != 0 { acceptClients(now: now) }
        if descriptors[1].revents != 0 { takeSignals() }
        if descriptors[2].revents != 0 { applyDeviceChanges() }
        if descriptors[4].revents != 0 || presenter.output.hasPendingEvents { takeDisplayEvents() }
        // Clients that woke the server first (a hang-up counts before any
        // input goes to that application), then the input sources; what they
        // read goes out at once. Control requests wait for the end of the
        // turn, so that what they list is up to date.
        let woke = Int16(POLLIN | POLLHUP | POLLERR)
        for (offset, client) in polledClients.enumerated()
        where client.role != .control && descriptors[clientStart + offset].revents & woke != 0 {
            readMessages(from: client, now: now)
        }
        var finished: [ObjectIdentifier] = []
        for (offset, source) in sources.enumerated() where descriptors[sourceStart + offset].revents != 0 {
            if !read(source) { finished.append(ObjectIdentifier(source)) }
        }
        if !finished.isEmpty { sources.removeAll { finished.contains(ObjectIdentifier($0)) }; descriptorsFreed() }
        presenter.clock.fingersDown = dispatcher.contactsDown > 0
        if let problem = wakeUpLatency.update(fingersDown: presenter.clock.fingersDown, lastInput: dispatcher.lastReadTime, now: now) {
            log(problem)
        }
        // The frame clock after the input: an event read in the turn a
        // signal is due goes out before the signal, and is drawn in the
        // frame for that refresh instead of the next (the input is latched
        // at the signal, as Android's input consumer takes the batch up to
        // the frame's time).
        if descriptors[3].revents != 0 { refreshDisplay(now: now) }
        flushAll()

        // Then the acknowledgements that did not wake the server. Reading
        // them after the input changes nothing it was sent: an application
        // whose acknowledgements can wait is responding whatever they say.
        // They count before the watchdog looks.
        for (offset, client) in polledClients.enumerated() {
            let polled = descriptors[clientStart + offset]
            if polled.events & Int16(POLLIN) == 0 && polled.revents & woke == 0 {
                // No more than it owed before this turn's input: when they are
                // all there, no read has to find the socket empty.
                readMessages(from: client, now: now, atMost: owedWhenPolled[offset])
            }
        }
        for (offset, client) in polledClients.enumerated()
        where client.role == .control && descriptors[clientStart + offset].revents & woke != 0 {
            readMessages(from: client, now: now)
        }
        now = monotonicSeconds()
        dispatcher.checkWatchdog(now: now)
        dropSilentClients(now: now)
        presenter.startClockIfNeeded(front: dispatcher.foreground, now: now)
        // Xlib may have read the window's events off its socket while it
        // showed a frame: poll would not report them again.
        if presenter.output.hasPendingEvents { takeDisplayEvents() }
        flushAll()
        polledClients.removeAllKeepingStorage()
        log.summarize()
    }

    /// A refresh or its signal is due: the front application's messages are
    /// read first (its commit may be waiting, unread, behind its
    /// acknowledgements), then its frame is shown or it is signalled.
    private func refreshDisplay(now: Double) {
        if let front = dispatcher.foreground { readMessages(from: front, now: now) }
        presenter.clockFired(now: now, front: dispatcher.foreground, applications: dispatcher.clients)
    }

    /// The output's own events: its input is dispatched as a device's;
    /// closing it stops the server.
    private func takeDisplayEvents() {
        let events = presenter.output.handleEvents()
        for problem in events.diagnostics { log(problem) }
        let readTime = monotonicSeconds()
        for event in events.input { dispatcher.dispatch(event, readTime: readTime, from: InputOrigin(presenter.output)) }
        if events.isClosed {
            log("\(presenter.output.name): closed; stopping")
            dispatcher.endInput(from: InputOrigin(presenter.output), readTime: readTime)
            isStopped = true
        }
    }

    /// Reads the signals waiting at the signal descriptor: SIGINT and SIGTERM stop the server.
    private func takeSignals() {
        var information = signalfd_siginfo()
        while Glibc.read(signalDescriptor, &information, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            log("stopping on a signal")
            isStopped = true
        }
    }

    /// Reads one source; false when it is finished or broken, and then
    /// whatever it still holds down is cancelled.
    private func read(_ source: any InputSource) -> Bool {
        let origin = InputOrigin(source)
        do {
            let events = try source.readEvents()
            for problem in source.takeDiagnostics() { log(problem) }
            let readTime = monotonicSeconds()
            for event in events { dispatcher.dispatch(event, readTime: readTime, from: origin) }
            return true
        } catch .endOfInput {
            for problem in source.takeDiagnostics() { log(problem) }
            log("\(source.name): end of input")
        } catch {
            log("\(source.name): \(error); no longer read")
        }
        dispatcher.endInput(from: origin, readTime: monotonicSeconds())
        return false
    }

    private func applyDeviceChanges() {
        guard let (monitor, open) = deviceMonitor else { return }
        for change in monitor.readChanges() {
            switch change {
            case .added(let path):
                // A node is reported again when udev changes its permissions.
                guard !sources.contains(where: { $0.name == path }) else { continue }
                switch open(path) {
                case .success(let source?):
                    sources.append(source)
                    log("\(path): plugged in; reading it")
                case .success(nil): break
                case .failure(let error): log("\(error)")
                }
            case .removed(let path):
                let unplugged = sources.filter { $0.name == path }
                guard !unplugged.isEmpty else { continue }
                sources.removeAll { $0.name == path }
                log("\(path): unplugged")
                for source in unplugged { dispatcher.endInput(from: InputOrigin(source), readTime: monotonicSeconds()) }
                descriptorsFreed()
            }
        }
    }

    private func flushAll() {
        for client in dispatcher.clients where client.queuedMessageCount > 0 {
            do {
                _ = try client.flush()
            } catch {
                drop(client, because: "could not be sent to (\(error))", now: monotonicSeconds())
            }
        }
    }

    // MARK: Clients

    private func acceptClients(now: Double) {
        while true {
            let descriptor = MessageSocket.acceptDescriptor(on: listener)
            guard descriptor >= 0 else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: break
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    log.report("out of descriptors", "accept failed: \(String(cString: strerror(errno))); accepting no client until a descriptor is free")
                    acceptPausedUntil = now + 1
                default:
                    log.report("accept failed", "accept failed: \(String(cString: strerror(errno)))")
                }
                return
            }
            let socket = MessageSocket(fileDescriptor: descriptor)
            let credentials: PeerCredentials
            do {
                credentials = try socket.peerCredentials()
            } catch {
                log.report("unreadable credentials", "refused a client whose credentials could not be read: \(error)")
                socket.close()
                continue
            }
            let client = Client(identifier: nextClientIdentifier, socket: socket, credentials: credentials, connectTime: now)
            nextClientIdentifier &+= 1
            guard configuration.acceptsPeer(credentials) else {
                refuse(client, .refusedPeer, "refused: the server accepts only processes of user \(getuid()), not of user \(credentials.userIdentifier)")
                continue
            }
            guard dispatcher.clients.count + greeting.count < Self.maximumClients else {
                refuse(client, .other, "refused: the server has \(Self.maximumClients) clients connected, its most")
                continue
            }
            greeting.append(client)
        }
    }

    private func readMessages(from client: Client, now: Double, atMost limit: Int = messagesPerClientPerTurn) {
        for _ in 0..<min(limit, Self.messagesPerClientPerTurn) {
            let received: (Result<ServerMessage, ServerProtocolError>, Int32?)?
            do {
                received = try client.socket.receiveMessageWithDescriptor()
            } catch .peerClosed {
                return drop(client, because: "hung up", now: now, tellIt: false)
            } catch {
                return drop(client, because: "sent what could not be read: \(error)", now: now, code: .malformedMessage)
            }
            guard let (message, descriptor) = received else { return }
            switch message {
            case .failure(let error):
                if let descriptor { close(descriptor) }
                if case .badInspectorMessage = error, client.isApplication {
                    // Only its inspector hears of it: the application stays.
                    inspectors.skipMalformedMessage(from: client, error)
                    continue
                }
                return drop(client, because: "sent a malformed message: \(error)", now: now, code: .malformedMessage)
            case .success(let message):
                guard handle(message, descriptor: descriptor, from: client, now: now) else { return }
            }
        }
    }

    /// Acts on one message; false when the client was dropped for it. A
    /// descriptor comes only with a buffer: any other is closed.
    private func handle(_ message: ServerMessage, descriptor: Int32?, from client: Client, now: Double) -> Bool {
        var descriptor = descriptor
        defer { if let descriptor { close(descriptor) } }
        guard let role = client.role else {
            guard case .hello(let hello) = message else {
                drop(client, because: "spoke before saying hello", now: now, code: .unexpectedMessage)
                return false
            }
            return welcome(client, hello, now: now)
        }
        switch (role, message) {
        case (.application, .acknowledgement(let acknowledgement)):
            dispatcher.acknowledge(acknowledgement, from: client)
        case (.control, .controlRequest(let request)):
            client.enqueue(ServerMessage.controlReply(answer(request, now: now)).encoded())
        case (.injector, .event(let envelope)), (.inspector, .event(let envelope)):
            inject(envelope, from: client)
        case (.inspector, .inspectRequest(let request)):
            if case .refuse(let error) = inspectors.handle(request, from: client, applications: dispatcher.clients, front: dispatcher.foreground) {
                drop(client, because: error.message, now: now, code: error.code)
                return false
            }
        case (.application, .inspectorReport(let report)):
            if let behind = inspectors.pass(report, from: client) {
                drop(behind, because: "fell more than \(InspectorRelay.maximumBacklog) messages behind its application's reports", now: now)
            }
        case (.application, .attachBuffer), (.application, .requestFrame), (.application, .commitFrame):
            let passed = descriptor
            descriptor = nil
            do {
                try presenter.handle(message, descriptor: passed, from: client, isFront: dispatcher.foreground === client, now: now)
            } catch {
                drop(client, because: "\(error)", now: now, code: .unexpectedMessage)
                return false
            }
        default:
            drop(client, because: "sent a message its role (\(role)) does not send: \(message.kind)", now: now, code: .unexpectedMessage)
            return false
        }
        return true
    }

    private func welcome(_ client: Client, _ hello: ServerMessage.Hello, now: Double) -> Bool {
        greeting.removeAll { $0 === client }
        guard hello.version == ServerProtocol.version else {
            refuse(client, .unsupportedVersion, "this server speaks protocol version \(ServerProtocol.version), not \(hello.version)")
            return false
        }
        guard !hello.name.isEmpty else {
            refuse(client, .malformedMessage, "a hello must name the client")
            return false
        }
        client.role = hello.role
        client.name = hello.name
        let isApplication = hello.role == .application
        let screen = configuration.screen
        client.enqueue(ServerMessage.welcome(.init(
            clientIdentifier: client.identifier, screenWidth: screen.width, screenHeight: screen.height,
            screenScale: screen.scale, screenSafeArea: screen.safeArea, isForeground: isApplication
        )).encoded())
        if hello.role != .control && hello.role != .injector {
            log("\(hello.role) \(dispatcher.describe(client)) connected")
        }
        dispatcher.add(client, now: now)
        return true
    }

    private func answer(_ request: ServerMessage.ControlRequest, now: Double) -> ServerMessage.ControlReply {
        switch request {
        case .listApplications:
            return .applications(dispatcher.applicationStatuses())
        case .switchTo(let name):
            if let problem = dispatcher.switchTo(name: name, now: now) { return .failed(problem) }
            return .done
        }
    }

    /// An injector's event is input like any device's, read now. It keeps
    /// its timestamp, as a device's event keeps the kernel's: a replay as
    /// fast as possible still carries the recorded intervals. The injector
    /// keeps the pace.
    private func inject(_ envelope: ServerMessage.EventEnvelope, from client: Client) {
        envelope.packet.withUnsafeBytes { injectedPackets.append($0) }
        let readTime = monotonicSeconds()
        while let result = injectedPackets.next() {
            switch result {
            case .success(let event): dispatcher.dispatch(event, readTime: readTime, from: InputOrigin(client))
            case .failure(let error): log.report("bad injected event", "\(dispatcher.describe(client)) injected a bad event: \(error); skipped")
            }
        }
        if injectedPackets.bufferedByteCount > 0 {
            log.report("bad injected event", "\(dispatcher.describe(client)) injected a cut-off event of \(envelope.packet.count) bytes; skipped")
            injectedPackets = HIDPacketDecoder()
        }
        // Sent before the injector's socket is read again: one send per
        // message either way, and the read that finds it empty comes after.
        flushAll()
    }

    private func dropSilentClients(now: Double) {
        for client in greeting where now - client.connectTime >= configuration.helloTimeout {
            greeting.removeAll { $0 === client }
            refuse(client, .unexpectedMessage, "no hello within \(formatSeconds(configuration.helloTimeout))")
        }
    }

    /// Sends a client why it is refused, then hangs up.
    private func refuse(_ client: Client, _ code: ServerErrorMessage.Code, _ why: String) {
        log("client \(client.identifier) (pid \(client.credentials.processIdentifier)): \(why)")
        client.socket.discardWaitingMessages()
        _ = try? client.socket.send(ServerMessage.error(ServerErrorMessage(code, why)).encoded())
        client.socket.close()
        descriptorsFreed()
    }

    private func drop(
        _ client: Client, because why: String, now: Double,
        tellIt: Bool = true, code: ServerErrorMessage.Code = .other
    ) {
        greeting.removeAll { $0 === client }
        if tellIt {
            refuse(client, code, "\(dispatcher.describe(client)) \(why); disconnected")
        } else {
            log("\(dispatcher.describe(client)) \(why)")
            client.socket.close()
            descriptorsFreed()
        }
        // An injector's contacts end with it, like any source's.
        dispatcher.endInput(from: InputOrigin(client), readTime: now)
        dispatcher.remove(client, now: now)
        presenter.remove(client)
        inspectors.remove(client)
    }

    /// A descriptor was closed: if `accept` was waiting for one, it may try again.
    private func descriptorsFreed() {
        guard acceptPausedUntil != nil else { return }
        acceptPausedUntil = nil
        log("accepting clients again")
    }

    /// Contacts down that the server follows, from every source (for tests).
    var contactsDown: Int { dispatcher.contactsDown }

    // MARK: The socket

    private static func listen(at path: String, ownsDirectory: Bool) throws(EventServerError) -> Int32 {
        try checkSocketDirectory(for: path, owned: ownsDirectory)
        guard var address = UnixSocketAddress(path: path) else { throw .socket("the socket path is too long: \(path)") }
        var existing = stat()
        if lstat(path, &existing) == 0 {
            // A socket file left by a server that died is removed; one that
            // a live server answers on is not, nor is anything but a socket.
            switch existing.st_mode & S_IFMT {
            case S_IFSOCK:
                if (try? MessageSocket.connect(to: path)) != nil {
                    throw .socket("another event server is already listening at \(path)")
                }
                unlink(path)
            case S_IFLNK:
                throw .socket("\(path) is a symbolic link, not a socket: the server does not listen through a link or remove one; remove it or choose another --socket")
            default:
                throw .socket("\(path) exists and is not a socket; the server does not replace it: remove it or choose another --socket")
            }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .socket("socket: \(String(cString: strerror(errno)))") }
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        guard bound == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw .socket("cannot bind \(path): \(message)")
        }
        chmod(path, 0o600)
        guard Glibc.listen(descriptor, 64) == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            unlink(path)
            throw .socket("cannot listen on \(path): \(message)")
        }
        return descriptor
    }

    /// Checks the socket's directory, making it (mode 0700) if missing. It
    /// must belong to this user, or be sticky and shared like `/tmp`, and
    /// others must not be able to write to it unless it is sticky: in a
    /// directory anyone can write, anyone can remove the live socket and
    /// put theirs in its place. The server's own directory (`owned`) is
    /// opened without following a link planted in its place, checked on
    /// the opened directory, and closed to everyone else.
    private static func checkSocketDirectory(for path: String, owned: Bool) throws(EventServerError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .socket("cannot make the socket's directory \(directory): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (owned ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP || (code == ENOTDIR && owned && isSymbolicLink(directory)) {
                throw .socket("the socket's directory \(directory) is a symbolic link: the server makes its own directory there and follows no link in its place; remove the link")
            }
            if code == ENOTDIR { throw .socket("\(directory) is not a directory") }
            throw .socket("cannot open the socket's directory \(directory): \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .socket("cannot read the socket's directory \(directory): \(String(cString: strerror(errno)))")
        }
        let isSticky = info.st_mode & S_ISVTX != 0  // /tmp and the like: shared on purpose
        guard (isSticky && !owned) || info.st_uid == getuid() else {
            throw .socket("the socket's directory \(directory) belongs to user \(info.st_uid), not to this user (\(getuid()))")
        }
        if owned {
            if info.st_mode & 0o077 != 0 && fchmod(descriptor, 0o700) != 0 {
                throw .socket("the socket's directory \(directory) is open to other users and cannot be closed")
            }
        } else if !isSticky && info.st_mode & 0o022 != 0 {
            throw .socket("the socket's directory \(directory) can be written by other users and is not sticky: any of them could remove the server's socket and put their own in its place; choose a directory only you can write to")
        }
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}

public enum EventServerError: Error, Equatable, Sendable, CustomStringConvertible {
    case socket(String)
    case display(String)

    public var description: String {
        switch self {
        case .socket(let message), .display(let message): message
        }
    }
}

extension ServerMessage {
    /// The message's name, for diagnostics.
    var kind: String {
        switch self {
        case .hello: "hello"
        case .acknowledgement: "acknowledgement"
        case .controlRequest: "control request"
        case .welcome: "welcome"
        case .event: "event"
        case .appState: "app state"
        case .controlReply: "control reply"
        case .error: "error"
        case .shutdown: "shutdown"
        case .attachBuffer: "attach buffer"
        case .requestFrame: "request frame"
        case .commitFrame: "commit frame"
        case .frameSignal: "frame signal"
        case .bufferReleased: "buffer released"
        case .framePresented: "frame presented"
        case .frameDiscarded: "frame discarded"
        case .inspectRequest: "inspect request"
        case .inspectorCommand: "inspector command"
        case .inspectorReport: "inspector report"
        case .inspectorStatus: "inspector status"
        case .inspectorFrame: "inspector frame"
        }
    }
}
