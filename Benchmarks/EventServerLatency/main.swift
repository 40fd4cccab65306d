#if canImport(Glibc)
import Glibc
#endif
import HID

/// The event server's latency benchmark: starts `openuikit-server` and the
/// latency application as processes of their own, plays one long drag into
/// the server at a fixed rate (an injector, as `openuikit replay` is), and
/// reports how long each event took from the moment the server read it to
/// the moment the view's touch method ran (and, a socket hop longer, from
/// the moment it was handed to the server), frames lost or reordered, and
/// the CPU time each process spent per event.
///
///     openuikit-latency-benchmark [--events N] [--rate HZ] [--check]
///     openuikit-latency-benchmark --bounded
///     openuikit-latency-benchmark --photon --refresh 120 [--events N] [--rate HZ] [--display x11]
///
/// `--photon` makes every event move a dot under the finger and measures
/// touch to photon: from the server's read of an event to the refresh that
/// presented the first frame showing it (at `--refresh` Hz; headless, or
/// in a window on the X display `DISPLAY` names with `--display x11`).
/// `--fling` flings a 1,000-row table view again and again for 10 s of
/// deceleration and counts the refreshes that showed no new frame: those
/// missed (a frame came late, or the app was not signalled) apart from
/// those with nothing new to show (the content moved less than a pixel);
/// it fails when any was missed.
///
/// `--bounded` runs the hostile cases of BoundedCases.swift instead: what
/// a client or device can make the server hold, with its memory.
///
/// Figures that do not depend on the machine's load, unlike the timings,
/// are held to limits: every run fails when either process sleeps (wakes
/// up) more than about once per event; `--check` also counts the system
/// calls each makes per event, with `strace -c` attached (which slows
/// both and makes every stop of the tracer a sleep: such a run's timings
/// and wake-ups are not reported).

var events = 100_000
var rate = 1_000.0
var check = false
var photon = false
var fling = false
var refresh = 60
var display = "headless"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--events": events = arguments.popFirst().flatMap { Int($0) } ?? events
    case "--rate": rate = arguments.popFirst().flatMap { Double($0) } ?? rate
    case "--check": check = true
    case "--photon": photon = true
    case "--fling": fling = true
    case "--refresh": refresh = arguments.popFirst().flatMap { Int($0) } ?? refresh
    case "--display": display = arguments.popFirst() ?? display
    case "--bounded":
        runBoundedCases()
        exit(0)
    default:
        print("usage: openuikit-latency-benchmark [--events N] [--rate HZ] [--check] [--photon --refresh HZ [--display headless|x11]] | --bounded")
        exit(64)
    }
}
guard events >= 2, rate > 0 else { fatalError("--events must be at least 2 and --rate positive") }

/// The directory this executable is in: the others are built beside it.
func binaryDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { fail("cannot find this executable") }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(path[..<path.lastIndex(of: "/")!])
}

/// Reads lines from `descriptor` until one starts with `prefix`.
func awaitLine(_ descriptor: Int32, prefix: String, timeout: Double) -> String {
    var buffer: [UInt8] = []
    let deadline = monotonicSeconds() + timeout
    while monotonicSeconds() < deadline {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 1000) > 0 else { continue }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { fail("the application's output ended before a line starting \"\(prefix)\"") }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: 10) {
            let line = String(decoding: buffer[..<newline], as: UTF8.self)
            buffer.removeSubrange(...newline)
            if line.hasPrefix(prefix) { return line }
        }
    }
    fail("no line starting \"\(prefix)\" within \(timeout) s")
}

/// A process's user and system CPU time in seconds, from /proc.
func cpuSeconds(of pid: pid_t) -> Double {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return .nan }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return .nan }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
    guard let close = text.lastIndex(of: ")") else { return .nan }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The processor time the host took from this virtual machine's processors
