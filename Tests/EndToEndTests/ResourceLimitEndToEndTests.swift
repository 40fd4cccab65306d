#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

/// The server out of file descriptors: it waits for one rather than
/// spinning on a connection it cannot accept.
@Suite struct ResourceLimitEndToEndTests {
    /// The server's CPU time so far, in seconds (user and system).
    private func cpuSeconds(_ pid: pid_t) -> Double {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, 1024, file) != nil else { return 0 }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // After the command's closing parenthesis: state is field 3, utime 14, stime 15.
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The descriptor numbers open in the process.
    private func openDescriptors(_ pid: pid_t) -> Set<Int> {
        guard let directory = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(directory) }
        var numbers: Set<Int> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let number = Int(name) { numbers.insert(number) }
        }
        return numbers
    }

    /// The descriptor limit that leaves `room` more to open: a new
    /// descriptor takes the lowest free number, and fails once that is
    /// not below the limit (whatever the count: the server inherits
    /// descriptors of this process, with gaps).
    private func limitLeaving(_ room: Int, in pid: pid_t) -> Int {
        let open = openDescriptors(pid)
        var free = 0
        for number in 0... where !open.contains(number) {
            if free == room { return number }
            free += 1
        }
        fatalError("unreachable")
    }

    @Test func outOfDescriptorsTheServerBacksOffLogsOnceAndRecovers() throws {
        let (server, socket) = try startServer(["--input-directory", "/nonexistent"])
        // Room for two more descriptors, then accept fails with EMFILE.
        expectEqual(system("prlimit --pid \(server.pid) --nofile=\(limitLeaving(2, in: server.pid)):"), 0)
        var clients = try (0..<6).map { _ in try MessageSocket.connect(to: socket) }
        let cpuBefore = cpuSeconds(server.pid)
        server.collect(for: 0.8)  // reading its output, so that a spinning server is not held up by a full pipe
        let cpu = cpuSeconds(server.pid) - cpuBefore
        #expect(cpu < 0.2, "the server used \(cpu) s of CPU in 0.8 s")
        let failures = server.lines.filter { $0.contains("accept failed") }
        #expect(failures.count >= 1 && failures.count <= 2, "\(failures.count) lines")
        expectEqual(failures.first?.contains("Too many open files; accepting no client until a descriptor is free"), true)
        // Those it accepted leave: the others are accepted, and a new client is welcomed.
        clients.removeAll()
        server.waitForLine { $0.contains("accepting clients again") }
        let tool = try ChildProcess("openuikit", ["apps", "--socket", socket])
        expectEqual(tool.waitForExit(), 0)
        server.signal(SIGINT)
        expectEqual(server.waitForExit(), 0)
    }
}
