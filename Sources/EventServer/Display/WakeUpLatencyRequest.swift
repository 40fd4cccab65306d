#if canImport(Glibc)
import Glibc
#endif

/// The kernel's CPU latency request (PM QoS), held at zero while a finger
/// is down and while the frames it set going keep coming, so that no idle
/// processor is put into a state it is slow to wake from.
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
/// press to its release.
///
/// After the last finger lifts, the frames a touch set going (a flung
/// list's deceleration, a transition a tap started) have each a whole
/// interval, but two wake-ups a frame all the same, and a flung list
/// missed refreshes to late wake-ups with the request let go at the lift.
/// So it is held on while the frame clock runs, and let go when the clock
/// stops or ``holdAfterLastTouch`` after the last finger lifted, whichever
/// comes first: Android renews its power HAL's interaction boost at each
/// input event (at most every 100 ms, PowerManagerService's user
/// activity), and a Pixel's power HAL holds it until the display goes idle
/// (no more updates), at most that long. A clock that starts again with no
/// touch (a timer's animation) does not take it again. Nothing is held
/// while nothing is touched or drawn: an idle server and its applications
/// leave the processors to sleep.
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
    /// The last time a finger was seen down, until the frames after it stop.
    private var lastTouch: Double?
    /// How long after the last finger lifted the request may be held while
    /// frames keep coming: the longest interaction boost of a Pixel's power
    /// HAL (`vendor.powerhal.interaction.max`, 5,650 ms; it lets the boost
    /// go sooner when the display goes idle, and holds it at least 1.4 s
    /// after an input event). Its shortest would let go in the middle of a
    /// fling: the latency benchmark's flicks decelerate for about 4.7 s.
    static let holdAfterLastTouch = 5.65

    init(devicePath: String?) {
        self.devicePath = devicePath
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    var isHeld: Bool { descriptor >= 0 }

    /// Holds the request while a finger is down, and after the last one
    /// lifted while frames keep coming (`framesComing`: the frame clock
    /// runs), for at most ``holdAfterLastTouch``; lets it go otherwise.
    /// Returns what went wrong the first time the request cannot be made,
    /// for the server's log.
    func update(fingersDown: Bool, framesComing: Bool, now: Double) -> String? {
        if fingersDown {
            lastTouch = now
        } else if !framesComing {
            lastTouch = nil
        }
        return hold(lastTouch.map { now - $0 < Self.holdAfterLastTouch } ?? false)
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