/// (steal, all of them together) so far, in seconds, from /proc/stat; 0 on
/// a machine that reports none.
func hostStealSeconds() -> Double {
    guard let file = fopen("/proc/stat", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // "cpu  user nice system idle iowait irq softirq steal ...", in clock ticks.
    let fields = text.split(separator: " ")
    guard fields.first == "cpu", fields.count > 8, let steal = Double(fields[8]) else { return 0 }
    return steal / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// How many times a process went to sleep (its voluntary context switches), from /proc.
func sleepCount(of pid: pid_t) -> Int {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("voluntary_ctxt_switches:") {
            return Int(text.dropFirst("voluntary_ctxt_switches:".count).trimmingCharacters(in: " \t\n")) ?? 0
        }
    }
    return 0
}

extension StringProtocol {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}

/// The limits `--check` holds each process to, per event. The server's
/// turn for one event: the poll, the injected event's read and the empty
/// read after it, the application's acknowledgement of the event before
/// and the empty read after it, the send; the application's: the poll, the
/// read, the empty read, the acknowledgement, and the read of the main
/// dispatch queue's eventfd before the turn ends (docs/app-runtime.md).
/// Half a call of slack each.
let systemCallLimits = (server: 6.5, app: 5.5)
/// One sleep per event for each, and a little slack.
let wakeUpLimit = 1.1

/// Attaches `strace -c` to `pid`, writing its summary to `path` when stopped with SIGINT.
func countSystemCalls(of pid: pid_t, into path: String) -> pid_t {
    let candidates: [String] = ["/usr/bin/strace", "/bin/strace"]
    guard let strace = candidates.first(where: { access($0, X_OK) == 0 }) else {
        fail("--check needs strace (apt-get install -y strace)")
    }
    return spawn(strace, ["-q", "-c", "-f", "-o", path, "-p", String(pid)]).0
}

/// The total number of calls in an `strace -c` summary.
func systemCallTotal(in path: String) -> Int? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    var total: Int?
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let columns = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        // "100.00  seconds  usecs/call  calls  [errors]  total"
        if columns.last == "total", columns.count >= 5 { total = Int(columns[3]) }
    }
    return total
}

/// The process's resident memory in kilobytes (`VmRSS` in `/proc`), 0 if unknown.
func residentKilobytes(of pid: pid_t) -> Int {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmRSS:") { return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    }
    return 0
}

let directory = binaryDirectory()
var template = Array("/tmp/openuikit-latency-XXXXXX".utf8CString)
let socketDirectory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
let socketPath = socketDirectory + "/server.sock"

let (serverPID, _) = spawn(directory + "/openuikit-server", ["--socket", socketPath, "--display", display, "--refresh", String(refresh)])
let waitStart = monotonicSeconds()
while access(socketPath, F_OK) != 0 {
    guard monotonicSeconds() - waitStart < 10 else { fail("the server did not start") }
    usleep(10_000)
}
// In the plain run every frame is delivered as it arrives
// (OPENUIKIT_UNBUFFERED_TOUCHES): it measures the path from the server to a
// view, event by event, not the wait for the display's refresh that moves
// otherwise take, which is part of touch to photon (--photon, docs/screen.md,
// "Touches once per frame").
let appEnvironment = ["OPENUIKIT_SERVER=\(socketPath)", "OPENUIKIT_APP_NAME=latency"] + (photon || fling ? [] : ["OPENUIKIT_UNBUFFERED_TOUCHES=1"])
let (appPID, appOutput) = spawn(
    directory + "/openuikit-latency-app", photon ? ["--drag"] : fling ? ["--fling"] : [], environment: appEnvironment)
_ = awaitLine(appOutput, prefix: "ready", timeout: 10)

let injector: MessageSocket
do {
    injector = try MessageSocket.connect(to: socketPath)
    try injector.sendWaiting(ServerMessage.hello(.init(role: .injector, processIdentifier: getpid(), name: "latency-benchmark")).encoded())
    guard case .success(.welcome) = try injector.receiveMessage(timeout: 5) else { fail("no welcome") }
} catch {
    fail("cannot connect to the server: \(error)")
}

