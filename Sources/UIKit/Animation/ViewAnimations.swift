import Foundation

/// How a block's animations are paced.
enum ViewAnimationTiming {
    case curve(CAMediaTimingFunction)
    case spring(SpringParameters)
}

/// One open animation block, with what its completion waits for.
@MainActor
final class ViewAnimationBlock {
    var duration: TimeInterval
    var delay: TimeInterval
    let options: UIView.AnimationOptions
    var timing: ViewAnimationTiming
    /// Animations added by the block and not yet stopped.
    private var running = 0
    private var allFinished = true
    private var isClosed = false
    private var completion: ((Bool) -> Void)?
    /// Set for a property animator's block: its animations follow the animator.
    var animator: UIViewPropertyAnimator?
    /// For a keyframe, the keyframe block it belongs to.
    var parent: ViewAnimationBlock?
    /// For a keyframe, its part of the keyframe block's duration (fractions).
    var keyframeStart = 0.0, keyframeEnd = 1.0
    /// For a keyframe block (`animateKeyframes`), the changes its keyframes
    /// make, which become one keyframe animation per property.
    var keyframes: KeyframeCollection?

    init(duration: TimeInterval, delay: TimeInterval, options: UIView.AnimationOptions, timing: ViewAnimationTiming) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        self.delay = delay.isFinite ? max(0, delay) : 0
        self.options = options
        self.timing = timing
    }

    /// Whether animated views may still be touched.
    var allowsUserInteraction: Bool { options.contains(.allowUserInteraction) }

    func animationAdded() { running += 1 }

    func animationStopped(finished: Bool) {
        running -= 1
        if !finished { allFinished = false }
        completeIfDone()
    }

    /// The block's closure has run: the completion waits for its animations
    /// (or, with none, for the end of the turn).
    func close(completion: ((Bool) -> Void)?) {
        self.completion = completion
        isClosed = true
        if running == 0 {
            TransactionState.current.afterNextCommit { [self] in completeIfDone() }
        }
    }

    private func completeIfDone() {
        guard isClosed, running == 0, let completion else { return }
        self.completion = nil
        completion(allFinished)
    }
}

/// The animation blocks open now, innermost last, and the switch that
/// turns them off. Owned by the application's main actor, reset with it.
@MainActor
final class ViewAnimations {
    static let current = ViewAnimations()

    private var blocks: [ViewAnimationBlock] = []
    /// Depth of `performWithoutAnimation` calls.
    private var withoutAnimationDepth = 0
    var areEnabled = true

    func reset() {
        blocks = []
        withoutAnimationDepth = 0
        areEnabled = true
        updateEngine()
    }

    var innermost: ViewAnimationBlock? { blocks.last }

    /// Whether changes made now are shown at once whatever block they are
    /// in: animations are turned off, or a `performWithoutAnimation` block
    /// is running.
    var showsChangesAtOnce: Bool { withoutAnimationDepth > 0 || !areEnabled }

    /// The block whose animations a change adds now, if any.
    var animatingBlock: ViewAnimationBlock? {
        guard withoutAnimationDepth == 0, areEnabled else { return nil }
        return blocks.last
    }

    private func updateEngine() {
        AnimationEngine.current.ownedLayersAskForActions = animatingBlock != nil
    }

    func run(_ block: ViewAnimationBlock, animations: () -> Void, completion: ((Bool) -> Void)?) {
        if let outer = blocks.last { inherit(from: outer, into: block) }
        guard block.duration > 0 || block.animator != nil else {
            withoutAnimation(animations)
            block.close(completion: completion)
            return
        }
        blocks.append(block)
        updateEngine()
        animations()
        if block.options.contains(.layoutSubviews) { layOutChangedViews() }
        block.keyframes?.addAnimations(for: block)
        blocks.removeLast()
        updateEngine()
        block.close(completion: completion)
    }

    /// A nested block takes the enclosing block's duration and curve unless
    /// its options say to keep its own (UIKit's `overrideInherited…` options).
    private func inherit(from outer: ViewAnimationBlock, into block: ViewAnimationBlock) {
        if block.animator == nil, outer.animator != nil { block.animator = outer.animator }
        let keepsAll = block.options.contains(.overrideInheritedOptions)
        if !keepsAll && !block.options.contains(.overrideInheritedDuration) {
            block.duration = outer.duration
            block.delay = outer.delay
        }
        if !keepsAll && !block.options.contains(.overrideInheritedCurve) { block.timing = outer.timing }
    }

