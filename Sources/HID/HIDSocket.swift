#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One end of a Unix-domain stream socket that carries HID packets: the
/// channel between the event server and an application (a mach port on iOS).
///
/// The receiving end is non-blocking, so an application's run loop can drain
/// it without ever stalling; the sending end blocks until the kernel took
/// every byte.
public final class HIDSocket: @unchecked Sendable {
    // @unchecked: the descriptor is immutable and the kernel serialises I/O on it.
    public let fileDescriptor: Int32
    private var isClosed = false

    /// Takes ownership of an open socket descriptor.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit { close() }

    /// A connected pair: `(receiver, sender)`, the receiver non-blocking.
    public static func makePair() throws(HIDSocketError) -> (receiver: HIDSocket, sender: HIDSocket) {
        var descriptors: [Int32] = [0, 0]
        // Close-on-exec: a process the application starts must not hold its input channel open.
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM | SOCK_CLOEXEC
        #endif
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else { throw .system("socketpair", errno) }
        let receiver = HIDSocket(fileDescriptor: descriptors[0])
        let sender = HIDSocket(fileDescriptor: descriptors[1])
        try receiver.setNonBlocking()
        return (receiver, sender)
    }

    public func setNonBlocking() throws(HIDSocketError) {
        let flags = fcntl(fileDescriptor, F_GETFL)
        guard flags >= 0, fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system("fcntl", errno)
        }
    }

    /// Writes all of `bytes`, retrying partial writes and interruptions.
    public func send(_ bytes: [UInt8]) throws(HIDSocketError) {
        // A closed descriptor's number may already belong to another file.
        guard !isClosed else { throw .system("send", EBADF) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                sendWithoutSignal(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system("send", errno)
            }
            offset += written
        }
    }

    /// Encodes and sends one event.
    public func send(_ event: HIDEvent) throws(HIDSocketError) {
        try send(HIDPacketEncoder().encode(event))
    }

    /// Moves every byte the socket has now into `decoder`, without blocking.
    /// Returns the number of bytes read; 0 when nothing was waiting.
    @discardableResult
    public func receiveAvailable(into decoder: inout HIDPacketDecoder) throws(HIDSocketError) -> Int {
        guard !isClosed else { throw .system("read", EBADF) }
        enum Outcome { case read(Int), peerClosed, failed(Int32) }
        let chunkSize = 16 * 1024
        // The chunk lives on the stack: a read per frame costs no allocation
        // and no zero-filling.
        let outcome = withUnsafeTemporaryAllocation(byteCount: chunkSize, alignment: 1) { chunk -> Outcome in
            var total = 0
            while true {
                let count = read(fileDescriptor, chunk.baseAddress!, chunkSize)
                if count > 0 {
                    decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                    total += count
                    // A short read means the socket was empty when the kernel answered.
                    if count < chunkSize { return .read(total) }
                } else if count == 0 {
                    return .peerClosed
                } else {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return .read(total) }
                    return .failed(errno)
                }
            }
        }
        switch outcome {
        case .read(let total): return total
        case .peerClosed: throw .peerClosed
        case .failed(let code): throw .system("read", code)
        }
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closeDescriptor(fileDescriptor)
    }
}

/// Writes to a socket without raising SIGPIPE: when the peer has closed, a
/// plain write(2) kills the whole process (the event server, or a test run)
/// instead of failing with EPIPE.
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    // Darwin has no MSG_NOSIGNAL; a socket needs SO_NOSIGPIPE instead.
    return write(descriptor, bytes, count)
    #else
    return send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}

/// close(2), which the `close()` method hides inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

public enum HIDSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    case system(String, Int32)
    case peerClosed

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .peerClosed: "the sending end of the HID socket closed"
        }
    }
}
