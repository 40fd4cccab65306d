@testable import EventServer
import TestExpectations
import Testing

/// The frame clock's lead: how long before each refresh the front
/// application is signalled, following how long it takes to draw.
@Suite struct FrameClockTests {
    @Test func theLeadStartsAtWestonsSevenMilliseconds() throws {
        try expectEqual(FrameClock(refreshRate: 60).signalLead, 0.007)
        try expectEqual(FrameClock(refreshRate: 120).signalLead, 0.007)
    }

    /// A frame of 5 ms at 120 Hz (a list drawing the rows that came into
    /// view) gets a lead long enough to be shown at its refresh: with the
    /// lead held to half the interval (4.2 ms) it missed it.
    @Test func aFrameSlowerThanHalfTheIntervalIsSignalledEarlyEnoughForItsRefresh() throws {
        let clock = try FrameClock(refreshRate: 120)
        for _ in 0..<10 { clock.noteDrawTime(0.0003) }
        clock.noteDrawTime(0.005)
        clock.noteDrawTime(0.005)
        #expect(clock.signalLead > 0.005 + FrameClock.wakeUpMargin / 2)
        #expect(clock.signalLead <= clock.interval - FrameClock.wakeUpMargin, "the signal comes after the refresh before")
    }

    @Test func aQuickApplicationIsSignalledJustBeforeTheRefresh() throws {
        let clock = try FrameClock(refreshRate: 120)
        for _ in 0..<10 { clock.noteDrawTime(0.0003) }
        // 2 × 0.3 ms + 1 ms, down from 7 ms.
        #expect(abs(clock.signalLead - 0.0016) < 1e-12)
        clock.noteDrawTime(0.001)
        clock.noteDrawTime(0.001)
        #expect(abs(clock.signalLead - (0.001 * FrameClock.slowestDrawScale + FrameClock.wakeUpMargin)) < 1e-12)

        // The signal for the next refresh goes out the lead before it.
        let now = clock.time(of: 100) + 0.0001
        clock.start(now: now)
        expectEqual(clock.next?.moment, .signal(101))
        #expect(abs((clock.next?.time ?? 0) - (clock.time(of: 101) - clock.signalLead)) < 1e-9)
        clock.stop()
    }

    /// One slow frame among quick ones (the application preempted once)
    /// does not hold the lead up for the next 64 frames, whose touches
    /// would wait for it; a second raises it at once, and it comes down
    /// when one of the two is forgotten.
    @Test func aSecondSlowFrameRaisesTheLeadAtOnceAndItComesDownWhenOneIsForgotten() throws {
        let clock = try FrameClock(refreshRate: 60)
        for _ in 0..<FrameClock.drawTimesKept { clock.noteDrawTime(0) }
        expectEqual(clock.signalLead, FrameClock.wakeUpMargin, "the least lead")
        clock.noteDrawTime(0.002)
        expectEqual(clock.signalLead, FrameClock.wakeUpMargin, "a lone slow frame holds the lead up")
        clock.noteDrawTime(0.002)
        #expect(abs(clock.signalLead - (0.002 * FrameClock.slowestDrawScale + FrameClock.wakeUpMargin)) < 1e-12)
        for _ in 0..<(FrameClock.drawTimesKept - 2) { clock.noteDrawTime(0) }
        #expect(clock.signalLead > FrameClock.wakeUpMargin, "both slow frames are still among the last \(FrameClock.drawTimesKept)")
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
