#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import EventServer
import HID

/// `openuikit demo`: the event server and the demo app, as two processes,
/// on a screen a person can see: a window when there is a display, else
/// headless (frames written as PNG files with `--frames`).
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Starts the event server and the demo app, in a window when a display is available.",
        discussion: """
            The demo is an app written as for iOS: controls, a 1,000-row list, a canvas and a card to \
            pan, pinch and rotate. It prints what each touch did. Close the window or press Ctrl-C to stop.
            """
    )

    @Option(help: ArgumentHelp("Where frames are shown: x11, fb or headless; by default the best the machine has.", valueName: "output"))
    var display: String?

    @Option(help: ArgumentHelp("Headless: write every frame as a PNG file in this directory.", valueName: "dir"))
    var frames: String?

    @Option(help: ArgumentHelp("The screen: width x height in points @ scale.", valueName: "WxH@S"))
    var screen: String = Screen.standard.description

    @Option(help: ArgumentHelp("The display's refreshes per second: 60 or 120.", valueName: "hz"))
    var refresh: Int = 60

    @Option(help: ArgumentHelp("The window's pixels per point (0.5 halves it); by default 1, or less to fit the X screen.", valueName: "scale"))
    var windowScale: Double?

    @Option(help: ArgumentHelp("Stop after this many seconds (for scripts and screenshots).", valueName: "seconds"))
    var seconds: Double?

    func validate() throws {
        if let seconds, !(seconds.isFinite && seconds > 0) { throw ValidationError("--seconds must be a positive number") }
    }

    func run() throws {
        let directory = try Self.makePrivateDirectory()
        defer { rmdir(directory) }
        let socket = directory + "/server.sock"
        var serverArguments = ["--socket", socket, "--screen", screen, "--refresh", String(refresh)]
        if let display { serverArguments += ["--display", display] }
        if let frames { serverArguments += ["--frames", frames] }
        if let windowScale { serverArguments += ["--window-scale", String(windowScale)] }
        if display == nil && frames == nil && !DisplayChoice.hasDisplayVariable {
            print("No display (DISPLAY is not set): the demo runs headless. Add --frames DIR to see its frames as PNG files.")
        }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGCHLD)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let server = try Self.spawn("openuikit-server", serverArguments, environment: [:])
        let app = try Self.spawn("OpenUIKitDemo", [], environment: ["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "OpenUIKit demo"])
        var status = Self.waitForTheFirstToEnd(of: [server, app], signals: signals, seconds: seconds)
        // The server's end tells the app, which then ends; a demo that ends
        // first leaves the server nothing to show.
        kill(server, SIGTERM)
        status = Self.reap(server) ?? status
        if Self.reap(app, within: 5) == nil {
            kill(app, SIGKILL)
            _ = Self.reap(app)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Waits for a signal: a child ending, Ctrl-C, or the time running out.
    private static func waitForTheFirstToEnd(of children: [pid_t], signals: sigset_t, seconds: Double?) -> Int32 {
        var signals = signals
        let deadline = seconds.map { monotonicSeconds() + $0 }
        while true {
            for child in children {
                var status: Int32 = 0
                if waitpid(child, &status, WNOHANG) == child { return exitCode(status) }
            }
            var timeout = timespec(tv_sec: 1, tv_nsec: 0)
            if let deadline {
                let left = deadline - monotonicSeconds()
                if left <= 0 { return 0 }
                timeout = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
            }
            let signal = sigtimedwait(&signals, nil, &timeout)
            if signal == SIGINT || signal == SIGTERM { return 0 }
        }
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Waits up to `within` seconds (for ever without it) for `child` to end.
    private static func reap(_ child: pid_t, within seconds: Double? = nil) -> Int32? {
        let deadline = seconds.map { monotonicSeconds() + $0 }
        while true {
            var status: Int32 = 0
            let result = waitpid(child, &status, deadline == nil ? 0 : WNOHANG)
            if result == child { return exitCode(status) }
            if result < 0 && errno != EINTR { return nil }
            if let deadline, monotonicSeconds() >= deadline { return nil }
            if deadline != nil { usleep(10_000) }
        }
    }

    /// Starts `name`, built next to this executable, with this process's
    /// standard output and error.
    private static func spawn(_ name: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        let path = try sibling(name)
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            variables.append(String(cString: entry))
            index += 1
        }
        for (key, value) in environment { variables.append("\(key)=\(value)") }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The children get the signals this process blocks, unblocked.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let result = posix_spawn(&child, path, nil, &attributes, argv, envp)
        guard result == 0 else { throw ServerCommandError(message: "cannot start \(path): \(String(cString: strerror(result)))") }
        return child
    }

    /// The executable `name` in this executable's directory.
    private static func sibling(_ name: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw ServerCommandError(message: "cannot find this executable's directory") }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        let candidate = "\(directory)/\(name)"
        guard access(candidate, X_OK) == 0 else {
            throw ServerCommandError(message: "\(name) is not built next to openuikit (\(directory)); run `swift build`, or `swift run openuikit demo`, which builds it")
        }
        return candidate
    }

    /// A directory only this user can open, for the demo's own socket.
    private static func makePrivateDirectory() throws -> String {
        let base = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/openuikit-demo-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ServerCommandError(message: "cannot make a directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
