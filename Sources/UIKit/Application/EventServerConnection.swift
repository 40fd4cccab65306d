#if canImport(Glibc)
import Glibc
#endif
import HID

/// The application's connection to the event server: its socket is the
/// input port's mach port, so to speak. Events arrive on it numbered; each
/// is acknowledged once delivered. The server also says when the
/// application goes to the background and comes back, and when it stops.
@MainActor
final class EventServerConnection {
    /// What arrived, in the order it arrived.
    enum Item {
        /// `readTime` and `sendTime`: when the server read it and when it
        /// queued it for this application, seconds of `CLOCK_MONOTONIC`.
        case event(HIDEvent, sequence: UInt64, readTime: Double, sendTime: Double)
        /// An event message whose HID packet did not decode.
        case malformedEvent(HIDDecodingError, sequence: UInt64)
        case state(ServerMessage.AppState)
        /// A refresh of the display, for the frame the application asked for.
        case frameSignal(ServerMessage.FrameSignal)
        case bufferReleased(UInt32)
        case framePresented(ServerMessage.FramePresentation)
        case frameDiscarded(UInt64)
        /// An inspector attached, asked for the tree, or went (`ServerInspection`).
        case inspectorCommand(ServerMessage.InspectorCommand)
        /// The server stopped, hung up or dropped this application.
        case disconnected(reason: String)
    }

    let socket: MessageSocket
    let welcome: ServerMessage.Welcome
    @exclusivity(unchecked) private var items: [Item] = []
    @exclusivity(unchecked) private var itemsHead = 0
    @exclusivity(unchecked) private var decoder = HIDPacketDecoder()
    /// Set once the connection is gone; the socket is closed then.
    @exclusivity(unchecked) private(set) var isDisconnected = false
    /// The last acknowledgement's message, written over by the next: one
    /// made for each event was an allocation per event.
    @exclusivity(unchecked) private var acknowledgementMessage: [UInt8] = []

    /// How long launch waits for the server's welcome.
    static let welcomeTimeout = 5.0

    init(socket: MessageSocket, welcome: ServerMessage.Welcome) {
        self.socket = socket
        self.welcome = welcome
    }

    /// Connects to the server at `path`, says hello and waits for the
    /// welcome. A server that is not this user's (`trust`) hears nothing.
    static func connect(
        to path: String, name: String, trust: ServerTrust = .fromEnvironment()
    ) throws(EventServerConnectionError) -> EventServerConnection {
        do {
            let socket = try MessageSocket.connectToServer(at: path, trust: trust)
            let hello = ServerMessage.Hello(role: .application, processIdentifier: getpid(), name: name)
            return EventServerConnection(socket: socket, welcome: try socket.greet(hello, timeout: welcomeTimeout))
        } catch let error as GreetingError {
            if case .socket(let error) = error { throw .socket(error) }
            throw .refused(error.description)
        } catch let error as MessageSocketError {
            throw .socket(error)
        } catch {
            throw .refused("\(error)")
        }
    }

    var hasItems: Bool { itemsHead < items.count }

    /// Whether the last read took a message, so that another may be
    /// waiting: the socket is read again before the run loop sleeps.
    @exclusivity(unchecked) private(set) var mayHaveMessages = false

    /// The next thing that arrived, or nil.
    func nextItem() -> Item? {
        guard itemsHead < items.count else {
            if !items.isEmpty { items.removeAll(keepingCapacity: true); itemsHead = 0 }
            return nil
        }
        let item = items[itemsHead]
        itemsHead += 1
        return item
    }

    private enum Received {
        /// An event message, already taken in as an item.
        case event
        case message(ServerMessage)
        case malformed(ServerProtocolError)
    }

    /// Reads the next message, if one is waiting; true if anything is
    /// waiting to be taken with ``nextItem()``. One message at a time: the
    /// event it brings is delivered before the socket is read again (see
    /// ``mayHaveMessages``), so the read that finds the socket empty comes
    /// after the delivery, not before it. A digitizer frame's contacts are
    /// decoded into the storage of `contacts` when it has some.
    func receiveWaitingMessages(reusing contacts: inout [DigitizerContact]) -> Bool {
        guard !isDisconnected else { return hasItems }
        let received: Received?
        do {
            received = try socket.receive { (bytes) throws(MessageSocketError) -> Received in
                do throws(ServerProtocolError) {
                    if let (sequence, readTime, sendTime, packet) = try ServerMessage.decodeEvent(bytes) {
                        receiveEvent(sequence: sequence, readTime: readTime, sendTime: sendTime, packet: packet, reusing: &contacts)
                        return .event
                    }
                    return .message(try ServerMessage(decoding: bytes))
                } catch {
                    return .malformed(error)
                }
            }
        } catch .peerClosed {
            disconnect("the event server hung up")
            return true
        } catch {
            disconnect("the connection to the event server failed: \(error)")
            return true
        }
        mayHaveMessages = received != nil
        switch received {
        case nil, .event: break
        case .message(.appState(let state)): items.append(.state(state))
        case .message(.frameSignal(let signal)): items.append(.frameSignal(signal))
        case .message(.bufferReleased(let identifier)): items.append(.bufferReleased(identifier))
        case .message(.framePresented(let presentation)): items.append(.framePresented(presentation))
        case .message(.frameDiscarded(let identifier)): items.append(.frameDiscarded(identifier))
        case .message(.inspectorCommand(let command)): items.append(.inspectorCommand(command))
        case .message(.shutdown): disconnect("the event server stopped")
        case .message(.error(let error)): disconnect("the event server dropped this application: \(error.message)")
        case .message(let other): disconnect("the event server sent an unexpected \(other)")
        case .malformed(let error): disconnect("the event server sent a malformed message: \(error)")
        }
        return hasItems
    }

