#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// Whatever a contact came from, it ends: when its source goes away, what
/// it held down is cancelled; and no source can hold down more than the
/// route tables have room for.
@Suite struct SourceEndTests {
    private func frame(_ contacts: [(UInt32, DigitizerContact.Phase)], at time: Double = monotonicSeconds()) -> HIDEvent {
        .digitizer(DigitizerFrame(timestamp: time, contacts: contacts.map { DigitizerContact(identifier: $0.0, phase: $0.1, x: 10, y: 20) }))
    }

    @Test func anInjectorHangingUpMidDragCancelsItsFinger() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        let injector = try harness.connect(.injector, name: "replay")
        for phase in [DigitizerContact.Phase.began, .moved] {
            _ = try injector.socket.send(ServerMessage.encodeEvent(
                sequence: 0, readTime: 0, sendTime: 0, packet: HIDPacketEncoder().encode(frame([(7, phase)]))))
            harness.turn()
        }
        try expectEqual(app.touchPhases(), ["7 began", "7 moved"])
        injector.socket.close()
        harness.turn()
        try expectEqual(app.touchPhases(), ["7 cancelled"])
        expectEqual(harness.server.contactsDown, 0)
    }

    @Test func aRecordingThatEndsWithAFingerDownCancelsIt() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        let recording = try ReplaySource(name: "stuck.hid", events: [frame([(3, .began)]), frame([(3, .moved)])], timing: .asFastAsPossible)
        harness.server.add(recording)
        for _ in 0..<3 { harness.turn() }
        try expectEqual(app.touchPhases(), ["3 began", "3 moved", "3 cancelled"])
        #expect(harness.log.contains("stuck.hid: end of input"))
    }

    @Test func aSourceHoldsAtMost64ContactsAndTheRestAreRefused() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        harness.input.feed(frame((1...3000).map { (UInt32($0), .began) }))
        harness.turn()
        let delivered = try a.events()
        expectEqual(delivered.count, 1)
        guard case .digitizer(let began) = try #require(delivered.first).event else { Issue.record("not a frame"); return }
        expectEqual(began.contacts.map(\.identifier), Array(1...64))
        expectEqual(harness.server.contactsDown, 64)
        #expect(harness.log.contains("contact 65 was refused: its source already holds 64 contacts down (at most 64)"))
        #expect(harness.log.lines.count < 30)  // 2,936 refusals, a few lines
        // B comes to the front: A's 64 fingers are cancelled in one frame that fits a message.
        _ = try harness.connect(name: "B")
        guard case .digitizer(let cancelled) = try #require(a.events().first).event else { Issue.record("not a frame"); return }
        #expect(cancelled.contacts.count == 64 && cancelled.contacts.allSatisfy { $0.phase == .cancelled })
    }

    @Test func allSourcesTogetherHoldABoundedNumberOfContacts() throws {
        let harness = try ServerHarness()
        let sources = (0..<11).map { _ in ManualInputSource() }
        for (index, source) in sources.enumerated() {
            harness.server.add(source)
            source.feed(frame((0..<64).map { (UInt32(index * 100 + $0), .began) }))
            harness.turn()
        }
        expectEqual(harness.server.contactsDown, 640)
        #expect(harness.log.contains("contact 1000 was refused: 640 contacts are already down (at most 640)"))
    }

    @Test func contactsThatNeverEndDoNotGrowTheServer() throws {
        // A million fingers down and never up, with no application: the
        // route table stays at its bound.
        let harness = try ServerHarness()
        for batch in 0..<100 {
            harness.input.feed(frame((0..<1000).map { (UInt32(batch * 1000 + $0 + 1), .began) }))
            harness.turn()
        }
        expectEqual(harness.server.contactsDown, 64)
    }

    @Test func aFrameWithMoreContactsThanAMessageHoldsIsSplit() throws {
        let (serverEnd, appEnd) = try MessageSocket.makePair()
        let dispatcher = EventDispatcher(
            configuration: .init(maximumContactsPerSource: 5000, maximumContacts: 5000), log: ServerLog { _ in })
        let client = Client(identifier: 1, socket: serverEnd, credentials: try serverEnd.peerCredentials(), connectTime: 0)
        client.role = .application
        dispatcher.add(client, now: 0)
        dispatcher.dispatch(frame((1...3000).map { (UInt32($0), .began) }), readTime: 0, from: InputOrigin(client))
        expectEqual(client.queuedMessageCount, 2)
        try expectEqual(client.flush(), .empty)
        var identifiers: [UInt32] = []
        while let message = try appEnd.receiveMessage() {
            guard case .event(let envelope) = try message.get() else { continue }
            var decoder = HIDPacketDecoder()
            decoder.append(envelope.packet)
            let next = decoder.next()
            guard case .digitizer(let part) = try #require(next).get() else { continue }
            identifiers += part.contacts.map(\.identifier)
        }
        expectEqual(identifiers, Array(1...3000))
    }

    @Test func anApplicationThatReadsButNeverAcknowledgesHasABoundedWaitQueue() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "Reader")
        for _ in 0..<12 {
            for _ in 0..<100 {
                harness.input.feed(.button(ButtonEvent(timestamp: monotonicSeconds(), usagePage: 7, usage: 4, isDown: true)))
            }
            harness.turn()
            _ = try app.receive()  // reads, never acknowledges
        }
        expectEqual(harness.server.applications.first?.unacknowledgedCount, 1024)
        #expect(harness.log.contains("has 1024 events queued or unacknowledged; further events to it are dropped until it catches up"))
    }
}

/// The server's log stays readable whatever a client or a source does.
@Suite struct LogFloodTests {
    @Test func acknowledgementsOfNothingAreCountedNotEachLogged() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "Acker")
        for sequence in 1...2000 { try app.acknowledge(UInt64(1_000_000 + sequence)) ; if sequence % 200 == 0 { harness.turn() } }
        harness.turn()
        let lines = harness.log.lines.filter { $0.contains("which was not waiting") }
        expectEqual(lines.count, DiagnosticLimiter.reportsPerWindow)
        harness.server.shutDown()
        #expect(harness.log.contains("… and 1995 more like it (acknowledgement of no waiting event)"))
    }

    @Test func problemsOfOneKindAreLimitedTogetherWhateverTheirValues() {
        var limiter = DiagnosticLimiter(prefix: "dev: ")
        for code in 0..<300 { limiter.report("unknown key", at: 100, "unknown key code \(code)") }
        expectEqual(limiter.take(at: 101).count, 5)
        // A window later the count is summarized and the kind is reported again.
        limiter.report("unknown key", at: 100 + DiagnosticLimiter.window, "unknown key code 1")
        expectEqual(limiter.take(at: 110), ["dev: … and 295 more like it (unknown key)", "dev: unknown key code 1"])
    }
}
