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
/// The lead follows how long the front application takes from its signal
/// to its commit (``noteDrawTime(_:)``), as Android's SurfaceFlinger moves
/// its app phase offset: a fixed 7 ms would add 7 ms to every touch's way
/// to the screen for an app that draws a changed frame in half a
/// millisecond. It starts at the most (weston's 7 ms, less at refresh
/// rates above 125 Hz: ``maximumLead``) and comes down to twice the
/// second slowest of the last ``drawTimesKept`` frames plus a margin for
/// waking up (``slowestDrawScale``, ``wakeUpMargin``): a second slow frame
/// raises it at once, a lone one (the application preempted once) does
/// not hold it up for half a second.
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
    /// How long before a refresh its frame signal goes out.
    private(set) var signalLead: Double
    /// The most the lead can be: weston's 7 ms, and at most the interval
    /// less ``wakeUpMargin``, so that the signal comes after the refresh
    /// before, which gives the buffer drawn last back. It was half the
    /// interval at first (4.2 ms at 120 Hz): a flung list whose frames
    /// (moving 12 MB of scrolled pixels) took 4 to 7 ms on a loaded machine
    /// then missed their refresh, one in four (docs/performance.md, "Frames
    /// dropped while a list decelerates"). A frame that needs more lead now
    /// gets it, and is shown at its refresh instead of the next one.
    let maximumLead: Double
    /// How many times the second slowest recent draw the lead allows. Measured with
    /// `openuikit-latency-benchmark --photon --refresh 120` (docs/performance.md,
    /// "The screen"): at one and a half times with a 0.5 ms margin, 1 to 2 %
    /// of frames came after their refresh even with the benchmark's
    /// processes at real-time priority (touch to photon p99 12.2 ms); at
    /// twice with a 1 ms margin, p99 10.5 ms and p50 8.1 ms.
    static let slowestDrawScale = 2.0
    /// Added to the scaled slowest draw: waking the application up, and the
    /// server reading its commit. Also the least the lead can be.
    static let wakeUpMargin = 0.001
    /// How many recent frames the lead is worked out from (half a second
    /// at 120 Hz).
    static let drawTimesKept = 64
    /// The front application's recent times from signal to commit, oldest
    /// overwritten first.
    private var drawTimes: [Double] = []
    private var nextDrawTime = 0
    /// A timer descriptor, readable when a moment is due.
    let fileDescriptor: Int32
    /// The moment the timer is set for, and when; nil while stopped.
    private(set) var next: (moment: Moment, time: Double)?

    init(refreshRate: Int) throws(InputSourceError) {
        interval = 1 / Double(refreshRate)
        maximumLead = min(0.007, interval - Self.wakeUpMargin)
        signalLead = maximumLead
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

    /// The timer fired: returns the moment due and sets the timer for the
    /// next one. A server late past the refresh a moment was for gets that
    /// refresh (the latest one) instead.
    func takeMoment(now: Double) -> Moment? {
        SystemCalls.drain(fileDescriptor)
        guard let due = next, now >= due.time - interval / 1000 else { return nil }
        schedule(after: now)
        let latest = sequence(at: now + interval / 1000)
        switch due.moment {
        case .signal(let sequence) where latest >= sequence: return .refresh(latest)
        case .refresh(let sequence) where latest > sequence: return .refresh(latest)
        default: return due.moment
        }
    }

    /// The front application committed the frame it was signalled for
    /// `seconds` after the signal: the lead follows its recent frames.
    func noteDrawTime(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        if drawTimes.count < Self.drawTimesKept {
            drawTimes.append(seconds)
        } else {
            drawTimes[nextDrawTime] = seconds
            nextDrawTime = (nextDrawTime + 1) % Self.drawTimesKept
        }
        signalLead = min(maximumLead, secondSlowestDrawTime * Self.slowestDrawScale + Self.wakeUpMargin)
    }

    /// The second slowest recent draw (the slowest while only one is
    /// known): what the lead is worked out from. With the slowest, one
    /// frame of a few milliseconds among frames of 0.1 ms (the application
    /// preempted once, a page fault) held the lead up for the next 64
    /// frames, and their touches waited those milliseconds: they were the
    /// slowest 1 % of touch to photon (`openuikit-latency-benchmark
    /// --photon`, 27 November evening: the frame before each of them was
    /// signalled 14.6 ms before their refresh, p50: an interval and a
    /// 6.3 ms lead). Frames that are slow again and again (a flung list)
    /// still raise it at the second.
    private var secondSlowestDrawTime: Double {
        var slowest = 0.0, second = 0.0
        for time in drawTimes {
            if time > slowest {
                second = slowest
                slowest = time
            } else if time > second {
                second = time
            }
        }
        return drawTimes.count < 2 ? slowest : second
    }

    /// Sets the timer for the first moment after `moment`.
    private func schedule(after moment: Double) {
        let upcoming = sequence(at: moment + interval / 1000) + 1
        let signalTime = time(of: upcoming) - signalLead
        next = signalTime > moment + interval / 1000
            ? (.signal(upcoming), signalTime)
            : (.refresh(upcoming), time(of: upcoming))
        SystemCalls.arm(fileDescriptor, at: next!.time)
    }
}