    private func receiveEvent(
        sequence: UInt64, readTime: Double, sendTime: Double, packet: UnsafeRawBufferPointer, reusing contacts: inout [DigitizerContact]
    ) {
        decoder.append(packet)
        var decoded = false
        while let result = decoder.next(reusing: &contacts) {
            switch result {
            case .success(let event) where !decoded:
                items.append(.event(event, sequence: sequence, readTime: readTime, sendTime: sendTime))
                decoded = true
            case .success:
                break  // one event per message: a second one is not the server's
            case .failure(let error):
                if !decoded { items.append(.malformedEvent(error, sequence: sequence)) }
                decoded = true
            }
        }
        if !decoded { items.append(.malformedEvent(.badPayloadLength(kind: 0, length: packet.count), sequence: sequence)) }
        // Each message stands alone: nothing left over carries into the next.
        if decoder.bufferedByteCount > 0 { decoder = HIDPacketDecoder() }
    }

    /// Closes the connection; the reason is the last item. Whatever finds
    /// the connection gone (a read, an acknowledgement that cannot be
    /// sent) ends up here, and the application learns it from the item.
    private func disconnect(_ reason: String) {
        guard !isDisconnected else { return }
        isDisconnected = true
        mayHaveMessages = false
        items.append(.disconnected(reason: reason))
        socket.close()
    }

    /// Hands the server a frame buffer's memfd (see `ScreenFrames`).
    func attach(_ attachment: ServerMessage.BufferAttachment, descriptor: Int32) throws(MessageSocketError) {
        try socket.sendWaiting(ServerMessage.attachBuffer(attachment).encoded(), passing: descriptor, timeout: 1)
    }

    /// Sends a frame message, waiting a moment for room as an
    /// acknowledgement does.
    func send(_ message: [UInt8]) {
        guard !isDisconnected else { return }
        do {
            try socket.sendWaiting(message, timeout: 1)
        } catch {
            disconnect("a frame message could not be sent: \(error)")
        }
    }

    /// Sends `text` to the inspector, in as many reports as it takes, each
    /// waiting a moment for room. False if one could not be sent in time:
    /// the text is cut then, and the caller stops reporting.
    func sendInspectorReport(_ text: String) -> Bool {
        guard !isDisconnected else { return true }
        let bytes = Array(text.utf8)
        var start = 0
        repeat {
            let end = min(bytes.count, start + ServerProtocol.maximumInspectorReportPart)
            let report = ServerMessage.InspectorReport(isLastPart: end == bytes.count, bytes: Array(bytes[start..<end]))
            do {
                try socket.sendWaiting(ServerMessage.inspectorReport(report).encoded(), timeout: 1)
            } catch .timedOut {
                return false
            } catch {
                disconnect("an inspector report could not be sent: \(error)")
                return true
            }
            start = end
        } while start < bytes.count
        return true
    }

    /// Tells the server the event is handled. A full socket means the
    /// server is behind; the acknowledgement then waits a moment for room,
    /// since a lost one would make this application look hung.
    func acknowledge(_ sequence: UInt64, handled: Bool) {
        guard !isDisconnected else { return }
        ServerMessage.encodeAcknowledgement(
            .init(sequence: sequence, handled: handled, finishTime: monotonicSeconds()), into: &acknowledgementMessage)
        do {
            try socket.sendWaiting(acknowledgementMessage, timeout: 1)
        } catch {
            disconnect("an acknowledgement could not be sent: \(error)")
        }
    }
}

enum EventServerConnectionError: Error, CustomStringConvertible {
    case socket(MessageSocketError)
    case refused(String)

    var description: String {
        switch self {
        case .socket(let error): "\(error)"
        case .refused(let message): "the event server refused this application: \(message)"
        }
    }
}
