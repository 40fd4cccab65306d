#if canImport(Glibc)
import Glibc
#endif

/// The display's refresh, as the server keeps it: refreshes fall on whole
/// multiples of the refresh interval of `CLOCK_MONOTONIC`, as a display's
/// vsync is regular whatever the applications do.
///
/// Each refresh has two moments. A little before it (``signalLead``), the
/// front application is signalled, so that the frame it draws then is
/// committed in time for the refresh itself, where the latest commit is
/// shown. This is weston's repaint window (it repaints 7 ms before the
/// vblank by default, `repaint-window` in weston.ini), moved into the
/// applications, which draw their own frames here: an event read before
/// the signal is on the screen at the refresh that follows it, within one
/// interval and the lead.
///
/// While a finger is down the lead follows how long the front application
/// takes from the moment its signal was due to its commit
/// (``noteDrawTime(_:)``), as mutter's frame clock schedules each update by
/// its recent updates' longest (its "max render time", the dispatch's own
/// lateness included) and Android's SurfaceFlinger moves its app phase
/// offset: a fixed 7 ms would add 7 ms to every touch's way to the screen
/// for an app that draws a changed frame in a tenth of a millisecond. It
/// starts at weston's 7 ms (``startingLead``) and is then the expected
/// frame time (``expectedDrawTime``) and a margin, ``drawMargin`` or a
/// ``drawTimeShare`` of the frame, whichever is longer. With no
/// finger down nothing waits for the lead, and it is a whole interval
/// (``signalLead``): the signal for the next refresh is due with this one,
/// and goes out right after it, without the server sleeping in between.
///
/// With a finger down the signal itself goes out as soon as the
/// application asks, carrying the frame's start, the lead before its
/// refresh (``signalOnRequest(now:)``): the application's own timer starts
/// the frame, and the clock wakes for refreshes only.
///
/// Where no display reports its vsync (headless, Xvfb) this is the vsync,
/// as the headless backends of weston and wlroots make theirs: a timer at
/// the refresh rate. It runs only while someone needs refreshes, so an
/// idle server sleeps.
final class FrameClock {
    /// What is due when the timer fires.
    enum Moment: Equatable {
        /// Signal the front application for refresh `sequence`.
        case signal(UInt64)
        /// Refresh `sequence`: show the latest commit.
        case refresh(UInt64)
    }

