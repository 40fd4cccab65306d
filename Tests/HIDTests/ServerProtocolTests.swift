#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing

@Suite struct ServerProtocolTests {
    static let messages: [ServerMessage] = [
        .hello(.init(role: .application, processIdentifier: 4242, name: "Photos")),
        .hello(.init(version: 7, role: .recorder, processIdentifier: -1, name: "record é")),
        .acknowledgement(.init(sequence: 1 << 40, handled: true, finishTime: 12.5)),
        .controlRequest(.listApplications),
        .controlRequest(.switchTo("Maps")),
        .welcome(.init(clientIdentifier: 3, screenWidth: 390, screenHeight: 844, screenScale: 3, isForeground: true)),
        .welcome(.init(clientIdentifier: 4, screenWidth: 390, screenHeight: 844, screenScale: 3,
                       screenSafeArea: ScreenInsets(top: 47, left: 0.5, bottom: 34, right: 21), isForeground: false)),
        .event(.init(sequence: 9, readTime: 1.25, sendTime: 1.5, packet: HIDPacketEncoder().encode(.button(.init(timestamp: 1, usagePage: 7, usage: 4, isDown: true))))),
        .appState(.background),
        .controlReply(.applications([
            .init(clientIdentifier: 1, processIdentifier: 10, name: "A", isForeground: false, isResponding: true, unacknowledgedCount: 0),
            .init(clientIdentifier: 2, processIdentifier: 11, name: "B", isForeground: true, isResponding: false, unacknowledgedCount: 17),
        ])),
        .controlReply(.done),
        .controlReply(.failed("no application called \"C\"")),
        .error(ServerErrorMessage(.unsupportedVersion, "this server speaks protocol version 3, not 7")),
        .shutdown,
        .attachBuffer(.init(bufferIdentifier: 2, width: 1170, height: 2532, stride: 4680)),
        .requestFrame,
        .commitFrame(.init(commitIdentifier: 1 << 33, bufferIdentifier: 2, damage: [
            .init(x: 0, y: 0, width: 1170, height: 2532), .init(x: 30, y: 40, width: 5, height: 6),
        ])),
        .commitFrame(.init(commitIdentifier: 1, bufferIdentifier: 1, damage: [])),
        .commitFrame(.init(commitIdentifier: 2, bufferIdentifier: 3, firstRow: 2531, damage: [.init(x: 0, y: 2530, width: 1170, height: 2)])),
        .commitFrame(.init(commitIdentifier: 3, bufferIdentifier: 1, firstRow: 40, scrolls: [
            .init(rect: .init(x: 0, y: 141, width: 1170, height: 2250), dx: 0, dy: -42),
            .init(rect: .init(x: 30, y: 300, width: 600, height: 90), dx: 7, dy: 0),
        ], damage: [.init(x: 0, y: 2349, width: 1170, height: 42)])),
        .frameSignal(.init(sequence: 77, time: 1234.5, refreshInterval: 1.0 / 120, startTime: 1234.4995)),
        .bufferReleased(2),
        .framePresented(.init(commitIdentifier: 9, sequence: 78, time: 1234.51, refreshInterval: 1.0 / 60)),
        .frameDiscarded(8),
        .hello(.init(role: .inspector, processIdentifier: 77, name: "openuikit inspect")),
        .inspectRequest(.attach("Photos")),
        .inspectRequest(.attach("")),
        .inspectRequest(.tree),
        .inspectRequest(.frame),
        .inspectorCommand(.start),
        .inspectorCommand(.tree),
        .inspectorCommand(.stop),
        .inspectorReport(.init(isLastPart: false, bytes: Array("{\"type\":\"tr".utf8))),
        .inspectorReport(.init(isLastPart: true, bytes: [])),
        .inspectorStatus(.attached(clientIdentifier: 4, processIdentifier: 900, name: "Photos")),
        .inspectorStatus(.detached("\"Photos\" left the server")),
        .inspectorStatus(.skipped("a report that does not read")),
        .inspectorFrame(.init(commitIdentifier: 12, width: 1170, height: 2532, stride: 4680)),
    ]

    @Test(arguments: messages) func everyMessageReadsBackAsWritten(_ message: ServerMessage) throws {
        try expectEqual(ServerMessage(decoding: message.encoded()), message)
    }

