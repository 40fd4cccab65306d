#if canImport(Glibc)
import Glibc
#endif
import HID
import TestExpectations
import Testing
@_spi(Benchmarks) @testable import UIKit

/// Touch to photon as a connected application records it for the
/// benchmarks (ScreenFrames): from the server's read of an event to the
/// presentation of the first frame that shows it.
@MainActor
@Suite struct TouchToPhotonTests {
    /// A dot that follows the finger: every touch changes the screen.
    final class DotView: UIView {
        let dot = UIView(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        override init(frame: CGRect) {
            super.init(frame: frame)
            dot.backgroundColor = .red
            addSubview(dot)
        }
        required init?(coder: NSCoder) { nil }
        override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { dot.center = touches.first!.location(in: self) }
        override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { dot.center = touches.first!.location(in: self) }
    }

    /// The fake server's end of a connected application whose window is a
    /// dot view, with its first frame drawn and recording on.
    @MainActor struct Setup {
        let server: MessageSocket
        let screenFrames: ScreenFrames
        let window: UIWindow
        var sequence: UInt64 = 0
        var refresh: UInt64 = 1

        /// Sends a touch the server read at `readTime`.
        mutating func send(_ phase: DigitizerContact.Phase, x: Double, readTime: Double) throws {
            sequence += 1
            let packet = HIDPacketEncoder().encode(.digitizer(DigitizerFrame(timestamp: Double(sequence) * 0.004, contacts: [
                DigitizerContact(identifier: 1, phase: phase, x: x, y: 10),
            ])))
            try server.sendWaiting(ServerMessage.encodeEvent(sequence: sequence, readTime: readTime, sendTime: readTime, packet: packet))
            UIApplication.shared.runLoop.runUntilIdle()
        }

        /// Signals the next refresh; returns the commit drawn for it.
        mutating func signal() throws -> ServerMessage.FrameCommit {
            refresh += 1
            try server.sendWaiting(ServerMessage.frameSignal(.init(sequence: refresh, time: Double(refresh) / 60, refreshInterval: 1.0 / 60, startTime: 0)).encoded())
            UIApplication.shared.runLoop.runUntilIdle()
            var commits: [ServerMessage.FrameCommit] = []
            while let message = try server.receiveMessage() {
                if case .commitFrame(let commit) = try message.get() { commits.append(commit) }
            }
            return try #require(commits.last, "no frame for refresh \(refresh)")
        }

        /// What the server says when it shows `commit` at `time`, the
        /// refresh last signalled, with an output that copies it (the
        /// buffer is given back at once).
        func present(_ commit: ServerMessage.FrameCommit, at time: Double) throws {
            try server.sendWaiting(ServerMessage.framePresented(.init(
                commitIdentifier: commit.commitIdentifier, sequence: refresh, time: time, refreshInterval: 1.0 / 60)).encoded())
            try server.sendWaiting(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded())
            UIApplication.shared.runLoop.runUntilIdle()
        }

        /// What the server says when a newer commit replaced `commit`.
        func discard(_ commit: ServerMessage.FrameCommit) throws {
            try server.sendWaiting(ServerMessage.frameDiscarded(commit.commitIdentifier).encoded())
            try server.sendWaiting(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded())
            UIApplication.shared.runLoop.runUntilIdle()
        }
    }