    /// Seconds between refreshes.
    let interval: Double
    /// How long before a refresh its frame signal is due: while a finger
    /// is down, ``leadWhileTouching``; else the whole interval.
    ///
    /// Without a finger on the screen nothing waits for the lead: an
    /// animation or a deceleration is drawn for its refresh's time
    /// (`CADisplayLink.targetTimestamp`) whenever it is drawn, so its frames
    /// get all the time there is, and a slow one is still shown at its
    /// refresh. The signal is then due with the refresh before: the timer
    /// is set for it as that refresh is taken, so it has expired when the
    /// server next polls, and the signal goes out at once after the frame's
    /// presentation and the buffer it gives back. One wake-up a frame for
    /// the server, where a signal half a millisecond after the refresh took
    /// a second (and each wake-up of an idle processor may come late: a
    /// flung list's refreshes with no new frame were mostly such late
    /// wake-ups). The signal is sent in a turn of its own, as every moment
    /// is, though its poll does not wait: that turn reads the input that
    /// came during the refresh's work before the signal goes out, and takes
    /// the moment at its own time, where the refresh's turn has only the
    /// time its poll returned, which a slow frame (the X window converting a
    /// whole frame) may leave behind the next refresh. Sent in the refresh's
    /// turn by taking moments until none was due, a tapped row's push in the
    /// demo's X window once never finished: that stale time let the next
    /// refresh's expiry be read and found not due, and nothing set the timer
    /// again (``takeMoment(now:)`` now does).
    /// With a finger down, each touch waits an interval and the lead to be
    /// shown, so the lead is as short as the frames allow.
    var signalLead: Double { fingersDown ? leadWhileTouching : interval }
    /// Whether a finger (or the mouse button) is down on the screen; the
    /// server sets it as input comes.
    var fingersDown = false
    /// The lead while a finger is down: the application's expected frame
    /// time and the longer of ``drawMargin`` and ``drawTimeShare`` of it.
    private(set) var leadWhileTouching: Double
    /// The lead while touching before any frame is known: weston's default repaint window
    /// (`repaint-window`, 7 ms before the vblank, weston.ini), at most
    /// ``maximumLead``.
    let startingLead: Double
    /// The most the lead can be while a finger is down: the interval less
    /// ``refreshMargin``, so that the signal comes after the refresh before
    /// (which gives the buffer drawn last back). It was weston's 7 ms: at 120 Hz a flung
    /// list's frames that moved 12 MB in 7 to 7.5 ms on a loaded machine
    /// were two thirds of those that missed their refresh
    /// (docs/performance.md, "The headless screen shows the application's
    /// buffer"); and half the interval before that.
    let maximumLead: Double
    /// The least time between a refresh and the next one's signal.
    static let refreshMargin = 0.0005
    /// The lead while touching is the expected frame time
    /// (``expectedDrawTime``) and a margin for what the recent frames do
    /// not show of the next one: ``drawMargin`` for a quick frame, whose
    /// tail is a wake-up's lateness, the same whatever it draws; this share
    /// of the frame for a slow one, whose tail grows with what it draws.
    /// It was twice the frame and ``drawMargin``: a dot dragged under the
    /// finger (0.15–0.2 ms from its start to its commit) got 0.1–0.2 ms
    /// more lead than its frames needed, and every touch waited for it
    /// (touch to photon's 99th percentile 8.64–8.89 ms at 120 Hz, against
    /// 8.51–8.55 ms with this margin; docs/performance.md, "A lead that
    /// fits the frame"). Half the frame for a slow one keeps a dragged
    /// list's frames (1.8 ms at the median, 3.8 ms at the 99th percentile)
    /// on time: replayed against their traces, 8 and 15 of about 1,700
    /// were late (6 and 6 with twice the frame; 57 and 82 with the frame
    /// and 0.1 ms alone).
    static let drawTimeShare = 0.5
    static let drawMargin = 0.0001
    /// How many recent frames the lead is worked out from (half a second
    /// at 120 Hz), and how many of the newest make its short term.
    static let drawTimesKept = 64
    static let recentDrawTimes = 8
    /// The rank among the last ``drawTimesKept`` draws that the lead's long
    /// term takes: the 7th slowest of 64, their 90th percentile.
    static let typicalDrawRank = 7
    /// The front application's recent times from signal to commit, oldest
    /// overwritten first.
    private(set) var drawTimes: [Double] = []
    private var nextDrawTime = 0
    /// The last refresh whose signal was taken: a signal goes out once.
    private var lastSignalled: UInt64 = 0
    /// A timer descriptor, readable when a moment is due.
    let fileDescriptor: Int32
    /// The moment the timer is set for, and when; nil while stopped.
    private(set) var next: (moment: Moment, time: Double)?

    init(refreshRate: Int) throws(InputSourceError) {
        interval = 1 / Double(refreshRate)
        maximumLead = interval - Self.refreshMargin
        startingLead = min(0.007, maximumLead)
        leadWhileTouching = startingLead
        fileDescriptor = try SystemCalls.makeTimer()
    }

    deinit {
        close(fileDescriptor)
    }

    var isRunning: Bool { next != nil }

    /// The sequence number of the last refresh at or before `time`.
    func sequence(at time: Double) -> UInt64 {
        UInt64(max(0, (time / interval).rounded(.down)))
    }

    /// When refresh `sequence` happens (or happened).
    func time(of sequence: UInt64) -> Double {
        Double(sequence) * interval
    }

    /// Sets the timer for the next moment after `now`, unless it is set.
    func start(now: Double) {
        guard next == nil else { return }
        schedule(after: now)
    }

    func stop() {
        guard next != nil else { return }
        next = nil
        SystemCalls.arm(fileDescriptor, at: nil)
        SystemCalls.drain(fileDescriptor)
    }