    /// An application keeps one array for its frame commits and one for its
    /// acknowledgements, written over by each message: what the array held
    /// before (a longer message, a shorter one, another kind) leaves no trace.
    @Test(arguments: messages) func aMessageWrittenOverAnotherIsTheSameBytes(_ message: ServerMessage) {
        for previous in Self.messages {
            var bytes = previous.encoded()
            message.encode(into: &bytes)
            expectEqual(bytes, message.encoded())
            guard case .acknowledgement(let acknowledgement) = message else { continue }
            bytes = previous.encoded()
            ServerMessage.encodeAcknowledgement(acknowledgement, into: &bytes)
            expectEqual(bytes, message.encoded())
        }
    }

    @Test func anAcknowledgementWrittenOverTheLastIsItsOwn() throws {
        var bytes: [UInt8] = []
        ServerMessage.encodeAcknowledgement(.init(sequence: 1 << 40, handled: true, finishTime: 12.5), into: &bytes)
        ServerMessage.encodeAcknowledgement(.init(sequence: 7, handled: false, finishTime: 3), into: &bytes)
        try expectEqual(ServerMessage(decoding: bytes), .acknowledgement(.init(sequence: 7, handled: false, finishTime: 3)))
    }

    @Test(arguments: messages) func everyCutOrLengthenedMessageIsRefused(_ message: ServerMessage) {
        let bytes = message.encoded()
        for length in 0..<bytes.count where !(message == .shutdown && length == bytes.count) {
            // An event's packet may be cut and still be a packet-sized message; it is checked when decoded.
            if case .event = message, length >= 8 + 16 + HIDWireFormat.headerSize { continue }
            #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: Array(bytes.prefix(length))) }
        }
        if case .event = message { return }
        #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: bytes + [0]) }
    }

    @Test func anEventMessageReadsInPlaceAsItReadsWhole() throws {
        let event = HIDEvent.digitizer(DigitizerFrame(timestamp: 2, contacts: [DigitizerContact(identifier: 1, phase: .moved, x: 3, y: 4)]))
        let packet = HIDPacketEncoder().encode(event)
        let bytes = ServerMessage.encodeEvent(sequence: 7, readTime: 1.5, sendTime: 1.75, event: event, encoder: HIDPacketEncoder())
        expectEqual(bytes, ServerMessage.encodeEvent(sequence: 7, readTime: 1.5, sendTime: 1.75, packet: packet))
        try bytes.withUnsafeBytes { raw in
            let parts = try #require(try ServerMessage.decodeEvent(raw))
            #expect(parts.sequence == 7 && parts.readTime == 1.5 && parts.sendTime == 1.75 && Array(parts.packet) == packet)
        }
        // Another kind of message is not an event; a cut one is refused as the whole reader refuses it.
        let state = try ServerMessage.appState(.foreground).encoded().withUnsafeBytes { raw throws(ServerProtocolError) in try ServerMessage.decodeEvent(raw) }
        #expect(state == nil)
        let cut = Array(bytes.prefix(8 + 24 + HIDWireFormat.headerSize - 1))
        #expect(throws: ServerProtocolError.badLength(type: 0x82, length: cut.count)) { try cut.withUnsafeBytes { _ = try ServerMessage.decodeEvent($0) } }
        #expect(throws: ServerProtocolError.badLength(type: 0x82, length: cut.count)) { try ServerMessage(decoding: cut) }
    }

    @Test func headerProblemsAreNamed() {
        #expect(throws: ServerProtocolError.tooShort(3)) { try ServerMessage(decoding: [0x4F, 0x55, 0x4B]) }
        #expect(throws: ServerProtocolError.badMagic) { try ServerMessage(decoding: Array("GET / HTTP/1.1\r\n".utf8)) }
        #expect(throws: ServerProtocolError.unknownType(0x7F)) { try ServerMessage(decoding: ServerProtocol.magic + [0x7F, 0, 0, 0]) }
        #expect(ServerProtocolError.badMagic.description.contains("OUKS"))
    }

