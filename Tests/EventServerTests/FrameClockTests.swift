@testable import EventServer
import TestExpectations
import Testing

/// The frame clock's lead: how long before each refresh the front
/// application is signalled, following how long it takes to draw.
@Suite struct FrameClockTests {
    @Test func theLeadStartsAtWestonsSevenMillisecondsOrHalfTheInterval() throws {
        try expectEqual(FrameClock(refreshRate: 60).signalLead, 0.007)
        #expect(abs(try FrameClock(refreshRate: 120).signalLead - 1.0 / 240) < 1e-12)
    }

    @Test func aQuickApplicationIsSignalledJustBeforeTheRefresh() throws {
        let clock = try FrameClock(refreshRate: 120)
        for _ in 0..<10 { clock.noteDrawTime(0.0003) }
        // 2 × 0.3 ms + 1 ms, down from 4.2 ms.
        #expect(abs(clock.signalLead - 0.0016) < 1e-12)
        clock.noteDrawTime(0.001)
        #expect(abs(clock.signalLead - (0.001 * FrameClock.slowestDrawScale + FrameClock.wakeUpMargin)) < 1e-12)

        // The signal for the next refresh goes out the lead before it.
        let now = clock.time(of: 100) + 0.0001
        clock.start(now: now)
        expectEqual(clock.next?.moment, .signal(101))
        #expect(abs((clock.next?.time ?? 0) - (clock.time(of: 101) - clock.signalLead)) < 1e-9)
        clock.stop()
    }

    @Test func aSlowFrameRaisesTheLeadAtOnceAndItComesDownWhenItIsForgotten() throws {
        let clock = try FrameClock(refreshRate: 60)
        for _ in 0..<FrameClock.drawTimesKept { clock.noteDrawTime(0) }
        expectEqual(clock.signalLead, FrameClock.wakeUpMargin, "the least lead")
        clock.noteDrawTime(0.002)
        #expect(abs(clock.signalLead - (0.002 * FrameClock.slowestDrawScale + FrameClock.wakeUpMargin)) < 1e-12)
        for _ in 0..<(FrameClock.drawTimesKept - 1) { clock.noteDrawTime(0) }
        #expect(clock.signalLead > FrameClock.wakeUpMargin, "the slow frame is still among the last \(FrameClock.drawTimesKept)")
        clock.noteDrawTime(0)
        expectEqual(clock.signalLead, FrameClock.wakeUpMargin)
    }

    @Test func theLeadNeverPassesItsMostAndIgnoresNonsense() throws {
        let clock = try FrameClock(refreshRate: 120)
        clock.noteDrawTime(0.05)
        expectEqual(clock.signalLead, clock.maximumLead)
        let before = clock.signalLead
        clock.noteDrawTime(.nan)
        clock.noteDrawTime(-1)
        clock.noteDrawTime(.infinity)
        expectEqual(clock.signalLead, before)
    }
}