    /// The timer fired: returns the moment due, and when it was due, and
    /// sets the timer for the next one. A server late past the refresh a
    /// moment was for gets that refresh (the latest one) instead.
    func takeMoment(now: Double) -> (moment: Moment, due: Double)? {
        SystemCalls.drain(fileDescriptor)
        guard let due = next else { return nil }
        guard now >= due.time - interval / 1000 else {
            // Not due at `now`, the time the server read when its poll
            // returned; but the moment may have been set in this turn (a
            // request turned a signal moment into its refresh) and passed
            // since, and the read above took its expiry. Set again, the
            // timer fires for it: else the clock never woke again while a
            // finger's requests still brought signals, and the application,
            // drawing without refreshes, was dropped for flooding commits.
            SystemCalls.arm(fileDescriptor, at: due.time)
            return nil
        }
        let latest = sequence(at: now + interval / 1000)
        let moment: Moment
        switch due.moment {
        case .signal(let sequence) where latest >= sequence: moment = .refresh(latest)
        case .refresh(let sequence) where latest > sequence: moment = .refresh(latest)
        default: moment = due.moment
        }
        if case .signal(let sequence) = moment { lastSignalled = sequence }
        schedule(after: now)
        return (moment, due.time)
    }

    /// While a finger is down, the signal an application asks for goes out
    /// at once, for the next refresh whose frame may still start a lead
    /// before it, with that start time: the application wakes then by its
    /// own timer, reads the input that came, and draws. So one wake-up,
    /// the application's, sits inside the lead instead of two in a row
    /// (the server's timer, then the application at the signal), and the
    /// lead comes down by the time a signal takes to reach it. Android's
    /// Choreographer hands each frame its times (`FrameData`: when the
    /// frame started, and each `FrameTimeline`'s deadline and expected
    /// presentation); here the start comes ahead of time, and the
    /// application keeps it. With no finger down the signal waits for its
    /// moment (``takeMoment(now:)``) and starts at once, unless that moment
    /// passed with nobody asking (``signalForALateRequest(now:)``).
    ///
    /// A refresh already signalled is not signalled again; one whose start
    /// has passed is still taken, to start at once, while a frame's
    /// expected time (``expectedDrawTime``) fits before it, as a late
    /// signal moment is.
    func signalOnRequest(now: Double) -> (sequence: UInt64, start: Double)? {
        guard fingersDown else { return signalForALateRequest(now: now) }
        let upcoming = upcomingRefresh(after: now)
        var sequence = max(upcoming, lastSignalled + 1)
        var start = time(of: sequence) - signalLead
        if start <= now {
            if sequence == upcoming, aFrameFits(before: sequence, from: now) {
                start = now
            } else {
                sequence += 1
                start = time(of: sequence) - signalLead
            }
        }
        lastSignalled = sequence
        // A signal moment set for a refresh now signalled has nothing left
        // to send: the clock wakes for that refresh instead. Any other
        // moment stays, even one already due: a request read in the turn
        // that woke for a refresh (the clock comes after the input) must
        // not skip that refresh, whose commit would wait for the next.
        if case .signal(let pending)? = next?.moment, pending <= sequence {
            next = (.refresh(pending), time(of: pending))
            SystemCalls.arm(fileDescriptor, at: time(of: pending))
        }
        return (sequence, start)
    }

    /// With no finger down, the signal for the upcoming refresh went out
    /// with the refresh before (``signalLead``): a request that comes just
    /// after it, when nobody had asked yet (a flung list's display link
    /// starts at the lift), gets that refresh's signal at once, starting
    /// now, while a frame's expected time fits before it; it waited for the
    /// next refresh's, and that refresh showed no new frame (it had half a
    /// millisecond more when the signal came that long after the refresh).
    /// Nil when the upcoming refresh was signalled, or no frame fits.
    private func signalForALateRequest(now: Double) -> (sequence: UInt64, start: Double)? {
        let upcoming = upcomingRefresh(after: now)
        guard upcoming > lastSignalled, case .refresh(upcoming)? = next?.moment,
              aFrameFits(before: upcoming, from: now) else { return nil }
        lastSignalled = upcoming
        return (upcoming, now)
    }

    /// The signal for refresh `sequence` was due and nobody had asked for
    /// it: a request that comes before that refresh may still have it.
    func signalWentUnasked(_ sequence: UInt64) {
        if lastSignalled == sequence { lastSignalled = sequence - 1 }
    }

