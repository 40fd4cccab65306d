#if canImport(Glibc)
import Glibc
#endif
import HID

/// `--bounded`: what a hostile or broken client or device can make the
/// server hold, each case against a fresh server, with the server's
/// resident memory before and after. Every case is bounded by the server
/// (docs/protocol.md); these figures show the bound holds in a real process.
func runBoundedCases() {
    print("case                                              server RSS before → after")
    boundedCase("1,050,000 contacts that begin and never end") { socket, _ in
        let injector = connectAndGreet(socket, role: .injector, name: "never-ending")
        let encoder = HIDPacketEncoder()
        var identifier: UInt32 = 1
        for _ in 0..<1_050 {
            let contacts = (0..<1_000).map { _ -> DigitizerContact in
                defer { identifier += 1 }
                return DigitizerContact(identifier: identifier, phase: .began, x: 10, y: 10)
            }
            let packet = encoder.encode(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: contacts)))
            sendOrFail(injector, ServerMessage.encodeEvent(sequence: 0, readTime: 0, sendTime: 0, packet: packet))
        }
    }
    boundedCase("an application reading 200,000 keys, acknowledging none") { socket, _ in
        let application = connectAndGreet(socket, role: .application, name: "reader")
        let injector = connectAndGreet(socket, role: .injector, name: "keys")
        let encoder = HIDPacketEncoder()
        for index in 0..<200_000 {
            let key = HIDEvent.button(ButtonEvent(timestamp: monotonicSeconds(), usagePage: 7, usage: 4, isDown: index % 2 == 0))
            sendOrFail(injector, ServerMessage.encodeEvent(sequence: 0, readTime: 0, sendTime: 0, packet: encoder.encode(key)))
            while (try? application.receive({ _ in true })) == true {}
        }
    }
    boundedCase("30 MB of evemu header lines on a FIFO", device: true) { _, fifo in
        let writer = open(fifo, O_WRONLY)
        guard writer >= 0 else { fail("cannot open the FIFO") }
        let line = Array(("B: 01" + String(repeating: " ff", count: 100) + "\n").utf8)
        var chunk: [UInt8] = Array("# EVEMU 1.3\nN: flood\n".utf8)
        for _ in 0..<100 { chunk += line }
        for _ in 0..<(30_000_000 / chunk.count) { _ = chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
        let event = Array("E: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0000\n".utf8)
        _ = event.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
    }
    // The server takes 200 clients at most: 199 applications and the lister.
    boundedCase("199 applications with 255-byte names, listed") { socket, _ in
        var clients: [MessageSocket] = []
        for index in 0..<199 {
            let number = String(index)
            clients.append(connectAndGreet(socket, role: .application, name: String(repeating: "0", count: 3 - number.count) + number + String(repeating: "x", count: 252)))
        }
        let control = connectAndGreet(socket, role: .control, name: "lister")
        sendOrFail(control, ServerMessage.controlRequest(.listApplications).encoded())
        guard case .success(.controlReply(.applications(let rows)))? = try? control.receiveMessage(timeout: 10), rows.count == 199 else {
            fail("the list of 199 applications did not come back whole")
        }
        control.close()
        clients.forEach { $0.close() }
    }
}

/// Runs `body` against a fresh server (reading a FIFO when `device`) and
/// prints the server's resident memory before and after it.
private func boundedCase(_ name: String, device: Bool = false, _ body: (String, String) -> Void) {
    var template = Array("/tmp/openuikit-bounded-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    let socket = folder + "/server.sock", fifo = folder + "/device"
    mkfifo(fifo, 0o600)
    let directory = binaryDirectory()
    let (server, output) = spawn(directory + "/openuikit-server", ["--socket", socket] + (device ? ["--device", fifo] : ["--input-directory", "/nonexistent"]))
    let waitStart = monotonicSeconds()
    while access(socket, F_OK) != 0 {
        guard monotonicSeconds() - waitStart < 10 else { fail("the server did not start") }
        usleep(10_000)
    }
    let before = residentKilobytes(of: server)
    let start = monotonicSeconds()
    body(socket, fifo)
    usleep(200_000)  // for the server to see the case's clients go
    // Once it has read everything, a control request is answered.
    let control = connectAndGreet(socket, role: .control, name: "probe")
    sendOrFail(control, ServerMessage.controlRequest(.listApplications).encoded())
    _ = try? control.receiveMessage(timeout: 60)
    let seconds = monotonicSeconds() - start
    let after = residentKilobytes(of: server)
    print(name + String(repeating: " ", count: max(1, 50 - name.count)) + "\(before / 1024) MB → \(after / 1024) MB   (\((seconds * 10).rounded() / 10) s)")
    kill(server, SIGTERM)
    awaitExit(of: server)
    close(output)
    unlink(fifo)
    rmdir(folder)
}

private func connectAndGreet(_ socket: String, role: ServerMessage.Hello.Role, name: String) -> MessageSocket {
    do {
        let connection = try MessageSocket.connect(to: socket)
        _ = try connection.greet(.init(role: role, processIdentifier: getpid(), name: name))
        return connection
    } catch {
        fail("cannot connect as \(role): \(error)")
    }
}

private func sendOrFail(_ socket: MessageSocket, _ message: [UInt8]) {
    do { try socket.sendWaiting(message, timeout: 30) } catch { fail("the server stopped taking messages: \(error)") }
}
