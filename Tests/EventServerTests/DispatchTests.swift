#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// Which application gets each event, and what the others get.
@Suite struct DispatchTests {
    @Test func eventsGoToTheForegroundApplicationInOrderNumbered() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        harness.touch(1, .began)
        harness.touch(1, .moved, x: 110)
        harness.touch(1, .ended, x: 110)
        try expectEqual(app.touchPhases(), ["1 began", "1 moved", "1 ended"])
        harness.touch(2, .began)
        try expectEqual(app.events().map(\.sequence), [4])
    }

    @Test func keysGoToTheForegroundApplication() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        let b = try harness.connect(name: "B")
        harness.input.feed(.button(ButtonEvent(timestamp: monotonicSeconds(), usagePage: 7, usage: 4, isDown: true)))
        harness.turn()
        try expectEqual(b.events().count, 1)
        #expect(try a.events().isEmpty)
    }

    @Test func aTouchSequenceStaysWithItsApplicationAndASwitchCancelsIt() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        harness.touch(1, .began)
        try expectEqual(a.touchPhases(), ["1 began"])
        // B connects and comes to the front: A's finger is cancelled and A goes to the background.
        let b = try harness.connect(name: "B")
        try expectEqual(a.receive().suffix(1), [.appState(.background)])
        harness.touch(1, .moved, x: 120)
        harness.touch(2, .began, x: 300)
        harness.touch(1, .ended, x: 120)
        harness.touch(2, .ended, x: 300)
        try expectEqual(a.touchPhases(), [])
        try expectEqual(b.touchPhases(), ["2 began", "2 ended"])
    }

    @Test func theCancellationComesBeforeTheBackgroundState() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        harness.touch(1, .began, x: 42, y: 43)
        _ = try a.receive()
        _ = try harness.connect(name: "B")
        let messages = try a.receive()
        expectEqual(messages.count, 2)
        guard case .event(let envelope) = messages[0] else { Issue.record("no cancellation first"); return }
        var decoder = HIDPacketDecoder()
        decoder.append(envelope.packet)
        guard let result = decoder.next() else { throw ChildError("an event message without a packet") }
        guard case .digitizer(let frame) = try result.get() else { Issue.record("not a frame"); return }
        expectEqual(frame.contacts.map { [$0.phase == .cancelled ? 1 : 0, $0.x, $0.y] }, [[1, 42, 43]])
        expectEqual(messages[1], .appState(.background))
    }

    @Test func switchingByNameBringsAnApplicationBack() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        let b = try harness.connect(name: "B")
        let control = try harness.connect(.control, name: "openuikit")
        try control.send(.controlRequest(.switchTo("A")))
        harness.turn()
        try expectEqual(control.receive(), [.controlReply(.done)])
        try expectEqual(a.receive().suffix(1), [.appState(.foreground)])
        try expectEqual(b.receive(), [.appState(.background)])
        harness.touch(5, .began)
        try expectEqual(a.touchPhases(), ["5 began"])

        try control.send(.controlRequest(.switchTo("Nope")))
        harness.turn()
        try expectEqual(control.receive(), [.controlReply(.failed("no application called \"Nope\"; connected: A, B"))])
    }

    @Test func theListShowsEachApplicationsState() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        let b = try harness.connect(name: "B")
        let control = try harness.connect(.control, name: "openuikit")
        harness.touch(1, .began)
        try control.send(.controlRequest(.listApplications))
        harness.turn()
        guard case .controlReply(.applications(let rows)) = try #require(control.receive().first) else { Issue.record("no list"); return }
        expectEqual(rows.map(\.name), ["A", "B"])
        expectEqual(rows.map(\.isForeground), [false, true])
        expectEqual(rows.map(\.isResponding), [true, true])
        // A has its cancellation and B its began waiting for acknowledgements.
        expectEqual(rows.map(\.unacknowledgedCount), [0, 1])
        #expect(rows.allSatisfy { $0.processIdentifier == getpid() })
        withExtendedLifetime((a, b)) {}
    }

    @Test func aDisconnectedApplicationIsDroppedAndThePreviousComesBack() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        let b = try harness.connect(name: "B")
        _ = try a.receive()
        harness.touch(1, .began)
        b.socket.close()
        harness.turn()
        expectEqual(harness.server.applications.map(\.name), ["A"])
        try expectEqual(a.receive(), [.appState(.foreground)])
        // The rest of B's sequence goes nowhere; a new one goes to A.
        harness.touch(1, .ended)
        harness.touch(2, .began)
        try expectEqual(a.touchPhases(), ["2 began"])
        #expect(harness.log.contains("\"B\""))
    }

    // A recording played, or a FIFO written, before any application
    // connects goes nowhere: the log says so once, and how much was lost.
    @Test func inputWithNoApplicationInFrontIsDroppedAndSaidSoOnce() throws {
        let harness = try ServerHarness()
        harness.touch(1, .began)
        harness.touch(1, .moved, x: 110)
        harness.touch(1, .ended, x: 110)
        #expect(harness.log.lines.filter { $0.contains("no application in front") } == [
            "no application in front: input events are dropped until one connects",
        ])
        let app = try harness.connect(name: "A")
        #expect(harness.log.contains("no application in front: 3 events dropped"))
        harness.touch(2, .began)
        try expectEqual(app.touchPhases(), ["2 began"])
        expectEqual(harness.log.lines.filter { $0.contains("no application in front") }.count, 2)
    }

    @Test func timestampsThatRunBackAreReportedAndDeliveredInOrder() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        harness.touch(1, .began, at: 100)
        harness.touch(1, .moved, at: 90)
        harness.touch(1, .moved, at: .nan)
        harness.touch(1, .ended, at: 101)
        let times = try app.events().map(\.event.timestamp)
        expectEqual(times, [100, 100, 100, 101])
        #expect(harness.log.contains("ran back by 10.0 s"))
        #expect(harness.log.contains("timestamp nan"))
    }

    @Test func twoSourcesInterleavingInOneTurnAreDeliveredInOrderWithoutAWord() throws {
        // A touch screen and a second source (a keyboard, an injected
        // replay) each in order, read in whatever order the server's turn
        // takes them: the server used to log "timestamp ran back" for every
        // such interleaving, as when a replay connected while a FIFO played.
        let harness = try ServerHarness()
        let keyboard = ManualInputSource()
        harness.server.add(keyboard)
        let app = try harness.connect(name: "A")
        harness.touch(1, .began, at: 100)
        keyboard.feed(.button(ButtonEvent(timestamp: 99.995, usagePage: 7, usage: 4, isDown: true)))
        harness.turn()
        harness.touch(1, .moved, at: 100.01)
        keyboard.feed(.button(ButtonEvent(timestamp: 100.008, usagePage: 7, usage: 4, isDown: false)))
        harness.turn()
        harness.touch(1, .ended, at: 100.02)
        let times = try app.events().map(\.event.timestamp)
        expectEqual(times, [100, 100, 100.01, 100.01, 100.02])
        #expect(!harness.log.lines.contains { $0.contains("timestamp") }, "\(harness.log.lines)")

        // A source whose own clock runs back is said to, even within the tolerance.
        keyboard.feed(.button(ButtonEvent(timestamp: 100.005, usagePage: 7, usage: 5, isDown: true)))
        harness.turn()
        try expectEqual(app.events().map(\.event.timestamp), [100.02])
        #expect(harness.log.contains("ran back by 0.00"))
        #expect(harness.log.contains("from its source's previous one"))
        // Far behind another source's last event: delivered in order, and said.
        let lagging = ManualInputSource()
        harness.server.add(lagging)
        lagging.feed(.button(ButtonEvent(timestamp: 99, usagePage: 7, usage: 6, isDown: true)))
        harness.turn()
        try expectEqual(app.events().map(\.event.timestamp), [100.02])
        #expect(harness.log.contains("timestamp is 1.0"))
        #expect(harness.log.contains("behind another source's last one"))
    }

    @Test func twoSourcesGivingTheSameContactIdentifierKeepBothSequencesWhole() throws {
        // A device of the server and an injector (`openuikit replay`) each
        // number their contacts from 1: the second contact 1 used to
        // replace the first ("began again"), cutting its sequence.
        let harness = try ServerHarness()
        let injected = ManualInputSource()
        harness.server.add(injected)
        let app = try harness.connect(name: "A")
        func inject(_ phase: DigitizerContact.Phase, x: Double) {
            injected.feed(.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [
                DigitizerContact(identifier: 1, phase: phase, x: x, y: 300),
            ])))
            harness.turn()
        }
        harness.touch(1, .began, x: 10)
        inject(.began, x: 200)
        harness.touch(1, .moved, x: 20)
        inject(.moved, x: 210)
        harness.touch(1, .ended, x: 20)
        inject(.ended, x: 210)
        let contacts = try app.events().compactMap { event -> DigitizerContact? in
            guard case .digitizer(let frame) = event.event else { return nil }
            return frame.contacts.first
        }
        let device = contacts.filter { $0.y == 100 }, other = contacts.filter { $0.y == 300 }
        expectEqual(device.map(\.phase), [.began, .moved, .ended])
        expectEqual(other.map(\.phase), [.began, .moved, .ended])
        expectEqual(Set(device.map(\.identifier)), [1])
        #expect(Set(other.map(\.identifier)).count == 1 && other.first?.identifier != 1)
        #expect(!harness.log.contains("began again"), "\(harness.log.lines)")
        // Once it ended, the injector's next contact 1 goes by 1 again.
        inject(.began, x: 220)
        try expectEqual(app.touchPhases(), ["1 began"])
    }

    @Test func aMalformedMessageDropsOnlyItsSender() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        let b = try harness.connect(name: "B")
        _ = try a.receive()
        _ = try a.socket.send(ServerProtocol.magic + [0x02, 0, 0, 0, 1, 2])  // a cut acknowledgement
        harness.turn()
        guard case .error(let error) = try #require(a.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .malformedMessage)
        harness.touch(1, .began)
        try expectEqual(b.touchPhases(), ["1 began"])
        expectEqual(harness.server.applications.map(\.name), ["B"])
    }

    @Test func anApplicationSendingWhatItsRoleDoesNotIsDropped() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        try a.send(.controlRequest(.switchTo("A")))  // an application does not send control requests
        harness.turn()
        guard case .error(let error) = try #require(a.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .unexpectedMessage)
        #expect(error.message.hasSuffix("sent a message its role (application) does not send: control request; disconnected"))
        #expect(a.serverHungUp)
    }

    @Test func anAcknowledgementOfNothingIsReportedAndIgnored() throws {
        let harness = try ServerHarness()
        let a = try harness.connect(name: "A")
        try a.acknowledge(99)
        harness.turn()
        #expect(harness.log.contains("acknowledged event 99, which was not waiting"))
        harness.touch(1, .began)
        try expectEqual(a.touchPhases(), ["1 began"])
    }

    @Test func anInjectorsEventsAreInputWithTheirOwnTimestamps() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        let injector = try harness.connect(.injector, name: "replay")
        let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: 5, contacts: [
            DigitizerContact(identifier: 1, phase: .began, x: 1, y: 2),
        ])))
        try injector.send(.event(.init(sequence: 1, readTime: 0, sendTime: 0, packet: packet)))
        harness.turn()
        let events = try app.events()
        expectEqual(events.map(\.event.timestamp), [5])
        // A bad packet is reported and skipped; the injector stays.
        try injector.send(.event(.init(sequence: 2, readTime: 0, sendTime: 0, packet: Array(packet.prefix(20)))))
        harness.turn()
        #expect(harness.log.contains("injected a cut-off event"))
    }

    @Test func aRecorderGetsACopyOfEveryInputEvent() throws {
        let harness = try ServerHarness()
        let recorder = try harness.connect(.recorder, name: "record")
        let app = try harness.connect(name: "A")
        harness.touch(1, .began)
        harness.touch(1, .ended)
        try expectEqual(recorder.touchPhases(), ["1 began", "1 ended"])
        try expectEqual(app.touchPhases(), ["1 began", "1 ended"])
    }
}
