import Foundation

/// Where an animator's animations are.
public enum UIViewAnimatingState: Int, Sendable {
    /// Not started, or finished: the views show their model values.
    case inactive
    /// Started or paused.
    case active
    /// Stopped, waiting for `finishAnimation(at:)`.
    case stopped
}

/// Where an animator ended.
public enum UIViewAnimatingPosition: Int, Sendable {
    case end, start, current
}

/// The kind of a timing curve.
public enum UITimingCurveType: Int, Sendable {
    case builtin, cubic, spring, composed
}

/// A timing curve for an animator.
@preconcurrency @MainActor
public protocol UITimingCurveProvider: AnyObject {
    var timingCurveType: UITimingCurveType { get }
    var cubicTimingParameters: UICubicTimingParameters? { get }
    var springTimingParameters: UISpringTimingParameters? { get }
}

/// A cubic Bézier timing curve: one of the four named ones or two control points.
@preconcurrency @MainActor
open class UICubicTimingParameters: NSObject, UITimingCurveProvider {
    public let animationCurve: UIView.AnimationCurve
    public let controlPoint1: CGPoint
    public let controlPoint2: CGPoint
    let function: CAMediaTimingFunction

    /// Ease in-out.
    public override convenience init() { self.init(animationCurve: .easeInOut) }

    public init(animationCurve curve: UIView.AnimationCurve) {
        animationCurve = curve
        function = curve.timingFunction
        let p = function.controlPoints
        controlPoint1 = CGPoint(x: p[0], y: p[1])
        controlPoint2 = CGPoint(x: p[2], y: p[3])
        super.init()
    }

    public init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
        animationCurve = .easeInOut
        controlPoint1 = point1
        controlPoint2 = point2
        function = CAMediaTimingFunction(controlPoints: Float(point1.x), Float(point1.y), Float(point2.x), Float(point2.y))
        super.init()
    }

    public var timingCurveType: UITimingCurveType { .cubic }
    public var cubicTimingParameters: UICubicTimingParameters? { self }
    public var springTimingParameters: UISpringTimingParameters? { nil }
}

/// A damped-spring timing curve.
///
/// With a damping ratio, the spring runs over the animator's duration (it
/// settles, to 0.1 %, exactly then). With mass, stiffness and damping, or
/// iOS 17's duration and bounce, the spring's own settling time is the
/// animator's duration, whatever duration the animator was given.
@preconcurrency @MainActor
open class UISpringTimingParameters: NSObject, UITimingCurveProvider {
    public let dampingRatio: CGFloat
    /// The speed at the start, in units of the whole change per second
    /// (`dx` is used for every property; UIKit uses `dy` only for 2D ones).
    public let initialVelocity: CGVector
    /// The spring itself, when it does not depend on the animator's duration.
    let fixedSpring: SpringParameters?

    /// Critically damped.
    public override convenience init() { self.init(dampingRatio: 1) }

    public convenience init(dampingRatio ratio: CGFloat) { self.init(dampingRatio: ratio, initialVelocity: .zero) }

    public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
        dampingRatio = ratio
        initialVelocity = velocity
        fixedSpring = nil
        super.init()
    }

    public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
        let spring = SpringParameters(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity.dx)
        dampingRatio = spring.dampingRatio
        initialVelocity = velocity
        fixedSpring = spring
        super.init()
    }

    /// iOS 17: a spring that feels `duration` long with `bounce` (Apple's
    /// mapping; see `CASpringAnimation(perceptualDuration:bounce:)`).
    public init(duration: TimeInterval, bounce: CGFloat, initialVelocity velocity: CGVector = .zero) {
        let spring = SpringParameters(perceptualDuration: duration, bounce: Double(bounce), initialVelocity: velocity.dx)
        dampingRatio = spring.dampingRatio
        initialVelocity = velocity
        fixedSpring = spring
        super.init()
    }

    public var timingCurveType: UITimingCurveType { .spring }
    public var cubicTimingParameters: UICubicTimingParameters? { nil }
    public var springTimingParameters: UISpringTimingParameters? { self }

    func spring(over duration: TimeInterval) -> SpringParameters {
        fixedSpring ?? SpringParameters(dampingRatio: Double(dampingRatio), settlingIn: duration, initialVelocity: Double(initialVelocity.dx))
    }
}

