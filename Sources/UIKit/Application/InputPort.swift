import HID

/// The application's input port: where HID events arrive, in the wire format
/// of `HIDWireFormat` (on iOS, the mach port that backboardd sends to).
///
/// Two kinds of sender reach it. Another process (the event server) writes
/// to a Unix-domain socket whose receiving end is attached here; code in
/// this process (the `TouchSynthesizer`) hands bytes over with
/// ``send(_:)-(HIDEvent)``, which skips the kernel round trip but nothing
/// else: the bytes are decoded by the same port source on the same run
/// loop. Malformed bytes from either are reported and skipped.
@MainActor
public final class InputPort: RunLoopPort {
    private var localBytes: [UInt8] = []
    private var sockets: [HIDSocket] = []
    private var decoder = HIDPacketDecoder()
    private let encoder = HIDPacketEncoder()
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
        sockets.append(pair.receiver)
        return pair.sender
    }

    /// Reads from `socket`, the receiving end of a connection made elsewhere.
    public func attach(_ socket: HIDSocket) throws(HIDSocketError) {
        try socket.setNonBlocking()
        sockets.append(socket)
    }

    public var hasWaitingMessages: Bool { !localBytes.isEmpty }

    public var waitDescriptors: [Int32] { sockets.map(\.fileDescriptor) }

    public func receiveWaitingMessages() -> Bool {
        var received = false
        if !localBytes.isEmpty {
            decoder.append(localBytes)
            localBytes.removeAll(keepingCapacity: true)
            received = true
        }
        var index = 0
        while index < sockets.count {
            do {
                received = try sockets[index].receiveAvailable(into: &decoder) > 0 || received
                index += 1
            } catch {
                onError(Diagnostic(.inputPort, "input socket dropped: \(error)"))
                sockets.remove(at: index)
            }
        }
        return received
    }

    /// The next decoded event or decoding error, or nil when no whole packet is waiting.
    func nextEvent() -> Result<HIDEvent, HIDDecodingError>? {
        decoder.next()
    }
}
