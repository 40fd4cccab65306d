/// The end of every run-loop turn, as in UIKit: once the turn has handled
/// its events and timers, and before the run loop sleeps, what changed is
/// brought to the screen.
///
/// 1. Layout, from each window down (`setNeedsLayout` → `layoutSubviews`).
/// 2. Display (`setNeedsDisplay` → `draw(_:)` into the layer's backing store).
/// 3. The commit of the implicit `CATransaction`: the changed layers are
///    copied into the committed trees that compositors draw from.
///
/// All three happen inside the transaction's commit (as in Core Animation,
/// where committing lays out and displays first); this observer commits
/// only in turns that changed something, so an idle turn costs a test.
/// Then the display clock starts or stops, as display links come and go,
/// and, when the application is connected to an event server, the frame is
/// drawn and handed to the server's display (`ScreenFrames`).
@MainActor
final class UpdateCycle {
    private unowned let application: UIApplication
    private var observer: RunLoopObserver!
    /// The loop the observer is on, which may outlive this cycle (a test's
    /// synthesizer can hold the loop of an application since reset). Held
    /// strongly: a weak reference would give the loop a side table and put
    /// every retain of it, on every event, on the runtime's slow path.
    private let runLoop: ApplicationRunLoop
    let displayClock: DisplayClock

    init(application: UIApplication) {
        self.application = application
        displayClock = DisplayClock(application: application)
        runLoop = application.runLoop
        // Unowned, which costs less than weak on every turn: the observer
        // leaves the loop when this cycle goes away (deinit).
        observer = RunLoopObserver(activities: .beforeWaiting, hasWork: { [unowned self] in hasWork }) { [unowned self] _ in endOfTurn() }
        runLoop.add(observer)
    }

    isolated deinit {
        runLoop.remove(observer)
    }

    /// Whether the end of a turn would commit or start or stop the display clock.
    private var hasWork: Bool {
        if TransactionState.current.hasImplicitTransaction || displayClock.needsStartOrStop { return true }
        guard let frames = application.screenFrames else { return false }
        return frames.hasWork
    }

    private func endOfTurn() {
        let transactions = TransactionState.current
        if transactions.hasImplicitTransaction {
            application.tracing?.trace(.commit)
            transactions.commitImplicitTransaction()
            application.didCommit?()
        }
        displayClock.startOrStopForDisplayLinks()
        application.screenFrames?.endOfTurn(windowsBackToFront: application.windowLayersBackToFront())
    }
}

/// The display's refresh, on the run loop's clock: a repeating timer at the
/// screen's `maximumFramesPerSecond`, with refreshes at whole multiples of
/// the frame duration since the clock's origin (as a display's vsync is
/// regular whatever the application does). It runs only while display
/// links are on the run loop, and fires them at each refresh.
@MainActor
final class DisplayClock {
    private unowned let application: UIApplication
    private var timer: RunLoopTimer?
    private var frameDuration: TimeInterval = 0

    init(application: UIApplication) {
        self.application = application
    }

    /// Whether the clock runs when it should not, or does not run, or not
    /// at the screen's rate, when it should.
    var needsStartOrStop: Bool {
        let links = DisplayLinkRegistry.current
        // The usual turn: no links and no clock running.
        guard links.hasLinks || timer != nil else { return false }
        // The event server's display paces the links (ScreenFrames).
        if application.screenFrames != nil { return timer != nil }
        if let running = timer, links.hasLinks, screenFrameDuration == frameDuration, running.isValid { return false }
        return true
    }

    private var screenFrameDuration: TimeInterval { 1 / TimeInterval(UIScreen.main.maximumFramesPerSecond) }

    func startOrStopForDisplayLinks() {
        guard needsStartOrStop else { return }
        timer?.invalidate()
        timer = nil
        guard DisplayLinkRegistry.current.hasLinks, application.screenFrames == nil else { return }
        let duration = screenFrameDuration
        frameDuration = duration
        let loop = application.runLoop
        let now = loop.clock.now
        // The next refresh strictly after now: a link added during a
        // refresh's callbacks first fires at the following one.
        let next = ((now / duration).rounded(.down) + 1) * duration
        timer = loop.schedule(after: next - now, repeatInterval: duration) { [weak self] timer in
            self?.refresh(at: timer.fireDate - duration)
        }
    }

    /// `fireDate` has already moved on to the next refresh when the handler
    /// runs; the refresh being shown is the one before it.
    private func refresh(at time: TimeInterval) {
        DisplayLinkRegistry.current.displayDidRefresh(at: time, frameDuration: frameDuration)
    }
}
