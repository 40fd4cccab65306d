#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import Testing

/// Lines the server logged, kept for the test to read.
final class LogLines: @unchecked Sendable {
    // @unchecked: the server and the test run on one thread.
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

/// An input source the test feeds by hand; readable whenever it holds events.
final class ManualInputSource: InputSource {
    let name = "manual"
    private let pipeEnds: [Int32]
    private var events: [HIDEvent] = []
    var fileDescriptor: Int32 { pipeEnds[0] }

    init() {
        var ends: [Int32] = [0, 0]
        pipe(&ends)
        pipeEnds = ends
    }

    deinit { pipeEnds.forEach { close($0) } }

    func feed(_ event: HIDEvent) {
        events.append(event)
        var byte: UInt8 = 1
        write(pipeEnds[1], &byte, 1)
    }

    func readEvents() throws(InputSourceError) -> [HIDEvent] {
        var bytes = [UInt8](repeating: 0, count: 4096)
        _ = read(pipeEnds[0], &bytes, bytes.count)
        defer { events = [] }
        return events
    }
}

/// An event server in this process, stepped turn by turn, with a source
/// the test feeds and clients the test plays.
final class ServerHarness {
    let log = LogLines()
    let path: String
    let server: EventServer
    let input = ManualInputSource()

    init(
        watchdogTimeout: Double = 5, screen: Screen = .standard, display: (any DisplayOutput)? = nil,
        acceptsPeer: @escaping @Sendable (PeerCredentials) -> Bool = ServerConfiguration.sameUser,
        mayInspect: @escaping @Sendable (PeerCredentials, PeerCredentials) -> Bool = ServerConfiguration.sameUserInspects,
        wakeUpLatencyDevice: String? = nil
    ) throws {
        var template = Array("/tmp/openuikit-test-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        path = directory + "/server.sock"
        let log = self.log
        server = try EventServer(configuration: ServerConfiguration(
            socketPath: path, screen: screen, watchdogTimeout: watchdogTimeout, acceptsPeer: acceptsPeer,
            mayInspect: mayInspect, wakeUpLatencyDevice: wakeUpLatencyDevice, log: { log.append($0) }), display: display)
        server.add(input)
    }

    deinit { server.shutDown() }

    /// Lets the server do everything that is due now.
    func turn() {
        for _ in 0..<3 { server.runOnce(timeout: 0) }
    }

    func connect(_ role: ServerMessage.Hello.Role = .application, name: String) throws -> TestClient {
        let client = try TestClient(path: path)
        try client.send(.hello(.init(role: role, processIdentifier: getpid(), name: name)))
        turn()
        guard case .welcome(let welcome) = try #require(client.receive().first) else {
            throw ChildError("\(name) got no welcome")
        }
        client.welcome = welcome
        return client
    }

    func touch(_ id: UInt32, _ phase: DigitizerContact.Phase, x: Double = 100, y: Double = 100, at time: Double? = nil) {
        input.feed(.digitizer(DigitizerFrame(timestamp: time ?? monotonicSeconds(), contacts: [
            DigitizerContact(identifier: id, phase: phase, x: x, y: y),
        ])))
        turn()
    }
}

struct ChildError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client socket the test speaks through.
final class TestClient {
    let socket: MessageSocket
    var welcome: ServerMessage.Welcome?

    init(path: String) throws {
        socket = try MessageSocket.connect(to: path)
    }

    func send(_ message: ServerMessage) throws {
        try socket.sendWaiting(message.encoded())
    }

    /// Sends, as an injector does, one touch frame stamped now: contact
    /// `identifier` in `phase` at (10, 20).
    func injectTouch(_ identifier: UInt32, _ phase: DigitizerContact.Phase) throws {
        let frame = HIDEvent.digitizer(DigitizerFrame(
            timestamp: monotonicSeconds(), contacts: [DigitizerContact(identifier: identifier, phase: phase, x: 10, y: 20)]))
        try send(.event(.init(sequence: 0, readTime: 0, sendTime: 0, packet: HIDPacketEncoder().encode(frame))))
    }

    /// Set once the server hung up on this client.
    private(set) var serverHungUp = false

    /// Every message waiting now, decoded, up to the server hanging up.
    func receive() throws -> [ServerMessage] {
        var messages: [ServerMessage] = []
        do {
            while let result = try socket.receiveMessage() { messages.append(try result.get()) }
        } catch let error as MessageSocketError where error == .peerClosed {
            serverHungUp = true
        }
        return messages
    }

    /// The events waiting now, with their sequence numbers.
    func events() throws -> [(sequence: UInt64, event: HIDEvent)] {
        try receive().compactMap { message in
            guard case .event(let envelope) = message else { return nil }
            var decoder = HIDPacketDecoder()
            decoder.append(envelope.packet)
            guard let result = decoder.next() else { throw ChildError("an event message without a packet") }
            return (envelope.sequence, try result.get())
        }
    }

    /// The phases of the touch frames waiting now, one string per frame: `"1 began"`.
    func touchPhases() throws -> [String] {
        try events().map { _, event in
            guard case .digitizer(let frame) = event else { return "\(event)" }
            return frame.contacts.map { "\($0.identifier) \($0.phase)" }.joined(separator: ", ")
        }
    }

    func acknowledge(_ sequence: UInt64, handled: Bool = true) throws {
        try send(.acknowledgement(.init(sequence: sequence, handled: handled, finishTime: monotonicSeconds())))
    }
}
