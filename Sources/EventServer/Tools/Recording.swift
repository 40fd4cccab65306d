#if canImport(Glibc)
import Glibc
#endif
import HID

/// Writes what a recorder client receives to a HID recording file, one
/// record as each event arrives: a recording cut short by a crash keeps
/// every event written before it.
public final class RecordingWriter {
    public let path: String
    private let descriptor: Int32
    public private(set) var eventCount = 0

    /// Creates (or empties) `path` and writes the recording's header.
    public init(path: String) throws(ServerClientError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unexpected("cannot write \(path): \(String(cString: strerror(errno)))") }
        try write(HIDRecording.header())
    }

    deinit { close(descriptor) }

    public func append(_ event: HIDEvent) throws(ServerClientError) {
        try write(HIDRecording.record(event))
        eventCount += 1
    }

    private func write(_ bytes: [UInt8]) throws(ServerClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .unexpected("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// Plays a file into the server as an injector: a HID recording, an evemu
/// recording or a file of `input_event` records (whatever
/// `InputDevices.open` reads), with its recorded timing divided by `speed`
/// or as fast as possible. Problems in the file (damage, with where it is)
/// go to `report`; every event before them is played. Returns how many
/// events were played.
public func replay(
    path: String, into client: ServerClient, timing: HIDReplaySchedule.Timing, device: InputDeviceDescription? = nil,
    report: (String) -> Void
) throws(ServerClientError) -> Int {
    let screen = Screen(width: client.welcome.screenWidth, height: client.welcome.screenHeight, scale: client.welcome.screenScale)
    let source: any InputSource
    do {
        source = try InputDevices.open(path: path, screen: screen, timing: timing, device: device)
    } catch {
        throw .unexpected("\(error)")
    }
    guard source is ReplaySource else { throw .unexpected("\(path) is not a file; give a device to the server with --device") }
    var played = 0
    while true {
        var waiting = pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&waiting, 1, 1000)
        let events: [HIDEvent]
        do {
            events = try source.readEvents()
        } catch .endOfInput {
            source.takeDiagnostics().forEach(report)
            return played
        } catch {
            throw .unexpected("\(error)")
        }
        source.takeDiagnostics().forEach(report)
        for event in events {
            try client.inject(event)
            played += 1
        }
    }
}
