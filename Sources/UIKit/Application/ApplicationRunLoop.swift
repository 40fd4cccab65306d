#if canImport(Glibc)
import Glibc
#endif
import CSharedMemory
import Foundation

/// The application's main run loop, in the shape of Core Foundation's.
///
/// Each turn it notifies observers, fires the timers that are due, performs
/// the manual sources (source0) that were signalled, and asks the port
/// sources (source1) whether messages arrived, whose handlers typically
/// signal a manual source in turn. When nothing is left to do it tells
/// observers it is about to wait, and then sleeps on the ports' file
/// descriptors until a message arrives or the next timer is due.
///
/// In an application the input port is a port source and turning HID events
/// into `UIEvent`s is a manual source: see `UIApplication`.
@preconcurrency @MainActor
public final class ApplicationRunLoop {
    /// The points of a turn at which observers are told what is happening.
    public struct Activity: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let entry = Activity(rawValue: 1 << 0)
        public static let beforeTimers = Activity(rawValue: 1 << 1)
        public static let beforeSources = Activity(rawValue: 1 << 2)
        public static let beforeWaiting = Activity(rawValue: 1 << 5)
        public static let afterWaiting = Activity(rawValue: 1 << 6)
        public static let exit = Activity(rawValue: 1 << 7)
        public static let allActivities: Activity = [.entry, .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .exit]
    }

    @exclusivity(unchecked) public private(set) var clock: any RunLoopClock
    // The loop's state is touched on every turn, only from the main actor
    // and never through overlapping inout accesses: dynamic exclusivity
    // checks would only cost time here.
    @exclusivity(unchecked) private var timers: [RunLoopTimer] = []
    @exclusivity(unchecked) private var manualSources: [RunLoopSource] = []
    @exclusivity(unchecked) private var portSources: [RunLoopPortSource] = []
    @exclusivity(unchecked) private var observers: [RunLoopObserver] = []
    /// The activities some observer watches: the others cost one test a turn.
    @exclusivity(unchecked) private var observedActivities: Activity = []
    @exclusivity(unchecked) private var timerSweepThreshold = minimumTimerSweepThreshold
    @exclusivity(unchecked) private var isStopped = false
    /// What ``sleep(until:)`` polls, kept from sleep to sleep.
    @exclusivity(unchecked) private var sleepDescriptors: [pollfd] = []
    /// The main dispatch queue and Foundation's run loop, once this loop
    /// serves the main thread (``serveMainThread()``).
    private var mainThreadWork: MainThreadWork?
    /// How many scroll views are tracking or decelerating: while any is,
    /// the loop is in `RunLoop.Mode.tracking`.
    private var trackingCount = 0
    private static let minimumTimerSweepThreshold = 16

    public init(clock: any RunLoopClock = SystemClock()) {
        self.clock = clock
    }

    // MARK: Clocks

    /// Puts the run loop on a manual clock that starts at 0, or returns the
    /// manual clock it already has. Timers keep the time they had left.
    @discardableResult
    public func useManualClock() -> ManualClock {
        if let manual = clock as? ManualClock { return manual }
        let manual = ManualClock(now: 0)
        rebaseTimers(from: clock, to: manual)
        clock = manual
        return manual
    }

    /// Puts the run loop back on system time. Timers keep the time they had left.
    public func useSystemClock() {
        guard !(clock is SystemClock) else { return }
        let system = SystemClock()
        rebaseTimers(from: clock, to: system)
        clock = system
    }

    private func rebaseTimers(from old: any RunLoopClock, to new: any RunLoopClock) {
        let shift = new.now - old.now
        for timer in timers { timer.fireDate += shift }
    }

    // MARK: The main thread

    /// Makes this loop the main thread's only loop, as on iOS: from now on
    /// each turn also drains the main dispatch queue (where the main actor's
    /// jobs run) and fires Foundation's timers and performed blocks, and the
    /// loop also wakes for them. `UIApplicationMain` calls it; it does
    /// nothing off the process's main thread. See `MainThreadWork`.
    package func serveMainThread() {
        guard mainThreadWork == nil, MainThreadWork.isOnMainThread else { return }
        mainThreadWork = MainThreadWork()
    }

    /// Whether this loop drains the main dispatch queue and runs
    /// Foundation's run loop (``serveMainThread()``).
    var servesMainThread: Bool { mainThreadWork != nil }

    /// The mode the loop runs in, as `RunLoop.currentMode`: `.default`, or
    /// `RunLoop.Mode.tracking` while a scroll view tracks a finger or
    /// decelerates. Foundation's timers fire only in the modes they were
    /// added for; UIKit's own timers fire in every mode.
    public var currentMode: RunLoop.Mode { trackingCount > 0 ? .tracking : .default }

    /// A scroll view started tracking or decelerating.
    func beginTracking() { trackingCount += 1 }

    /// A scroll view stopped tracking and decelerating.
    func endTracking() { trackingCount = max(0, trackingCount - 1) }

    // MARK: Sources, timers, observers

    func add(_ source: RunLoopSource) {
        manualSources.append(source)
    }

    func add(_ source: RunLoopPortSource) {
        portSources.append(source)
    }

    func add(_ observer: RunLoopObserver) {
        observers.append(observer)
        observedActivities.formUnion(observer.activities)
    }

    func remove(_ observer: RunLoopObserver) {
        observers.removeEvery { $0 === observer }
        observedActivities = []
        for remaining in observers { observedActivities.formUnion(remaining.activities) }
    }

    /// Schedules `handler` to run `delay` seconds from now, and every
    /// `repeatInterval` seconds after that if one is given.
    @discardableResult
    func schedule(
        after delay: TimeInterval, repeatInterval: TimeInterval? = nil,
        _ handler: @escaping @MainActor (RunLoopTimer) -> Void
    ) -> RunLoopTimer {
        let timer = RunLoopTimer(fireDate: clock.now + max(0, delay), repeatInterval: repeatInterval, handler: handler)
        insert(timer)
        return timer
    }

    /// Sets `timer` to fire `delay` seconds from now and makes it valid
    /// again, whether it fired, was invalidated or is still waiting: for a
    /// deadline that is set over and over, which saves making a timer each time.
    func reschedule(_ timer: RunLoopTimer, after delay: TimeInterval) {
        timer.fireDate = clock.now + max(0, delay)
        timer.isValid = true
        if let index = timers.firstIndexIdentical(to: timer) {
            moveIntoPlace(from: index)
        } else {
            insert(timer)
        }
    }

    /// When the earliest valid timer falls due, if any.
    public var nextTimerFireDate: TimeInterval? {
        timers.firstResultUnretained { $0.isValid ? $0.fireDate : nil }
    }

    /// ``nextTimerFireDate``, for the run loop's own use: it also drops the
    /// invalidated timers at the front of the list, so that the next look
    /// does not pass over them again.
    private func dropInvalidatedTimersAndFindNextFireDate() -> TimeInterval? {
        while let first = timers.first, !first.isValid { timers.removeFirst() }
        return timers.first?.fireDate
    }

    /// How many timers the list holds, invalidated ones not yet dropped included.
    var timerListCount: Int { timers.count }

    /// Keeps the timers in fire-date order, and timers with equal dates in
    /// the order they were scheduled. Invalidated timers are dropped when
    /// they come due, and here whenever the list has doubled since the last
    /// sweep, so that timers a gesture schedules and invalidates by the
    /// dozen do not pile up, and a sweep is rare.
    private func insert(_ timer: RunLoopTimer) {
        if timers.count >= timerSweepThreshold {
            timers.removeEvery { !$0.isValid }
            timerSweepThreshold = max(Self.minimumTimerSweepThreshold, 2 * timers.count)
        }
        timers.append(timer)
        moveIntoPlace(from: timers.count - 1)
    }

    /// Moves the timer at `index`, whose fire date changed, to its place:
    /// after every timer due no later, before every timer due later. Swaps
    /// rather than removing and inserting, which for a list of objects costs
    /// far more than the few places a timer moves.
    private func moveIntoPlace(from index: Int) {
        let date = timers[index].fireDate
        var index = index
        while index > 0 && timers[index - 1].fireDate > date {
            timers.swapAt(index - 1, index)
            index -= 1
        }
        while index + 1 < timers.count && timers[index + 1].fireDate <= date {
            timers.swapAt(index, index + 1)
            index += 1
        }
    }

    // MARK: Running

    /// Does everything that is due now, without sleeping: timers, signalled
    /// sources, and messages already waiting at the ports. Returns when a
    /// whole turn found nothing to do.
    public func runUntilIdle() {
        notify(.entry)
        doEverythingDue()
        notify(.exit)
    }

    /// The body of a turn: passes over timers, sources and ports until
    /// nothing is due and the observers of `beforeWaiting` (told last) made
    /// no new work.
    private func doEverythingDue() {
        while true {
            // A pass drains the ports; after one that did work, the cheap check
            // of signalled sources, due timers and in-process messages decides
            // whether another is needed (bytes a socket receives meanwhile are
            // for the next turn, as they would be after a poll).
            while runOnePass() && hasWorkNow() {}
            // Before it would sleep, as Core Foundation's loop does on the
            // main thread: Foundation's blocks and due timers, then the main
            // queue; whatever they started is done before the end of the turn.
            if let mainThreadWork, mainThreadWork.runFoundationAndMainQueue(in: currentMode) { continue }
            // Nothing is due now. Observers of beforeWaiting may create work
            // (a layout pass, say); without them nothing can have changed.
            guard observedActivities.contains(.beforeWaiting) else { break }
            notify(.beforeWaiting)
            guard hasWorkNow() else { break }
            notify(.afterWaiting)
        }
    }

    /// Moves a manual clock forward by `seconds`, firing each timer that
    /// falls due on the way at its own fire date, then does everything due
    /// at the end time. Does nothing to a system clock but run until idle.
    public func advance(by seconds: TimeInterval) {
        guard let manual = clock as? ManualClock, seconds.isFinite, seconds >= 0 else {
            return runUntilIdle()
        }
        let end = manual.now + seconds
        // Work left from before is done at the old time: a change made
        // between turns (as a test makes them) is the end of the current
        // turn, whose observers see it before any timer fires.
        if hasWorkNow() || observersMayHaveWork() { runUntilIdle() }
        while let due = dropInvalidatedTimersAndFindNextFireDate(), due <= end {
            manual.now = max(manual.now, due)
            runUntilIdle()
        }
        manual.now = end
        runUntilIdle()
    }

    /// Runs for `seconds` of real time, sleeping on the ports between
    /// bursts of work. On a manual clock this is ``advance(by:)``.
    ///
    /// Observers see one `entry`, then for each sleep `beforeWaiting` and
    /// `afterWaiting`, and one `exit` at the end, as with `CFRunLoopRun`.
    public func run(for seconds: TimeInterval) {
        guard !(clock is ManualClock) else { return advance(by: seconds) }
        let deadline = clock.now + seconds
        guard clock.now < deadline else { return }
        defer { isStopped = false }
        notify(.entry)
        while true {
            doEverythingDue()
            if isStopped || clock.now >= deadline { break }
            let wakeUp = min(dropInvalidatedTimersAndFindNextFireDate() ?? deadline, deadline)
            sleep(until: wakeUp)
            notify(.afterWaiting)
        }
        notify(.exit)
    }

    /// Makes ``run(for:)`` return once the work under way is done, as
    /// `CFRunLoopStop` does.
    public func stop() {
        isStopped = true
    }

    /// One pass over timers, manual sources and ports; true if anything ran.
    private func runOnePass() -> Bool {
        var didWork = false
        notify(.beforeTimers)
        didWork = fireDueTimers() || didWork
        notify(.beforeSources)
        didWork = performSignalledSources() || didWork
        var received = false
        let ports = portSources  // a handler may add sources meanwhile
        ports.forEachUnretained { source in
            if source.port.receiveWaitingMessages() {
                source.handler()
                received = true
            }
        }
        if received { _ = performSignalledSources() }
        return didWork || received
    }

    /// A loop rather than a closure, which main-actor code would have
    /// checked for its executor at every call.
    private func observersMayHaveWork() -> Bool {
        for index in observers.indices where observers[index].mayHaveWork { return true }
        return false
    }

    private func hasWorkNow() -> Bool {
        let sources = manualSources
        if sources.containsUnretained(where: { $0.isSignalled }) { return true }
        if let due = dropInvalidatedTimersAndFindNextFireDate(), due <= clock.now { return true }
        let ports = portSources
        return ports.containsUnretained { $0.port.hasWaitingMessages }
    }

    private func fireDueTimers() -> Bool {
        // Invalidated timers stay in the list until they come due, and are dropped then.
        guard !timers.isEmpty else { return false }
        let now = clock.now
        var fired = false
        while let timer = timers.first, timer.fireDate <= now {
            timers.removeFirst()
            guard timer.isValid else { continue }
            if let interval = timer.repeatInterval, interval > 0 {
                var next = timer.fireDate + interval
                if next <= now { next = now + interval }  // missed fire dates are skipped, as in CFRunLoop
                timer.fireDate = next
                insert(timer)
            } else {
                timer.isValid = false
            }
            timer.handler(timer)
            fired = true
        }
        return fired
    }

    private func performSignalledSources() -> Bool {
        var performed = false
        let sources = manualSources  // a handler may add sources meanwhile
        sources.forEachUnretained { source in
            guard source.isSignalled else { return }
            source.isSignalled = false
            source.handler()
            performed = true
        }
        return performed
    }

    /// Inlined, so that an activity no observer watches (entry and exit,
    /// usually: the update cycle watches only beforeWaiting) costs a test
    /// rather than a call.
    @inline(__always)
    private func notify(_ activity: Activity) {
        if observedActivities.contains(activity) { notifyObservers(activity) }
    }

    private func notifyObservers(_ activity: Activity) {
        // A local copy keeps the observers alive while a handler adds or
        // removes one; every turn notifies, so the loop does not retain each.
        let observers = self.observers
        observers.forEachUnretained { observer in
            if observer.activities.contains(activity) { observer.handler(activity) }
        }
    }

    private func sleep(until wakeUp: TimeInterval) {
        sleepDescriptors.removeAll(keepingCapacity: true)
        for source in portSources {
            for descriptor in source.port.waitDescriptors {
                sleepDescriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
            }
        }
        var wakeUp = wakeUp
        if let mainThreadWork {
            sleepDescriptors.append(pollfd(fd: mainThreadWork.mainQueueDescriptor, events: Int16(POLLIN), revents: 0))
            if let seconds = mainThreadWork.secondsUntilNextFoundationTimer(in: currentMode) {
                wakeUp = min(wakeUp, clock.now + seconds)
            }
        }
        // To the nanosecond: poll's whole milliseconds woke a timer up to
        // 1 ms late, and a frame the application starts by its timer a
        // fraction of a millisecond before its refresh would miss it.
        let seconds = min(max(0, wakeUp - clock.now), 86_400)
        let whole = seconds.rounded(.down)
        var timeout = timespec(tv_sec: Int(whole), tv_nsec: min(999_999_999, Int(((seconds - whole) * 1_000_000_000).rounded(.up))))
        _ = openuikit_poll_nanoseconds(&sleepDescriptors, nfds_t(sleepDescriptors.count), &timeout)
    }
}

