/// A control with a − and a + half that step a value down and up.
///
/// Touch behaviour, as in UIKit: a finger landing on a half steps the value
/// by ``stepValue`` at once; held there with ``autorepeat`` on (the
/// default), it steps again after ``ControlMetrics/stepperAutorepeatDelay``
/// and then every ``ControlMetrics/stepperAutorepeatInterval``, on the run
/// loop's timers (so on the manual clock in tests), while the finger stays
/// inside the control. A continuous stepper (the default) sends
/// `.valueChanged` for each step; one that is not sends it once when the
/// finger lifts, if the value changed. At a limit, the half that would go
/// past it does nothing, unless ``wraps`` is on: then stepping past the
/// maximum gives the minimum, and past the minimum the maximum. The first
/// step comes as the finger lands, so its `.valueChanged` precedes
/// `.touchDown`. Setting ``value`` in code sends nothing.
///
/// It is always ``ControlMetrics/stepperSize`` (only the frame's origin
/// counts) and looks like iOS 17's: a light grey rounded track
/// (``UIColor/tertiarySystemFill``) with a divider, − and + glyphs in
/// ``UIColor/label`` (``UIColor/tertiaryLabel`` on a half that cannot
/// step), the pressed half darkened (``UIColor/systemFill``).
@preconcurrency @MainActor
open class UIStepper: UIControl {
    /// Which half a touch is on.
    private enum Half {
        case decrement, increment
    }

    private var range = BoundedValue<Double>(0, in: 0...100) {
        didSet { updateAppearance() }
    }
    private var trackedHalf: Half?
    private var valueAtTouchDown: Double = 0
    private var repeatTimer: RunLoopTimer?
    private let trackLayer = CALayer.partWithoutActions()
    private let pressedLayer = CALayer.partWithoutActions()
    private let dividerLayer = CALayer.partWithoutActions()
    private let minusLayer = CALayer.partWithoutActions()
    private let plusLayers = [CALayer.partWithoutActions(), CALayer.partWithoutActions()]

    /// The value, kept within ``minimumValue`` and ``maximumValue``; NaN is refused.
    open var value: Double {
        get { range.value }
        set { range.setValue(newValue) }
    }

    /// Raising it above the maximum sets both to the new value (Apple's
    /// documented rule). Values that are not finite are refused.
    open var minimumValue: Double {
        get { range.minimum }
        set { range.setMinimum(newValue) }
    }

    /// Lowering it below the minimum sets both to the new value. Values
    /// that are not finite are refused.
    open var maximumValue: Double {
        get { range.maximum }
        set { range.setMaximum(newValue) }
    }

    /// How much one step changes the value; values that are not finite
    /// and positive are refused.
    open var stepValue: Double = 1 {
        didSet { if !(stepValue.isFinite && stepValue > 0) { stepValue = oldValue } }
    }

