import Foundation

/// One animation on a layer, with what the engine knows of it.
@MainActor
package final class AnimationEntry {
    /// Nil for an animation added without a key.
    package let key: String?
    package let animation: CAAnimation
    /// What its key paths make the compositor draw again.
    let changes: LayerChanges
    @exclusivity(unchecked) var hasStarted = false
    /// Its active time is over (it may stay, filling forwards).
    @exclusivity(unchecked) var hasEnded = false
    /// Transactions whose completion blocks wait for it.
    var completions: [TransactionCompletion] = []
    /// Told when it stops, after its delegate: UIKit's animation blocks
    /// count their animations this way.
    package var onStop: (@MainActor (Bool) -> Void)?

    init(key: String?, animation: CAAnimation) {
        self.key = key
        self.animation = animation
        var changes: LayerChanges = []
        for path in animation.animatedKeyPaths { changes.formUnion(LayerValues.changes(forKeyPath: path) ?? []) }
        self.changes = changes
    }

    /// Tells the delegate, then whoever waits for it, that it stopped.
    func stopped(finished: Bool) {
        animation.delegate?.animationDidStop(animation, finished: finished)
        onStop?(finished)
        onStop = nil
        for completion in completions { completion.animationEnded() }
        completions = []
    }
}

/// The animations of one layer, in the order they were added (the order
/// they apply in).
@MainActor
package final class LayerAnimationList {
    @exclusivity(unchecked) package var entries: [AnimationEntry] = []
    /// A transition's picture of the layer before it (its old look).
    package var transitionSnapshot: CGImage?
}

extension CALayer {
    // MARK: Adding and removing animations

