#if canImport(Glibc)
import Glibc
#endif

/// The messages the event server and its clients exchange, one per
/// `SOCK_SEQPACKET` datagram (see docs/protocol.md for the whole protocol).
///
/// Every message starts with an 8-byte header, all fields little-endian:
/// the magic `"OUKS"`, the message type, three reserved zero bytes. What
/// follows depends on the type. An application, a control tool, an injector
/// (replay) and a recorder all speak the same messages; the role named in
/// the hello says which of them a client may send.
public enum ServerMessage: Equatable, Sendable {
    // Client to server.
    case hello(Hello)
    case acknowledgement(Acknowledgement)
    case controlRequest(ControlRequest)
    // Server to client; `event` also from an injector to the server.
    case welcome(Welcome)
    case event(EventEnvelope)
    case appState(AppState)
    case controlReply(ControlReply)
    case error(ServerErrorMessage)
    case shutdown

    /// The first message of every connection: who is calling and in which
    /// version of the protocol.
    public struct Hello: Equatable, Sendable {
        public enum Role: UInt8, Sendable, CaseIterable {
            /// An application: receives events, acknowledges each one.
            case application = 1
            /// `openuikit apps` / `switch`: sends control requests.
            case control = 2
            /// `openuikit replay`: sends events, which the server treats as input.
            case injector = 3
            /// `openuikit record`: receives a copy of every input event.
            case recorder = 4
        }

        public var version: UInt16
        public var role: Role
        public var processIdentifier: Int32
        public var name: String

        public init(version: UInt16 = ServerProtocol.version, role: Role, processIdentifier: Int32, name: String) {
            self.version = version
            self.role = role
            self.processIdentifier = processIdentifier
            self.name = name
        }
    }

    /// The server's answer to a hello: the screen every app lays out for,
    /// and whether the new client is the foreground application.
    public struct Welcome: Equatable, Sendable {
        public var version: UInt16
        public var clientIdentifier: UInt32
        /// The screen's size in points and its scale (pixels per point).
        public var screenWidth: Double
        public var screenHeight: Double
        public var screenScale: Double
        public var isForeground: Bool

        public init(
            version: UInt16 = ServerProtocol.version, clientIdentifier: UInt32,
            screenWidth: Double, screenHeight: Double, screenScale: Double, isForeground: Bool
        ) {
            self.version = version
            self.clientIdentifier = clientIdentifier
            self.screenWidth = screenWidth
            self.screenHeight = screenHeight
            self.screenScale = screenScale
            self.isForeground = isForeground
        }
    }

    /// One HID event, numbered so the application can acknowledge it.
    public struct EventEnvelope: Equatable, Sendable {
        /// Increases by one per event sent to this client.
        public var sequence: UInt64
        /// When the server read the event from its source, in seconds of
        /// `CLOCK_MONOTONIC`: what latency is measured from.
        public var readTime: Double
        /// The event in `HIDWireFormat`.
        public var packet: [UInt8]

        public init(sequence: UInt64, readTime: Double, packet: [UInt8]) {
            self.sequence = sequence
            self.readTime = readTime
            self.packet = packet
        }
    }

    /// The application finished handling an event.
    public struct Acknowledgement: Equatable, Sendable {
        public var sequence: UInt64
        /// Whether a responder (a view, a recognizer, a window) took the event.
        public var handled: Bool
        /// When handling finished, in seconds of `CLOCK_MONOTONIC`.
        public var finishTime: Double

        public init(sequence: UInt64, handled: Bool, finishTime: Double) {
            self.sequence = sequence
            self.handled = handled
            self.finishTime = finishTime
        }
    }

    /// Where an application stands: in front and receiving touches, or not.
    public enum AppState: UInt8, Equatable, Sendable {
        case foreground = 1
        case background = 2
    }

    public enum ControlRequest: Equatable, Sendable {
        /// List the connected applications.
        case listApplications
        /// Bring the application of this name to the front.
        case switchTo(String)
    }

    public enum ControlReply: Equatable, Sendable {
        case applications([ApplicationStatus])
        case done
        case failed(String)
    }

    /// One row of `openuikit apps`.
    public struct ApplicationStatus: Equatable, Sendable {
        public var clientIdentifier: UInt32
        public var processIdentifier: Int32
        public var name: String
        public var isForeground: Bool
        public var isResponding: Bool
        /// Events sent and not yet acknowledged.
        public var unacknowledgedCount: UInt32