/// A timer on the run loop's clock.
@preconcurrency @MainActor
final class RunLoopTimer {
    @exclusivity(unchecked) var fireDate: TimeInterval
    let repeatInterval: TimeInterval?
    @exclusivity(unchecked) var isValid = true
    let handler: @MainActor (RunLoopTimer) -> Void

    init(fireDate: TimeInterval, repeatInterval: TimeInterval?, handler: @escaping @MainActor (RunLoopTimer) -> Void) {
        self.fireDate = fireDate
        self.repeatInterval = repeatInterval
        self.handler = handler
    }

    /// Stops the timer; it never fires again.
    func invalidate() { isValid = false }
}

/// A manual source (Core Foundation's source0): work that runs on the next
/// turn of the loop once someone signals it.
@preconcurrency @MainActor
final class RunLoopSource {
    let handler: @MainActor () -> Void
    @exclusivity(unchecked) var isSignalled = false

    init(handler: @escaping @MainActor () -> Void) {
        self.handler = handler
    }

    /// Marks the source ready; it runs on the run loop's next pass.
    func signal() { isSignalled = true }
}

/// Something a port source reads messages from.
@preconcurrency @MainActor
protocol RunLoopPort: AnyObject {
    /// Takes in every message waiting now, without blocking; true if any came.
    func receiveWaitingMessages() -> Bool
    /// Whether messages are known to be waiting without reading them.
    var hasWaitingMessages: Bool { get }
    /// Descriptors that become readable when messages arrive, to sleep on.
    var waitDescriptors: [Int32] { get }
}