    @Test func badFieldsAreRefused() throws {
        var hello = ServerMessage.hello(.init(role: .application, processIdentifier: 1, name: "A")).encoded()
        hello[10] = 9  // no such role
        #expect(throws: ServerProtocolError.badField("hello role 9")) { try ServerMessage(decoding: hello) }

        var name = ServerMessage.hello(.init(role: .application, processIdentifier: 1, name: "AB")).encoded()
        name[name.count - 1] = 0xFF  // not UTF-8
        #expect(throws: ServerProtocolError.badField("text that is not UTF-8")) { try ServerMessage(decoding: name) }

        var ack = ServerMessage.acknowledgement(.init(sequence: 1, handled: true, finishTime: 1)).encoded()
        ack[16] = 2
        #expect(throws: ServerProtocolError.badField("acknowledgement handled flag 2")) { try ServerMessage(decoding: ack) }
        let nan = ServerMessage.acknowledgement(.init(sequence: 1, handled: true, finishTime: .nan)).encoded()
        #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: nan) }

        // Found by the fuzzer: an event whose read time is NaN read, and then
        // compared unequal to itself when written and read again.
        // (Its reserved header bytes, 0B 00 09, are refused too now; zeroed
        // here. Since protocol version 2 a send time, zero here, follows the read time.)
        let nanEvent: [UInt8] = Array("OUKS".utf8) + [0x82, 0x00, 0x00, 0x00, 0x28, 0x00, 0x4B, 0x53, 0x82, 0x00, 0x00, 0x00,
            0x09, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 8) + [0xFF, 0xFF, 0x02]
            + [UInt8](repeating: 0, count: 7) + [0x44, 0x02, 0x00, 0x00, 0x31]
        #expect(throws: ServerProtocolError.badField("event read time that is not a finite number")) { try ServerMessage(decoding: nanEvent) }
        let infinite = ServerMessage.event(.init(sequence: 1, readTime: -.infinity, sendTime: 0, packet: HIDWireFormat.magic + [9, 1, 0, 0, 0, 0, 0, 0])).encoded()
        #expect(throws: ServerProtocolError.badField("event read time that is not a finite number")) { try ServerMessage(decoding: infinite) }
        let unsent = ServerMessage.event(.init(sequence: 1, readTime: 1, sendTime: .nan, packet: HIDWireFormat.magic + [9, 1, 0, 0, 0, 0, 0, 0])).encoded()
        #expect(throws: ServerProtocolError.badField("event send time that is not a finite number")) { try ServerMessage(decoding: unsent) }

        let screen = ServerMessage.welcome(.init(clientIdentifier: 1, screenWidth: .infinity, screenHeight: 1, screenScale: 1, isForeground: true)).encoded()
        #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: screen) }
        // A safe area must be finite, not negative, and leave some of the screen.
        for (insets, text) in [(ScreenInsets(top: -1, left: 0, bottom: 0, right: 0), "-1,0,0,0"),
                               (ScreenInsets(top: 0, left: .nan, bottom: 0, right: 0), "0,nan,0,0"),
                               (ScreenInsets(top: 400, left: 0, bottom: 444, right: 0), "400,0,444,0")] {
            let welcome = ServerMessage.welcome(.init(clientIdentifier: 1, screenWidth: 390, screenHeight: 844, screenScale: 3,
                                                      screenSafeArea: insets, isForeground: true)).encoded()
            #expect(throws: ServerProtocolError.badField("welcome safe area \(text) of a 390.0x844.0 screen")) {
                try ServerMessage(decoding: welcome)
            }
        }