        public init(
            clientIdentifier: UInt32, processIdentifier: Int32, name: String,
            isForeground: Bool, isResponding: Bool, unacknowledgedCount: UInt32
        ) {
            self.clientIdentifier = clientIdentifier
            self.processIdentifier = processIdentifier
            self.name = name
            self.isForeground = isForeground
            self.isResponding = isResponding
            self.unacknowledgedCount = unacknowledgedCount
        }
    }
}

/// Why the server dropped a client; sent just before it closes the socket.
public struct ServerErrorMessage: Equatable, Sendable, CustomStringConvertible {
    public enum Code: UInt8, Sendable {
        case unsupportedVersion = 1
        case malformedMessage = 2
        case unexpectedMessage = 3
        case refusedPeer = 4
        case other = 255
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Numbers of the protocol that both sides must agree on.
public enum ServerProtocol {
    /// Bumped on any incompatible change; a hello with another version is refused.
    public static let version: UInt16 = 1
    public static let magic: [UInt8] = [0x4F, 0x55, 0x4B, 0x53]  // "OUKS"
    public static let headerSize = 8
    /// No message is longer: a HID packet's largest payload plus its header
    /// and the event envelope, with room to spare.
    public static let maximumMessageSize = HIDWireFormat.maximumPayloadSize + 256
    /// Application names longer than this are refused.
    public static let maximumNameLength = 255

    /// `$XDG_RUNTIME_DIR/openuikit/server.sock`, or
    /// `/tmp/openuikit-UID/server.sock` when that variable is unset: where
    /// the server listens and applications look for it unless told otherwise.
    public static func defaultSocketPath() -> String {
        "\(defaultSocketDirectory())/server.sock"
    }

    /// The directory of ``defaultSocketPath()``, which only its user may open.
    public static func defaultSocketDirectory() -> String {
        if let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 {
            return String(cString: runtime) + "/openuikit"
        }
        return "/tmp/openuikit-\(getuid())"
    }

    enum MessageType: UInt8 {
        case hello = 0x01
        case acknowledgement = 0x02
        case controlRequest = 0x03
        case welcome = 0x81
        case event = 0x82
        case appState = 0x83
        case controlReply = 0x84
        case error = 0x85
        case shutdown = 0x86
    }
}

/// Why bytes could not be read as a message.
public enum ServerProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort(Int)
    case badMagic
    case unknownType(UInt8)
    case badLength(type: UInt8, length: Int)
    case badField(String)

    public var description: String {
        switch self {
        case .tooShort(let n): "a message of \(n) bytes is shorter than the 8-byte header"
        case .badMagic: "the message does not start with the protocol's magic \"OUKS\""
        case .unknownType(let t): "unknown message type \(t)"
        case .badLength(let t, let n): "a message of type \(t) cannot be \(n) bytes long"
        case .badField(let what): "bad field: \(what)"
        }
    }
}

extension ServerMessage {
    /// The bytes of this message, one datagram.
    public func encoded() -> [UInt8] {
        var out = MessageWriter()
        // Room for every fixed-size message at once (an acknowledgement is 32
        // bytes): growing the array field by field costs more than the message.
        out.bytes.reserveCapacity(64)
        switch self {
        case .hello(let hello):
            out.header(.hello)
            out.put(hello.version)
            out.put(hello.role.rawValue)
            out.put(UInt8(0))
            out.put(UInt32(bitPattern: hello.processIdentifier))
            out.putString(hello.name)
        case .acknowledgement(let acknowledgement):
            return Self.encodeAcknowledgement(acknowledgement)
        case .controlRequest(let request):
            out.header(.controlRequest)
            switch request {
            case .listApplications:
                out.put(UInt8(1))
            case .switchTo(let name):
                out.put(UInt8(2))
                out.putString(name)
            }
        case .welcome(let welcome):
            out.header(.welcome)
            out.put(welcome.version)
            out.put(UInt8(welcome.isForeground ? 1 : 0))
            out.put(UInt8(0))
            out.put(welcome.clientIdentifier)
            out.put(welcome.screenWidth.bitPattern)
            out.put(welcome.screenHeight.bitPattern)
            out.put(welcome.screenScale.bitPattern)
        case .event(let envelope):
            return Self.encodeEvent(sequence: envelope.sequence, readTime: envelope.readTime, packet: envelope.packet)
        case .appState(let state):
            out.header(.appState)
            out.put(state.rawValue)
        case .controlReply(let reply):
            out.header(.controlReply)
            switch reply {
            case .applications(let rows):
                out.put(UInt8(1))
                out.put(UInt16(truncatingIfNeeded: rows.count))
                for row in rows {
                    out.put(row.clientIdentifier)
                    out.put(UInt32(bitPattern: row.processIdentifier))
                    out.put(UInt8((row.isForeground ? 1 : 0) | (row.isResponding ? 2 : 0)))
                    out.put(row.unacknowledgedCount)
                    out.putString(row.name)
                }
            case .done:
                out.put(UInt8(2))
            case .failed(let message):
                out.put(UInt8(3))
                out.putText(message)
            }
        case .error(let error):
            out.header(.error)
            out.put(error.code.rawValue)
            out.putText(error.message)
        case .shutdown:
            out.header(.shutdown)
        }
        return out.bytes
    }