    /// `.layoutSubviews`: the layout the changes call for happens inside the
    /// block, so that the subviews' new frames animate with it.
    private func layOutChangedViews() {
        let transactions = TransactionState.current
        guard transactions.hasImplicitTransaction else { return }
        for window in UIApplication.shared.windows { window.layoutIfNeeded() }
    }

    func runKeyframe(start: Double, duration: Double, animations: () -> Void) {
        guard let outer = blocks.last else { return withoutAnimation(animations) }
        let begin = min(1, max(0, start.isFinite ? start : 0))
        let length = min(1 - begin, max(0, duration.isFinite ? duration : 0))
        let keyframe = ViewAnimationBlock(
            duration: outer.duration * length, delay: outer.delay + outer.duration * begin,
            options: outer.options.union(.overrideInheritedOptions), timing: outer.timing)
        keyframe.animator = outer.animator
        keyframe.parent = outer
        keyframe.keyframeStart = begin
        keyframe.keyframeEnd = begin + length
        blocks.append(keyframe)
        updateEngine()
        animations()
        blocks.removeLast()
        updateEngine()
    }

    func withoutAnimation(_ changes: () -> Void) {
        withoutAnimationDepth += 1
        updateEngine()
        changes()
        withoutAnimationDepth -= 1
        updateEngine()
    }

    func runTransition(on view: UIView, duration: TimeInterval, options: UIView.AnimationOptions, changes: () -> Void, completion: ((Bool) -> Void)?) {
        let block = ViewAnimationBlock(duration: duration, delay: 0, options: options, timing: .curve(options.curve.timingFunction))
        guard block.duration > 0, areEnabled else {
            withoutAnimation(changes)
            block.close(completion: completion)
            return
        }
        let transition = options.transition
        transition.duration = block.duration
        transition.timingFunction = options.curve.timingFunction
        view.layer.add(transition, forKey: nil)
        if let entry = view.layer.lastAnimationEntry { block.follow(entry, on: view) }
        // Property changes inside a transition's block are not animated;
        // the transition shows them.
        withoutAnimation(changes)
        block.close(completion: completion)
    }
}

extension ViewAnimationBlock {
    /// The block that a keyframe's animations count towards.
    var countingBlock: ViewAnimationBlock { parent ?? self }

    /// Counts `entry` towards the completion, and, unless the block allows
    /// it, keeps touches off `view` until the animation stops.
    func follow(_ entry: AnimationEntry, on view: UIView) {
        let counted = countingBlock
        counted.animationAdded()
        let blocksTouches = !allowsUserInteraction && animator == nil
        if blocksTouches { view.animationsBlockingTouches += 1 }
        entry.onStop = { [weak view] finished in
            if blocksTouches { view?.animationsBlockingTouches -= 1 }
            counted.animationStopped(finished: finished)
        }
    }
}

/// The action a view gives its layer inside an animation block: an
/// additive animation of the property from its old value to its new one.
@MainActor
final class ViewAnimationAction: CAAction {
    let block: ViewAnimationBlock
    unowned let view: UIView

    init(block: ViewAnimationBlock, view: UIView) {
        self.block = block
        self.view = view
    }

    /// The layer properties a view's animation block animates.
    static func animates(_ key: String) -> Bool {
        switch key {
        case "position", "bounds", "transform", "opacity", "backgroundColor", "cornerRadius", "anchorPoint": true
        default: false
        }
    }

    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer,
              let old = AnimatableValue(dict?[CALayer.previousValueArgument]) ?? (event == "backgroundColor" ? AnimatableValue(CGColor(red: 0, green: 0, blue: 0, alpha: 0)) : nil),
              let new = LayerValues(of: layer).value(forKeyPath: event)
        else { return }
        if block.animator == nil, let keyframes = block.countingBlock.keyframes {
            keyframes.record(on: layer, key: event, view: view, from: block.keyframeStart, to: block.keyframeEnd, old: old, new: new)
            return
        }
        let animation: CABasicAnimation
        switch block.timing {
        case .curve(let curve):
            animation = CABasicAnimation(keyPath: event)
            animation.timingFunction = curve
        case .spring(let spring):
            let springAnimation = CASpringAnimation(keyPath: event)
            springAnimation.mass = spring.mass
            springAnimation.stiffness = spring.stiffness
            springAnimation.damping = spring.damping
            springAnimation.initialVelocity = spring.initialVelocity
            springAnimation.allowsOverdamping = true
            animation = springAnimation
        }
        animation.isAdditive = true
        animation.fromValue = old.subtracting(new).anyValue
        animation.toValue = new.zero.anyValue
        animation.duration = block.duration
        // The delay is filled backwards: the old value shows until it starts.
        animation.fillMode = .backwards
        if block.options.contains(.repeat) { animation.repeatCount = .infinity }
        if block.options.contains(.autoreverse) { animation.autoreverses = true }
        if let animator = block.animator {
            animator.adopt(animation, on: layer, key: event, from: old, to: new, view: view, block: block)
            return
        }
        animation.beginTime = layer.convertTime(AnimationEngine.current.frameTime, from: nil) + block.delay
        layer.add(animation, forKey: Self.freeKey(event, on: layer))
        if let entry = layer.lastAnimationEntry { block.follow(entry, on: view) }
    }

    /// `key`, or `key-2`, `key-3`, … when animations of the property are
    /// already running: each additive animation keeps its own key.
    static func freeKey(_ key: String, on layer: CALayer) -> String {
        guard layer.animation(forKey: key) != nil else { return key }
        var index = 2
        while layer.animation(forKey: "\(key)-\(index)") != nil { index += 1 }
        return "\(key)-\(index)"
    }
}

