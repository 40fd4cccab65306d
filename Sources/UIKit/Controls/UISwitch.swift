/// An on/off control. A tap toggles it; a finger dragged across it
/// (``ControlMetrics/switchDragDistance`` or more) sets it to the side the
/// finger lifts on, wherever it lifts. Each change the user makes sends
/// `.valueChanged`, then `.primaryActionTriggered`; setting ``isOn`` in code
/// sends nothing.
///
/// A switch is always ``ControlMetrics/switchSize``: only the origin of
/// the frame it is given counts, as in UIKit.
///
/// Its own gestures win over an ancestor's recognizers that want them (as
/// in UIKit): a single one-finger tap, and a one-finger pan along the
/// switch.
///
/// It looks like iOS's: a track with round ends, filled with
/// ``onTintColor`` (green by default) when on and a light grey when off,
/// and a white round thumb (``thumbTintColor``) with a soft shadow at the
/// end of the track the value is on. A disabled switch is drawn at
/// ``ControlMetrics/disabledControlAlpha``. The track and thumb are layers
/// of the switch's own, as on iOS, so changing the value redraws nothing.
@preconcurrency @MainActor
open class UISwitch: UIControl {
    open var isOn = false {
        didSet { updateAppearance(animated: animatesNextChange) }
    }
    /// Set while ``setOn(_:animated:)`` or the user changes the value with animation.
    private var animatesNextChange = false
    /// A finger is on the switch: the thumb stretches, as on iOS.
    private var isPressed = false {
        didSet { if isPressed != oldValue { updateAppearance(animated: true) } }
    }
    /// The track's colour when on; nil is UIKit's green (``UIColor/systemGreen``).
    open var onTintColor: UIColor? {
        didSet { updateAppearance() }
    }
    /// The thumb's colour; nil is white.
    open var thumbTintColor: UIColor? {
        didSet { updateAppearance() }
    }
    private var touchStartX: CGFloat = 0
    private var isDragging = false
    /// The track and thumb, drawn as one group so that a disabled switch
    /// fades as a whole.
    private let appearanceLayer = CALayer.partWithoutActions()
    private let trackLayer = CALayer.partWithoutActions()
    private let thumbLayer = CALayer.partWithoutActions()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addAppearanceLayers()
    }

    /// Always ``ControlMetrics/switchSize`` (51×31, UIKit's switch).
    open override var intrinsicContentSize: CGSize { ControlMetrics.switchSize }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addAppearanceLayers()
    }

    private func addAppearanceLayers() {
        appearanceLayer.addSublayer(trackLayer)
        appearanceLayer.addSublayer(thumbLayer)
        layer.addSublayer(appearanceLayer)
        ControlMetrics.applyThumbShadow(to: thumbLayer)
        updateAppearance()
    }

    open override var isEnabled: Bool {
        didSet { updateAppearance() }
    }

    /// Places the track and thumb for the value and colours them; with
    /// `animated`, the thumb slides (and stretches or shrinks) and the track
    /// changes colour from what is shown, over
    /// ``ControlMetrics/switchAnimationDuration``.
    private func updateAppearance(animated: Bool = false) {
        let shownThumb = thumbLayer.presentation() ?? thumbLayer
        let shownTrack = trackLayer.presentation() ?? trackLayer
        let before = (position: shownThumb.position, bounds: shownThumb.bounds, track: shownTrack.backgroundColor)
        let size = ControlMetrics.switchSize
        let origin = bounds.origin
        appearanceLayer.frame = CGRect(origin: origin, size: size)
        appearanceLayer.opacity = isEnabled ? 1 : Float(ControlMetrics.disabledControlAlpha)
        trackLayer.frame = CGRect(origin: .zero, size: size)
        trackLayer.cornerRadius = size.height / 2
        trackLayer.backgroundColor = (isOn ? onTintColor ?? .systemGreen : .secondarySystemFill).cgColor
        let diameter = ControlMetrics.switchThumbDiameter, inset = ControlMetrics.switchThumbInset
        let width = diameter + (isPressed ? ControlMetrics.switchThumbStretch : 0)
        let x = isOn ? size.width - inset - width : inset
        thumbLayer.frame = CGRect(x: x, y: (size.height - diameter) / 2, width: width, height: diameter)
        thumbLayer.cornerRadius = diameter / 2
        thumbLayer.backgroundColor = (thumbTintColor ?? .white).cgColor
        guard animated, window != nil else { return }
        slide(thumbLayer, "position", from: before.position, changed: before.position != thumbLayer.position)
        slide(thumbLayer, "bounds", from: before.bounds, changed: before.bounds != thumbLayer.bounds)
        slide(trackLayer, "backgroundColor", from: before.track, changed: before.track != trackLayer.backgroundColor)
    }

    /// An animation of one part from what was shown to its new value.
    private func slide(_ part: CALayer, _ key: String, from value: Any?, changed: Bool) {
        guard changed else { return }
        let animation = CABasicAnimation(keyPath: key)
        animation.fromValue = value
        animation.duration = ControlMetrics.switchAnimationDuration
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        part.add(animation, forKey: key)
    }

    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = CGRect(origin: newValue.origin, size: ControlMetrics.switchSize) }
    }

    open override var bounds: CGRect {
        get { super.bounds }
        set {
            super.bounds = CGRect(origin: newValue.origin, size: ControlMetrics.switchSize)
            updateAppearance()
        }
    }

    /// Sets the value; with `animated`, the thumb slides to its side.
    open func setOn(_ on: Bool, animated: Bool) {
        animatesNextChange = animated
        isOn = on
        animatesNextChange = false
    }

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        touchStartX = touch.location(in: self).x
        isDragging = false
        isPressed = true
        return true
    }

    open override func cancelTracking(with event: UIEvent?) {
        isPressed = false
    }

    open override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        if abs(touch.location(in: self).x - touchStartX) >= ControlMetrics.switchDragDistance { isDragging = true }
        return true
    }

    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        let newValue: Bool
        if isDragging, let touch {
            newValue = touch.location(in: self).x >= bounds.midX
        } else {
            newValue = isTouchInside ? !isOn : isOn
        }
        isPressed = false
        guard newValue != isOn else { return }
        setOn(newValue, animated: true)
        sendActions(for: .valueChanged, with: event)
        sendActions(for: .primaryActionTriggered, with: event)
    }

    /// A tap, or a pan that starts along the switch, is the switch's.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        guard isEnabled else { return false }
        if recognizer.isSingleOneFingerTap { return true }
        guard let pan = recognizer as? UIPanGestureRecognizer, pan.numberOfTouches == 1 else { return false }
        let translation = pan.translation(in: self)
        return abs(translation.x) >= abs(translation.y)
    }
}
