#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// The frame clock's lead: how long before each refresh the front
/// application is signalled, following how long it takes to draw.
@Suite struct FrameClockTests {
    /// A 120 Hz clock whose application drew its last ten frames in
    /// 0.3 ms each, with a finger down or not.
    func quickApplicationsClock(fingersDown: Bool) throws -> FrameClock {
        let clock = try FrameClock(refreshRate: 120)
        clock.fingersDown = fingersDown
        for _ in 0..<10 { clock.noteDrawTime(0.0003) }
        return clock
    }

    /// That clock with no finger down, once it has taken refresh 100's
    /// signal and then, 20 µs late, refresh 100 itself: the next refresh's
    /// signal is due in that turn, at the time the clock woke (returned).
    func quickApplicationsClockJustAfterRefresh100(
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (clock: FrameClock, woke: Double) {
        let clock = try quickApplicationsClock(fingersDown: false)
        let refresh100 = clock.time(of: 100)
        clock.start(now: refresh100 - 0.004)
        expectEqual(clock.takeMoment(now: refresh100 - 0.004)?.moment, .signal(100), sourceLocation: sourceLocation)
        expectEqual(clock.next?.moment, .refresh(100), sourceLocation: sourceLocation)
        let woke = refresh100 + 0.00002
        expectEqual(clock.takeMoment(now: woke)?.moment, .refresh(100), sourceLocation: sourceLocation)
        expectEqual(clock.next?.moment, .signal(101), sourceLocation: sourceLocation)
        expectEqual(clock.next?.time, woke, "due in the refresh's own turn", sourceLocation: sourceLocation)
        return (clock, woke)
    }

    /// With a finger down and no frame known, the lead is weston's 7 ms;
    /// with none down, nothing waits for it and it is a whole interval.
    @Test func theLeadStartsAtWestonsSevenMillisecondsWhileTouchingAndIsAWholeIntervalOtherwise() throws {
        for rate in [60, 120] {
            let clock = try FrameClock(refreshRate: rate)
            expectEqual(clock.signalLead, clock.interval)
            clock.fingersDown = true
            expectEqual(clock.signalLead, 0.007)
            expectEqual(clock.startingLead, 0.007)
        }
    }

    /// A quick application's frames do not bring the lead down while no
    /// finger is down: an animation's frames get all the time there is.
    @Test func withoutAFingerDownTheLeadStaysAWholeInterval() throws {
        let clock = try quickApplicationsClock(fingersDown: false)
        expectEqual(clock.signalLead, clock.interval)
        clock.fingersDown = true
        #expect(clock.signalLead < 0.001)
        clock.fingersDown = false
        expectEqual(clock.signalLead, clock.interval)
    }

    /// With no finger down the next refresh's signal is due with the
    /// refresh itself, so the server sends both in one wake-up (it woke
    /// twice, for the refresh and for a signal half a millisecond later);
    /// it still goes out once.
    @Test func withoutAFingerDownTheNextSignalIsDueWithTheRefresh() throws {
        let (clock, woke) = try quickApplicationsClockJustAfterRefresh100()
        let signal = clock.takeMoment(now: woke)
        expectEqual(signal?.moment, .signal(101))
        expectEqual(signal?.due, woke)
        expectEqual(clock.next?.moment, .refresh(101), "one signal a refresh")
        expectEqual(clock.next?.time, clock.time(of: 101))
        #expect(clock.takeMoment(now: woke) == nil, "nothing more is due in that turn")
        clock.stop()
    }

    /// A frame of 5 ms at 120 Hz (a list drawing the rows that came into
    /// view) gets a lead long enough to be shown at its refresh: with the
    /// lead held to half the interval (4.2 ms) it missed it.
    @Test func aFrameSlowerThanHalfTheIntervalIsSignalledEarlyEnoughForItsRefresh() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        clock.noteDrawTime(0.005)
        clock.noteDrawTime(0.005)
        #expect(clock.signalLead > 0.005 + FrameClock.drawMargin / 2)
        #expect(clock.signalLead <= clock.interval - FrameClock.refreshMargin, "the signal comes after the refresh before")
    }