if fling {
    // Upward flicks of 600 points in 50 ms (240 Hz samples), as a thumb does,
    // each left to decelerate to a stop; at most 10 s of deceleration.
    var totalRefreshes = 0, totalDropped = 0, totalLate = 0, totalUnsignalled = 0, totalUnchanged = 0, flings = 0
    var timings = ""
    let encoder = HIDPacketEncoder()
    var sequence: UInt64 = 1
    let flingStart = monotonicSeconds()
    let stealAtStart = hostStealSeconds()
    let serverCPUStart = cpuSeconds(of: serverPID)
    while totalRefreshes < refresh * 10 && monotonicSeconds() - flingStart < 120 {
        for step in 0...12 {
            let phase: DigitizerContact.Phase = step == 0 ? .began : step == 12 ? .ended : .moved
            let contact = DigitizerContact(identifier: 1, phase: phase, x: 200, y: 700 - Double(step) * 50)
            let packet = encoder.encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [contact])))
            do {
                try injector.sendWaiting(ServerMessage.encodeEvent(sequence: sequence, readTime: 0, sendTime: 0, packet: packet))
            } catch {
                fail("the server stopped taking events: \(error)")
            }
            sequence += 1
            usleep(4_167)
        }
        let line = awaitLine(appOutput, prefix: "fling", timeout: 30)
        var values: [String: Int] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        totalRefreshes += values["refreshes"] ?? 0
        totalDropped += values["dropped"] ?? 0
        totalLate += values["late"] ?? 0
        totalUnsignalled += values["unsignalled"] ?? 0
        totalUnchanged += values["unchanged"] ?? 0
        // The app's timings are over every fling so far: the last line's are the run's.
        let counted: Set<Substring> = ["fling", "refreshes", "dropped", "late", "unsignalled", "unchanged", "offset"]
        timings = line.split(separator: " ").filter { !counted.contains($0.split(separator: "=").first ?? "") }.joined(separator: " ")
        flings += 1
    }
    // The server's CPU over the run (the flicks' touches too), per refresh
    // while decelerating: what its output costs per frame of a fling.
    let serverCPU = cpuSeconds(of: serverPID) - serverCPUStart
    print("fling at \(refresh) Hz, \(display == "x11" ? "in an X window" : "headless"): \(flings) flings, \(totalRefreshes) refreshes while decelerating (\(Double(totalRefreshes) / Double(refresh)) s),"
        + " \(totalDropped) with no new frame: \(totalLate + totalUnsignalled) missed (\(totalLate) by a frame drawn for them that came late,"
        + " \(totalUnsignalled) not signalled: the app asked too late), and \(totalUnchanged) not missed, with nothing new to show"
        + " (the content moved less than a pixel, and offsets are on the pixel grid)")
    print("host steal during the run: \(Int(((hostStealSeconds() - stealAtStart) * 1000).rounded())) ms of the processors' time (/proc/stat)")
    print("frame times over the run, microseconds: \(timings)")
    print("server CPU over the run: \(Int((serverCPU * 1000).rounded())) ms, \(Int((serverCPU * 1e6 / Double(max(totalRefreshes, 1))).rounded())) µs per refresh while decelerating")
    kill(serverPID, SIGTERM)
    awaitExit(of: serverPID)
    awaitExit(of: appPID)
    exit(totalLate + totalUnsignalled == 0 ? 0 : 1)
}

var tracers: (server: pid_t, app: pid_t)?
if check {
    tracers = (countSystemCalls(of: serverPID, into: socketDirectory + "/server.strace"), countSystemCalls(of: appPID, into: socketDirectory + "/app.strace"))
    usleep(500_000)  // strace attaches meanwhile
}

