import Foundation

/// UIView's animation blocks, built on Core Animation as UIKit's are.
///
/// Inside `animate(withDuration:…) { … }` a change of an animatable
/// property (`frame`, `bounds`, `center`, `transform`, `alpha`,
/// `backgroundColor`, and the layer's corner radius) sets the model value
/// at once, as outside, and the view, being its layer's delegate, answers
/// the layer's request for an action with one that adds an *additive*
/// animation: from the old value minus the new one, to zero, on top of the
/// model. So a second animation of the same property starts from where the
/// first one is shown and both run to their ends (UIKit's behaviour since
/// iOS 8): nothing jumps, and each block's completion runs with `finished`
/// true when its animations ran to the end, false when one was removed
/// first (`layer.removeAllAnimations()`).
///
/// Touches: hit-testing reads the model, so a moving view is hit where it
/// will be. A view animated by a block without `.allowUserInteraction`
/// cannot be hit (nor can its subviews) until its animations end, as in
/// UIKit.
extension UIView {
    /// Options of an animation block.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Lays out subviews as part of the animation, so that their new frames animate too.
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// The animated views keep receiving touches.
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Start from what is shown (always so here: animations are additive).
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeat for ever.
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Run forwards, then backwards.
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A nested block keeps its own duration instead of the enclosing block's.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A nested block keeps its own curve instead of the enclosing block's.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        /// `transition(from:to:…)` hides and shows the views instead of removing and adding them.
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        /// A nested block keeps all its own options.
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        public static let preferredFramesPerSecondDefault = AnimationOptions(rawValue: 0 << 24)
        public static let preferredFramesPerSecond60 = AnimationOptions(rawValue: 3 << 24)
        public static let preferredFramesPerSecond30 = AnimationOptions(rawValue: 7 << 24)

        /// The curve the options name (bits 16–19).
        var curve: UIView.AnimationCurve { UIView.AnimationCurve(rawValue: Int(rawValue >> 16 & 0xF)) ?? .easeInOut }
        /// Whether a transition is named (bits 20–23).
        var hasTransition: Bool { rawValue >> 20 & 0xF != 0 }

