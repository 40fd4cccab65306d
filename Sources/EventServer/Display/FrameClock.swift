#if canImport(Glibc)
import Glibc
#endif

/// The display's refresh, as the server keeps it: refreshes fall on whole
/// multiples of the refresh interval of `CLOCK_MONOTONIC`, as a display's
/// vsync is regular whatever the applications do.
///
/// Where no display reports its vsync (headless, Xvfb) this is the vsync,
/// as the headless backends of weston and wlroots make theirs: a timer at
/// the refresh rate. It runs only while someone needs refreshes, so an
/// idle server sleeps.
final class FrameClock {
    /// Seconds between refreshes.
    let interval: Double
    /// A timer descriptor, readable when a refresh is due.
    let fileDescriptor: Int32
    /// When the timer is set to fire next; nil while stopped.
    private(set) var nextRefresh: Double?

    init(refreshRate: Int) throws(InputSourceError) {
        interval = 1 / Double(refreshRate)
        fileDescriptor = try SystemCalls.makeTimer()
    }

    deinit {
        close(fileDescriptor)
    }

    var isRunning: Bool { nextRefresh != nil }

    /// The refresh count at `time`: the sequence number of the last refresh at or before it.
    func sequence(at time: Double) -> UInt64 {
        UInt64(max(0, (time / interval).rounded(.down)))
    }

    /// When refresh `sequence` happened (or will).
    func time(of sequence: UInt64) -> Double {
        Double(sequence) * interval
    }

    /// Sets the timer for the first refresh after `now`, unless it is set.
    func start(now: Double) {
        guard nextRefresh == nil else { return }
        schedule(after: now)
    }

    func stop() {
        guard nextRefresh != nil else { return }
        nextRefresh = nil
        SystemCalls.arm(fileDescriptor, at: nil)
        SystemCalls.drain(fileDescriptor)
    }

    /// The timer fired: returns the refresh that is due (the latest one, if
    /// the server was late for several) and sets the timer for the next.
    func takeRefresh(now: Double) -> UInt64? {
        SystemCalls.drain(fileDescriptor)
        guard let due = nextRefresh, now >= due - interval / 1000 else { return nil }
        let sequence = max(self.sequence(at: now + interval / 1000), self.sequence(at: due))
        schedule(after: time(of: sequence))
        return sequence
    }

    private func schedule(after moment: Double) {
        let next = time(of: sequence(at: moment) + 1)
        nextRefresh = next
        SystemCalls.arm(fileDescriptor, at: next)
    }
}