print("Playing \(events) frames at \(Int(rate)) Hz into openuikit-server (\(Double(events) / rate) s)…")
let serverCPUBefore = cpuSeconds(of: serverPID)
let serverSleepsBefore = sleepCount(of: serverPID)
let appSleepsBefore = sleepCount(of: appPID)
let encoder = HIDPacketEncoder()
let start = monotonicSeconds() + 0.1
var late = 0
// The server's memory must stay flat however long the run: sampled as it goes.
let serverRSSBefore = residentKilobytes(of: serverPID)
var serverRSSPeak = serverRSSBefore
for index in 0..<events {
    if index % 10_000 == 0 { serverRSSPeak = max(serverRSSPeak, residentKilobytes(of: serverPID)) }
    let due = start + Double(index) / rate
    var wake = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
    if monotonicSeconds() - due > 0.001 { late += 1 }
    let phase: DigitizerContact.Phase = index == 0 ? .began : index == events - 1 ? .ended : .moved
    let contact = DigitizerContact(
        identifier: 1, phase: phase, x: 100 + Double(index % 100), y: 300 + Double(index / 100 % 100),
        force: Float(index), maximumPossibleForce: Float(events))
    // Stamped as it is sent: the view measures from here, a socket hop before the server reads it.
    let packet = encoder.encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [contact])))
    do {
        try injector.sendWaiting(ServerMessage.encodeEvent(sequence: UInt64(index + 1), readTime: 0, sendTime: 0, packet: packet))
    } catch {
        fail("the server stopped taking events at frame \(index): \(error)")
    }
}
let result = awaitLine(appOutput, prefix: "result", timeout: 60)
let photonResult = photon ? awaitLine(appOutput, prefix: "photon", timeout: 10) : nil
let serverRSSAfter = residentKilobytes(of: serverPID)
serverRSSPeak = max(serverRSSPeak, serverRSSAfter)
let serverCPU = cpuSeconds(of: serverPID) - serverCPUBefore
let serverSleeps = sleepCount(of: serverPID) - serverSleepsBefore
let appSleeps = sleepCount(of: appPID) - appSleepsBefore
var systemCalls: (server: Int?, app: Int?) = (nil, nil)
if let tracers {
    kill(tracers.server, SIGINT)
    kill(tracers.app, SIGINT)
    awaitExit(of: tracers.server)
    awaitExit(of: tracers.app)
    systemCalls = (systemCallTotal(in: socketDirectory + "/server.strace"), systemCallTotal(in: socketDirectory + "/app.strace"))
    unlink(socketDirectory + "/server.strace")
    unlink(socketDirectory + "/app.strace")
}
kill(serverPID, SIGTERM)
awaitExit(of: serverPID)
awaitExit(of: appPID)
rmdir(socketDirectory)

