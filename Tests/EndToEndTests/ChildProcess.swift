#if canImport(Glibc)
import Glibc
#endif
import HID
import Testing

/// A process the tests start: the event server, the demo application or a
/// tool, with its standard output and error read line by line.
final class ChildProcess {
    let name: String
    let pid: pid_t
    private let output: Int32
    private var buffer: [UInt8] = []
    /// Every line read so far, standard output and error together.
    private(set) var lines: [String] = []
    private var exitStatus: Int32?

    /// Starts `executable` (a name in the build directory) with `arguments`
    /// and `environment` added to this process's environment.
    init(_ executable: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        let path = try Self.locate(executable)
        name = executable
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw ChildProcessError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let key = text.split(separator: "=", maxSplits: 1).first, environment[String(key)] != nil {} else { variables.append(text) }
            index += 1
        }
        for (key, value) in environment { variables.append("\(key)=\(value)") }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
            posix_spawn_file_actions_destroy(&actions)
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw ChildProcessError("cannot start \(path): \(String(cString: strerror(result)))")
        }
        pid = child
        output = pipeEnds[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(output)
    }

    /// The built executable called `name`, next to the test bundle (or the
    /// absolute path `name`, for a system program). Fails
    /// loudly when it is missing: build with `swift build --build-tests`.
    static func locate(_ name: String) throws -> String {
        if name.hasPrefix("/") { return name }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { throw ChildProcessError("cannot find the test executable's directory") }
        var directory = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // .build/debug/OpenUIKitPackageTests.xctest (a file on Linux)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
            if directory.hasSuffix("/.build") { break }
        }
        throw ChildProcessError("the executable \(name) is not built next to the tests (looked up from the test executable); run `swift build --build-tests` first")
    }

    /// Reads what the process printed until `predicate` holds for a line,
    /// or `timeout` seconds passed (then the test fails, showing the output).
    /// Every line printed since the start counts, a line an earlier wait
    /// returned too, unless `after` (a count of ``lines`` taken before the
    /// step that should print it) skips those.
    @discardableResult
    func waitForLine(
        timeout: Double = 10, after: Int = 0, sourceLocation: SourceLocation = #_sourceLocation, _ predicate: (String) -> Bool
    ) -> String? {
        var checked = after
        let deadline = monotonicSeconds() + timeout
        while true {
            while checked < lines.count {
                if predicate(lines[checked]) { return lines[checked] }
                checked += 1
            }
            let left = deadline - monotonicSeconds()
            if left <= 0 || !readMore(timeout: left) {
                Issue.record("\(name) did not print the awaited line in \(timeout) s; it printed:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
                return nil
            }
        }
    }

    /// Waits until the line `line` was printed (after the first `after`
    /// lines).
    @discardableResult
    func waitFor(_ line: String, timeout: Double = 10, after: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitForLine(timeout: timeout, after: after, sourceLocation: sourceLocation) { $0 == line } != nil
    }

    /// Reads whatever arrives within `seconds`.
    func collect(for seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0, readMore(timeout: left) else { return }
        }
    }

    /// False at end of output or timeout.
    private func readMore(timeout: Double) -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(1, timeout * 1000))) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(output, &chunk, chunk.count)
        guard count > 0 else { return count < 0 && errno == EAGAIN }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: 10) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return true
    }

    func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// Waits for the process to end; its exit status, or 128 + the signal.
    /// The wait is long because it only bounds a failure: a debug-built
    /// server on a machine loaded with builds once took more than 10 s to
    /// start and exit.
    @discardableResult
    func waitForExit(timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                collect(for: 0.05)
                let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                exitStatus = code
                return code
            }
            collect(for: 0.01)
        }
        Issue.record("\(name) did not exit within \(timeout) s; it printed:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        return nil
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh directory for one test's socket.
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/openuikit-e2e-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// A client of the server that plays input into it, as `openuikit replay` does.
final class Injector {
    let socket: MessageSocket
    private var sequence: UInt64 = 1

    init(serverPath: String) throws {
        socket = try MessageSocket.connect(to: serverPath)
        try socket.sendWaiting(ServerMessage.hello(.init(role: .injector, processIdentifier: getpid(), name: "test-injector")).encoded())
        guard case .success(.welcome) = try socket.receiveMessage(timeout: 5) else { throw ChildProcessError("no welcome for the injector") }
    }

    func send(_ contacts: [DigitizerContact]) throws {
        let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: contacts)))
        try socket.sendWaiting(ServerMessage.encodeEvent(sequence: sequence, readTime: 0, sendTime: 0, packet: packet))
        sequence += 1
    }
}

/// Starts a server on a fresh socket and waits until it listens.
func startServer(_ extra: [String] = []) throws -> (server: ChildProcess, socket: String) {
    let socket = makeTemporaryDirectory() + "/server.sock"
    let server = try ChildProcess("openuikit-server", ["--socket", socket] + extra)
    server.waitForLine { $0.contains("listening at") }
    return (server, socket)
}

/// Starts the demo application against the server at `socket`, named `name`,
/// with `environment` besides, and waits until it is active.
func startApplication(
    _ name: String, socket: String, _ arguments: [String] = [], environment: [String: String] = [:]
) throws -> ChildProcess {
    let variables = environment.merging(["OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": name]) { _, fixed in fixed }
    let app = try ChildProcess("TouchLogger", arguments, environment: variables)
    app.waitFor("didBecomeActive")
    return app
}