/// An animation whose state you control: start, pause, scrub, reverse,
/// stop and finish it, and add animations and completions as it runs.
///
/// The views it animates stay touchable (``isUserInteractionEnabled`` is
/// true by default), unlike those of `UIView.animate`; hit-testing uses
/// their model values, which the animations' blocks set at once.
///
/// Its progress is a fraction of its duration (``fractionComplete``); what
/// the views show is its timing curve at that fraction. While paused, a
/// fraction set by hand moves the views linearly (``scrubsLinearly``, true
/// by default); on resuming, the curve picks up from the value shown.
@preconcurrency @MainActor
open class UIViewPropertyAnimator: NSObject, AnimationDriver {
    public private(set) var duration: TimeInterval
    public private(set) var delay: TimeInterval = 0
    public private(set) var timingParameters: (any UITimingCurveProvider)?

    public private(set) var state: UIViewAnimatingState = .inactive
    public private(set) var isRunning = false
    /// Whether the animator may be paused and stopped; true by default
    /// (here a non-interruptible animator ignores pause and stop).
    open var isInterruptible = true
    /// Whether the animated views receive touches; true by default.
    open var isUserInteractionEnabled = true {
        didSet { if oldValue != isUserInteractionEnabled { updateTouchBlocking() } }
    }
    /// Whether the views are hit-tested where they are shown, which this
    /// compositor does not do; kept for source compatibility.
    open var isManualHitTestingEnabled = false
    /// Whether scrubbing a paused animator moves the views linearly.
    open var scrubsLinearly = true
    /// Whether reaching the end pauses the animator instead of finishing it.
    open var pausesOnCompletion = false

    /// Animations and completions not yet run.
    private var pendingAnimations: [(block: () -> Void, delayFactor: Double)] = []
    private var completions: [(UIViewAnimatingPosition) -> Void] = []
    /// What the animations animate: one entry per property change.
    private var properties: [DrivenProperty] = []
    /// The fraction of time at `anchorTime`, and the direction it moves in.
    private var anchorFraction = 0.0
    private var anchorTime: TimeInterval = 0
    private var startDelay: TimeInterval = 0
    private var durationFactor = 1.0
    /// The fraction was last set by hand while paused (shown linearly).
    private var isScrubbed = false
    private var reversed = false
    private var link: CADisplayLink?
    private var blockedViews: [UIView] = []

    /// One animated property and its values before and after.
    private struct DrivenProperty {
        let layer: CALayer
        let key: String
        let keyPath: String
        let from: AnimatableValue
        let to: AnimatableValue
        unowned let view: UIView
        /// Where in the animator's time it starts (added later, or with a delay factor).
        let startFraction: Double
    }

    // MARK: Making one