    open var isContinuous = true
    open var autorepeat = true
    open var wraps = false {
        didSet { updateAppearance() }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addAppearanceLayers()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addAppearanceLayers()
    }

    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = CGRect(origin: newValue.origin, size: ControlMetrics.stepperSize) }
    }

    open override var bounds: CGRect {
        get { super.bounds }
        set {
            super.bounds = CGRect(origin: newValue.origin, size: ControlMetrics.stepperSize)
            updateAppearance()
        }
    }

    open override var intrinsicContentSize: CGSize { ControlMetrics.stepperSize }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { ControlMetrics.stepperSize }

    open override var isEnabled: Bool {
        didSet { updateAppearance() }
    }

    // MARK: Appearance

    private func addAppearanceLayers() {
        for part in [trackLayer, pressedLayer, dividerLayer, minusLayer] + plusLayers { layer.addSublayer(part) }
        trackLayer.backgroundColor = UIColor.tertiarySystemFill.cgColor
        pressedLayer.backgroundColor = UIColor.systemFill.cgColor
        dividerLayer.backgroundColor = UIColor.opaqueSeparator.cgColor
        updateAppearance()
    }

    /// Whether `half` can step from the current value.
    private func canStep(_ half: Half) -> Bool {
        guard isEnabled else { return false }
        if wraps { return true }
        return half == .increment ? range.value < maximumValue : range.value > minimumValue
    }

    private func updateAppearance() {
        let size = ControlMetrics.stepperSize, origin = bounds.origin
        let radius = ControlMetrics.stepperCornerRadius
        trackLayer.frame = CGRect(origin: origin, size: size)
        trackLayer.cornerRadius = radius
        let halfWidth = size.width / 2
        pressedLayer.isHidden = trackedHalf == nil || !isTouchInside
        let pressedX = trackedHalf == .increment ? halfWidth : 0
        pressedLayer.frame = CGRect(x: origin.x + pressedX, y: origin.y, width: halfWidth, height: size.height)
        pressedLayer.cornerRadius = radius
        pressedLayer.maskedCorners = trackedHalf == .increment
            ? [.layerMaxXMinYCorner, .layerMaxXMaxYCorner] : [.layerMinXMinYCorner, .layerMinXMaxYCorner]
        let dividerHeight = ControlMetrics.stepperDividerHeight
        dividerLayer.frame = CGRect(x: origin.x + halfWidth - 0.5, y: origin.y + (size.height - dividerHeight) / 2,
                                    width: 1, height: dividerHeight)
        let length = ControlMetrics.stepperGlyphLength, thickness = ControlMetrics.stepperGlyphThickness
        let minusCentre = CGPoint(x: origin.x + halfWidth / 2, y: origin.y + size.height / 2)
        let plusCentre = CGPoint(x: origin.x + halfWidth * 1.5, y: minusCentre.y)
        minusLayer.frame = CGRect(x: minusCentre.x - length / 2, y: minusCentre.y - thickness / 2, width: length, height: thickness)
        plusLayers[0].frame = CGRect(x: plusCentre.x - length / 2, y: plusCentre.y - thickness / 2, width: length, height: thickness)
        plusLayers[1].frame = CGRect(x: plusCentre.x - thickness / 2, y: plusCentre.y - length / 2, width: thickness, height: length)
        minusLayer.backgroundColor = (canStep(.decrement) ? UIColor.label : .tertiaryLabel).cgColor
        for bar in plusLayers { bar.backgroundColor = (canStep(.increment) ? UIColor.label : .tertiaryLabel).cgColor }
    }

    // MARK: Tracking

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let half: Half = touch.location(in: self).x < bounds.midX ? .decrement : .increment
        guard canStep(half) else { return false }
        trackedHalf = half
        valueAtTouchDown = range.value
        step(half, with: event)
        if autorepeat {
            repeatTimer = UIApplication.shared.runLoop.schedule(
                after: ControlMetrics.stepperAutorepeatDelay, repeatInterval: ControlMetrics.stepperAutorepeatInterval
            ) { [weak self] _ in
                guard let self, let half = self.trackedHalf, self.isTouchInside, self.canStep(half) else { return }
                self.step(half, with: nil)
            }
        }
        return true
    }

    open override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        updateAppearance()
        return true
    }

    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        stopTracking(with: event)
    }

    open override func cancelTracking(with event: UIEvent?) {
        stopTracking(with: event)
    }

    private func stopTracking(with event: UIEvent?) {
        repeatTimer?.invalidate()
        repeatTimer = nil
        trackedHalf = nil
        updateAppearance()
        if !isContinuous && range.value != valueAtTouchDown { sendActions(for: .valueChanged, with: event) }
    }

    /// One step of `half`, wrapping or stopping at the limits.
    private func step(_ half: Half, with event: UIEvent?) {
        var next = half == .increment ? range.value + stepValue : range.value - stepValue
        if next > maximumValue { next = wraps ? minimumValue : maximumValue }
        if next < minimumValue { next = wraps ? maximumValue : minimumValue }
        guard next != range.value else { return }
        value = next
        if isContinuous { sendActions(for: .valueChanged, with: event) }
    }

    /// A single tap is the stepper's, not an ancestor's tap recognizer's.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        isEnabled && recognizer.isSingleOneFingerTap
    }
}
