import HID

/// One connection to the server: an application, a control tool, an
/// injector or a recorder. It owns its socket and its outbound queue; the
/// server sends from the queue only when the socket has room, so a client
/// that does not read delays nobody but itself.
final class Client {
    let identifier: UInt32
    let socket: MessageSocket
    let credentials: PeerCredentials
    // Touched at every turn of the server's one thread: unchecked for exclusivity (see EventServer).
    /// Nil until the client's hello was accepted.
    @exclusivity(unchecked) var role: ServerMessage.Hello.Role?
    var name = ""
    /// When the connection was accepted, for the hello deadline.
    let connectTime: Double

    /// Messages waiting for room in the socket, oldest first, from `outboxHead` on.
    @exclusivity(unchecked) private var outbox: [[UInt8]] = []
    @exclusivity(unchecked) private var outboxHead = 0

    // The application's side of the dispatcher (Android's per-connection state).
    /// The sequence number of the next event sent.
    @exclusivity(unchecked) var nextSequence: UInt64 = 1
    /// Events sent (or queued) and not yet acknowledged, oldest first: the
    /// dispatcher's wait queue, which the watchdog reads.
    @exclusivity(unchecked) var unacknowledged: [(sequence: UInt64, dispatchTime: Double)] = []
    @exclusivity(unchecked) var unacknowledgedHead = 0
    /// False from the moment the watchdog found an event unacknowledged for
    /// too long until the application has caught up with every event.
    @exclusivity(unchecked) var isResponding = true
    /// Events not sent because the client's queue was full, since it last caught up.
    @exclusivity(unchecked) var droppedEventCount = 0
    /// The timestamp of the last event sent, so that none goes back in time.
    @exclusivity(unchecked) var lastEventTimestamp = -Double.infinity
    /// The application's frame buffers and commits (see `FramePresenter`).
    let frames = ApplicationFrames()
    /// Messages that carry a memfd (an inspector's frames), each with the
    /// buffer it passes, kept open until sent; sent after ``outbox``'s.
    private var outboxWithBuffers: [(message: [UInt8], buffer: SharedFrameBuffer)] = []

    init(identifier: UInt32, socket: MessageSocket, credentials: PeerCredentials, connectTime: Double) {
        self.identifier = identifier
        self.socket = socket
        self.credentials = credentials
        self.connectTime = connectTime
    }

    var isApplication: Bool { role == .application }

    var queuedMessageCount: Int { outbox.count - outboxHead + outboxWithBuffers.count }
    var unacknowledgedCount: Int { unacknowledged.count - unacknowledgedHead }
    /// How far behind the client is: events queued for it, or sent and
    /// waiting for its acknowledgement, whichever is more. Both are
    /// bounded by the dispatcher's `maximumQueuedEvents`.
    var backlog: Int { max(queuedMessageCount, unacknowledgedCount) }

    /// How many events an application may owe acknowledgements for before
    /// its acknowledgements wake the server. Below it, they wait in the
    /// socket and are read at the server's next turn (the next input, at
    /// the latest the watchdog's deadline): a wake-up for each one would
    /// double the server's wake-ups, and its CPU time, per event. Far
    /// fewer than the application's socket holds (about 278 small messages
    /// with Linux's default buffer), so its acknowledgement never waits
    /// for room.
    static let acknowledgementsReadAtTheNextTurn = 32

    /// Whether this client's messages can wait for the server's next turn
    /// instead of waking it: an application responding and owing a few
    /// acknowledgements, which is all it sends. Anything else (a client
    /// owing nothing, an application the watchdog gave up on, a tool)
    /// wakes the server.
    var acknowledgementsCanWait: Bool {
        isApplication && isResponding && unacknowledgedCount > 0 && unacknowledgedCount < Self.acknowledgementsReadAtTheNextTurn
    }

    /// The oldest event still waiting for its acknowledgement.
    var oldestUnacknowledged: (sequence: UInt64, dispatchTime: Double)? {
        unacknowledgedHead < unacknowledged.count ? unacknowledged[unacknowledgedHead] : nil
    }

    func enqueue(_ message: [UInt8]) {
        outbox.append(message)
    }

    /// Queues a message that passes `buffer`'s memfd to the client.
    func enqueue(_ message: [UInt8], passing buffer: SharedFrameBuffer) {
        outboxWithBuffers.append((message, buffer))
    }

    /// Takes `sequence` off the wait queue; false if it was not waiting.
    func acknowledge(_ sequence: UInt64) -> Bool {
        guard let oldest = oldestUnacknowledged else { return false }
        if oldest.sequence == sequence {
            unacknowledgedHead += 1
        } else if let index = unacknowledged[unacknowledgedHead...].firstIndex(where: { $0.sequence == sequence }) {
            unacknowledged.remove(at: index)
        } else {
            return false
        }
        if unacknowledgedHead == unacknowledged.count {
            unacknowledged.removeAll(keepingCapacity: true)
            unacknowledgedHead = 0
        }
        return true
    }

    enum FlushOutcome { case empty, blocked }

    /// Sends queued messages until the queue is empty or the socket is full.
    func flush() throws(MessageSocketError) -> FlushOutcome {
        while outboxHead < outbox.count {
            guard try socket.send(outbox[outboxHead]) == .sent else { return .blocked }
            outbox[outboxHead] = []
            outboxHead += 1
        }
        outbox.removeAll(keepingCapacity: true)
        outboxHead = 0
        while let first = outboxWithBuffers.first {
            guard try socket.send(first.message, passing: first.buffer.fileDescriptor) == .sent else { return .blocked }
            outboxWithBuffers.removeFirst()
        }
        return .empty
    }
}