    /// The acknowledgement message, written in place: an application sends
    /// one per event, and field-by-field appends cost ten times as much.
    public static func encodeAcknowledgement(_ acknowledgement: Acknowledgement) -> [UInt8] {
        // The header ("OUKS", the type, three zero bytes), then sequence,
        // handled and seven zero bytes, finish time. A literal of the right
        // length is the cheapest array to start from.
        var bytes: [UInt8] = [
            0x4F, 0x55, 0x4B, 0x53, ServerProtocol.MessageType.acknowledgement.rawValue, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: acknowledgement.sequence.littleEndian, toByteOffset: ServerProtocol.headerSize, as: UInt64.self)
            raw[ServerProtocol.headerSize + 8] = acknowledgement.handled ? 1 : 0
            raw.storeBytes(of: acknowledgement.finishTime.bitPattern.littleEndian, toByteOffset: ServerProtocol.headerSize + 16, as: UInt64.self)
        }
        return bytes
    }

    /// The event message for a HID packet, without building an envelope first.
    public static func encodeEvent(sequence: UInt64, readTime: Double, packet: [UInt8]) -> [UInt8] {
        var out = eventWriter(sequence: sequence, readTime: readTime, packetSize: packet.count)
        out.bytes.append(contentsOf: packet)
        return out.bytes
    }

    /// The event message for `event`, encoded straight into the message.
    public static func encodeEvent(sequence: UInt64, readTime: Double, event: HIDEvent, encoder: HIDPacketEncoder) -> [UInt8] {
        var out = eventWriter(sequence: sequence, readTime: readTime, packetSize: encoder.packetSize(of: event))
        encoder.encode(event, into: &out.bytes)
        return out.bytes
    }

    private static func eventWriter(sequence: UInt64, readTime: Double, packetSize: Int) -> MessageWriter {
        var out = MessageWriter()
        out.bytes.reserveCapacity(ServerProtocol.headerSize + eventFieldsSize + packetSize)
        out.header(.event)
        out.put(sequence)
        out.put(readTime.bitPattern)
        return out
    }

    /// The sequence number and read time that follow an event message's header.
    private static let eventFieldsSize = 16

