#if canImport(Glibc)
import Glibc
#endif

/// The kernel's CPU latency request (PM QoS), held at zero while a finger
/// is down, so that no idle processor is put into a state it is slow to
/// wake from.
///
/// While a finger is down the frame clock's lead is as short as the
/// application's frames allow (``FrameClock``), well under a millisecond
/// for a dragged view; two wake-ups stand between the signal's time and the
/// commit: the server's, when its timer fires, and the application's, when
/// the signal comes. An idle processor that halted wakes late: on the
/// virtual machines this project is measured on (an idle vCPU halts at
/// once, and the host must schedule it again) a quiet machine's touch to
/// photon had a p99 of 15 ms where a loaded one's, whose processors never
/// idle, was 9 ms (docs/performance.md, "Idle processors wake late").
/// Holding the request at zero makes idle processors wait for work by
/// polling instead, as `cyclictest` does for its measurements and as
/// vendor kernels' touch boosters hold PM QoS requests from a finger's
/// press to its release. Nothing is held while no finger is down: an idle
/// server and its applications leave the processors to sleep.
///
/// Nor is it held for a finger that sends nothing: it is let go
/// ``heldWithoutInput`` after the last input event, finger down or not,
/// and taken again at the next event. A source that stops with a finger
/// down (an injector stopped, a stuck device) would otherwise hold it as
/// long as the server runs: a benchmark's server once held it for 53
/// minutes, and every idle processor of the machine polled meanwhile.
/// Android's interaction boost ends the same way: each input event renews
/// it (PowerManagerService's user activity), and without one a Pixel's
/// power HAL lets it go after its shortest duration.
///
/// The request lasts while the device (`/dev/cpu_dma_latency`, root's by
/// default) is open with a 32-bit zero written to it
/// (Documentation/power/pm_qos_interface.rst). A device that cannot be
/// opened is reported once, and frames go on without it.
final class WakeUpLatencyRequest {
    /// The device the request is made through; nil: never made.
    let devicePath: String?
    /// The open device while the request is held; -1 otherwise.
    private var descriptor: Int32 = -1
    /// Whether a failure to make the request was reported: it is, once.
    private var reportedFailure = false
    /// When the last input event was read, while a finger is down.
    private var lastInput = -Double.infinity
    /// How long the request is held after the last input event while a
    /// finger stays down: the shortest interaction boost of a Pixel's power
    /// HAL (`vendor.powerhal.interaction.min`, 1,400 ms; it is renewed at
    /// each user activity, which Android reports at most every 100 ms per
    /// kind of event, MIN_TIME_BETWEEN_USERACTIVITIES). A finger that moves
    /// sends an event at every scan of the touchscreen (a few milliseconds);
    /// one that rests, nothing: nothing on the screen moves for it then,
    /// and its next move takes the request again.
    static let heldWithoutInput = 1.4

    init(devicePath: String?) {
        self.devicePath = devicePath
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    var isHeld: Bool { descriptor >= 0 }

    /// When the request is to be let go if no input event comes first (the
    /// server wakes for it); nil while it is not held.
    var letGoTime: Double? { isHeld ? lastInput + Self.heldWithoutInput : nil }

    /// Holds the request while a finger is down and the last input event
    /// (read at `lastInput`) is less than ``heldWithoutInput`` old at `now`;
    /// lets it go otherwise. Returns what went wrong the first time the
    /// request cannot be made, for the server's log.
    func update(fingersDown: Bool, lastInput: Double, now: Double) -> String? {
        self.lastInput = lastInput
        return hold(fingersDown && now < lastInput + Self.heldWithoutInput)
    }

    /// Makes the request, or lets it go.
    func hold(_ wanted: Bool) -> String? {
        guard wanted != isHeld else { return nil }
        guard wanted else {
            close(descriptor)
            descriptor = -1
            return nil
        }
        guard let devicePath else { return nil }
        let opened = open(devicePath, O_WRONLY | O_CLOEXEC)
        var latency: Int32 = 0
        if opened >= 0, write(opened, &latency, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size {
            descriptor = opened
            return nil
        }
        let reason = String(cString: strerror(errno))
        if opened >= 0 { close(opened) }
        guard !reportedFailure else { return nil }
        reportedFailure = true
        return "cannot ask for prompt wake-ups while a finger is down (\(devicePath): \(reason)); "
            + "frames for a touch may wait for idle processors to wake (docs/screen.md)"
    }
}
