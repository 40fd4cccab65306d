import HID

/// The application's input port: where HID events arrive, in the wire format
/// of `HIDWireFormat` (on iOS, the mach port that backboardd sends to).
///
/// Three kinds of sender reach it. The event server, when the application
/// is connected to one, sends numbered events that are acknowledged once
/// delivered (see ``UIApplication``). Another thread or process can write
/// to a stream socket whose receiving end is attached here. Code in
/// this process (the `TouchSynthesizer`) hands bytes over with
/// ``send(_:)-(HIDEvent)``, which skips the kernel round trip but nothing
/// else: the bytes are decoded by the same port source on the same run
/// loop. Malformed bytes from either are reported and skipped. Each sender
/// has a decoder of its own, so a packet split across reads never mixes
/// with another sender's bytes.
@preconcurrency @MainActor
public final class InputPort: RunLoopPort {
    private struct Connection {
        let socket: HIDSocket
        var decoder = HIDPacketDecoder()
    }

    // Used for every frame, only on the main actor: no exclusivity checks.
    @exclusivity(unchecked) private var localBytes: [UInt8] = []
    @exclusivity(unchecked) private var localDecoder = HIDPacketDecoder()
    @exclusivity(unchecked) private var connections: [Connection] = []
    /// ``waitDescriptors``, made again only when a connection comes or goes
    /// (the run loop asks before every sleep), with whether the server's
    /// connection was open then.
    @exclusivity(unchecked) private var waitDescriptorCache: (descriptors: [Int32], serverIsConnected: Bool)?
    private let encoder = HIDPacketEncoder()
    /// The contacts array of a frame already handled, decoded into again.
    @exclusivity(unchecked) private var spareContacts: [DigitizerContact] = []
    /// The connection to the event server, if the application has one.
    @exclusivity(unchecked) private(set) var server: EventServerConnection?
    /// Told about problems with the bytes or the sockets.
    var onError: @MainActor (Diagnostic) -> Void = { _ in }

    public init() {}

    /// Queues an event from inside this process.
    public func send(_ event: HIDEvent) {
        encoder.encode(event, into: &localBytes)
    }

    /// Queues raw bytes from inside this process, exactly as if they had
    /// come over a socket.
    public func send(_ bytes: [UInt8]) {
        localBytes.append(contentsOf: bytes)
    }

    /// Opens a socket to this port and returns its sending end, for a
    /// sender in another thread or (after passing the descriptor on) in
    /// another process.
    public func openSocket() throws(HIDSocketError) -> HIDSocket {
        let pair = try HIDSocket.makePair()
        connections.append(Connection(socket: pair.receiver))
        waitDescriptorCache = nil
        return pair.sender
    }

    /// Reads from `socket`, the receiving end of a connection made elsewhere.
    public func attach(_ socket: HIDSocket) throws(HIDSocketError) {
        try socket.setNonBlocking()
        connections.append(Connection(socket: socket))
        waitDescriptorCache = nil
    }

    /// Receives from the event server from now on.
    func attach(_ server: EventServerConnection) {
        self.server = server
        waitDescriptorCache = nil
    }

    public var hasWaitingMessages: Bool {
        guard let server else { return !localBytes.isEmpty }
        return !localBytes.isEmpty || server.hasItems || server.mayHaveMessages
    }

    public var waitDescriptors: [Int32] {
        var serverIsConnected = false
        if let server { serverIsConnected = !server.isDisconnected }
        if let cache = waitDescriptorCache, cache.serverIsConnected == serverIsConnected { return cache.descriptors }
        var descriptors: [Int32] = []
        for connection in connections { descriptors.append(connection.socket.fileDescriptor) }
        if let server, serverIsConnected { descriptors.append(server.socket.fileDescriptor) }
        waitDescriptorCache = (descriptors, serverIsConnected)
        return descriptors
    }

    public func receiveWaitingMessages() -> Bool {
        var received = false
        if let server { received = server.receiveWaitingMessages(reusing: &spareContacts) }
        if !localBytes.isEmpty {
            localDecoder.take(&localBytes)
            received = true
        }
        var index = 0
        while index < connections.count {
            do {
                received = try connections[index].socket.receiveAvailable(into: &connections[index].decoder) > 0 || received
                index += 1
            } catch {
                onError(Diagnostic(.inputPort, "input socket dropped: \(error)"))
                connections.remove(at: index)
                waitDescriptorCache = nil
            }
        }
        return received
    }

    /// The next decoded event or decoding error, or nil when no whole packet
    /// is waiting: in-process senders first, then each socket in turn.
    func nextEvent() -> Result<HIDEvent, HIDDecodingError>? {
        if let result = localDecoder.next(reusing: &spareContacts) { return result }
        for index in connections.indices {
            if let result = connections[index].decoder.next(reusing: &spareContacts) { return result }
        }
        return nil
    }

    /// Takes back an event that has been handled: the next frame is decoded
    /// into its storage, once nothing else holds it.
    func recycle(_ event: HIDEvent) {
        if case .digitizer(let frame) = event { spareContacts = frame.contacts }
    }
}
