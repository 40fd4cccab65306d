#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSharedMemory

/// One end of a Unix-domain `SOCK_SEQPACKET` connection to or from the event
/// server: every send is one message and every receive takes one whole
/// message, as Android's input channels do. Non-blocking: nothing here
/// waits unless asked to with ``waitUntilReadable(timeout:)``.
public final class MessageSocket: @unchecked Sendable {
    // @unchecked: the descriptor is immutable; the receive buffer is used by
    // one thread at a time (the owner's run loop or server loop).
    public let fileDescriptor: Int32
    private var isClosed = false
    private var receiveBuffer: UnsafeMutableRawBufferPointer

    /// Takes ownership of an open, connected socket descriptor and makes it non-blocking.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        // One byte more than the largest message, so that a longer one is seen to be longer.
        receiveBuffer = .allocate(byteCount: ServerProtocol.maximumMessageSize + 1, alignment: 8)
        let flags = fcntl(fileDescriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    deinit {
        close()
        receiveBuffer.deallocate()
    }

    /// Connects to the server listening at `path`.
    public static func connect(to path: String) throws(MessageSocketError) -> MessageSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket", errno) }
        guard var address = UnixSocketAddress(path: path) else {
            _ = Glibc.close(descriptor)
            throw .pathTooLong(path)
        }
        let result = address.withSockaddr { Glibc.connect(descriptor, $0, $1) }
        guard result == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            throw .connect(path, code)
        }
        return MessageSocket(fileDescriptor: descriptor)
    }

    /// Accepts a connection waiting on `listener`, its descriptor closed on
    /// exec from the start (set afterwards, a process started meanwhile by
    /// another thread would keep the connection open); -1 and `errno` when
    /// none is accepted.
    public static func acceptDescriptor(on listener: Int32) -> Int32 {
        openuikit_accept_closing_on_exec(listener)
    }

    /// A connected pair of sockets, for tests and in-process use.
    public static func makePair() throws(MessageSocketError) -> (MessageSocket, MessageSocket) {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0 else {
            throw .system("socketpair", errno)
        }
        return (MessageSocket(fileDescriptor: descriptors[0]), MessageSocket(fileDescriptor: descriptors[1]))
    }

    public enum SendOutcome: Equatable, Sendable {
        case sent
        /// The peer's buffer is full; nothing was sent. Try again when writable.
        case wouldBlock
    }

    /// Sends one message without waiting.
    public func send(_ message: [UInt8]) throws(MessageSocketError) -> SendOutcome {
        try sendOnce("send") {
            message.withUnsafeBytes { Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
    }

    /// Sends one message with a descriptor attached (`SCM_RIGHTS`) without
    /// waiting: the server's, to an inspector. `descriptor` stays open here.
    public func send(_ message: [UInt8], passing descriptor: Int32) throws(MessageSocketError) -> SendOutcome {
        try sendOnce("sendmsg") {
            message.withUnsafeBytes { openuikit_send_with_descriptor(fileDescriptor, $0.baseAddress, $0.count, descriptor) }
        }
    }

    /// Sends one message with a descriptor attached (`SCM_RIGHTS`), waiting
    /// up to `timeout` seconds for room: an application's frame buffer. The
    /// receiver gets its own descriptor for the same file; `descriptor`
    /// stays open here.
    public func sendWaiting(_ message: [UInt8], passing descriptor: Int32, timeout: Double = 5) throws(MessageSocketError) {
        try waitingForRoom(timeout: timeout) { () throws(MessageSocketError) in try send(message, passing: descriptor) }
    }

    /// One non-blocking send by `sendCall` (the system call `name`), made
    /// again if a signal interrupts it.
    private func sendOnce(_ name: String, _ sendCall: () -> Int) throws(MessageSocketError) -> SendOutcome {
        guard !isClosed else { throw .system(name, EBADF) }
        while true {
            if sendCall() >= 0 { return .sent }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EPIPE, ECONNRESET, ENOTCONN: throw .peerClosed
            case let code: throw .system(name, code)
            }
        }
    }

    /// Makes `attempt` until it sends, waiting for room in between, for up
    /// to `timeout` seconds.
    private func waitingForRoom(timeout: Double, _ attempt: () throws(MessageSocketError) -> SendOutcome) throws(MessageSocketError) {
        let deadline = monotonicSeconds() + timeout
        while try attempt() == .wouldBlock {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw .timedOut }
            _ = waitUntil(events: Int16(POLLOUT), timeout: left)
        }
    }

    /// Calls `body` with the next whole message and the descriptor sent
    /// with it, if any (which `body` then owns), or returns nil when none is
    /// waiting. More than one descriptor with a message: the others are
    /// closed. ``receive(_:)`` for a peer that may send descriptors.
    public func receiveWithDescriptor<R>(
        _ body: (UnsafeRawBufferPointer, Int32?) throws(MessageSocketError) -> R
    ) throws(MessageSocketError) -> R? {
        guard !isClosed else { throw .system("recvmsg", EBADF) }
        while true {
            var descriptor: Int32 = -1
            let count = openuikit_receive_with_descriptor(fileDescriptor, receiveBuffer.baseAddress, receiveBuffer.count, &descriptor)
            if count > receiveBuffer.count - 1 {
                if descriptor >= 0 { _ = Glibc.close(descriptor) }
                throw .messageTooLong(count)
            }
            if count > 0 {
                return try body(UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<count]), descriptor >= 0 ? descriptor : nil)
            }
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
            if count == 0 { throw .peerClosed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case ECONNRESET: throw .peerClosed
            case let code: throw .system("recvmsg", code)
            }
        }
    }

    /// Sends a message, waiting up to `timeout` seconds for room: for
    /// clients (a tool, an application's hello), never for the server.
    public func sendWaiting(_ message: [UInt8], timeout: Double = 5) throws(MessageSocketError) {
        try waitingForRoom(timeout: timeout) { () throws(MessageSocketError) in try send(message) }
    }

    /// Calls `body` with the next whole message, or returns nil when none
    /// is waiting. The bytes are valid only during the call.
    public func receive<R>(_ body: (UnsafeRawBufferPointer) throws(MessageSocketError) -> R) throws(MessageSocketError) -> R? {
        guard !isClosed else { throw .system("recv", EBADF) }
        while true {
            let count = recv(fileDescriptor, receiveBuffer.baseAddress, receiveBuffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
            if count > receiveBuffer.count - 1 { throw .messageTooLong(count) }
            if count > 0 { return try body(UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<count])) }
            // Nobody sends an empty message: a read of nothing is the peer hanging up.
            if count == 0 { throw .peerClosed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case ECONNRESET: throw .peerClosed
            case let code: throw .system("recv", code)
            }
        }
    }

    /// The next message, decoded; nil when none is waiting.
    public func receiveMessage() throws(MessageSocketError) -> Result<ServerMessage, ServerProtocolError>? {
        try receive { bytes in Result { () throws(ServerProtocolError) in try ServerMessage(decoding: bytes) } }
    }

    /// The next message, decoded, with the descriptor that came with it
    /// (the caller owns it); nil when none is waiting.
    public func receiveMessageWithDescriptor() throws(MessageSocketError) -> (Result<ServerMessage, ServerProtocolError>, Int32?)? {
        try receiveWithDescriptor { bytes, descriptor in
            (Result { () throws(ServerProtocolError) in try ServerMessage(decoding: bytes) }, descriptor)
        }
    }

    /// Waits up to `timeout` seconds for a message, then receives it.
    public func receiveMessage(timeout: Double) throws(MessageSocketError) -> Result<ServerMessage, ServerProtocolError> {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let message = try receiveMessage() { return message }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { throw .timedOut }
            _ = waitUntilReadable(timeout: left)
        }
    }

    /// Sleeps until a message is waiting or `timeout` seconds passed; true if readable.
    @discardableResult
    public func waitUntilReadable(timeout: Double) -> Bool {
        waitUntil(events: Int16(POLLIN), timeout: timeout)
    }

    private func waitUntil(events: Int16, timeout: Double) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: events, revents: 0)
        let milliseconds = Int32(min(max(0, timeout * 1000), Double(Int32.max)).rounded(.up))
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// The user and process on the other end, as the kernel saw them at
    /// connection time (`SO_PEERCRED`).
    public func peerCredentials() throws(MessageSocketError) -> PeerCredentials {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's module does not export.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fileDescriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw .system("getsockopt(SO_PEERCRED)", errno)
        }
        return PeerCredentials(processIdentifier: credentials.0, userIdentifier: credentials.1, groupIdentifier: credentials.2)
    }

    /// Reads and throws away what is waiting, up to `limit` messages.
    /// Before hanging up on a peer: closing with unread messages makes the
    /// peer's next read fail with a reset before it has read the last
    /// message sent to it (the error saying why).
    public func discardWaitingMessages(limit: Int = 1024) {
        for _ in 0..<limit {
            guard let read = try? receive({ _ in true }), read else { return }
        }
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(fileDescriptor)
    }
}

