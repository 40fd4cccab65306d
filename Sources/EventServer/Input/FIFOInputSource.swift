#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HID

/// A FIFO (named pipe) carrying `input_event` records or an evemu
/// recording, read as the writer writes.
///
/// Writers may come and go: when one closes its end, what it left down is
/// ended (as at the end of any stream) and the FIFO is opened again in
/// place, under the same descriptor, to wait for the next writer, whose
/// stream is read afresh (it may be of the other format). Until a writer
/// comes the descriptor is not readable. The source ends only if the FIFO
/// cannot be read any more.
///
/// Timestamps: a stream's first record is taken to happen when it is read;
/// the records after it keep their recorded intervals from it, but are
/// never stamped later than the moment they were read nor earlier than the
/// event before. A writer whose clock runs at another rate than the
/// server's drifts from it: once an event would be stamped more than
/// ``maximumDrift`` from the moment it is read, the stream is re-anchored
/// there (and that is reported), so that it never lags without limit.
public final class FIFOInputSource: InputSource {
    public let name: String
    public private(set) var fileDescriptor: Int32
    private let path: String
    private let screen: Screen
    private let identifiers: ContactIdentifiers
    private let device: InputDeviceDescription?
    private var decoder: EvdevStreamDecoder
    private var timeOffset: Double?
    private var lastTimestamp = -Double.infinity
    private var diagnostics: [String] = []
    private var problems = DiagnosticLimiter(prefix: "")
    private var isClosed = false

    /// How far a FIFO's recorded time may drift from the server's before
    /// the stream is re-anchored: a quarter of a second, far more than a
    /// writer's scheduling delays, far less than a user notices.
    public static let maximumDrift = 0.25

    /// Opens the FIFO at `path` for reading without waiting for a writer.
    /// `device` describes the device behind bare records (see
    /// ``EvdevStreamDecoder/init(name:screen:identifiers:device:)``).
    public init(
        path: String, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers(),
        device: InputDeviceDescription? = nil
    ) throws(InputSourceError) {
        self.name = path
        self.path = path
        self.screen = screen
        self.identifiers = identifiers
        self.device = device
        self.fileDescriptor = try Self.openForReading(path)
        decoder = EvdevStreamDecoder(name: path, screen: screen, identifiers: identifiers, device: device)
    }

    deinit { close() }

    /// Closes the FIFO; the source reads nothing more.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fileDescriptor)
    }

    public func readEvents() throws(InputSourceError) -> [HIDEvent] {
        guard !isClosed else { throw .endOfInput }
        var events: [HIDEvent] = []
        switch SystemCalls.readAvailable(fileDescriptor) {
        case .failed(let error):
            throw .unreadable("\(path): cannot read the FIFO: \(SystemCalls.describe(error))")
        case .bytes(let bytes, let endOfFile):
            decoder.decode(bytes, into: &events)
            if endOfFile && writerHungUp() {
                decoder.finish(into: &events)
                diagnostics += decoder.takeDiagnostics()
                diagnostics.append("\(path): the writer closed the FIFO; waiting for the next one")
                try reopen()
            }
        }
        diagnostics += decoder.takeDiagnostics()
        return events.map(stamp)
    }

    public func takeDiagnostics() -> [String] {
        defer { diagnostics.removeAll() }
        return diagnostics + problems.take()
    }

    /// A read of 0 bytes means end of file both before any writer came and
    /// after the last one left; only the second makes the FIFO hang up.
    private func writerHungUp() -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP) != 0
    }

    private func reopen() throws(InputSourceError) {
        let fresh = try Self.openForReading(path)
        if dup2(fresh, fileDescriptor) < 0 {
            let error = errno
            Glibc.close(fresh)
            throw .unreadable("\(path): cannot reopen the FIFO: \(SystemCalls.describe(error))")
        }
        Glibc.close(fresh)
        decoder = EvdevStreamDecoder(name: path, screen: screen, identifiers: identifiers, device: device)
        timeOffset = nil
    }

    private func stamp(_ event: HIDEvent) -> HIDEvent {
        let now = SystemCalls.monotonicNow()
        var offset = timeOffset ?? (now - event.timestamp)
        let drift = now - (event.timestamp + offset)
        if Swift.abs(drift) > Self.maximumDrift {
            offset = now - event.timestamp
            problems.report("clock drift", "\(path): the writer's clock \(drift > 0 ? "fell behind" : "ran ahead of") the server's by \((Swift.abs(drift) * 1000).rounded() / 1000) s; its events are re-anchored to the moment they are read")
        }
        timeOffset = offset
        let timestamp = max(min(event.timestamp + offset, now), lastTimestamp)
        lastTimestamp = timestamp
        return event.retimed(to: timestamp)
    }

    private static func openForReading(_ path: String) throws(InputSourceError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputDevices.openError(path: path, errno: errno) }
        return descriptor
    }
}
