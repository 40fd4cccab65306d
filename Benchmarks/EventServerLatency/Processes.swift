#if canImport(Glibc)
import Glibc
#endif
import HID

// The processes the benchmark starts (the server, the application, strace)
// end with it on every way out it controls: at the end of a run, at a
// failure (the application dropped or gone, a line that never came, the
// server refusing events), and at SIGINT, SIGTERM, SIGHUP or SIGPIPE. A
// server left behind with a finger down once held the kernel's CPU latency
// request for 53 minutes, and every idle processor of the machine polled
// meanwhile (the server now lets it go by itself too: WakeUpLatencyRequest).
// A benchmark killed outright (SIGKILL) cannot stop them; its injector's
// hang-up still ends the finger it held down.

/// How many started processes are followed at once: the server, the
/// application and two tracers at most.
private let startedCapacity = 8

/// The started processes not waited for yet, 0 in a free slot: plain
/// memory, which a signal handler may read.
private nonisolated(unsafe) let startedProcesses: UnsafeMutablePointer<pid_t> = {
    let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: startedCapacity)
    slots.initialize(repeating: 0, count: startedCapacity)
    return slots
}()

/// Whether the signal handlers are installed: at the first start.
private nonisolated(unsafe) var handlingSignals = false

/// Asks every started process to end (SIGTERM, and SIGCONT for one that
/// was stopped): only calls a signal handler may make.
private func askStartedProcessesToEnd() {
    for slot in 0..<startedCapacity where startedProcesses[slot] > 0 {
        kill(startedProcesses[slot], SIGTERM)
        kill(startedProcesses[slot], SIGCONT)
    }
}

/// The signals that end the benchmark: the started processes are asked to
/// end, then the benchmark ends as the signal would have ended it.
private func handleSignals() {
    guard !handlingSignals else { return }
    handlingSignals = true
    _ = startedProcesses
    for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
        signal(number) { number in
            askStartedProcessesToEnd()
            signal(number, SIG_DFL)
            raise(number)
        }
    }
}

/// Waits for `pid`, started by ``spawn(_:_:environment:)``, to end, and
/// stops following it; returns its wait status.
@discardableResult
func awaitExit(of pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    for slot in 0..<startedCapacity where startedProcesses[slot] == pid { startedProcesses[slot] = 0 }
    return status
}

/// Ends every started process still running: asked first, killed if it
/// has not ended within two seconds.
func stopStartedProcesses() {
    askStartedProcessesToEnd()
    let deadline = monotonicSeconds() + 2
    for slot in 0..<startedCapacity where startedProcesses[slot] > 0 {
        let pid = startedProcesses[slot]
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 && monotonicSeconds() < deadline { usleep(10_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            awaitExit(of: pid)
        }
        startedProcesses[slot] = 0
    }
}

func fail(_ message: String) -> Never {
    var text = "openuikit-latency-benchmark: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    stopStartedProcesses()
    exit(1)
}

/// Starts `path`; returns its pid and the read end of its standard output.
/// It is stopped on the benchmark's way out if not waited for before.
func spawn(_ path: String, _ arguments: [String], environment extra: [String] = []) -> (pid_t, Int32) {
    guard access(path, X_OK) == 0 else { fail("\(path) is not built; run Benchmarks/latency.sh") }
    handleSignals()
    guard let slot = (0..<startedCapacity).first(where: { startedProcesses[$0] == 0 }) else {
        fail("more than \(startedCapacity) processes started at once")
    }
    var ends: [Int32] = [0, 0]
    pipe(&ends)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    posix_spawn_file_actions_addclose(&actions, ends[0])
    var environment: [String] = []
    var index = 0
    while let entry = environ[index] { environment.append(String(cString: entry)); index += 1 }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = (environment + extra).map { strdup($0) } + [nil]
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
    close(ends[1])
    guard result == 0 else { fail("cannot start \(path): \(String(cString: strerror(result)))") }
    startedProcesses[slot] = pid
    return (pid, ends[0])
}