        /// The Core Animation transition that draws the transition the
        /// options name, with the types UIKit uses: a flip (`oglFlip`) for
        /// the four flips (turning about the vertical axis from the left or
        /// right, the horizontal one from the top or bottom), a page curl
        /// (`pageCurl`, `pageUnCurl`) for the two curls, a fade for the
        /// cross-dissolve.
        @MainActor var transition: CATransition {
            let transition = CATransition()
            transition.type = .flip
            switch AnimationOptions(rawValue: rawValue & (0xF << 20)) {
            case .transitionFlipFromLeft: transition.subtype = .fromLeft
            case .transitionFlipFromRight: transition.subtype = .fromRight
            case .transitionFlipFromTop: transition.subtype = .fromTop
            case .transitionFlipFromBottom: transition.subtype = .fromBottom
            case .transitionCurlUp: transition.type = .pageCurl
            case .transitionCurlDown: transition.type = .pageUnCurl
            default: transition.type = .fade
            }
            return transition
        }
    }

    /// The four curves of animation blocks.
    public enum AnimationCurve: Int, Sendable {
        case easeInOut, easeIn, easeOut, linear

        /// Core Animation's curve of the same name.
        @MainActor var timingFunction: CAMediaTimingFunction {
            switch self {
            case .easeInOut: CAMediaTimingFunction(name: .easeInEaseOut)
            case .easeIn: CAMediaTimingFunction(name: .easeIn)
            case .easeOut: CAMediaTimingFunction(name: .easeOut)
            case .linear: CAMediaTimingFunction(name: .linear)
            }
        }
    }

    /// Options of a keyframe animation block: the block options, and how
    /// values are worked out between keyframes.
    public struct KeyframeAnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: AnimationOptions.layoutSubviews.rawValue)
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: AnimationOptions.allowUserInteraction.rawValue)
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: AnimationOptions.beginFromCurrentState.rawValue)
        public static let `repeat` = KeyframeAnimationOptions(rawValue: AnimationOptions.repeat.rawValue)
        public static let autoreverse = KeyframeAnimationOptions(rawValue: AnimationOptions.autoreverse.rawValue)
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: AnimationOptions.overrideInheritedDuration.rawValue)
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: AnimationOptions.overrideInheritedOptions.rawValue)
        /// Straight between keyframes (the default).
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        /// Core Animation's calculation mode the options name (bits 10–12).
        var calculationMode: CAAnimationCalculationMode {
            switch rawValue >> 10 & 0x7 {
            case 1: .discrete
            case 2: .paced
            case 3: .cubic
            case 4: .cubicPaced
            default: .linear
            }
        }
    }

    // MARK: Animation blocks

    /// Animates the changes `animations` makes, after `delay` seconds, over
    /// `duration` seconds, then calls `completion` with whether every
    /// animation ran to its end. A duration of 0 or less makes the changes
    /// at once; the completion still runs, after the turn's commit.
    public class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        ViewAnimations.current.run(
            ViewAnimationBlock(duration: duration, delay: delay, options: options, timing: .curve(options.curve.timingFunction)),
            animations: animations, completion: completion)
    }

    /// ``animate(withDuration:delay:options:animations:completion:)`` now, ease in-out.
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// ``animate(withDuration:delay:options:animations:completion:)`` now, ease in-out, no completion.
    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// Animates with a damped spring of damping ratio `dampingRatio`
    /// (1 settles without overshoot, less bounces) that comes to rest in
    /// `duration` seconds, starting at `velocity` (1 is the whole distance
    /// per second). Apple does not publish how it shapes this spring; here
    /// it is the damped oscillator with that ratio whose settling time (to
    /// 0.1 %) is the duration.
    public class func animate(
        withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
        initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        let spring = SpringParameters(dampingRatio: Double(dampingRatio), settlingIn: duration, initialVelocity: Double(velocity))
        ViewAnimations.current.run(
            ViewAnimationBlock(duration: duration, delay: delay, options: options, timing: .spring(spring)),
            animations: animations, completion: completion)
    }

    /// iOS 17's spring block: a spring that feels `springDuration` long with
    /// `bounce` (Apple's mapping, see `CASpringAnimation(perceptualDuration:bounce:)`),
    /// running until it settles.
    public class func animate(
        springDuration: TimeInterval = 0.5, bounce: CGFloat = 0, initialSpringVelocity: CGFloat = 0, delay: TimeInterval = 0,
        options: AnimationOptions = [], animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        let spring = SpringParameters(perceptualDuration: springDuration, bounce: Double(bounce), initialVelocity: Double(initialSpringVelocity))
        ViewAnimations.current.run(
            ViewAnimationBlock(duration: spring.settlingDuration, delay: delay, options: options, timing: .spring(spring)),
            animations: animations, completion: completion)
    }

    /// Animates keyframes: each ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)``
    /// inside `animations` reaches its values at the end of its part of the
    /// duration, starting from the values before it at the start of its
    /// part; changes made in `animations` directly run over the whole
    /// duration. Between keyframes values follow the options' calculation
    /// mode, as Core Animation defines it (`CAKeyframeAnimation`): linear
    /// (the default), discrete (each new value from the end of its
    /// keyframe), paced (one speed through every value, keyframe times
    /// ignored), cubic (a Catmull-Rom curve through the values at their
    /// times) or cubic paced. As in UIKit, the whole animation is paced by
    /// ease-in-out unless the options carry another curve of
    /// `AnimationOptions` (`KeyframeAnimationOptions(rawValue:
    /// AnimationOptions.curveLinear.rawValue)`).
    public class func animateKeyframes(
        withDuration duration: TimeInterval, delay: TimeInterval, options: KeyframeAnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        // Bits 0–9 are the block's options, 16–19 a curve.
        let blockOptions = AnimationOptions(rawValue: options.rawValue & (0x3FF | 0xF << 16))
        let block = ViewAnimationBlock(duration: duration, delay: delay, options: blockOptions, timing: .curve(blockOptions.curve.timingFunction))
        block.keyframes = KeyframeCollection(calculationMode: options.calculationMode)
        ViewAnimations.current.run(block, animations: animations, completion: completion)
    }

    /// One keyframe of the enclosing keyframe block: its changes run from
    /// `frameStartTime` to `frameStartTime + frameDuration`, fractions of
    /// the block's duration. Outside a keyframe block, the changes are made at once.
    public class func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double, animations: @escaping () -> Void) {
        ViewAnimations.current.runKeyframe(start: frameStartTime, duration: frameDuration, animations: animations)
    }

    /// Makes the changes in `actionsWithoutAnimation` at once, even inside
    /// an animation block. As in UIKit, animations are turned off while it
    /// runs (``areAnimationsEnabled`` reads false inside) and turned back
    /// to what they were after.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        let animations = ViewAnimations.current
        let wereEnabled = animations.areEnabled
        animations.areEnabled = false
        defer { animations.areEnabled = wereEnabled }
        animations.withoutAnimation(actionsWithoutAnimation)
    }

    /// Whether animation blocks animate (true unless turned off).
    public class var areAnimationsEnabled: Bool { ViewAnimations.current.areEnabled }

    public class func setAnimationsEnabled(_ enabled: Bool) {
        ViewAnimations.current.areEnabled = enabled
    }

    /// The duration of the animation block being run; 0 outside one.
    public class var inheritedAnimationDuration: TimeInterval { ViewAnimations.current.innermost?.duration ?? 0 }

    // MARK: Transitions

    /// Runs `animations` (whose changes happen at once) while `view`'s
    /// look changes from its old one to its new one with the transition
    /// the options name. A flip turns the view over about its centre line
    /// in perspective, its new look on its back; a curl up rolls the old
    /// look up off the view from its bottom edge, a curl down unrolls the
    /// new look down over the old.
    public class func transition(
        with view: UIView, duration: TimeInterval, options: AnimationOptions = [],
        animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil
    ) {
        ViewAnimations.current.runTransition(on: view, duration: duration, options: options, changes: { animations?() }, completion: completion)
    }

    /// Replaces `fromView` with `toView` in its superview (or, with
    /// `.showHideTransitionViews`, hides the one and shows the other) with
    /// the transition the options name, on the superview.
    public class func transition(
        from fromView: UIView, to toView: UIView, duration: TimeInterval, options: AnimationOptions = [],
        completion: ((Bool) -> Void)? = nil
    ) {
        guard let container = fromView.superview else {
            completion.map { finish in TransactionState.current.afterNextCommit { finish(true) } }
            return
        }
        ViewAnimations.current.runTransition(on: container, duration: duration, options: options, changes: {
            if options.contains(.showHideTransitionViews) {
                fromView.isHidden = true
                toView.isHidden = false
            } else {
                if toView.superview !== container { container.insertSubview(toView, aboveSubview: fromView) }
                fromView.removeFromSuperview()
            }
        }, completion: completion)
    }

    // MARK: The layer's delegate

    /// The action for a change of the view's own layer: inside an animation
    /// block (and outside `performWithoutAnimation`), one that adds the
    /// block's additive animation; otherwise `NSNull()`, no action, as
    /// UIKit's views answer (a view's own layer has no implicit animations).
    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
        guard layer === self.layer, let block = ViewAnimations.current.animatingBlock, ViewAnimationAction.animates(event) else { return NSNull() }
        return ViewAnimationAction(block: block, view: self)
    }
}