    /// The front application committed the frame it was signalled for
    /// `seconds` after the signal was due, or after its start for a signal
    /// sent at its request (the lateness of whoever woke for it counts, as
    /// mutter counts its dispatch's): the lead follows its recent frames.
    func noteDrawTime(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        if drawTimes.count < Self.drawTimesKept {
            drawTimes.append(seconds)
        } else {
            drawTimes[nextDrawTime] = seconds
            nextDrawTime = (nextDrawTime + 1) % Self.drawTimesKept
        }
        let expected = expectedDrawTime
        leadWhileTouching = min(maximumLead, expected + max(Self.drawMargin, expected * Self.drawTimeShare))
    }

    /// How long the next frame is expected to take: the slower of the
    /// second slowest of the last ``recentDrawTimes`` frames and the
    /// ``typicalDrawRank``-th slowest of the last ``drawTimesKept`` (their
    /// 90th percentile), as mutter's frame clock takes the larger of a
    /// short-term and a long-term longest update. The short term raises
    /// it at a second slow frame in a row (a list dragged, as rows come
    /// into view) and lets it come down eight frames later; the long term
    /// keeps it up while one frame in ten is slow, but not for a few
    /// outliers. With the second slowest of the last 64 alone, two outliers
    /// in half a second (the application or the server preempted, a page
    /// fault) held the lead up for the next 64 frames, and their touches
    /// waited for it: they were the slowest 1 % of touch to photon.
    var expectedDrawTime: Double {
        max(slowest(2, amongLast: Self.recentDrawTimes), slowest(Self.typicalDrawRank, amongLast: Self.drawTimesKept))
    }

    /// The `rank`-th slowest of the last `count` draws (the fastest of
    /// them while fewer than `rank` are known); 0 with none.
    private func slowest(_ rank: Int, amongLast count: Int) -> Double {
        let known = min(count, drawTimes.count)
        guard known > 0 else { return 0 }
        let kept = min(rank, known)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: kept) { top in
            // The slowest `kept` so far, slowest first.
            var filled = 0
            for age in 0..<known {
                // The newest is just before the next slot to overwrite.
                let index = (drawTimes.count < Self.drawTimesKept ? drawTimes.count : nextDrawTime) - 1 - age
                let time = drawTimes[(index + drawTimes.count) % drawTimes.count]
                guard filled < kept || time > top[kept - 1] else { continue }
                var slot = min(filled, kept - 1)
                while slot > 0 && top[slot - 1] < time {
                    top[slot] = top[slot - 1]
                    slot -= 1
                }
                top[slot] = time
                filled = min(filled + 1, kept)
            }
            return top[kept - 1]
        }
    }

    /// The first refresh after `time` (one a thousandth of an interval
    /// away counts as now, as a moment's due time does).
    private func upcomingRefresh(after time: Double) -> UInt64 {
        sequence(at: time + interval / 1000) + 1
    }

    /// Whether a frame started at `now` is expected to be committed before
    /// refresh `sequence` (``expectedDrawTime``): a signal whose time has
    /// passed still goes out, to start at once, while it is.
    private func aFrameFits(before sequence: UInt64, from now: Double) -> Bool {
        time(of: sequence) - now > max(expectedDrawTime, interval / 1000)
    }

    /// Sets the timer for the first moment after `moment`. A signal whose
    /// time has passed (the server woke late for the refresh before, or
    /// the clock starts within the lead) goes out at once while its refresh
    /// is still a frame's expected time away (``expectedDrawTime``), as
    /// mutter starts an update at once after an idle spell: skipped, it
    /// left a refresh with no frame.
    private func schedule(after moment: Double) {
        let upcoming = upcomingRefresh(after: moment)
        let refreshTime = time(of: upcoming)
        let signalTime = refreshTime - signalLead
        if upcoming > lastSignalled, signalTime > moment + interval / 1000 {
            next = (.signal(upcoming), signalTime)
        } else if upcoming > lastSignalled, aFrameFits(before: upcoming, from: moment) {
            next = (.signal(upcoming), moment)
        } else {
            next = (.refresh(upcoming), refreshTime)
        }
        SystemCalls.arm(fileDescriptor, at: next!.time)
    }
}
