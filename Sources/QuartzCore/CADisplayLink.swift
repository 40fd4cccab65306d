/// A timer synchronized with the display's refresh: its action runs once per
/// frame (or once every few frames, for a lower preferred rate), on the run
/// loop it was added to.
///
/// Objective-C's target and selector become, in Swift here, a target and a
/// method of it taking the link, or a closure:
///
/// ```swift
/// let link = CADisplayLink(target: self, selector: Self.step)   // func step(_ link: CADisplayLink)
/// link.add(to: .main, forMode: .common)
/// ```
///
/// As in Core Animation the link retains its target until it is invalidated.
/// The frames come from the application's display clock (see
/// `UIApplication`), which ticks at the screen's refresh rate on the run
/// loop's clock, so that tests drive a link frame by frame with a manual clock.
@MainActor
open class CADisplayLink {
    private let action: @MainActor (CADisplayLink) -> Void
    /// The target, kept alive until ``invalidate()`` as in Core Animation.
    private var retainedTarget: AnyObject?

    /// A link that calls `selector` (a method of `target` taking the link).
    public init<Target: AnyObject>(target: Target, selector: @escaping @MainActor (Target) -> (CADisplayLink) -> Void) {
        retainedTarget = target
        action = { link in
            guard let target = link.retainedTarget as? Target else { return }
            selector(target)(link)
        }
    }

    /// A link that calls `handler` at each of its frames.
    public init(handler: @escaping @MainActor (CADisplayLink) -> Void) {
        action = handler
    }

    /// Whether the link has been invalidated (it never fires again).
    public private(set) var isInvalidated = false
    private var isScheduled = false

    /// A paused link keeps its place on the run loop but does not fire.
    open var isPaused = false

    /// When the frame now on screen was shown; 0 before the first call.
    public private(set) var timestamp: TimeInterval = 0

    /// When the next frame of this link will be shown: draw for that time.
    public private(set) var targetTimestamp: TimeInterval = 0

    /// The time between two refreshes of the display.
    public private(set) var duration: TimeInterval = 0

    /// The rate the link would like, in frames per second; 0 (the default)
    /// means the display's native rate. The link fires on every n-th
    /// refresh, the n that comes nearest to this rate.
    open var preferredFramesPerSecond: Int = 0 {
        didSet { if preferredFramesPerSecond < 0 { preferredFramesPerSecond = 0 } }
    }

    /// The range of rates the link accepts; its `preferred` rate (or else
    /// its `maximum`) picks the frames, as ``preferredFramesPerSecond`` does.
    /// The default range is all zero: the display's native rate.
    open var preferredFrameRateRange: CAFrameRateRange = .default

    /// Frames the display has refreshed since the link was added.
    private var refreshesSinceAdded = 0

    /// Starts the link on `runloop`. Only the main run loop drives display
    /// links here, in any mode.
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard !isInvalidated, !isScheduled else { return }
        isScheduled = true
        refreshesSinceAdded = 0
        DisplayLinkRegistry.current.add(self)
    }

    /// Takes the link off the run loop; it can be added again.
    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard isScheduled else { return }
        isScheduled = false
        DisplayLinkRegistry.current.remove(self)
    }

    /// Takes the link off every run loop for good and lets go of its target.
    public func invalidate() {
        isInvalidated = true
        retainedTarget = nil
        if isScheduled { remove(from: .main, forMode: .common) }
    }

    /// How many display refreshes make one frame of this link at `nativeRate`.
    func refreshesPerFrame(nativeRate: Double) -> Int {
        let range = preferredFrameRateRange
        let wanted = range.preferred.map(Double.init) ?? Double(range.maximum)
        let rate = wanted > 0 ? wanted : Double(preferredFramesPerSecond)
        guard rate > 0, rate < nativeRate else { return 1 }
        return max(1, Int((nativeRate / rate).rounded()))
    }

    /// A display refresh was shown at `time`: fires the link if this is one
    /// of its frames.
    func displayDidRefresh(at time: TimeInterval, frameDuration: TimeInterval) {
        let interval = refreshesPerFrame(nativeRate: 1 / frameDuration)
        let isFrame = refreshesSinceAdded % interval == 0
        refreshesSinceAdded += 1
        guard isFrame, !isPaused, !isInvalidated else { return }
        timestamp = time
        duration = frameDuration
        targetTimestamp = time + Double(interval) * frameDuration
        action(self)
    }
}

/// The frame rates a display link accepts, in frames per second.
public struct CAFrameRateRange: Equatable, Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?

    public init(minimum: Float, maximum: Float, preferred: Float?) {
        self.minimum = minimum
        self.maximum = maximum
        self.preferred = preferred
    }

    public init(minimum: Float, maximum: Float) {
        self.init(minimum: minimum, maximum: maximum, preferred: nil)
    }

    /// No preference: the display's native rate.
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: nil)
}

/// The display links on the run loop, which the application's display clock
/// drives at each refresh of the screen.
@MainActor
package final class DisplayLinkRegistry {
    package static let current = DisplayLinkRegistry()

    /// Read at the end of every run-loop turn (``hasLinks``), so unchecked
    /// for overlapping access, as the hot path's state is; the test suite
    /// runs again with the checks on.
    @exclusivity(unchecked) private var links: [CADisplayLink] = []

    /// Whether any link is on the run loop (paused ones included): the
    /// display clock ticks only then.
    package var hasLinks: Bool { !links.isEmpty }

    func add(_ link: CADisplayLink) { links.append(link) }

    func remove(_ link: CADisplayLink) { links.removeAll { $0 === link } }

    /// Fires the links due at a refresh shown at `time`, in the order they were added.
    package func displayDidRefresh(at time: TimeInterval, frameDuration: TimeInterval) {
        for link in links { link.displayDidRefresh(at: time, frameDuration: frameDuration) }
    }

    package func reset() {
        let old = links
        links = []
        for link in old { link.invalidate() }
    }
}
