#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// Unresponsive applications, as Android's dispatcher treats them.
@Suite struct WatchdogTests {
    /// Waits real time: the server runs on the system's clock. Turns until
    /// the time has passed, since the frame clock may wake the server sooner.
    private func wait(_ seconds: Double, _ harness: ServerHarness) {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline { harness.server.runOnce(timeout: deadline - monotonicSeconds()) }
        harness.turn()
    }

    @Test func anApplicationThatDoesNotAcknowledgeInTimeIsNotRespondingAndLosesItsTouches() throws {
        let harness = try ServerHarness(watchdogTimeout: 0.05)
        let app = try harness.connect(name: "Slow")
        harness.touch(1, .began)
        try expectEqual(app.touchPhases(), ["1 began"])
        wait(0.08, harness)
        #expect(harness.log.contains("\"Slow\" (client 1, pid \(getpid())) is not responding: event 1 unacknowledged for"))
        expectEqual(harness.server.applications.first?.isResponding, false)
        // Its sequence is cancelled, not cut: it gets the cancellation and nothing more of it.
        try expectEqual(app.touchPhases(), ["1 cancelled"])
        harness.touch(1, .moved)
        harness.touch(2, .began)
        try expectEqual(app.touchPhases(), [])
        #expect(harness.log.contains("is not responding: a new touch sequence was not sent to it"))

        // Once it acknowledged everything it responds again and gets new sequences.
        try app.acknowledge(1)
        try app.acknowledge(2)
        harness.turn()
        #expect(harness.log.contains("\"Slow\" (client 1, pid \(getpid())) is responding again"))
        harness.touch(3, .began)
        try expectEqual(app.touchPhases(), ["3 began"])
    }

    @Test func anApplicationThatAcknowledgesInTimeStaysResponding() throws {
        let harness = try ServerHarness(watchdogTimeout: 0.05)
        let app = try harness.connect(name: "Quick")
        for phase in [DigitizerContact.Phase.began, .moved, .ended] {
            harness.touch(1, phase)
            for (sequence, _) in try app.events() { try app.acknowledge(sequence) }
            wait(0.02, harness)
        }
        wait(0.06, harness)
        expectEqual(harness.server.applications.first?.isResponding, true)
        #expect(!harness.log.contains("not responding"))
    }

    @Test func anApplicationThatNeverReadsDelaysNobodyElse() throws {
        let harness = try ServerHarness(watchdogTimeout: 60)
        let reader = try harness.connect(name: "Reader")
        let stuck = try harness.connect(name: "Stuck")
        _ = try reader.receive()
        // Far more than a socket buffer holds: the server queues up to its
        // bound, then cancels the sequence rather than cut it, and goes on.
        for index in 0..<5_000 { harness.touch(1, index == 0 ? .began : .moved, x: Double(index)) }
        let waiting = try #require(harness.server.applications.last?.unacknowledgedCount)
        #expect(waiting > EventDispatcher.Configuration().maximumQueuedEvents && waiting < 5_000)
        #expect(harness.log.contains("\"Stuck\" (client 2, pid \(getpid())) has 1024 events queued or unacknowledged; its touch sequences are cancelled"))
        let control = try harness.connect(.control, name: "openuikit")
        try control.send(.controlRequest(.switchTo("Reader")))
        harness.turn()
        try expectEqual(control.receive(), [.controlReply(.done)])
        // The reader gets each event in the turn that read it.
        for index in 0..<20 {
            harness.touch(7, index == 0 ? .began : .moved, x: Double(index))
            try expectEqual(reader.touchPhases().last, (index == 0 ? "7 began" : "7 moved"))
        }
        _ = stuck
    }

    @Test func theQueueOfAnApplicationNotRespondingIsBounded() throws {
        let harness = try ServerHarness(watchdogTimeout: 0.01)
        let app = try harness.connect(name: "Hung")
        harness.touch(1, .began)
        wait(0.03, harness)
        expectEqual(harness.server.applications.first?.isResponding, false)
        for _ in 0..<3_000 {
            harness.input.feed(.button(ButtonEvent(timestamp: monotonicSeconds(), usagePage: 7, usage: 4, isDown: true)))
            harness.turn()
        }
        #expect(harness.log.contains("further events to it are dropped until it catches up"))
        let queued = try app.events().count
        #expect(queued <= EventDispatcher.Configuration().maximumQueuedEvents + 300, "what the socket held plus the bounded queue")
        #expect(queued > 0)
    }

    @Test func acknowledgementsWaitForTheServersNextTurnOnlyWhileAFewAreOwed() throws {
        let (socket, peer) = try MessageSocket.makePair()
        let client = Client(identifier: 1, socket: socket, credentials: PeerCredentials(processIdentifier: 1, userIdentifier: getuid(), groupIdentifier: getgid()), connectTime: 0)
        client.role = .application
        // Owing nothing, whatever it sends is unexpected: it wakes the server.
        #expect(!client.acknowledgementsCanWait)
        client.unacknowledged.append((1, 0))
        #expect(client.acknowledgementsCanWait)
        for sequence in 2..<UInt64(Client.acknowledgementsReadAtTheNextTurn) { client.unacknowledged.append((sequence, 0)) }
        #expect(client.acknowledgementsCanWait)
        client.unacknowledged.append((UInt64(Client.acknowledgementsReadAtTheNextTurn), 0))
        #expect(!client.acknowledgementsCanWait, "so many owed that they could fill its socket")
        client.unacknowledged.removeLast(2)
        client.isResponding = false
        #expect(!client.acknowledgementsCanWait, "the acknowledgement that makes it respond again is read at once")
        client.isResponding = true
        client.role = .injector
        #expect(!client.acknowledgementsCanWait)
        withExtendedLifetime(peer) {}
    }

    @Test func acknowledgementsReadAtTheNextTurnCountBeforeAControlRequestIsAnswered() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "A")
        let control = try harness.connect(.control, name: "openuikit")
        harness.touch(1, .began)
        for (sequence, _) in try app.events() { try app.acknowledge(sequence) }
        try control.send(.controlRequest(.listApplications))
        // One turn reads both: the acknowledgement, which did not wake the server, first.
        harness.server.runOnce(timeout: 1)
        guard case .controlReply(.applications(let rows)) = try #require(control.receive().first) else { Issue.record("no list"); return }
        expectEqual(rows.map(\.unacknowledgedCount), [0])
        #expect(!harness.log.contains("not waiting"))
    }
}