    @Test func aQuickApplicationIsSignalledJustBeforeTheRefresh() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        // 0.3 ms and half of it (more than 0.1 ms), down from 7 ms.
        #expect(abs(clock.signalLead - 0.00045) < 1e-12)
        clock.noteDrawTime(0.001)
        clock.noteDrawTime(0.001)
        #expect(abs(clock.signalLead - 0.0015) < 1e-12, "1 ms and half of it")

        // The signal for the next refresh goes out the lead before it.
        let now = clock.time(of: 100) + 0.0001
        clock.start(now: now)
        expectEqual(clock.next?.moment, .signal(101))
        #expect(abs((clock.next?.time ?? 0) - (clock.time(of: 101) - clock.signalLead)) < 1e-9)
        clock.stop()
    }

    /// A dot dragged under the finger takes 0.15 ms from its frame's start
    /// to its commit: its lead is that and 0.1 ms (half the frame is less),
    /// where twice the frame and 0.1 ms kept every touch 0.15 ms longer;
    /// a frame of 5 ms gets half of it more, 7.5 ms.
    @Test func aQuickFrameLeadsByItsTimeAndATenthOfAMillisecondASlowOneByHalfItsTimeMore() throws {
        let clock = try FrameClock(refreshRate: 120)
        clock.fingersDown = true
        for _ in 0..<10 { clock.noteDrawTime(0.00015) }
        #expect(abs(clock.signalLead - 0.00025) < 1e-12)
        for _ in 0..<2 { clock.noteDrawTime(0.005) }
        #expect(abs(clock.signalLead - 0.0075) < 1e-12)
    }

    /// One slow frame among quick ones (the application preempted once)
    /// does not raise the lead, and the touches after it do not wait for
    /// it; a second among the last eight raises it at once, and it comes
    /// down when one of the two is eight frames old; slow frames one in
    /// eight keep it up, at the 90th percentile of the last 64.
    @Test func aSecondSlowFrameRaisesTheLeadAtOnceAndOneInEightKeepsItUp() throws {
        let clock = try FrameClock(refreshRate: 60)
        clock.fingersDown = true
        for _ in 0..<FrameClock.drawTimesKept { clock.noteDrawTime(0) }
        expectEqual(clock.signalLead, FrameClock.drawMargin, "the least lead")
        clock.noteDrawTime(0.002)
        expectEqual(clock.signalLead, FrameClock.drawMargin, "a lone slow frame does not raise the lead")
        clock.noteDrawTime(0.002)
        let raised = 0.003  // 2 ms and half of it
        #expect(abs(clock.signalLead - raised) < 1e-12)
        for _ in 0..<(FrameClock.recentDrawTimes - 2) { clock.noteDrawTime(0) }
        #expect(abs(clock.signalLead - raised) < 1e-12, "both slow frames are among the last \(FrameClock.recentDrawTimes)")
        clock.noteDrawTime(0)
        expectEqual(clock.signalLead, FrameClock.drawMargin)

        for frame in 0..<56 { clock.noteDrawTime(frame % 8 == 0 ? 0.002 : 0) }
        #expect(abs(clock.signalLead - raised) < 1e-12, "8 slow frames among the last 64, one among the last 8")
        clock.noteDrawTime(0)
        #expect(abs(clock.signalLead - raised) < 1e-12, "7 slow frames among the last 64")
        for _ in 0..<8 { clock.noteDrawTime(0) }
        expectEqual(clock.signalLead, FrameClock.drawMargin, "6 slow frames among the last 64")
    }

    @Test func theLeadNeverPassesItsMostAndIgnoresNonsense() throws {
        let clock = try FrameClock(refreshRate: 120)
        clock.fingersDown = true
        clock.noteDrawTime(0.05)
        expectEqual(clock.signalLead, clock.maximumLead)
        let before = clock.signalLead
        clock.noteDrawTime(.nan)
        clock.noteDrawTime(-1)
        clock.noteDrawTime(.infinity)
        expectEqual(clock.signalLead, before)
    }

    /// A flung list whose frames move 12 MB take 7 to 7.5 ms on a loaded
    /// machine: at 120 Hz the lead reaches the interval less half a
    /// millisecond (it stopped at weston's 7 ms, and those frames missed
    /// their refresh).
    @Test func theLeadReachesTheIntervalLessHalfAMillisecond() throws {
        let clock = try FrameClock(refreshRate: 120)
        clock.fingersDown = true
        expectEqual(clock.maximumLead, 1.0 / 120 - 0.0005)
        clock.noteDrawTime(0.0073)
        clock.noteDrawTime(0.0073)
        expectEqual(clock.signalLead, clock.maximumLead)
        #expect(clock.signalLead > 0.0078)
    }

    /// The server woke late for a refresh (preempted), past the time of
    /// the next refresh's signal: the signal goes out at once, while the
    /// refresh is still a recent frame's time away, instead of being
    /// skipped (the refresh then showed no new frame); it goes out once.
    @Test func aSignalWhoseTimeHasPassedGoesOutAtOnceWhileThereIsTimeToDraw() throws {
        let clock = try FrameClock(refreshRate: 120)
        // A finger down: with none, every signal is due with the refresh before.
        clock.fingersDown = true
        for _ in 0..<4 { clock.noteDrawTime(0.0055) }
        expectEqual(clock.signalLead, clock.maximumLead)
        let refresh100 = clock.time(of: 100)
        // The refresh before: its signal was taken, then the refresh itself,
        // 0.7 ms late; the next signal was due 0.5 ms after it.
        clock.start(now: refresh100 - 0.006)
        expectEqual(clock.takeMoment(now: refresh100 - 0.006)?.moment, .signal(100))
        let late = refresh100 + 0.0007
        let refresh = clock.takeMoment(now: late)
        expectEqual(refresh?.moment, .refresh(100))
        expectEqual(refresh?.due, refresh100)
        expectEqual(clock.next?.moment, .signal(101))
        expectEqual(clock.next?.time, late, "at once")
        let signal = clock.takeMoment(now: late + 0.00001)
        expectEqual(signal?.moment, .signal(101))
        expectEqual(signal?.due, late)
        expectEqual(clock.next?.moment, .refresh(101), "one signal a refresh")
        expectEqual(clock.takeMoment(now: clock.time(of: 101))?.moment, .refresh(101))
        expectEqual(clock.next?.moment, .signal(102))
        clock.stop()
    }

    /// The clock starts (an idle application asks for a frame) after the
    /// next refresh's signal time: the signal goes out at once if a frame
    /// fits before the refresh, as mutter starts an update at once after
    /// an idle spell; else the refresh's after it.
    @Test func aClockStartedWithinTheLeadSignalsAtOnceOnlyIfAFrameFits() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        let refresh101 = clock.time(of: 101)
        let lead = clock.signalLead
        #expect(lead > 0.0003)

        // Within the lead (0.45 ms), with room for a 0.3 ms frame.
        clock.start(now: refresh101 - 0.0004)
        #expect(lead > 0.0004)
        expectEqual(clock.next?.moment, .signal(101))
        expectEqual(clock.next?.time, refresh101 - 0.0004)
        clock.stop()

        clock.start(now: refresh101 - 0.0002)
        expectEqual(clock.next?.moment, .refresh(101), "0.2 ms is less than a 0.3 ms frame")
        expectEqual(clock.next?.time, refresh101)
        clock.stop()
    }

    /// With no finger down a request waits for its signal's moment, the
    /// most lead before the refresh: nothing goes out at the request.
    @Test func withoutAFingerDownARequestWaitsForTheSignalsMoment() throws {
        let clock = try FrameClock(refreshRate: 120)
        let now = clock.time(of: 100) + 0.0001
        clock.start(now: now)
        #expect(clock.signalOnRequest(now: now) == nil)
        expectEqual(clock.next?.moment, .signal(101))
        clock.stop()
    }

    /// With no finger down the signal for the upcoming refresh is due with
    /// the refresh before; when nobody had asked for it then (a flung
    /// list's display link starts just after a refresh), a request gets it
    /// at once, starting now, while a frame fits: it waited for the next
    /// refresh's signal, and that refresh showed no new frame. A signal
    /// that went out is not sent again.
    @Test func withoutAFingerDownARequestJustAfterAnUnaskedSignalGetsItAtOnce() throws {
        let (clock, woke) = try quickApplicationsClockJustAfterRefresh100()
        expectEqual(clock.takeMoment(now: woke)?.moment, .signal(101))
        #expect(clock.signalOnRequest(now: woke + 0.0003) == nil, "signal 101 went out")
        clock.signalWentUnasked(101)
        let request = try #require(clock.signalOnRequest(now: woke + 0.0003))
        expectEqual(request.sequence, 101)
        expectEqual(request.start, woke + 0.0003)
        #expect(clock.signalOnRequest(now: woke + 0.0004) == nil, "once")
        expectEqual(clock.next?.moment, .refresh(101))

        expectEqual(clock.takeMoment(now: clock.time(of: 101))?.moment, .refresh(101))
        expectEqual(clock.takeMoment(now: clock.time(of: 101))?.moment, .signal(102))
        clock.signalWentUnasked(102)
        #expect(clock.signalOnRequest(now: clock.time(of: 102) - 0.0002) == nil, "0.2 ms is less than a 0.3 ms frame")
        clock.stop()
    }

    /// With a finger down the signal goes at the request, for the next
    /// refresh, with its start the lead before that refresh: the clock
    /// then wakes for the refresh only, and the next request (the frame
    /// committed) is for the refresh after.
    @Test func withAFingerDownARequestIsSignalledAtOnceWithItsStart() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        let now = clock.time(of: 100) + 0.0001
        clock.start(now: now)
        expectEqual(clock.next?.moment, .signal(101))

        let signal = try #require(clock.signalOnRequest(now: now))
        expectEqual(signal.sequence, 101)
        #expect(abs(signal.start - (clock.time(of: 101) - clock.signalLead)) < 1e-12)
        expectEqual(clock.next?.moment, .refresh(101), "no signal moment is left for it")
        expectEqual(clock.takeMoment(now: clock.time(of: 101))?.moment, .refresh(101))

        let again = try #require(clock.signalOnRequest(now: clock.time(of: 101) - 0.0002))
        expectEqual(again.sequence, 102, "refresh 101 was signalled")
        #expect(abs(again.start - (clock.time(of: 102) - clock.signalLead)) < 1e-12)
        clock.stop()
    }

    /// A request after its refresh's start: the frame starts at once while
    /// one fits before the refresh (0.4 ms before it, a 0.3 ms frame), as a
    /// late signal moment does; else it is for the refresh after.
    @Test func aRequestAfterItsStartStartsAtOnceOnlyIfAFrameFits() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        #expect(clock.signalLead > 0.0004)

        let withinTheLead = clock.time(of: 101) - 0.0004
        let signal = try #require(clock.signalOnRequest(now: withinTheLead))
        expectEqual(signal.sequence, 101)
        expectEqual(signal.start, withinTheLead)

        let tooLate = clock.time(of: 102) - 0.0002
        let next = try #require(clock.signalOnRequest(now: tooLate))
        expectEqual(next.sequence, 103, "0.2 ms is less than a 0.3 ms frame")
        #expect(abs(next.start - (clock.time(of: 103) - clock.signalLead)) < 1e-12)
    }

    /// The server reads a request in the turn that woke for a refresh,
    /// before the clock's moment is taken (input comes first): the request
    /// is for the refresh after, and the refresh due still happens (the
    /// clock rescheduled from now skipped it, and the commit waiting for
    /// it was replaced by the next one unshown).
    @Test func aRequestReadInTheTurnOfARefreshLeavesThatRefreshDue() throws {
        let clock = try quickApplicationsClock(fingersDown: true)
        clock.start(now: clock.time(of: 100) + 0.0001)
        expectEqual(clock.takeMoment(now: clock.time(of: 101) - clock.signalLead)?.moment, .signal(101))
        expectEqual(clock.next?.moment, .refresh(101))

        let now = clock.time(of: 101) + 0.0001
        expectEqual(clock.signalOnRequest(now: now)?.sequence, 102)
        expectEqual(clock.next?.moment, .refresh(101))
        expectEqual(clock.takeMoment(now: now)?.moment, .refresh(101))
        clock.stop()
    }

    /// The timer fired for a moment that the server, going by the time it
    /// read when its poll returned, does not find due yet (the moment was
    /// set in the same turn and has passed since): the clock still wakes
    /// for it. The timer's expiry was taken and nothing set it again, so
    /// the clock never fired again.
    @Test func aMomentNotDueAtTheTurnsTimeStillWakesTheClock() throws {
        let clock = try FrameClock(refreshRate: 120)
        let real = monotonicSeconds()
        // A stale turn time 50 ms back: the next moment after it is past by now.
        let stale = real - 0.05
        clock.start(now: stale)
        let moment = try #require(clock.next)
        #expect(moment.time < real)
        expectEqual(clock.takeMoment(now: stale - clock.interval)?.moment, nil)
        expectEqual(clock.next?.moment, moment.moment, "the moment stays")
        var descriptor = pollfd(fd: clock.fileDescriptor, events: Int16(POLLIN), revents: 0)
        expectEqual(poll(&descriptor, 1, 1000), 1, "the timer fires for it")
        clock.stop()
    }

    /// Whatever a turn does with the clock, in any order and at the time
    /// the turn read (starting it, a request with or without a finger, a
    /// moment taken once or twice, an unasked signal, a stop), the clock
    /// never dies: while it runs its timer is set and fires, and once
    /// stopped it stays quiet. Every moment here is in the past of the
    /// real clock, so a timer that is set has fired: a moment the turn took
    /// the timer's expiry for and left unset would wait forever (the
    /// server's poll slept for an hour, and the demo's window froze).
    @Test func noTurnLeavesARunningClockWithoutItsTimer() throws {
        let clock = try FrameClock(refreshRate: 120)
        let turns = 1_500
        // The last turn is 5.1 s after the first, and 0.9 s before the real time.
        let first = monotonicSeconds() - 6
        func isAlive(after step: String, turn: Int) -> Bool {
            var descriptor = pollfd(fd: clock.fileDescriptor, events: Int16(POLLIN), revents: 0)
            // A set timer has fired already: the wait ends at once unless it is not set.
            let fired = poll(&descriptor, 1, clock.isRunning ? 1000 : 0) == 1
            guard fired != clock.isRunning else { return true }
            Issue.record("turn \(turn), after \(step): \(clock.isRunning ? "running, for \(String(describing: clock.next)), with no timer set" : "stopped, with its timer set")")
            return false
        }
        for turn in 0..<turns {
            let now = first + Double(turn) * 0.41 * clock.interval
            clock.fingersDown = turn / 7 % 2 == 0
            if turn % 11 == 0 { clock.noteDrawTime(Double(turn % 9) * 0.001) }
            if turn % 13 == 0 {
                clock.stop()
                guard isAlive(after: "stop", turn: turn) else { return }
            }
            if turn % 5 == 0 {
                clock.start(now: now)
                guard isAlive(after: "start", turn: turn) else { return }
            }
            if turn % 3 == 0 {
                _ = clock.signalOnRequest(now: now)
                guard isAlive(after: "a request", turn: turn) else { return }
            }
            for _ in 0..<(turn % 4 == 0 ? 2 : 1) {
                let taken = clock.takeMoment(now: now)
                if case .signal(let sequence)? = taken?.moment, turn % 2 == 0 { clock.signalWentUnasked(sequence) }
                guard isAlive(after: "taking \(String(describing: taken?.moment))", turn: turn) else { return }
            }
        }
        clock.stop()
    }
}