/// Who is on the other end of a Unix-domain socket.
public struct PeerCredentials: Equatable, Sendable {
    public var processIdentifier: Int32
    public var userIdentifier: UInt32
    public var groupIdentifier: UInt32

    public init(processIdentifier: Int32, userIdentifier: UInt32, groupIdentifier: UInt32) {
        self.processIdentifier = processIdentifier
        self.userIdentifier = userIdentifier
        self.groupIdentifier = groupIdentifier
    }
}

public enum MessageSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    case system(String, Int32)
    case connect(String, Int32)
    case pathTooLong(String)
    case peerClosed
    case messageTooLong(Int)
    case timedOut
    /// The socket at the path, or the process listening there, is not this
    /// user's (see ``ServerTrust``): nothing was said to it.
    case untrustedServer(String, String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .connect(let path, let code): "cannot connect to the event server at \(path): \(String(cString: strerror(code)))"
        case .pathTooLong(let path): "socket path too long for a Unix-domain address (at most 107 bytes): \(path)"
        case .peerClosed: "the other end closed the connection"
        case .messageTooLong(let n): "a message of \(n) bytes is longer than the protocol allows (\(ServerProtocol.maximumMessageSize))"
        case .timedOut: "timed out"
        case .untrustedServer(let path, let why): "refusing the event server at \(path): \(why)"
        }
    }
}

/// A `sockaddr_un` for a filesystem path.
public struct UnixSocketAddress {
    private var storage = sockaddr_un()

    /// Nil when the path does not fit (107 bytes and a terminating zero).
    public init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    public mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// Seconds of `CLOCK_MONOTONIC`: the clock event timestamps, read times and
/// acknowledgement times are all on, in every process.
public func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
}
