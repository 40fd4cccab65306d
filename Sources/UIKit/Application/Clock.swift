#if canImport(Glibc)
import Glibc
#endif

/// The one source of time for an application: event timestamps, timers,
/// timeouts and animations all read it. Tests replace the system clock with
/// a ``ManualClock`` so that every time-dependent behaviour is deterministic.
@preconcurrency @MainActor
public protocol RunLoopClock: AnyObject {
    /// Seconds since an arbitrary fixed origin; never goes backwards.
    var now: TimeInterval { get }
}

/// Monotonic system time (`CLOCK_MONOTONIC`): unaffected by changes to the
/// wall clock.
@preconcurrency @MainActor
public final class SystemClock: RunLoopClock {
    public init() {}

    public var now: TimeInterval {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1_000_000_000
    }
}

/// Time that moves only when told to, through ``ApplicationRunLoop/advance(by:)``,
/// which fires every timer that falls due on the way, at its own time.
@preconcurrency @MainActor
public final class ManualClock: RunLoopClock {
    // Read for every event and timer; only ever touched on the main actor.
    @exclusivity(unchecked) public internal(set) var now: TimeInterval

    public init(now: TimeInterval = 0) {
        self.now = now
    }
}
