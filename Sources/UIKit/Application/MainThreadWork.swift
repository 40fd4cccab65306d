#if canImport(Glibc)
import Glibc
#endif
import CMainThreadHooks
import Foundation

/// The main thread's work that is not UIKit's own: the main dispatch queue
/// (and with it the main actor, whose executor is that queue) and
/// Foundation's run loop (`Timer`s, `RunLoop.main.perform` blocks).
///
/// On iOS one `CFRunLoop` serves all of it. Here the application's run
/// loop sleeps on its own ports, and serves the rest the way Core
/// Foundation's run loop does on Linux, through the same hooks:
/// - libdispatch signals an eventfd whenever work is put on the main queue
///   (from any thread, or when an `asyncAfter` or a `Task.sleep` falls
///   due); the run loop sleeps on it too, and when it is readable calls
///   libdispatch's drain, on the main thread, as Core Foundation does.
/// - Foundation's timers and performed blocks live in Core Foundation's
///   run loop: before the run loop would sleep, when a Foundation timer is
///   due or main-queue work arrived, it runs that loop for one pass that
///   does not wait, in the mode the application's run loop is in, and it
///   sleeps no later than Foundation's next timer.
///
/// Why not sleep in Foundation's run loop instead: on Linux it cannot wait
/// on a file descriptor of ours without a thread of its own in between (its
/// sockets are watched by a helper thread), which would add a thread hop to
/// every event. The hooks above are the ones Foundation itself uses, so
/// nothing is emulated.
///
/// This only works on the process's main thread, where libdispatch binds
/// the main queue; `UIApplicationMain` turns it on. Elsewhere (a test
/// runner that parked its main thread in `dispatchMain()`, say) libdispatch
/// drains the main queue itself, between the main actor's jobs.
@MainActor
final class MainThreadWork {
    /// libdispatch's wake-up handle for the main queue.
    let mainQueueDescriptor: Int32
    private let mainRunLoop: OpenUIKitCFRunLoop?
    /// The modes' names as Core Foundation strings, made once and kept.
    private let defaultMode: OpenUIKitCFString
    private let trackingMode: OpenUIKitCFString
    private let trackingModeName = NSString(string: RunLoop.Mode.tracking.rawValue)

    /// Whether the caller is the process's main thread, the only one whose
    /// main queue can be drained from a run loop.
    static var isOnMainThread: Bool { Thread.isMainThread }

    /// Call on the main thread only.
    init() {
        mainQueueDescriptor = _dispatch_get_main_queue_handle_4CF()
        mainRunLoop = CFRunLoopGetMain()
        defaultMode = kCFRunLoopDefaultMode
        // Foundation's strings are Core Foundation strings on Linux.
        trackingMode = unsafeBitCast(trackingModeName, to: OpenUIKitCFString.self)
        // As UIKit does: timers added for `.common` fire while a scroll view tracks.
        CFRunLoopAddCommonMode(mainRunLoop, trackingMode)
    }

    /// Whether Foundation's run loop has not had its first pass yet: blocks
    /// performed before the application's run loop started run then.
    private var isFirstPass = true

    /// Runs what is due of Foundation's run loop and the main queue, in
    /// Core Foundation's order; true if anything may have run.
    ///
    /// A pass of Foundation's run loop costs seven system calls, so it runs
    /// only when it has something to do as far as can be seen from here:
    /// a timer due, or work on the main queue (blocks performed on the run
    /// loop usually come with it), or the first turn. The main queue's
    /// handle is read every time (one system call), so that work queued
    /// during the turn runs before the turn ends, as on iOS.
    func runFoundationAndMainQueue(in mode: RunLoop.Mode) -> Bool {
        let mainQueueSignalled = takeMainQueueSignal()
        var timerDue = false
        if let seconds = secondsUntilNextFoundationTimer(in: mode) { timerDue = seconds <= 0 }
        guard mainQueueSignalled || timerDue || isFirstPass else { return false }
        isFirstPass = false
        // Blocks, then timers, as Core Foundation runs them; its pass would
        // drain the main queue too, but the signal was taken above.
        _ = CFRunLoopRunInMode(cfMode(mode), 0, 0)
        if mainQueueSignalled { _dispatch_main_queue_callback_4CF(nil) }
        return true
    }

    /// Reads (and so resets) the main queue's eventfd; true if work was put
    /// on the queue since the last read.
    private func takeMainQueueSignal() -> Bool {
        var count: UInt64 = 0
        return read(mainQueueDescriptor, &count, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size
    }

    /// Seconds until Foundation's next timer in `mode` falls due, if it has one.
    func secondsUntilNextFoundationTimer(in mode: RunLoop.Mode) -> TimeInterval? {
        let fireDate = CFRunLoopGetNextTimerFireDate(mainRunLoop, cfMode(mode))
        guard fireDate != 0 else { return nil }
        return max(0, fireDate - CFAbsoluteTimeGetCurrent())
    }

    private func cfMode(_ mode: RunLoop.Mode) -> OpenUIKitCFString {
        mode == .tracking ? trackingMode : defaultMode
    }
}

extension RunLoop.Mode {
    /// The mode the main run loop is in while a scroll view tracks a finger
    /// or decelerates (UIKit's `UITrackingRunLoopMode`). Timers added for
    /// `.default` wait until it ends; those added for `.common` keep firing.
    public static let tracking = RunLoop.Mode("UITrackingRunLoopMode")
}