    /// Adds a copy of `anim` to the layer under `key` (replacing, and
    /// stopping unfinished, any animation under the same key). An
    /// animation whose `beginTime` is 0 starts at the frame being prepared (now, between refreshes, the next refresh); one whose `duration`
    /// is 0 gets the transaction's animation duration (0.25 s by default)
    /// and, without a timing function, the transaction's. A `CATransition`
    /// is kept under the key `transition`, whatever `key` is.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        guard !isDetachedCopy else { return }
        let animation = anim.duplicate()
        if animation.duration == 0 { animation.duration = CATransaction.animationDuration() }
        if animation.timingFunction == nil, !(animation is CASpringAnimation) {
            animation.timingFunction = CATransaction.animationTimingFunction()
        }
        if let property = animation as? CAPropertyAnimation, property.keyPath == nil { property.keyPath = key }
        // Added between two refreshes, it starts at the next one's target
        // time, so that its first frame shows its start.
        if animation.beginTime == 0 { animation.beginTime = convertTime(AnimationEngine.current.frameTime, from: nil) }
        var key = key
        if animation is CATransition {
            key = LayerValues.transitionKey
            let list = animationList ?? LayerAnimationList()
            animationList = list
            list.transitionSnapshot = snapshotForTransition()
        }
        if let key { removeAnimation(forKey: key) }
        let entry = AnimationEntry(key: key, animation: animation)
        entry.completions = TransactionState.current.completionsWaitingForAnimations()
        for completion in entry.completions { completion.pending += 1 }
        let list = animationList ?? LayerAnimationList()
        animationList = list
        list.entries.append(entry)
        markChanged(entry.changes)
        AnimationEngine.current.layerDidAddAnimation(self)
    }

    /// The entry just added, for UIKit to follow it.
    package var lastAnimationEntry: AnimationEntry? { animationList?.entries.last }

    /// The animation under `key`: a copy of what was added, with its
    /// `beginTime` filled in. Changing it changes nothing on screen.
    public func animation(forKey key: String) -> CAAnimation? {
        animationList?.entries.last { $0.key == key }?.animation
    }

    /// The keys of the layer's animations, in the order they were added;
    /// nil when there are none with a key.
    public func animationKeys() -> [String]? {
        let keys = (animationList?.entries ?? []).compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key`; its delegate hears
    /// `animationDidStop(_:finished:)` with false if it had not ended, after
    /// the current transaction commits.
    public func removeAnimation(forKey key: String) {
        guard let list = animationList, let index = list.entries.firstIndex(where: { $0.key == key }) else { return }
        removeEntries([list.entries[index]])
    }

    /// Removes every animation, as ``removeAnimation(forKey:)`` does each.
    public func removeAllAnimations() {
        guard let list = animationList else { return }
        removeEntries(list.entries)
    }

    /// Removes `entries`; those not over hear that they did not finish.
    package func removeEntries(_ removed: [AnimationEntry]) {
        guard let list = animationList, !removed.isEmpty else { return }
        var changes: LayerChanges = []
        list.entries.removeAll { entry in removed.contains { $0 === entry } }
        for entry in removed {
            changes.formUnion(entry.changes)
            if entry.key == LayerValues.transitionKey { list.transitionSnapshot = nil }
        }
        if list.entries.isEmpty { animationList = nil }
        markChanged(changes)
        let unfinished = removed.filter { !$0.hasEnded }
        let ended = removed.filter(\.hasEnded)
        for entry in ended { entry.completions = [] }
        guard !unfinished.isEmpty else { return }
        TransactionState.current.afterNextCommit {
            for entry in unfinished { entry.stopped(finished: false) }
        }
    }

    // MARK: Presentation and model

    /// The layer as it is shown at the current frame's time: a copy with
    /// its animations applied to its animatable properties. The time is the
    /// target time of the frame being drawn (the display link's
    /// `targetTimestamp`), or now when no frame is under way. The copy is
    /// not in a layer tree; its ``model()`` is this layer. Nil for a layer
    /// that has never been committed, as in Core Animation.
    public func presentation() -> Self? {
        if isDetachedCopy { return self }
        guard committedNode != nil || TransactionState.current.commitCount > createdAtCommit else { return nil }
        let copy = type(of: self).init()
        copy.isDetachedCopy = true
        copy.modelLayerReference = self
        presentationValues(at: AnimationEngine.current.frameTime).write(to: copy)
        copy.isHidden = isHidden
        copy.masksToBounds = masksToBounds
        copy.contents = contents
        return copy
    }

    /// The layer whose properties are the model: for a presentation copy,
    /// the layer it was made from; otherwise the layer itself.
    public func model() -> Self {
        (modelLayerReference as? Self) ?? self
    }

    /// The animatable values as shown at `time` (media time): the model's,
    /// changed by every animation in order.
    package func presentationValues(at time: TimeInterval) -> LayerValues {
        var values = LayerValues(of: self)
        applyAnimations(to: &values, at: time)
        return values
    }

    /// Applies the animations, in the order added, at media time `time`.
    package func applyAnimations(to values: inout LayerValues, at time: TimeInterval) {
        guard let list = animationList else { return }
        let local = convertTime(time, from: nil)
        for entry in list.entries { entry.animation.apply(to: &values, at: local) }
    }

    // MARK: Actions

    /// Runs the action for a change of `key` from `oldValue`, when actions
    /// run: in an application's layer tree (below a view), not while the
    /// transaction disables them, and only for a layer that has been
    /// committed (a layer set up in the turn it was made shows its values
    /// at once). A basic animation with no values (as the
    /// implicit one) animates from the value shown before the change.
    func runAction(forKey key: String, oldValue: Any?) {
        // Without an application's clock nothing would move the animation:
        // a layer tree drawn alone (a compositor on its own, the render
        // tool) shows every change at once.
        guard AnimationEngine.current.clock != nil, !CATransaction.disableActions() else { return }
        let owned = AnimationEngine.current.ownedLayersAskForActions
        guard owned || (committedNode != nil || TransactionState.current.commitCount > createdAtCommit) && isInViewTree else { return }
        guard let action = action(forKey: key) else { return }
        let arguments: [AnyHashable: Any]? = oldValue.map { [CALayer.previousValueArgument: $0] }
        guard let basic = action as? CABasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
              basic.keyPath == nil || basic.keyPath == key
        else {
            return action.run(forKey: key, object: self, arguments: arguments)
        }
        // The value shown before the change: the old model value with the
        // running animations applied.
        var before = LayerValues(of: self)
        if let old = AnimatableValue(oldValue) ?? (oldValue == nil ? AnimatableValue(CGColor(red: 0, green: 0, blue: 0, alpha: 0)) : nil) {
            before.set(old, forKeyPath: key)
        }
        applyAnimations(to: &before, at: AnimationEngine.current.frameTime)
        let animation = basic.duplicate() as! CABasicAnimation
        animation.keyPath = key
        animation.fromValue = before.value(forKeyPath: key)?.anyValue
        animation.run(forKey: key, object: self, arguments: nil)
    }

    /// Whether the layer's tree hangs from a view's layer (a layer whose
    /// owning delegate is set): the layers of an application, whose run
    /// loop drives their animations. A tree of layers alone (a compositor
    /// used without views) runs no implicit animations.
    private var isInViewTree: Bool {
        var layer: CALayer? = self
        while let current = layer {
            if current.hasOwningDelegate { return true }
            layer = current.superlayer ?? current.maskedLayer
        }
        return false
    }

    /// The key of the `arguments` an action runs with that holds the
    /// property's value before the change (nil for a colour that was nil).
    package static let previousValueArgument = "previousValue"

    // MARK: Layer time

    /// Converts `t` from `layer`'s local time (the media time, for nil)
    /// into this layer's: each layer's time is its parent's, less its
    /// `beginTime`, times its `speed`, plus its `timeOffset`.
    public func convertTime(_ t: TimeInterval, from layer: CALayer?) -> TimeInterval {
        let media = layer?.mediaTime(fromLocal: t) ?? t
        return localTime(fromMedia: media)
    }

    /// Converts `t` from this layer's local time into `layer`'s (the media
    /// time, for nil).
    public func convertTime(_ t: TimeInterval, to layer: CALayer?) -> TimeInterval {
        let media = mediaTime(fromLocal: t)
        return layer?.localTime(fromMedia: media) ?? media
    }

    private var hasDefaultTiming: Bool { beginTime == 0 && timeOffset == 0 && speed == 1 }

    func localTime(fromMedia t: TimeInterval) -> TimeInterval {
        let parent = superlayer?.localTime(fromMedia: t) ?? t
        if hasDefaultTiming { return parent }
        return (parent - beginTime) * Double(speed) + timeOffset
    }

    func mediaTime(fromLocal t: TimeInterval) -> TimeInterval {
        let parent = hasDefaultTiming ? t : (speed == 0 ? beginTime : (t - timeOffset) / Double(speed) + beginTime)
        return superlayer?.mediaTime(fromLocal: parent) ?? parent
    }

    /// The layer's clock changed: what its animations show changes too.
    func layerTimingDidChange() {
        guard let list = animationList else { return }
        var changes: LayerChanges = []
        for entry in list.entries { changes.formUnion(entry.changes) }
        markChanged(changes)
    }

    /// The layer's look now, drawn whole, for a transition to draw over it:
    /// at the screen's scale, so that on screen the picture's pixels are the
    /// layer's (a flip's flat drawing copies it).
    private func snapshotForTransition() -> CGImage? {
        let size = bounds.size
        let scale = AnimationEngine.current.screenScale?() ?? 2
        let width = Int((size.width * scale).rounded(.up)), height = Int((size.height * scale).rounded(.up))
        guard width > 0, height > 0, width * height <= 4096 * 4096,
              let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        // Flipped, so that the image's first row is the layer's top, as contents are read.
        context.translateBy(x: 0, y: CGFloat(height))
        context.scaleBy(x: scale, y: -scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        render(in: context)
        return context.makeImage()
    }
}

/// The current media time: seconds on the application's clock (the run
/// loop's, which tests replace with a manual clock), as every animation's
/// `beginTime` counts it.
@MainActor
public func CACurrentMediaTime() -> TimeInterval {
    AnimationEngine.current.now
}