/// A port source (Core Foundation's source1): its handler runs whenever
/// messages arrive at its port.
@preconcurrency @MainActor
final class RunLoopPortSource {
    let port: any RunLoopPort
    let handler: @MainActor () -> Void

    init(port: any RunLoopPort, handler: @escaping @MainActor () -> Void) {
        self.port = port
        self.handler = handler
    }
}

/// Watches the run loop's activities, as `CFRunLoopObserver` does.
@preconcurrency @MainActor
final class RunLoopObserver {
    let activities: ApplicationRunLoop.Activity
    let handler: @MainActor (ApplicationRunLoop.Activity) -> Void
    private let hasWork: (@MainActor () -> Bool)?

    /// `hasWork`, if given, tells whether the handler would do anything
    /// now; without it the run loop assumes it might. Moving a manual clock
    /// (``ApplicationRunLoop/advance(by:)``) first finishes the current turn
    /// only when some observer or source has work.
    init(
        activities: ApplicationRunLoop.Activity,
        hasWork: (@MainActor () -> Bool)? = nil,
        handler: @escaping @MainActor (ApplicationRunLoop.Activity) -> Void
    ) {
        self.activities = activities
        self.hasWork = hasWork
        self.handler = handler
    }

    var mayHaveWork: Bool { hasWork?() ?? true }
}