        // Frames: the damage and scrolls are bounded, the reserved byte is zero, times are finite.
        var commit = ServerMessage.commitFrame(.init(commitIdentifier: 1, bufferIdentifier: 1, damage: [])).encoded()
        commit[24] = 65  // after the header (8), commit (8), buffer (4) and first row (4)
        #expect(throws: ServerProtocolError.badField("65 damage rectangles (at most 64)")) { try ServerMessage(decoding: commit + [UInt8](repeating: 0, count: 65 * 16)) }
        commit[24] = 0
        commit[26] = 9  // the scroll count
        #expect(throws: ServerProtocolError.badField("9 scrolls (at most 8)")) { try ServerMessage(decoding: commit + [UInt8](repeating: 0, count: 9 * 24)) }
        commit[26] = 0
        commit[27] = 1
        #expect(throws: ServerProtocolError.badField("frame commit reserved byte 1")) { try ServerMessage(decoding: commit) }
        let scrolled = ServerMessage.commitFrame(.init(commitIdentifier: 1, bufferIdentifier: 1, scrolls: [
            .init(rect: .init(x: 0, y: 0, width: 8, height: 8), dx: 0, dy: -2)], damage: [])).encoded()
        #expect(throws: ServerProtocolError.self, "a scroll cut short") { try ServerMessage(decoding: Array(scrolled.dropLast(4))) }
        let tooManyScrolls = ServerMessage.commitFrame(.init(commitIdentifier: 1, bufferIdentifier: 1, scrolls: Array(
            repeating: .init(rect: .init(x: 0, y: 0, width: 8, height: 8), dx: 0, dy: 1), count: 12), damage: []))
        guard case .commitFrame(let cut) = try ServerMessage(decoding: tooManyScrolls.encoded()) else { Issue.record("not a commit"); return }
        expectEqual(cut.scrolls.count, ServerProtocol.maximumScrolls)
        let tooMuchDamage = ServerMessage.commitFrame(.init(commitIdentifier: 1, bufferIdentifier: 1, damage: Array(
            repeating: .init(x: 0, y: 0, width: 1, height: 1), count: 100)))
        guard case .commitFrame(let written) = try ServerMessage(decoding: tooMuchDamage.encoded()) else { Issue.record("not a commit"); return }
        expectEqual(written.damage.count, ServerProtocol.maximumDamageRects)
        let badSignal = ServerMessage.frameSignal(.init(sequence: 1, time: 1, refreshInterval: 0, startTime: 1)).encoded()
        #expect(throws: ServerProtocolError.badField("frame signal time 1.0, interval 0.0")) { try ServerMessage(decoding: badSignal) }
        // A frame starts at or before its refresh, at a real time.
        let startAfterRefresh = ServerMessage.frameSignal(.init(sequence: 1, time: 1, refreshInterval: 0.01, startTime: 1.001)).encoded()
        #expect(throws: ServerProtocolError.badField("frame signal start 1.001, not a time at or before its refresh at 1.0")) {
            try ServerMessage(decoding: startAfterRefresh)
        }
        for start in [Double.nan, .infinity, -.infinity] {
            let badStart = ServerMessage.frameSignal(.init(sequence: 1, time: 1, refreshInterval: 0.01, startTime: start)).encoded()
            #expect(throws: ServerProtocolError.badField("frame signal start \(start), not a time at or before its refresh at 1.0")) {
                try ServerMessage(decoding: badStart)
            }
        }
        let startingAtTheRefresh = ServerMessage.frameSignal(.init(sequence: 1, time: 1, refreshInterval: 0.01, startTime: 1))
        expectEqual(try ServerMessage(decoding: startingAtTheRefresh.encoded()), startingAtTheRefresh)
        let nanPresentation = ServerMessage.framePresented(.init(commitIdentifier: 1, sequence: 1, time: .nan, refreshInterval: 1)).encoded()
        #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: nanPresentation) }

        var state = ServerMessage.appState(.foreground).encoded()
        state[8] = 0
        #expect(throws: ServerProtocolError.badField("app state 0")) { try ServerMessage(decoding: state) }
    }

    @Test func reservedAndPaddingBytesMustBeZero() throws {
        let shutdown = ServerMessage.shutdown.encoded()
        for index in 5...7 {
            var bytes = shutdown
            bytes[index] = 1
            #expect(throws: ServerProtocolError.badField("reserved header bytes that are not zero")) { try ServerMessage(decoding: bytes) }
        }
        var hello = ServerMessage.hello(.init(role: .application, processIdentifier: 1, name: "A")).encoded()
        hello[11] = 1
        #expect(throws: ServerProtocolError.badField("padding bytes that are not zero")) { try ServerMessage(decoding: hello) }
        for index in 17...23 {
            var ack = ServerMessage.acknowledgement(.init(sequence: 1, handled: true, finishTime: 1)).encoded()
            ack[index] = 0x80
            #expect(throws: ServerProtocolError.badField("padding bytes that are not zero")) { try ServerMessage(decoding: ack) }
        }
        var welcome = ServerMessage.welcome(.init(clientIdentifier: 1, screenWidth: 1, screenHeight: 1, screenScale: 1, isForeground: true)).encoded()
        welcome[11] = 1
        #expect(throws: ServerProtocolError.badField("padding bytes that are not zero")) { try ServerMessage(decoding: welcome) }
        var event = ServerMessage.event(.init(sequence: 1, readTime: 1, sendTime: 1, packet: HIDWireFormat.magic + [1, 2, 0, 0, 0, 0, 0, 0])).encoded()
        event[6] = 1
        #expect(throws: ServerProtocolError.badField("reserved header bytes that are not zero")) { _ = try event.withUnsafeBytes { try ServerMessage.decodeEvent($0) } }
    }

    @Test func reservedBytesOfHIDPacketsMustBeZero() {
        let encoder = HIDPacketEncoder()
        let frame = encoder.encode(.digitizer(DigitizerFrame(timestamp: 1, contacts: [DigitizerContact(identifier: 1, phase: .began, x: 1, y: 2)])))
        let button = encoder.encode(.button(ButtonEvent(timestamp: 1, usagePage: 7, usage: 4, isDown: true)))
        let motion = encoder.encode(.motion(MotionEvent(timestamp: 1, kind: .shake, phase: .began)))
        let cases: [([UInt8], Int, String)] = [
            (frame, 6, "reserved header bytes that are not zero"), (frame, 7, "reserved header bytes that are not zero"),
            (frame, 22, "reserved frame bytes that are not zero"), (frame, 23, "reserved frame bytes that are not zero"),
            (frame, 24 + 6, "reserved contact bytes that are not zero"), (frame, 24 + 7, "reserved contact bytes that are not zero"),
            (button, 12 + 13, "reserved button bytes that are not zero"), (button, 12 + 15, "reserved button bytes that are not zero"),
            (motion, 12 + 10, "reserved motion bytes that are not zero"), (motion, 12 + 11, "reserved motion bytes that are not zero"),
        ]
        for (packet, index, error) in cases {
            var bytes = packet
            bytes[index] = 1
            var decoder = HIDPacketDecoder()
            decoder.append(bytes)
            expectEqual(decoder.next(), .failure(.badField(error)), "byte \(index)")
        }
    }

    /// The fuzz target's seeds (Fuzz/Corpus/ServerMessage) are valid
    /// messages, so that fuzzing starts from every kind of message.
    @Test func theFuzzSeedsAreMessages() throws {
        var path = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(3)
        let corpus = path.joined(separator: "/") + "/Fuzz/Corpus/ServerMessage/"
        for seed in ["hello", "acknowledgement", "list", "switch", "welcome", "event", "state", "reply-list", "error", "shutdown",
                     "attach-buffer", "request-frame", "commit-frame", "frame-signal", "buffer-released", "frame-presented", "frame-discarded",
                     "inspect-attach", "inspector-command", "inspector-report", "inspector-status", "inspector-frame"] {
            let file = try #require(fopen(corpus + seed, "r"), "\(corpus + seed) is missing")
            defer { fclose(file) }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = fread(&bytes, 1, bytes.count, file)
            #expect(throws: Never.self, "\(seed)") { _ = try ServerMessage(decoding: Array(bytes[0..<count])) }
        }
    }

    /// An inspector message that does not read is an error of its own
    /// kind, which the server takes as that message's problem alone (an
    /// application that sent it stays connected).
    @Test func aMalformedInspectorMessageIsAnInspectorError() throws {
        var report = ServerMessage.inspectorReport(.init(isLastPart: true, bytes: Array("{}".utf8))).encoded()
        report[8] = 2  // the last-part flag
        #expect(throws: ServerProtocolError.badInspectorMessage("bad field: inspector report last-part flag 2")) { try ServerMessage(decoding: report) }
        report[8] = 1
        report[12] = 3  // claims 3 bytes, carries 2
        #expect(throws: ServerProtocolError.badInspectorMessage("a message of type 8 cannot be 18 bytes long")) { try ServerMessage(decoding: report) }
        let command = ServerProtocol.magic + [0x8B, 0, 0, 0, 9]
        #expect(throws: ServerProtocolError.badInspectorMessage("bad field: inspector command 9")) { try ServerMessage(decoding: command) }
        // A part claiming more than a message can hold.
        let huge = ServerProtocol.magic + [0x08, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F]
        #expect(throws: ServerProtocolError.self) { try ServerMessage(decoding: huge) }
        expectEqual(ServerProtocolError.badInspectorMessage("x").description, "a malformed inspector message: x")
    }

    /// A report carries at most what one message holds; longer texts go in parts.
    @Test func anInspectorReportFillsAtMostOneMessage() throws {
        let full = ServerMessage.inspectorReport(.init(isLastPart: false, bytes: [UInt8](repeating: 0x41, count: ServerProtocol.maximumInspectorReportPart)))
        expectEqual(full.encoded().count, ServerProtocol.maximumMessageSize)
        try expectEqual(ServerMessage(decoding: full.encoded()), full)
    }

    @Test func aNameLongerThanTheLimitIsCutAtACharacter() throws {
        let long = String(repeating: "é", count: 200)  // 400 bytes
        let decoded = try ServerMessage(decoding: ServerMessage.hello(.init(role: .application, processIdentifier: 1, name: long)).encoded())
        guard case .hello(let hello) = decoded else { Issue.record("not a hello"); return }
        expectEqual(hello.name, String(repeating: "é", count: 127))
    }
}