    /// An event message's fields, its packet left in place: for readers
    /// that take the packet's bytes straight into their decoder. Nil when
    /// `bytes` is another kind of message. Checked as
    /// ``init(decoding:)`` checks it.
    public static func decodeEvent(
        _ bytes: UnsafeRawBufferPointer
    ) throws(ServerProtocolError) -> (sequence: UInt64, readTime: Double, packet: UnsafeRawBufferPointer)? {
        guard bytes.count >= ServerProtocol.headerSize, bytes[4] == ServerProtocol.MessageType.event.rawValue else { return nil }
        guard bytes[0] == 0x4F, bytes[1] == 0x55, bytes[2] == 0x4B, bytes[3] == 0x53 else { throw .badMagic }
        guard bytes[5] == 0, bytes[6] == 0, bytes[7] == 0 else { throw .badField("reserved header bytes that are not zero") }
        let fieldsEnd = ServerProtocol.headerSize + eventFieldsSize
        guard bytes.count >= fieldsEnd + HIDWireFormat.headerSize else {
            throw .badLength(type: ServerProtocol.MessageType.event.rawValue, length: bytes.count)
        }
        let sequence = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: ServerProtocol.headerSize, as: UInt64.self))
        let readTime = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: ServerProtocol.headerSize + 8, as: UInt64.self)))
        guard readTime.isFinite else { throw .badField("event read time that is not a finite number") }
        return (sequence, readTime, UnsafeRawBufferPointer(rebasing: bytes[fieldsEnd...]))
    }

    /// Reads one whole datagram. Every field is checked: lengths, enums,
    /// text (valid UTF-8 of a bounded length), and nothing left over.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(ServerProtocolError) {
        var reader = MessageReader(bytes: bytes)
        guard bytes.count >= ServerProtocol.headerSize else { throw .tooShort(bytes.count) }
        guard bytes[0] == 0x4F, bytes[1] == 0x55, bytes[2] == 0x4B, bytes[3] == 0x53 else { throw .badMagic }
        let typeByte = bytes[4]
        guard let type = ServerProtocol.MessageType(rawValue: typeByte) else { throw .unknownType(typeByte) }
        guard bytes[5] == 0, bytes[6] == 0, bytes[7] == 0 else { throw .badField("reserved header bytes that are not zero") }
        reader.offset = ServerProtocol.headerSize
        let lengthError = ServerProtocolError.badLength(type: typeByte, length: bytes.count)
        switch type {
        case .hello:
            let version: UInt16 = try reader.get(orThrow: lengthError)
            let roleByte: UInt8 = try reader.get(orThrow: lengthError)
            try reader.skipZeroes(1, orThrow: lengthError)
            let pid: UInt32 = try reader.get(orThrow: lengthError)
            let name = try reader.getString(orThrow: lengthError)
            guard let role = Hello.Role(rawValue: roleByte) else { throw .badField("hello role \(roleByte)") }
            self = .hello(Hello(version: version, role: role, processIdentifier: Int32(bitPattern: pid), name: name))
        case .acknowledgement:
            let sequence: UInt64 = try reader.get(orThrow: lengthError)
            let handled: UInt8 = try reader.get(orThrow: lengthError)
            try reader.skipZeroes(7, orThrow: lengthError)
            let finish: UInt64 = try reader.get(orThrow: lengthError)
            guard handled <= 1 else { throw .badField("acknowledgement handled flag \(handled)") }
            let finishTime = Double(bitPattern: finish)
            guard finishTime.isFinite else { throw .badField("acknowledgement finish time \(finishTime)") }
            self = .acknowledgement(Acknowledgement(sequence: sequence, handled: handled == 1, finishTime: finishTime))
        case .controlRequest:
            let kind: UInt8 = try reader.get(orThrow: lengthError)
            switch kind {
            case 1: self = .controlRequest(.listApplications)
            case 2: self = .controlRequest(.switchTo(try reader.getString(orThrow: lengthError)))
            default: throw .badField("control request kind \(kind)")
            }
        case .welcome:
            let version: UInt16 = try reader.get(orThrow: lengthError)
            let foreground: UInt8 = try reader.get(orThrow: lengthError)
            try reader.skipZeroes(1, orThrow: lengthError)
            let client: UInt32 = try reader.get(orThrow: lengthError)
            let width = Double(bitPattern: try reader.get(orThrow: lengthError))
            let height = Double(bitPattern: try reader.get(orThrow: lengthError))
            let scale = Double(bitPattern: try reader.get(orThrow: lengthError))
            guard foreground <= 1 else { throw .badField("welcome foreground flag \(foreground)") }
            guard width.isFinite, height.isFinite, scale.isFinite, width > 0, height > 0, scale > 0 else {
                throw .badField("welcome screen \(width)x\(height)@\(scale)")
            }
            self = .welcome(Welcome(
                version: version, clientIdentifier: client,
                screenWidth: width, screenHeight: height, screenScale: scale, isForeground: foreground == 1
            ))
        case .event:
            guard let (sequence, readTime, packet) = try Self.decodeEvent(bytes) else { throw lengthError }
            reader.offset = bytes.count
            self = .event(EventEnvelope(sequence: sequence, readTime: readTime, packet: Array(packet)))
        case .appState:
            let raw: UInt8 = try reader.get(orThrow: lengthError)
            guard let state = AppState(rawValue: raw) else { throw .badField("app state \(raw)") }
            self = .appState(state)
        case .controlReply:
            let kind: UInt8 = try reader.get(orThrow: lengthError)
            switch kind {
            case 1:
                let count: UInt16 = try reader.get(orThrow: lengthError)
                var rows: [ApplicationStatus] = []
                for _ in 0..<count {
                    let client: UInt32 = try reader.get(orThrow: lengthError)
                    let pid: UInt32 = try reader.get(orThrow: lengthError)
                    let flags: UInt8 = try reader.get(orThrow: lengthError)
                    let unacknowledged: UInt32 = try reader.get(orThrow: lengthError)
                    let name = try reader.getString(orThrow: lengthError)
                    guard flags <= 3 else { throw .badField("application flags \(flags)") }
                    rows.append(ApplicationStatus(
                        clientIdentifier: client, processIdentifier: Int32(bitPattern: pid), name: name,
                        isForeground: flags & 1 != 0, isResponding: flags & 2 != 0,
                        unacknowledgedCount: unacknowledged
                    ))
                }
                self = .controlReply(.applications(rows))
            case 2: self = .controlReply(.done)
            case 3: self = .controlReply(.failed(try reader.getText(orThrow: lengthError)))
            default: throw .badField("control reply kind \(kind)")
            }
        case .error:
            let raw: UInt8 = try reader.get(orThrow: lengthError)
            let message = try reader.getText(orThrow: lengthError)
            self = .error(ServerErrorMessage(ServerErrorMessage.Code(rawValue: raw) ?? .other, message))
        case .shutdown:
            self = .shutdown
        }
        guard reader.offset == bytes.count else { throw lengthError }
    }

    /// ``init(decoding:)`` for an array.
    public init(decoding bytes: [UInt8]) throws(ServerProtocolError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ServerProtocolError) in try ServerMessage(decoding: raw) } }
        self = try result.get()
    }
}