var fields: [String: String] = [:]
for field in result.split(separator: " ").dropFirst() {
    let parts = field.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
}
/// Tenths of a microsecond are as fine as these timings deserve.
func rounded(_ value: Double) -> String {
    String((value * 10).rounded() / 10)
}
let microseconds = { (key: String) -> String in fields[key].flatMap(Double.init).map(rounded) ?? "?" }
let wakeUps = (server: Double(serverSleeps) / Double(events), app: Double(appSleeps) / Double(events))
if check {
    print("""
        events delivered      \(fields["events"] ?? "?") of \(events)
        lost / reordered      \(fields["lost"] ?? "?") / \(fields["reordered"] ?? "?")
        """)
} else {
    print("""
        events delivered      \(fields["events"] ?? "?") of \(events)
        lost / reordered      \(fields["lost"] ?? "?") / \(fields["reordered"] ?? "?")
        latency p50           \(microseconds("p50")) µs   (read by the server → touchesMoved)
        latency p99           \(microseconds("p99")) µs
        latency max           \(microseconds("max")) µs
        from the send p50     \(microseconds("send_p50")) µs   (handed to the server → touchesMoved)
        from the send p99     \(microseconds("send_p99")) µs
        from the send max     \(microseconds("send_max")) µs
        server CPU per event  \(rounded(serverCPU * 1e6 / Double(events))) µs   (/proc, 10 ms ticks)
        app CPU per event     \(microseconds("cpu_us_per_event")) µs
        wake-ups per event    server \(rounded(wakeUps.server)), app \(rounded(wakeUps.app))   (times each went to sleep; limit \(wakeUpLimit))
        frames sent > 1 ms late by the player: \(late)
        server RSS            \(serverRSSBefore / 1024) MB before, \(serverRSSPeak / 1024) MB at most, \(serverRSSAfter / 1024) MB after
        """)
}
if let photonResult {
    var photonFields: [String: String] = [:]
    for field in photonResult.split(separator: " ").dropFirst() {
        let parts = field.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { photonFields[String(parts[0])] = String(parts[1]) }
    }
    let photonMicroseconds = { (key: String) -> String in photonFields[key].flatMap(Double.init).map(rounded) ?? "?" }
    print("""
        touch to photon at \(refresh) Hz, \(display == "x11" ? "in an X window" : "headless") (read by the server → the refresh that presented it):
        frames presented      \(photonFields["frames"] ?? "?")
        photon p50            \(photonMicroseconds("p50")) µs
        photon p99            \(photonMicroseconds("p99")) µs
        photon max            \(photonMicroseconds("max")) µs
        signal lead p50       \(photonMicroseconds("lead50")) µs   (how long before its refresh a frame signal reached the app)
        signal lead p1        \(photonMicroseconds("lead1")) µs
        signal lead p99       \(photonMicroseconds("lead99")) µs
        signal to commit p50  \(photonMicroseconds("draw50")) µs   (the app's frame: touches, display links, layout, drawing, commit)
        signal to commit p99  \(photonMicroseconds("draw99")) µs
        commit margin p1      \(photonMicroseconds("margin1")) µs   (how long before its refresh a commit was made; negative: late)
        frames late           \(photonFields["late"] ?? "?")   (shown after the refresh they were drawn for)
        the slowest 1 %       \(photonFields["tail"] ?? "?") frames: \(photonFields["tail_late"] ?? "?") late, \(photonFields["tail_after_gap"] ?? "?") after a refresh with no frame;
                              from the frame before's signal to the refresh p50 \(photonMicroseconds("tail_since_signal50")) µs
                              (that signal's lead p50 \(photonMicroseconds("tail_earlier_lead50")) µs),
                              oldest event read before that signal reached the app p50 \(photonMicroseconds("tail_before_signal50")) µs, max \(photonMicroseconds("tail_before_signal_max")) µs
        """)
}
// Whatever the timings, an event lost, reordered or missing the server's read time is a failure.
if fields["events"] != String(events) || fields["lost"] != "0" || fields["reordered"] != "0" || fields["unstamped"] != "0" {
    fail("events lost, reordered or without the server's read time: \(result)")
}
if check {
    guard let server = systemCalls.server, let app = systemCalls.app else { fail("strace wrote no summary") }
    let perEvent = (server: Double(server) / Double(events), app: Double(app) / Double(events))
    print("system calls per event: server \(rounded(perEvent.server)) (limit \(systemCallLimits.server)), app \(rounded(perEvent.app)) (limit \(systemCallLimits.app))")
    if perEvent.server > systemCallLimits.server || perEvent.app > systemCallLimits.app {
        fail("more system calls per event than the limits")
    }
    print("check passed")
} else if !photon && (wakeUps.server > wakeUpLimit || wakeUps.app > wakeUpLimit) {
    // (With --photon every event changes the screen: frames add wake-ups of their own.)
    fail("more than \(wakeUpLimit) wake-ups per event: server \(rounded(wakeUps.server)), app \(rounded(wakeUps.app))")
}
