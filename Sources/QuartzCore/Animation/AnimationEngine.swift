#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs the layers' animations: keeps the layers that have some, and at
/// every display refresh (a display link of its own, which the application
/// drives like any other) marks them changed so that the commit copies
/// their presentation values for that refresh's target time, starts and
/// ends their animations, and tells delegates. With no animation running
/// it takes its link off the run loop, so an idle application is not
/// woken.
@MainActor
package final class AnimationEngine {
    package static let current = AnimationEngine()

    /// The application's clock (the run loop's); without one, the system's
    /// monotonic clock.
    package var clock: (@MainActor () -> TimeInterval)?

    /// The scale of the screen the layers are shown on (pixels per point):
    /// a transition takes its picture of a layer's old look at it, as the
    /// render server draws it, so that the picture is the layer's pixels
    /// (the application's main screen's); without one, 2.
    package var screenScale: (@MainActor () -> CGFloat)?

    /// Set by the view side while an animation block is open: only then do
    /// layers owned by views ask their delegate for actions.
    package var ownedLayersAskForActions = false

    /// The layers with animations, in the order they got their first.
    @exclusivity(unchecked) private var layers: [CALayer] = []
    @exclusivity(unchecked) private var link: CADisplayLink?
    /// The target time of the last refresh the engine saw.
    @exclusivity(unchecked) private var lastTargetTime = -TimeInterval.infinity

    package var now: TimeInterval {
        if let clock { return clock() }
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1_000_000_000
    }

    /// The time animations are shown at: the target time of the refresh
    /// being prepared (a display link's `targetTimestamp`), or now when
    /// that is later (no refresh under way).
    package var frameTime: TimeInterval { max(lastTargetTime, now) }

    /// Whether any animation is still running (not ended): the display is
    /// refreshed for it.
    package var hasRunningAnimations: Bool { link != nil }

    /// Forgets every animation and its link, for a test's clean start.
    package func reset() {
        for layer in layers { layer.animationList = nil }
        layers = []
        link?.invalidate()
        link = nil
        lastTargetTime = -.infinity
        ownedLayersAskForActions = false
        screenScale = nil
    }

    /// Refreshes for `layer`'s animations from now on (one was added, or
    /// its driver started moving it).
    package func layerDidAddAnimation(_ layer: CALayer) {
        if !layers.contains(where: { $0 === layer }) { layers.append(layer) }
        startRefreshes()
    }

    private func startRefreshes() {
        guard link == nil else { return }
        let link = CADisplayLink { [unowned self] link in refresh(targetTime: link.targetTimestamp) }
        self.link = link
        link.add(to: .main, forMode: .common)
    }

    private func stopRefreshes() {
        link?.invalidate()
        link = nil
    }

    /// One refresh, to be shown at `targetTime`: every animated layer is
    /// marked for the commit; animations whose start has come start, those
    /// whose end has come end (and leave, unless they stay), in the order
    /// they were added; then delegates and completions are told.
    package func refresh(targetTime: TimeInterval) {
        lastTargetTime = targetTime
        var started: [AnimationEntry] = []
        var stopped: [AnimationEntry] = []
        var running = false
        for layer in layers {
            guard let list = layer.animationList else { continue }
            let local = layer.convertTime(targetTime, from: nil)
            var changes: LayerChanges = []
            var leaving: [AnimationEntry] = []
            for entry in list.entries where !entry.hasEnded {
                changes.formUnion(entry.changes)
                let timing = entry.animation.timing
                if !entry.hasStarted, local >= timing.beginTime {
                    entry.hasStarted = true
                    started.append(entry)
                }
                if let driver = entry.animation.driver {
                    if !driver.holdsStill { running = true }
                    continue
                }
                if entry.hasStarted, timing.hasEnded(at: local) {
                    entry.hasEnded = true
                    stopped.append(entry)
                    if entry.animation.isRemovedOnCompletion { leaving.append(entry) }
                } else {
                    running = true
                }
            }
            if !leaving.isEmpty {
                list.entries.removeAll { entry in leaving.contains { $0 === entry } }
                if leaving.contains(where: { $0.key == LayerValues.transitionKey }) { list.transitionSnapshot = nil }
                if list.entries.isEmpty { layer.animationList = nil }
            }
            if !changes.isEmpty { layer.markChanged(changes) }
        }
        layers.removeAll { $0.animationList == nil }
        if !running { stopRefreshes() }
        for entry in started { entry.animation.delegate?.animationDidStart(entry.animation) }
        for entry in stopped { entry.stopped(finished: true) }
    }
}