    func connect() throws -> Setup {
        let application = UIApplication.shared
        application.resetForTesting()
        let server = try application.connectToFakeServer(screenWidth: 40, screenHeight: 20, scale: 1)
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 20))
        window.addSubview(DotView(frame: window.bounds))
        window.isHidden = false
        application.runLoop.runUntilIdle()
        let screenFrames = try #require(application.screenFrames)
        var setup = Setup(server: server, screenFrames: screenFrames, window: window)
        let first = try setup.signal()
        try setup.present(first, at: 0)
        screenFrames.recordsTouchToPhoton = true
        return setup
    }

    @Test func aFrameShowsItsOwnEventsFromItsPresentation() throws {
        var setup = try connect()
        try setup.send(.began, x: 10, readTime: 1.000)
        let landing = try setup.signal()
        try setup.present(landing, at: 1.010)
        try setup.send(.moved, x: 12, readTime: 1.012)
        let move = try setup.signal()
        try setup.present(move, at: 1.020)
        expectEqual(setup.screenFrames.touchToPhotonLatencies, [1.010 - 1.000, 1.020 - 1.012])
    }

    /// A late frame's commit is replaced by the next frame's before the
    /// refresh: the next frame is the first shown with the late one's
    /// events (they counted from the frame after it before).
    @Test func aDiscardedFramesEventsCountFromTheFrameThatReplacedIt() throws {
        var setup = try connect()
        try setup.send(.began, x: 10, readTime: 1.000)
        let late = try setup.signal()
        try setup.send(.moved, x: 12, readTime: 1.012)
        let replacing = try setup.signal()
        try setup.discard(late)
        try setup.present(replacing, at: 1.020)
        try setup.send(.moved, x: 14, readTime: 1.022)
        let next = try setup.signal()
        try setup.present(next, at: 1.030)

        expectEqual(setup.screenFrames.touchToPhotonLatencies, [1.020 - 1.000, 1.030 - 1.022])
        expectEqual(setup.screenFrames.frameRecords.map(\.oldestEventReadTime), [1.000, 1.000, 1.022])
        expectEqual(setup.screenFrames.frameRecords.map(\.presentedRefresh), [nil, 4, 5])
    }

    /// Discarded with no newer commit (the application went to the back):
    /// its events count from the next frame drawn.
    @Test func aDiscardedFrameWithNoNewerCommitLeavesItsEventsToTheNextFrame() throws {
        var setup = try connect()
        try setup.send(.began, x: 10, readTime: 1.000)
        let discarded = try setup.signal()
        try setup.discard(discarded)
        try setup.send(.moved, x: 12, readTime: 1.012)
        let next = try setup.signal()
        try setup.present(next, at: 1.020)
        expectEqual(setup.screenFrames.touchToPhotonLatencies, [1.020 - 1.000])
    }

    /// A signal that comes ahead of its start (with a finger down the
    /// server sends it as soon as the application asks) is kept until
    /// then: nothing is drawn before it, and the frame drawn at the start
    /// shows every touch read until then.
    @Test func aSignalAheadOfItsStartIsKeptAndItsFrameShowsTheTouchesReadUntilThen() throws {
        var setup = try connect()
        let runLoop = UIApplication.shared.runLoop
        runLoop.useManualClock()
        func commits() throws -> [ServerMessage.FrameCommit] {
            var commits: [ServerMessage.FrameCommit] = []
            while let message = try setup.server.receiveMessage() {
                if case .commitFrame(let commit) = try message.get() { commits.append(commit) }
            }
            return commits
        }
        try setup.send(.began, x: 10, readTime: 1.000)
        try setup.present(try setup.signal(), at: 1.010)
        try setup.send(.moved, x: 12, readTime: 1.012)
        let start = monotonicSeconds() + 60
        setup.refresh += 1
        try setup.server.sendWaiting(ServerMessage.frameSignal(.init(
            sequence: setup.refresh, time: start + 0.001, refreshInterval: 1.0 / 60, startTime: start)).encoded())
        runLoop.runUntilIdle()
        try setup.send(.moved, x: 14, readTime: 1.014)
        let dot = try #require((setup.window.subviews.first as? DotView)?.dot)
        expectEqual(dot.center.x, 10, "the moves wait for the frame's start")
        expectEqual(try commits().count, 0, "nothing is drawn before the start")

        runLoop.advance(by: 60)
        expectEqual(dot.center.x, 14)
        expectEqual(try commits().count, 1)
        expectEqual(setup.screenFrames.frameRecords.last?.oldestEventReadTime, 1.012)
        expectEqual(setup.screenFrames.frameRecords.last?.refresh, setup.refresh)
    }

    /// The refreshes with no new frame between the first and the last that
    /// showed one are each given one reason: a frame drawn for it came
    /// late, or no signal came for it (both missed), or it was signalled
    /// and nothing had changed, so nothing was drawn (not missed: a flung
    /// list moving less than a pixel).
    @Test func refreshesWithNoNewFrameAreToldApartAsMissedOrWithNothingNewToShow() throws {
        var setup = try connect()
        try setup.send(.began, x: 10, readTime: 1.000)
        let landing = try setup.signal()
        try setup.present(landing, at: 3 / 60)
        // Refresh 4: signalled, nothing changed, nothing drawn.
        setup.refresh += 1
        try setup.server.sendWaiting(ServerMessage.frameSignal(.init(sequence: 4, time: 4 / 60, refreshInterval: 1.0 / 60, startTime: 0)).encoded())
        UIApplication.shared.runLoop.runUntilIdle()
        while let message = try setup.server.receiveMessage() {
            if case .commitFrame = try message.get() { Issue.record("a frame with nothing changed") }
        }
        // Refresh 5: its frame is shown only at refresh 6.
        try setup.send(.moved, x: 12, readTime: 1.050)
        let late = try setup.signal()
        try setup.server.sendWaiting(ServerMessage.framePresented(.init(
            commitIdentifier: late.commitIdentifier, sequence: 6, time: 6 / 60, refreshInterval: 1.0 / 60)).encoded())
        try setup.server.sendWaiting(ServerMessage.bufferReleased(late.bufferIdentifier).encoded())
        UIApplication.shared.runLoop.runUntilIdle()
        // Refresh 7 is never signalled; 8 is, and shows a move.
        setup.refresh += 2
        try setup.send(.moved, x: 14, readTime: 1.120)
        let next = try setup.signal()
        try setup.present(next, at: 8 / 60)

        let application = UIApplication.shared
        expectEqual(application.presentedRefreshes, [3, 6, 8])
        expectEqual(application.signalledRefreshes, [3, 4, 5, 8])
        expectEqual(application.frameRecords.map(\.refresh), [3, 5, 8])
        expectEqual(application.refreshesWithoutANewFrame, RefreshesWithoutANewFrame(late: 1, unsignalled: 1, unchanged: 1))
        expectEqual(application.refreshesWithoutANewFrame.missed, 2)
        expectEqual(application.refreshesWithoutANewFrame.count, 3)
    }
}
