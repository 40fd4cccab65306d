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
    /// An application's frame buffer, sent with its descriptor attached.
    case attachBuffer(BufferAttachment)
    /// An application asks to be told when the display is ready for its
    /// next frame (Wayland's `wl_surface.frame`).
    case requestFrame
    /// An application's finished frame: the buffer to show and what changed.
    case commitFrame(FrameCommit)
    // Server to client; `event` also from an injector to the server.
    case welcome(Welcome)
    case event(EventEnvelope)
    case appState(AppState)
    case controlReply(ControlReply)
    case error(ServerErrorMessage)
    case shutdown
    /// The display is ready for the application's next frame.
    case frameSignal(FrameSignal)
    /// The server no longer reads this buffer: the application may draw in it.
    case bufferReleased(UInt32)
    /// A committed frame reached the screen.
    case framePresented(FramePresentation)
    /// A committed frame was replaced by a newer one before it was shown.
    case frameDiscarded(UInt64)
    // The inspector (`openuikit inspect --attach`), through the server.
    /// An inspector asks the server: which application, its tree, a frame.
    case inspectRequest(InspectRequest)
    /// What the server passes on to the inspected application.
    case inspectorCommand(InspectorCommand)
    /// Part of a JSON text from the inspected application to its inspector;
    /// the server passes it on unchanged.
    case inspectorReport(InspectorReport)
    /// The server tells an inspector whom it inspects, or that it stopped.
    case inspectorStatus(InspectorStatus)
    /// A frame the display showed of the inspected application, sent to its
    /// inspector with its pixels in a memfd attached.
    case inspectorFrame(InspectorFrame)

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
            /// `openuikit inspect --attach`: inspects an application through
            /// the server, and sends input as an injector does.
            case inspector = 5
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
        /// The screen's safe area: how far its rounded corners, sensor
        /// housing and home indicator reach in from each edge, in points.
        public var screenSafeArea: ScreenInsets
        public var isForeground: Bool

        public init(
            version: UInt16 = ServerProtocol.version, clientIdentifier: UInt32,
            screenWidth: Double, screenHeight: Double, screenScale: Double,
            screenSafeArea: ScreenInsets = .zero, isForeground: Bool
        ) {
            self.version = version
            self.clientIdentifier = clientIdentifier
            self.screenWidth = screenWidth
            self.screenHeight = screenHeight
            self.screenScale = screenScale
            self.screenSafeArea = screenSafeArea
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
        /// When the server queued the message for this client (it is
        /// written at once unless the client's socket is full), in seconds
        /// of `CLOCK_MONOTONIC`; 0 in a message to the server.
        public var sendTime: Double
        /// The event in `HIDWireFormat`.
        public var packet: [UInt8]

        public init(sequence: UInt64, readTime: Double, sendTime: Double, packet: [UInt8]) {
            self.sequence = sequence
            self.readTime = readTime
            self.sendTime = sendTime
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

    /// A frame buffer's size, for the memfd sent with it (see `SharedFrameBuffer`).
    public struct BufferAttachment: Equatable, Sendable {
        /// Chosen by the application, unique among its buffers.
        public var bufferIdentifier: UInt32
        /// In pixels.
        public var width: UInt32
        public var height: UInt32
        /// Bytes from one row to the next.
        public var stride: UInt32

        public init(bufferIdentifier: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
            self.bufferIdentifier = bufferIdentifier
            self.width = width
            self.height = height
            self.stride = stride
        }
    }

    /// A rectangle of a buffer, in pixels.
    public struct PixelRect: Equatable, Sendable {
        public var x: UInt32
        public var y: UInt32
        public var width: UInt32
        public var height: UInt32

        public init(x: UInt32, y: UInt32, width: UInt32, height: UInt32) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// A finished frame: from now on the server may read `bufferIdentifier`
    /// and shows it at the next refresh, unless a newer commit replaces it.
    public struct FrameCommit: Equatable, Sendable {
        /// Increases with each commit of the application.
        public var commitIdentifier: UInt64
        public var bufferIdentifier: UInt32
        /// The buffer row that holds the frame's top row: the buffer is a
        /// ring of rows, the frame's rows following that one to the
        /// buffer's last and going on from its first. A scroll of a list as
        /// wide as the screen moves the first row instead of the pixels.
        /// Below the buffer's height.
        public var firstRow: UInt32
        /// What moved since the previous frame, in order: each scroll's
        /// pixels came from their place in the frame before, so a screen
        /// that keeps its own copy may move it instead of reading them
        /// again. At most ``ServerProtocol/maximumScrolls`` (a client with
        /// more sends the others' destinations as damage).
        public var scrolls: [FrameScroll]
        /// What else differs from the previous frame once its scrolls are
        /// made (what was drawn, the rows a scroll brought into view); at
        /// most ``ServerProtocol/maximumDamageRects`` rectangles (a client
        /// with more sends their union).
        public var damage: [PixelRect]

        public init(commitIdentifier: UInt64, bufferIdentifier: UInt32, firstRow: UInt32 = 0, scrolls: [FrameScroll] = [], damage: [PixelRect]) {
            self.commitIdentifier = commitIdentifier
            self.bufferIdentifier = bufferIdentifier
            self.firstRow = firstRow
            self.scrolls = scrolls
            self.damage = damage
        }
    }

    /// Pixels of a frame that moved within a rectangle since the previous
    /// frame: the frame's pixel (x, y) inside `rect` is the previous
    /// frame's (x − dx, y − dy) when that one is inside `rect` too; the
    /// rest of `rect` (what the scroll brought into view) is in the
    /// commit's damage.
    public struct FrameScroll: Equatable, Sendable {
        /// The pixels that move: a scrolling layer's clip, in the frame.
        public var rect: PixelRect
        /// How far they moved, in pixels (positive: right, down).
        public var dx: Int32
        public var dy: Int32

        public init(rect: PixelRect, dx: Int32, dy: Int32) {
            self.rect = rect
            self.dx = dx
            self.dy = dy
        }
    }

    /// The display's refresh the frame the application draws now is for:
    /// sent a little before it, so that a frame committed at once is shown then.
    public struct FrameSignal: Equatable, Sendable {
        /// Counts the display's refreshes.
        public var sequence: UInt64
        /// When the refresh happens, in seconds of `CLOCK_MONOTONIC`.
        public var time: Double
        /// Seconds between refreshes (1/60, 1/120).
        public var refreshInterval: Double
        /// When to start the frame, in seconds of `CLOCK_MONOTONIC`, at
        /// or before ``time``: the application reads the input that came
        /// until then, fires its display links and draws. A time already
        /// passed means at once; a later one, that the signal came ahead
        /// of it (with a finger down, as soon as the application asked)
        /// and the application keeps it until then.
        public var startTime: Double

        public init(sequence: UInt64, time: Double, refreshInterval: Double, startTime: Double) {
            self.sequence = sequence
            self.time = time
            self.refreshInterval = refreshInterval
            self.startTime = startTime
        }
    }

    /// A commit shown on the screen (Wayland's presentation feedback).
    public struct FramePresentation: Equatable, Sendable {
        public var commitIdentifier: UInt64
        /// The refresh that showed it.
        public var sequence: UInt64
        /// When, in seconds of `CLOCK_MONOTONIC`.
        public var time: Double
        public var refreshInterval: Double

        public init(commitIdentifier: UInt64, sequence: UInt64, time: Double, refreshInterval: Double) {
            self.commitIdentifier = commitIdentifier
            self.sequence = sequence
            self.time = time
            self.refreshInterval = refreshInterval
        }
    }

    public enum ControlReply: Equatable, Sendable {
        case applications([ApplicationStatus])
        case done
        case failed(String)
    }

    /// An inspector's request to the server.
    public enum InspectRequest: Equatable, Sendable {
        /// Inspect the application called this; empty: the one in front.
        case attach(String)
        /// Ask the application to describe its view tree again.
        case tree
        /// Send the next frame the display shows of the application (one;
        /// the inspector asks again once it has shown it).
        case frame
    }

    /// What the server asks of an application on its inspector's behalf.
    public enum InspectorCommand: UInt8, Equatable, Sendable, CaseIterable {
        /// An inspector attached: describe the tree, draw a whole frame, and
        /// report every step of the events from now on.
        case start = 1
        /// Describe the view tree again.
        case tree = 2
        /// The inspector went away: stop reporting.
        case stop = 3
    }

    /// Part of one JSON text (the inspector page's messages: `tree`,
    /// `trace`, `chain`, `error`); a text longer than one message goes in
    /// several parts, in order, the last one marked.
    public struct InspectorReport: Equatable, Sendable {
        public var isLastPart: Bool
        /// UTF-8 bytes, at most ``ServerProtocol/maximumInspectorReportPart``;
        /// a part may end inside a character, the text is checked whole.
        public var bytes: [UInt8]

        public init(isLastPart: Bool, bytes: [UInt8]) {
            self.isLastPart = isLastPart
            self.bytes = bytes
        }
    }

    /// Whom an inspector inspects.
    public enum InspectorStatus: Equatable, Sendable {
        /// It is attached to this application.
        case attached(clientIdentifier: UInt32, processIdentifier: Int32, name: String)
        /// It is no longer attached, for the reason given (the application
        /// left, another inspector took over).
        case detached(String)
        /// The application sent a message that does not read: it was
        /// skipped, with the rest of the text it was part of; still attached.
        case skipped(String)
    }

    /// A frame of the inspected application as the display showed it; its
    /// pixels (RGBA, premultiplied, the screen's size in pixels) are in the
    /// memfd sent with the message, sealed, which the inspector owns.
    public struct InspectorFrame: Equatable, Sendable {
        /// The application's commit that the frame showed.
        public var commitIdentifier: UInt64
        public var width: UInt32
        public var height: UInt32
        public var stride: UInt32

        public init(commitIdentifier: UInt64, width: UInt32, height: UInt32, stride: UInt32) {
            self.commitIdentifier = commitIdentifier
            self.width = width
            self.height = height
            self.stride = stride
        }

        /// The buffer's size, as the server's check of a received memfd takes it.
        public var attachment: BufferAttachment {
            BufferAttachment(bufferIdentifier: 0, width: width, height: height, stride: stride)
        }
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
    public static let version: UInt16 = 5
    public static let magic: [UInt8] = [0x4F, 0x55, 0x4B, 0x53]  // "OUKS"
    public static let headerSize = 8
    /// No message is longer: a HID packet's largest payload plus its header
    /// and the event envelope, with room to spare.
    public static let maximumMessageSize = HIDWireFormat.maximumPayloadSize + 256
    /// A frame commit carries at most this many damage rectangles.
    public static let maximumDamageRects = 64
    /// A frame commit carries at most this many scrolls.
    public static let maximumScrolls = 8
    /// Application names longer than this are refused.
    public static let maximumNameLength = 255
    /// The most bytes of text one inspector report carries: a message's
    /// most, less the header and the report's own 8 bytes.
    public static let maximumInspectorReportPart = maximumMessageSize - headerSize - 8

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
        case attachBuffer = 0x04
        case requestFrame = 0x05
        case commitFrame = 0x06
        case welcome = 0x81
        case event = 0x82
        case appState = 0x83
        case controlReply = 0x84
        case error = 0x85
        case shutdown = 0x86
        case frameSignal = 0x87
        case bufferReleased = 0x88
        case framePresented = 0x89
        case frameDiscarded = 0x8A
        case inspectRequest = 0x07
        case inspectorReport = 0x08
        case inspectorCommand = 0x8B
        case inspectorStatus = 0x8C
        case inspectorFrame = 0x8D
    }
}

/// Why bytes could not be read as a message.
public enum ServerProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooShort(Int)
    case badMagic
    case unknownType(UInt8)
    case badLength(type: UInt8, length: Int)
    case badField(String)
    /// An inspector message (a request, a command, a report, a status or
    /// a frame) that does not read, for the reason given: the server
    /// refuses that message alone, and keeps the application that sent it.
    case badInspectorMessage(String)

    public var description: String {
        switch self {
        case .tooShort(let n): "a message of \(n) bytes is shorter than the 8-byte header"
        case .badMagic: "the message does not start with the protocol's magic \"OUKS\""
        case .unknownType(let t): "unknown message type \(t)"
        case .badLength(let t, let n): "a message of type \(t) cannot be \(n) bytes long"
        case .badField(let what): "bad field: \(what)"
        case .badInspectorMessage(let why): "a malformed inspector message: \(why)"
        }
    }
}

extension ServerMessage {
    /// The bytes of this message, one datagram.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// The bytes of this message written into `bytes`, replacing what they
    /// held: a sender that keeps one array for a message it sends again and
    /// again (an application's frame commits) allocates nothing for it once
    /// the array has grown.
    public func encode(into bytes: inout [UInt8]) {
        var out = MessageWriter()
        swap(&out.bytes, &bytes)
        defer { swap(&out.bytes, &bytes) }
        out.bytes.removeAll(keepingCapacity: true)
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
            Self.encodeAcknowledgement(acknowledgement, into: &out.bytes)
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
            for inset in welcome.screenSafeArea.edges { out.put(inset.bitPattern) }
        case .event(let envelope):
            out.bytes = Self.encodeEvent(sequence: envelope.sequence, readTime: envelope.readTime, sendTime: envelope.sendTime, packet: envelope.packet)
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
        case .attachBuffer(let attachment):
            out.header(.attachBuffer)
            out.put(attachment.bufferIdentifier)
            out.put(attachment.width)
            out.put(attachment.height)
            out.put(attachment.stride)
        case .requestFrame:
            out.header(.requestFrame)
        case .commitFrame(let commit):
            out.header(.commitFrame)
            out.put(commit.commitIdentifier)
            out.put(commit.bufferIdentifier)
            out.put(commit.firstRow)
            out.put(UInt16(truncatingIfNeeded: min(commit.damage.count, ServerProtocol.maximumDamageRects)))
            out.put(UInt8(truncatingIfNeeded: min(commit.scrolls.count, ServerProtocol.maximumScrolls)))
            out.put(UInt8(0))
            for rect in commit.damage.prefix(ServerProtocol.maximumDamageRects) {
                out.put(rect.x)
                out.put(rect.y)
                out.put(rect.width)
                out.put(rect.height)
            }
            for scroll in commit.scrolls.prefix(ServerProtocol.maximumScrolls) {
                out.put(scroll.rect.x)
                out.put(scroll.rect.y)
                out.put(scroll.rect.width)
                out.put(scroll.rect.height)
                out.put(scroll.dx)
                out.put(scroll.dy)
            }
        case .frameSignal(let signal):
            out.header(.frameSignal)
            out.put(signal.sequence)
            out.put(signal.time.bitPattern)
            out.put(signal.refreshInterval.bitPattern)
            out.put(signal.startTime.bitPattern)
        case .bufferReleased(let buffer):
            out.header(.bufferReleased)
            out.put(buffer)
        case .framePresented(let presentation):
            out.header(.framePresented)
            out.put(presentation.commitIdentifier)
            out.put(presentation.sequence)
            out.put(presentation.time.bitPattern)
            out.put(presentation.refreshInterval.bitPattern)
        case .frameDiscarded(let commit):
            out.header(.frameDiscarded)
            out.put(commit)
        case .inspectRequest(let request):
            out.header(.inspectRequest)
            switch request {
            case .attach(let name):
                out.put(UInt8(1))
                out.putString(name)
            case .tree: out.put(UInt8(2))
            case .frame: out.put(UInt8(3))
            }
        case .inspectorCommand(let command):
            out.header(.inspectorCommand)
            out.put(command.rawValue)
        case .inspectorReport(let report):
            let bytes = report.bytes.prefix(ServerProtocol.maximumInspectorReportPart)
            out.bytes.reserveCapacity(ServerProtocol.headerSize + 8 + bytes.count)
            out.header(.inspectorReport)
            out.put(UInt8(report.isLastPart ? 1 : 0))
            out.bytes.append(contentsOf: [0, 0, 0])
            out.put(UInt32(bytes.count))
            out.bytes.append(contentsOf: bytes)
        case .inspectorStatus(let status):
            out.header(.inspectorStatus)
            switch status {
            case .attached(let client, let pid, let name):
                out.put(UInt8(1))
                out.put(client)
                out.put(UInt32(bitPattern: pid))
                out.putString(name)
            case .detached(let why):
                out.put(UInt8(2))
                out.putText(why)
            case .skipped(let why):
                out.put(UInt8(3))
                out.putText(why)
            }
        case .inspectorFrame(let frame):
            out.header(.inspectorFrame)
            out.put(frame.commitIdentifier)
            out.put(frame.width)
            out.put(frame.height)
            out.put(frame.stride)
        }
    }

    /// The acknowledgement message, written in place: an application sends
    /// one per event, and field-by-field appends cost ten times as much.
    public static func encodeAcknowledgement(_ acknowledgement: Acknowledgement) -> [UInt8] {
        var bytes: [UInt8] = []
        encodeAcknowledgement(acknowledgement, into: &bytes)
        return bytes
    }

    /// The acknowledgement message written into `bytes`, replacing what they
    /// held: an application that keeps one array for its acknowledgements
    /// allocates nothing per event.
    public static func encodeAcknowledgement(_ acknowledgement: Acknowledgement, into bytes: inout [UInt8]) {
        // The header ("OUKS", the type, three zero bytes), then sequence,
        // handled and seven zero bytes, finish time.
        if bytes.count != ServerProtocol.headerSize + 24 {
            bytes = [UInt8](repeating: 0, count: ServerProtocol.headerSize + 24)
        }
        bytes.withUnsafeMutableBytes { raw in
            for (index, byte) in ServerProtocol.magic.enumerated() { raw[index] = byte }
            raw[4] = ServerProtocol.MessageType.acknowledgement.rawValue
            for index in 5..<ServerProtocol.headerSize { raw[index] = 0 }
            raw.storeBytes(of: acknowledgement.sequence.littleEndian, toByteOffset: ServerProtocol.headerSize, as: UInt64.self)
            raw.storeBytes(of: UInt64(acknowledgement.handled ? 1 : 0).littleEndian, toByteOffset: ServerProtocol.headerSize + 8, as: UInt64.self)
            raw.storeBytes(of: acknowledgement.finishTime.bitPattern.littleEndian, toByteOffset: ServerProtocol.headerSize + 16, as: UInt64.self)
        }
    }

    /// The event message for a HID packet, without building an envelope first.
    public static func encodeEvent(sequence: UInt64, readTime: Double, sendTime: Double, packet: [UInt8]) -> [UInt8] {
        var out = eventWriter(sequence: sequence, readTime: readTime, sendTime: sendTime, packetSize: packet.count)
        out.bytes.append(contentsOf: packet)
        return out.bytes
    }

    /// The event message for `event`, encoded straight into the message.
    public static func encodeEvent(
        sequence: UInt64, readTime: Double, sendTime: Double, event: HIDEvent, encoder: HIDPacketEncoder
    ) -> [UInt8] {
        var out = eventWriter(sequence: sequence, readTime: readTime, sendTime: sendTime, packetSize: encoder.packetSize(of: event))
        encoder.encode(event, into: &out.bytes)
        return out.bytes
    }

    private static func eventWriter(sequence: UInt64, readTime: Double, sendTime: Double, packetSize: Int) -> MessageWriter {
        var out = MessageWriter()
        out.bytes.reserveCapacity(ServerProtocol.headerSize + eventFieldsSize + packetSize)
        out.header(.event)
        out.put(sequence)
        out.put(readTime.bitPattern)
        out.put(sendTime.bitPattern)
        return out
    }

    /// The sequence number, read time and send time that follow an event message's header.
    private static let eventFieldsSize = 24

    /// An event message's fields, its packet left in place: for readers
    /// that take the packet's bytes straight into their decoder. Nil when
    /// `bytes` is another kind of message. Checked as
    /// ``init(decoding:)`` checks it.
    public static func decodeEvent(
        _ bytes: UnsafeRawBufferPointer
    ) throws(ServerProtocolError) -> (sequence: UInt64, readTime: Double, sendTime: Double, packet: UnsafeRawBufferPointer)? {
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
        let sendTime = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: ServerProtocol.headerSize + 16, as: UInt64.self)))
        guard sendTime.isFinite else { throw .badField("event send time that is not a finite number") }
        return (sequence, readTime, sendTime, UnsafeRawBufferPointer(rebasing: bytes[fieldsEnd...]))
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
            var edges: [Double] = []
            for _ in 0..<4 { edges.append(Double(bitPattern: try reader.get(orThrow: lengthError))) }
            guard foreground <= 1 else { throw .badField("welcome foreground flag \(foreground)") }
            guard width.isFinite, height.isFinite, scale.isFinite, width > 0, height > 0, scale > 0 else {
                throw .badField("welcome screen \(width)x\(height)@\(scale)")
            }
            let safeArea = ScreenInsets(top: edges[0], left: edges[1], bottom: edges[2], right: edges[3])
            guard safeArea.fits(width: width, height: height) else {
                throw .badField("welcome safe area \(safeArea) of a \(width)x\(height) screen")
            }
            self = .welcome(Welcome(
                version: version, clientIdentifier: client, screenWidth: width, screenHeight: height,
                screenScale: scale, screenSafeArea: safeArea, isForeground: foreground == 1
            ))
        case .event:
            guard let (sequence, readTime, sendTime, packet) = try Self.decodeEvent(bytes) else { throw lengthError }
            reader.offset = bytes.count
            self = .event(EventEnvelope(sequence: sequence, readTime: readTime, sendTime: sendTime, packet: Array(packet)))
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
        case .attachBuffer:
            let buffer: UInt32 = try reader.get(orThrow: lengthError)
            let width: UInt32 = try reader.get(orThrow: lengthError)
            let height: UInt32 = try reader.get(orThrow: lengthError)
            let stride: UInt32 = try reader.get(orThrow: lengthError)
            self = .attachBuffer(BufferAttachment(bufferIdentifier: buffer, width: width, height: height, stride: stride))
        case .requestFrame:
            self = .requestFrame
        case .commitFrame:
            let commit: UInt64 = try reader.get(orThrow: lengthError)
            let buffer: UInt32 = try reader.get(orThrow: lengthError)
            let firstRow: UInt32 = try reader.get(orThrow: lengthError)
            let count: UInt16 = try reader.get(orThrow: lengthError)
            let scrollCount: UInt8 = try reader.get(orThrow: lengthError)
            let reserved: UInt8 = try reader.get(orThrow: lengthError)
            guard reserved == 0 else { throw .badField("frame commit reserved byte \(reserved)") }
            guard Int(count) <= ServerProtocol.maximumDamageRects else {
                throw .badField("\(count) damage rectangles (at most \(ServerProtocol.maximumDamageRects))")
            }
            guard Int(scrollCount) <= ServerProtocol.maximumScrolls else {
                throw .badField("\(scrollCount) scrolls (at most \(ServerProtocol.maximumScrolls))")
            }
            var damage: [PixelRect] = []
            damage.reserveCapacity(Int(count))
            for _ in 0..<count {
                damage.append(PixelRect(
                    x: try reader.get(orThrow: lengthError), y: try reader.get(orThrow: lengthError),
                    width: try reader.get(orThrow: lengthError), height: try reader.get(orThrow: lengthError)))
            }
            var scrolls: [FrameScroll] = []
            scrolls.reserveCapacity(Int(scrollCount))
            for _ in 0..<scrollCount {
                let rect = PixelRect(
                    x: try reader.get(orThrow: lengthError), y: try reader.get(orThrow: lengthError),
                    width: try reader.get(orThrow: lengthError), height: try reader.get(orThrow: lengthError))
                scrolls.append(FrameScroll(rect: rect, dx: try reader.get(orThrow: lengthError), dy: try reader.get(orThrow: lengthError)))
            }
            self = .commitFrame(FrameCommit(commitIdentifier: commit, bufferIdentifier: buffer, firstRow: firstRow, scrolls: scrolls, damage: damage))
        case .frameSignal:
            let sequence: UInt64 = try reader.get(orThrow: lengthError)
            let time = Double(bitPattern: try reader.get(orThrow: lengthError))
            let interval = Double(bitPattern: try reader.get(orThrow: lengthError))
            let start = Double(bitPattern: try reader.get(orThrow: lengthError))
            guard time.isFinite, interval.isFinite, interval > 0 else { throw .badField("frame signal time \(time), interval \(interval)") }
            guard start.isFinite, start <= time else { throw .badField("frame signal start \(start), not a time at or before its refresh at \(time)") }
            self = .frameSignal(FrameSignal(sequence: sequence, time: time, refreshInterval: interval, startTime: start))
        case .bufferReleased:
            self = .bufferReleased(try reader.get(orThrow: lengthError))
        case .framePresented:
            let commit: UInt64 = try reader.get(orThrow: lengthError)
            let sequence: UInt64 = try reader.get(orThrow: lengthError)
            let time = Double(bitPattern: try reader.get(orThrow: lengthError))
            let interval = Double(bitPattern: try reader.get(orThrow: lengthError))
            guard time.isFinite, interval.isFinite, interval > 0 else { throw .badField("presentation time \(time), interval \(interval)") }
            self = .framePresented(FramePresentation(commitIdentifier: commit, sequence: sequence, time: time, refreshInterval: interval))
        case .frameDiscarded:
            self = .frameDiscarded(try reader.get(orThrow: lengthError))
        case .inspectRequest, .inspectorCommand, .inspectorReport, .inspectorStatus, .inspectorFrame:
            do throws(ServerProtocolError) {
                self = try Self.decodeInspectorMessage(type, reader: &reader, lengthError: lengthError)
                guard reader.offset == bytes.count else { throw lengthError }
            } catch {
                throw .badInspectorMessage(error.description)
            }
        }
        guard reader.offset == bytes.count else { throw lengthError }
    }

    private static func decodeInspectorMessage(
        _ type: ServerProtocol.MessageType, reader: inout MessageReader, lengthError: ServerProtocolError
    ) throws(ServerProtocolError) -> ServerMessage {
        switch type {
        case .inspectRequest:
            let kind: UInt8 = try reader.get(orThrow: lengthError)
            switch kind {
            case 1: return .inspectRequest(.attach(try reader.getString(orThrow: lengthError)))
            case 2: return .inspectRequest(.tree)
            case 3: return .inspectRequest(.frame)
            default: throw .badField("inspect request kind \(kind)")
            }
        case .inspectorCommand:
            let raw: UInt8 = try reader.get(orThrow: lengthError)
            guard let command = InspectorCommand(rawValue: raw) else { throw .badField("inspector command \(raw)") }
            return .inspectorCommand(command)
        case .inspectorReport:
            let last: UInt8 = try reader.get(orThrow: lengthError)
            try reader.skipZeroes(3, orThrow: lengthError)
            let count = Int(try reader.get(orThrow: lengthError) as UInt32)
            guard last <= 1 else { throw .badField("inspector report last-part flag \(last)") }
            guard count <= ServerProtocol.maximumInspectorReportPart else {
                throw .badField("an inspector report part of \(count) bytes (at most \(ServerProtocol.maximumInspectorReportPart))")
            }
            return .inspectorReport(InspectorReport(isLastPart: last == 1, bytes: try reader.getBytes(count, orThrow: lengthError)))
        case .inspectorStatus:
            let kind: UInt8 = try reader.get(orThrow: lengthError)
            switch kind {
            case 1:
                let client: UInt32 = try reader.get(orThrow: lengthError)
                let pid: UInt32 = try reader.get(orThrow: lengthError)
                let name = try reader.getString(orThrow: lengthError)
                return .inspectorStatus(.attached(clientIdentifier: client, processIdentifier: Int32(bitPattern: pid), name: name))
            case 2: return .inspectorStatus(.detached(try reader.getText(orThrow: lengthError)))
            case 3: return .inspectorStatus(.skipped(try reader.getText(orThrow: lengthError)))
            default: throw .badField("inspector status kind \(kind)")
            }
        case .inspectorFrame:
            let commit: UInt64 = try reader.get(orThrow: lengthError)
            let width: UInt32 = try reader.get(orThrow: lengthError)
            let height: UInt32 = try reader.get(orThrow: lengthError)
            let stride: UInt32 = try reader.get(orThrow: lengthError)
            return .inspectorFrame(InspectorFrame(commitIdentifier: commit, width: width, height: height, stride: stride))
        default:
            throw .unknownType(type.rawValue)
        }
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

    mutating func getBytes(_ count: Int, orThrow error: ServerProtocolError) throws(ServerProtocolError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw error }
        let slice = Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        offset += count
        return slice
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