private struct MessageWriter {
    var bytes: [UInt8] = []

    mutating func header(_ type: ServerProtocol.MessageType) {
        bytes.append(contentsOf: ServerProtocol.magic)
        bytes.append(type.rawValue)
        bytes.append(contentsOf: [0, 0, 0])
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A name: one length byte, then UTF-8. Longer names are cut at a
    /// character boundary; the server refuses them anyway.
    mutating func putString(_ string: String) {
        var utf8: [UInt8] = []
        for character in string {
            let bytes = Array(character.utf8)
            if utf8.count + bytes.count > ServerProtocol.maximumNameLength { break }
            utf8 += bytes
        }
        put(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A message: two length bytes, then UTF-8, cut to 4,096 bytes.
    mutating func putText(_ string: String) {
        let utf8 = Array(string.utf8.prefix(4096))
        put(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

private struct MessageReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func get<T: FixedWidthInteger>(orThrow error: ServerProtocolError) throws(ServerProtocolError) -> T {
        let size = MemoryLayout<T>.size
        guard offset >= 0, bytes.count - offset >= size else { throw error }
        let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += size
        return value
    }

    /// Skips `count` padding bytes, which the protocol says are zero.
    mutating func skipZeroes(_ count: Int, orThrow error: ServerProtocolError) throws(ServerProtocolError) {
        guard offset >= 0, bytes.count - offset >= count else { throw error }
        for index in offset..<(offset + count) where bytes[index] != 0 {
            throw .badField("padding bytes that are not zero")
        }
        offset += count
    }

    mutating func getString(orThrow error: ServerProtocolError) throws(ServerProtocolError) -> String {
        let count = Int(try get(orThrow: error) as UInt8)
        return try utf8(count: count, orThrow: error)
    }

    mutating func getText(orThrow error: ServerProtocolError) throws(ServerProtocolError) -> String {
        let count = Int(try get(orThrow: error) as UInt16)
        return try utf8(count: count, orThrow: error)
    }

    private mutating func utf8(count: Int, orThrow error: ServerProtocolError) throws(ServerProtocolError) -> String {
        guard bytes.count - offset >= count else { throw error }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        guard let string = String(validating: slice, as: UTF8.self) else { throw .badField("text that is not UTF-8") }
        return string
    }
}
