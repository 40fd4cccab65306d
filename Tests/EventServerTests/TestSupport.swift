#if canImport(Glibc)
import Glibc
#endif
import EventServer
import HID

/// The hand-written recordings beside these tests.
func recordingPath(_ name: String, filePath: String = #filePath) -> String {
    let directory = filePath[..<filePath.lastIndex(of: "/")!]
    return "\(directory)/Recordings/\(name)"
}

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { return bytes }
        bytes += chunk[0..<count]
    }
}

/// The test screen: 390 × 844 points. The recordings' touch screens are
/// 0…3900 by 0…8440, ten device units a point.
let testScreen = Screen.standard

/// A record at `time` seconds.
func record(_ time: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> LinuxInputEvent {
    LinuxInputEvent(time: time, type: type, code: code, value: value)
}

func syn(_ time: Double) -> LinuxInputEvent { record(time, LinuxInput.EV_SYN, LinuxInput.SYN_REPORT, 0) }
func abs(_ time: Double, _ code: UInt16, _ value: Int32) -> LinuxInputEvent { record(time, LinuxInput.EV_ABS, code, value) }
func key(_ time: Double, _ code: UInt16, _ value: Int32) -> LinuxInputEvent { record(time, LinuxInput.EV_KEY, code, value) }
func rel(_ time: Double, _ code: UInt16, _ value: Int32) -> LinuxInputEvent { record(time, LinuxInput.EV_REL, code, value) }

/// The test touch screen's description, as its evemu header gives it.
func touchScreen(slots: Int32 = 10, pressure: Bool = true) -> InputDeviceDescription {
    var axes: [UInt16: InputAxisRange] = [
        LinuxInput.ABS_X: InputAxisRange(minimum: 0, maximum: 3900, resolution: 10),
        LinuxInput.ABS_Y: InputAxisRange(minimum: 0, maximum: 8440, resolution: 10),
        LinuxInput.ABS_MT_SLOT: InputAxisRange(minimum: 0, maximum: slots - 1),
        LinuxInput.ABS_MT_TOUCH_MAJOR: InputAxisRange(minimum: 0, maximum: 255),
        LinuxInput.ABS_MT_POSITION_X: InputAxisRange(minimum: 0, maximum: 3900, resolution: 10),
        LinuxInput.ABS_MT_POSITION_Y: InputAxisRange(minimum: 0, maximum: 8440, resolution: 10),
        LinuxInput.ABS_MT_TRACKING_ID: InputAxisRange(minimum: 0, maximum: 65535),
    ]
    if pressure { axes[LinuxInput.ABS_MT_PRESSURE] = InputAxisRange(minimum: 0, maximum: 255) }
    return InputDeviceDescription(
        name: "OpenUIKit Test Touch Screen", keys: [LinuxInput.BTN_TOUCH], absoluteAxes: axes,
        properties: [LinuxInput.INPUT_PROP_DIRECT]
    )
}

/// A frame's contacts as (identifier, phase, x, y), for comparing.
struct Seen: Equatable, CustomStringConvertible {
    var id: UInt32
    var phase: DigitizerContact.Phase
    var x: Double
    var y: Double

    init(_ id: UInt32, _ phase: DigitizerContact.Phase, _ x: Double, _ y: Double) {
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
    }

    var description: String { "(\(id) \(phase) \(x), \(y))" }
}

func frames(_ events: [HIDEvent]) -> [[Seen]] {
    events.compactMap { event in
        guard case .digitizer(let frame) = event else { return nil }
        return frame.contacts.map { Seen($0.identifier, $0.phase, ($0.x * 1000).rounded() / 1000, ($0.y * 1000).rounded() / 1000) }
    }
}

func buttons(_ events: [HIDEvent]) -> [ButtonEvent] {
    events.compactMap { if case .button(let button) = $0 { button } else { nil } }
}

/// Makes a FIFO in a fresh temporary directory; returns its path.
func makeFIFO() -> String {
    var template = Array("/tmp/openuikit-input-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    let path = "\(directory)/fifo"
    precondition(mkfifo(path, 0o600) == 0, "mkfifo failed: \(errno)")
    return path
}

/// Waits (up to `timeout` seconds) until `descriptor` is readable.
@discardableResult
func waitReadable(_ descriptor: Int32, timeout: Double = 5) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(timeout * 1000)) > 0
}

/// Reads a source until it ends or `timeout` seconds pass, as the server's loop does.
func drain(_ source: any InputSource, timeout: Double = 10, until done: ([HIDEvent]) -> Bool = { _ in false }) -> (events: [HIDEvent], ended: Bool, diagnostics: [String]) {
    var events: [HIDEvent] = []
    var diagnostics: [String] = []
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    while true {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
        if elapsed > timeout || done(events) { return (events, false, diagnostics) }
        guard waitReadable(source.fileDescriptor, timeout: 0.2) else { continue }
        do {
            events += try source.readEvents()
            diagnostics += source.takeDiagnostics()
        } catch {
            diagnostics += source.takeDiagnostics()
            return (events, error == .endOfInput, diagnostics + (error == .endOfInput ? [] : [error.description]))
        }
    }
}