/// The changes a keyframe block's keyframes make, gathered so that each
/// property gets one `CAKeyframeAnimation` when the block's closure has
/// run, as UIKit makes: logged on iOS, a keyframe block's animation of a
/// property is a keyframe animation whose key times are where keyframes
/// start and end (a keyframe from 0 for 0.1 of 10 s gives key times 0,
/// 0.1, 1 and values 1, 0, 0), with the options' calculation mode, fill
/// mode both and the block's curve (ease-in-out unless the options carry
/// another) as its timing function (stackoverflow.com/questions/20521214).
/// Changes made outside `addKeyframe` run over the whole duration.
@MainActor
final class KeyframeCollection {
    let calculationMode: CAAnimationCalculationMode

    private struct Change {
        let start: Double, end: Double
        let old: AnimatableValue, new: AnimatableValue
    }

    private struct Property {
        let layer: CALayer
        let key: String
        let view: UIView
        var changes: [Change]
    }

    private var properties: [Property] = []

    init(calculationMode: CAAnimationCalculationMode) {
        self.calculationMode = calculationMode
    }

    func record(on layer: CALayer, key: String, view: UIView, from start: Double, to end: Double, old: AnimatableValue, new: AnimatableValue) {
        let change = Change(start: start, end: end, old: old, new: new)
        if let index = properties.firstIndex(where: { $0.layer === layer && $0.key == key }) {
            properties[index].changes.append(change)
        } else {
            properties.append(Property(layer: layer, key: key, view: view, changes: [change]))
        }
    }

    /// The key times and values of a property's changes: its old value at
    /// 0, then for each keyframe (by start) the value before it at its
    /// start and its new value at its end, and the last value held to 1.
    private static func keyframes(of changes: [Change]) -> (times: [Double], values: [AnimatableValue]) {
        var times = [0.0], values = [changes[0].old]
        for change in changes.enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }).map(\.element) {
            if change.start > times[times.count - 1] {
                times.append(change.start)
                values.append(values[values.count - 1])
            }
            times.append(max(change.end, times[times.count - 1]))
            values.append(change.new)
        }
        if times[times.count - 1] < 1 {
            times.append(1)
            values.append(values[values.count - 1])
        }
        return (times, values)
    }

    /// Adds each property's keyframe animation, additive on the model's
    /// new value (so that a later animation of the property starts from
    /// what is shown), timed by `block`.
    func addAnimations(for block: ViewAnimationBlock) {
        for property in properties {
            guard let final = LayerValues(of: property.layer).value(forKeyPath: property.key) else { continue }
            let (times, values) = Self.keyframes(of: property.changes)
            let animation = CAKeyframeAnimation(keyPath: property.key)
            animation.values = values.map { $0.subtracting(final).anyValue }
            animation.keyTimes = times.map { NSNumber(value: $0) }
            animation.calculationMode = calculationMode
            animation.isAdditive = true
            animation.duration = block.duration
            if case .curve(let curve) = block.timing { animation.timingFunction = curve }
            animation.fillMode = .both
            if block.options.contains(.repeat) { animation.repeatCount = .infinity }
            if block.options.contains(.autoreverse) { animation.autoreverses = true }
            let layer = property.layer
            animation.beginTime = layer.convertTime(AnimationEngine.current.frameTime, from: nil) + block.delay
            layer.add(animation, forKey: ViewAnimationAction.freeKey(property.key, on: layer))
            if let entry = layer.lastAnimationEntry { block.follow(entry, on: property.view) }
        }
        properties = []
    }
}