    public required init(duration: TimeInterval, timingParameters parameters: any UITimingCurveProvider) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        timingParameters = parameters
        super.init()
        if let spring = parameters.springTimingParameters, spring.fixedSpring != nil {
            self.duration = spring.spring(over: self.duration).settlingDuration
        }
    }

    public convenience init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: curve))
        if let animations { addAnimations(animations) }
    }

    public convenience init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(controlPoint1: point1, controlPoint2: point2))
        if let animations { addAnimations(animations) }
    }

    public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UISpringTimingParameters(dampingRatio: ratio))
        if let animations { addAnimations(animations) }
    }

    /// Makes an animator with a curve from `options`, starts it after
    /// `delay` and returns it. Its views take touches only with
    /// `.allowUserInteraction` in `options`.
    open class func runningPropertyAnimator(
        withDuration duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((UIViewAnimatingPosition) -> Void)? = nil
    ) -> Self {
        let animator = self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: options.curve))
        animator.isUserInteractionEnabled = options.contains(.allowUserInteraction)
        animator.addAnimations(animations)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    // MARK: Animations and completions

    /// Adds animations: run at the start, or, on a running animator, now,
    /// over the time that remains.
    open func addAnimations(_ animation: @escaping () -> Void) {
        addAnimations(animation, delayFactor: 0)
    }

    /// Adds animations that start `delayFactor` (0…1) of the remaining
    /// duration later.
    open func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        let factor = min(1, max(0, Double(delayFactor)))
        if state == .inactive {
            pendingAnimations.append((animation, factor))
        } else {
            runAnimations(animation, delayFactor: factor)
        }
    }

    /// Adds a block run when the animator finishes, with where it ended.
    open func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {
        completions.append(completion)
    }

    private func runAnimations(_ animations: () -> Void, delayFactor: Double) {
        let now = currentFraction
        pendingStart = now + delayFactor * (1 - now)
        let block = ViewAnimationBlock(duration: duration, delay: 0, options: [], timing: .curve(CAMediaTimingFunction(name: .linear)))
        block.animator = self
        ViewAnimations.current.run(block, animations: animations, completion: nil)
    }

    /// The start fraction for animations being added now.
    private var pendingStart = 0.0

    /// A property change of one of the animator's blocks: its animation
    /// follows the animator instead of the clock.
    func adopt(_ template: CABasicAnimation, on layer: CALayer, key: String, from: AnimatableValue, to: AnimatableValue, view: UIView, block: ViewAnimationBlock) {
        let animation = CABasicAnimation(keyPath: key)
        animation.driver = self
        animation.isAdditive = true
        animation.fromValue = from.subtracting(to).anyValue
        animation.toValue = to.zero.anyValue
        let keyName = ViewAnimationAction.freeKey(key, on: layer)
        let start = pendingStart
        animation.driverStartFraction = min(1, start)
        // A keyframe runs over its part of the progress.
        animation.driverSpan = block.keyframeStart...block.keyframeEnd
        layer.add(animation, forKey: keyName)
        properties.append(DrivenProperty(layer: layer, key: keyName, keyPath: key, from: from, to: to, view: view, startFraction: min(1, start)))
        if !isUserInteractionEnabled, !blockedViews.contains(where: { $0 === view }) {
            blockedViews.append(view)
            view.animationsBlockingTouches += 1
        }
    }

    // MARK: Time

    /// The animator's fraction of time now.
    private var currentFraction: Double { fraction(at: AnimationEngine.current.frameTime) }

    private var effectiveDuration: TimeInterval { duration * durationFactor }

    /// The fraction of time at media time `time`.
    func fraction(at time: TimeInterval) -> Double {
        guard isRunning else { return anchorFraction }
        let elapsed = time - anchorTime - startDelay
        guard elapsed > 0 else { return anchorFraction }
        let step = effectiveDuration > 0 ? elapsed / effectiveDuration : 1
        return min(1, max(0, anchorFraction + (reversed ? -step : step)))
    }

    /// What an animation starting at `start` shows at media time `time`:
    /// the curve at its share of the time (linearly while scrubbed).
    package func progress(startingAt start: Double, at time: TimeInterval) -> Double {
        let f = fraction(at: time)
        let local = start >= 1 ? (f >= 1 ? 1 : 0) : min(1, max(0, (f - start) / (1 - start)))
        if isScrubbed && scrubsLinearly && !isRunning { return local }
        return curveValue(local)
    }

    private func curveValue(_ fraction: Double) -> Double {
        if let spring = timingParameters?.springTimingParameters {
            return spring.spring(over: duration).progress(at: fraction * duration)
        }
        let function = timingParameters?.cubicTimingParameters?.function ?? CAMediaTimingFunction(name: .easeInEaseOut)
        return function.value(at: fraction)
    }

    /// Whether the animations stand still (the engine need not refresh for them).
    package var holdsStill: Bool { !isRunning }

    // MARK: UIViewAnimating

    /// The fraction of the animator's time done, 0…1. Set it while paused
    /// to scrub the animations.
    open var fractionComplete: CGFloat {
        get { currentFraction }
        set {
            guard !isRunning, state != .stopped, newValue.isFinite else { return }
            if state == .inactive { activate() }
            anchorFraction = min(1, max(0, Double(newValue)))
            isScrubbed = true
            redraw()
        }
    }

    /// Whether the animations run back towards their start.
    open var isReversed: Bool {
        get { reversed }
        set {
            guard newValue != reversed else { return }
            reanchor()
            reversed = newValue
            redraw()
        }
    }

    open func startAnimation() {
        startAnimation(afterDelay: 0)
    }

    open func startAnimation(afterDelay delay: TimeInterval) {
        guard state != .stopped, !isRunning else { return }
        if state == .inactive { activate() }
        self.delay = delay.isFinite ? max(0, delay) : 0
        resume(after: self.delay)
    }

    open func pauseAnimation() {
        guard state != .stopped, isInterruptible else { return }
        if state == .inactive { activate() }
        guard isRunning else { return }
        reanchor()
        isRunning = false
        isScrubbed = false
        stopLink()
        redraw()
    }

    /// Stops the animations where they are: with `withoutFinishing`, the
    /// animator becomes inactive at once and no completion runs; otherwise
    /// it waits, stopped, for ``finishAnimation(at:)``. The views keep the
    /// values shown.
    open func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active, isInterruptible else { return }
        reanchor()
        isRunning = false
        stopLink()
        settle(at: .current)
        state = withoutFinishing ? .inactive : .stopped
    }

    /// Finishes a stopped animator with the views at `finalPosition` and
    /// runs the completions.
    open func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
        guard state == .stopped else { return }
        settle(at: finalPosition)
        complete(at: finalPosition)
    }

    /// Resumes a paused animator with new timing, its remaining time
    /// multiplied by `durationFactor` (0 keeps it).
    open func continueAnimation(withTimingParameters parameters: (any UITimingCurveProvider)?, durationFactor: CGFloat) {
        guard state == .active, !isRunning else { return }
        if let parameters { timingParameters = parameters }
        if durationFactor > 0, durationFactor.isFinite { self.durationFactor = Double(durationFactor) }
        resume(after: 0)
    }

    // MARK: The states

    /// Runs the pending animation blocks: the model changes now.
    private func activate() {
        state = .active
        anchorFraction = 0
        let blocks = pendingAnimations
        pendingAnimations = []
        for (block, factor) in blocks {
            pendingStart = factor
            let viewBlock = ViewAnimationBlock(duration: duration, delay: 0, options: [], timing: .curve(CAMediaTimingFunction(name: .linear)))
            viewBlock.animator = self
            ViewAnimations.current.run(viewBlock, animations: block, completion: nil)
        }
        pendingStart = 0
    }

    private func resume(after delay: TimeInterval) {
        if isScrubbed && scrubsLinearly, timingParameters?.springTimingParameters == nil {
            // Pick the curve up where the linear scrub left the views.
            let function = timingParameters?.cubicTimingParameters?.function ?? CAMediaTimingFunction(name: .easeInEaseOut)
            anchorFraction = function.time(forValue: anchorFraction)
        }
        isScrubbed = false
        anchorTime = AnimationEngine.current.frameTime
        startDelay = delay
        isRunning = true
        for property in properties { AnimationEngine.current.layerDidAddAnimation(property.layer) }
        startLink()
        redraw()
    }

    /// Makes the fraction now the anchor, so that a change of direction or
    /// pace continues from it.
    private func reanchor() {
        let now = AnimationEngine.current.frameTime
        anchorFraction = fraction(at: now)
        if isRunning {
            startDelay = max(0, startDelay - (now - anchorTime))
            anchorTime = now
        }
    }

    private func startLink() {
        guard link == nil else { return }
        // The link keeps a running animator alive, as UIKit keeps it.
        let link = CADisplayLink { link in self.refresh(targetTime: link.targetTimestamp) }
        self.link = link
        link.add(to: .main, forMode: .common)
    }

    private func stopLink() {
        link?.invalidate()
        link = nil
    }

    private func refresh(targetTime: TimeInterval) {
        let f = fraction(at: targetTime)
        guard isRunning, reversed ? f <= 0 : f >= 1 else { return }
        anchorFraction = f
        anchorTime = targetTime
        isRunning = false
        stopLink()
        if pausesOnCompletion { return redraw() }
        let position: UIViewAnimatingPosition = reversed ? .start : .end
        settle(at: position)
        complete(at: position)
    }

    /// Removes the animations, leaving the model at `position`'s values.
    private func settle(at position: UIViewAnimatingPosition) {
        let time = AnimationEngine.current.frameTime
        var shown: [AnimatableValue?] = []
        if position == .current {
            for property in properties {
                shown.append(property.layer.presentationValues(at: time).value(forKeyPath: property.keyPath))
            }
        }
        for property in properties { property.layer.removeAnimation(forKey: property.key) }
        ViewAnimations.current.withoutAnimation {
            // Last first, so that of a property's keyframes the first one's
            // start value is the one left at `.start`.
            for (index, property) in properties.enumerated().reversed() {
                let value: AnimatableValue? = switch position {
                case .end: nil
                case .start: property.from
                case .current: shown[index]
                }
                guard let value else { continue }
                var values = LayerValues(of: property.layer)
                values.set(value, forKeyPath: property.keyPath)
                values.writeModel(to: property.layer, keyPath: property.keyPath)
            }
        }
        properties = []
        for view in blockedViews { view.animationsBlockingTouches -= 1 }
        blockedViews = []
    }

    private func complete(at position: UIViewAnimatingPosition) {
        state = .inactive
        reversed = false
        anchorFraction = 0
        durationFactor = 1
        let blocks = completions
        completions = []
        for block in blocks { block(position) }
    }

    private func updateTouchBlocking() {
        guard state != .inactive else { return }
        if isUserInteractionEnabled {
            for view in blockedViews { view.animationsBlockingTouches -= 1 }
            blockedViews = []
        } else {
            for property in properties where !blockedViews.contains(where: { $0 === property.view }) {
                blockedViews.append(property.view)
                property.view.animationsBlockingTouches += 1
            }
        }
    }

    /// Marks the animated layers, so that the next commit draws them again.
    private func redraw() {
        for property in properties {
            property.layer.markChanged(LayerValues.changes(forKeyPath: property.keyPath) ?? [])
        }
    }
}
