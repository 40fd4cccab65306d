/// A control for choosing a value in a range by dragging a thumb along a
/// horizontal track.
///
/// A touch that lands on the thumb (or within
/// ``ControlMetrics/sliderThumbTouchMargin`` of it) grabs it; one that
/// lands elsewhere on the track is not tracked. The grabbed thumb follows
/// the finger's horizontal movement wherever the finger goes, without
/// jumping to it. A continuous slider (the default) sends `.valueChanged`,
/// then `.primaryActionTriggered`, each time the value changes; one that is
/// not continuous sends them once, when the finger lifts (or the touch is
/// cancelled) with the value changed. Setting ``value`` in code sends
/// nothing.
///
/// A one-finger swipe along the slider that starts on the thumb is the
/// slider's own gesture: an ancestor's swipe recognizer for it fails (as
/// in UIKit).
///
/// It looks like iOS's: a thin track with round ends (``trackRect(forBounds:)``),
/// filled from its minimum end to the thumb with ``minimumTrackTintColor``
/// (the tint by default) and beyond with ``maximumTrackTintColor`` (a light
/// grey), and a white round thumb (``thumbTintColor``) with a soft shadow
/// (``thumbRect(forBounds:trackRect:value:)``). A disabled slider is drawn
/// at ``ControlMetrics/disabledControlAlpha``. The track and thumb are
/// layers of the slider's own, as on iOS, so moving the thumb redraws
/// nothing.
@preconcurrency @MainActor
open class UISlider: UIControl {
    private var range = BoundedValue<Float>(0, in: 0...1) {
        didSet { updateAppearance() }
    }
    /// The track from the minimum end to the thumb; nil is the tint.
    open var minimumTrackTintColor: UIColor? {
        didSet { updateAppearance() }
    }
    /// The track from the thumb to the maximum end; nil is a light grey
    /// (``UIColor/systemFill``).
    open var maximumTrackTintColor: UIColor? {
        didSet { updateAppearance() }
    }
    /// The thumb's colour; nil is white.
    open var thumbTintColor: UIColor? {
        didSet { updateAppearance() }
    }
    /// The track and thumb, drawn as one group so that a disabled slider
    /// fades as a whole.
    private let appearanceLayer = CALayer.partWithoutActions()
    private let minimumTrackLayer = CALayer.partWithoutActions()
    private let maximumTrackLayer = CALayer.partWithoutActions()
    private let thumbLayer = CALayer.partWithoutActions()

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addAppearanceLayers()
    }

    /// No width of its own; ``ControlMetrics/sliderIntrinsicHeight`` tall.
    open override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: ControlMetrics.sliderIntrinsicHeight)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addAppearanceLayers()
    }

    private func addAppearanceLayers() {
        for part in [maximumTrackLayer, minimumTrackLayer, thumbLayer] { appearanceLayer.addSublayer(part) }
        layer.addSublayer(appearanceLayer)
        ControlMetrics.applyThumbShadow(to: thumbLayer)
        updateAppearance()
    }

    open override var frame: CGRect {
        didSet { updateAppearance() }
    }

    open override var bounds: CGRect {
        didSet { updateAppearance() }
    }

    open override var isEnabled: Bool {
        didSet { updateAppearance() }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        updateAppearance()
    }

    /// Places the two parts of the track and the thumb for the value, and
    /// colours them.
    private func updateAppearance() {
        appearanceLayer.frame = bounds
        appearanceLayer.opacity = isEnabled ? 1 : Float(ControlMetrics.disabledControlAlpha)
        let track = trackRect(forBounds: bounds)
        let thumb = thumbRect(forBounds: bounds, trackRect: track, value: value)
        // In the appearance layer's space, whose origin is the bounds' top left.
        let dx = -bounds.minX, dy = -bounds.minY
        let split = min(max(thumb.midX, track.minX), track.maxX)
        minimumTrackLayer.frame = CGRect(x: track.minX, y: track.minY, width: split - track.minX, height: track.height).offsetBy(dx: dx, dy: dy)
        maximumTrackLayer.frame = CGRect(x: split, y: track.minY, width: track.maxX - split, height: track.height).offsetBy(dx: dx, dy: dy)
        for part in [minimumTrackLayer, maximumTrackLayer] { part.cornerRadius = track.height / 2 }
        minimumTrackLayer.maskedCorners = [.layerMinXMinYCorner, .layerMinXMaxYCorner]
        maximumTrackLayer.maskedCorners = [.layerMaxXMinYCorner, .layerMaxXMaxYCorner]
        minimumTrackLayer.backgroundColor = (minimumTrackTintColor ?? tintColor).cgColor
        maximumTrackLayer.backgroundColor = (maximumTrackTintColor ?? .systemFill).cgColor
        thumbLayer.frame = thumb.offsetBy(dx: dx, dy: dy)
        thumbLayer.cornerRadius = min(thumb.width, thumb.height) / 2
        thumbLayer.backgroundColor = (thumbTintColor ?? .white).cgColor
    }
    /// Where the finger was relative to the thumb's centre when it grabbed it.
    private var grabOffset: CGFloat = 0
    private var valueAtGrab: Float = 0

    /// The value, kept within ``minimumValue`` and ``maximumValue``.
    /// NaN is refused: the value stays as it was.
    open var value: Float {
        get { range.value }
        set { range.setValue(newValue) }
    }

    /// Raising it above the maximum raises the maximum too. A value that is
    /// not finite is refused.
    open var minimumValue: Float {
        get { range.minimum }
        set { range.setMinimum(newValue) }
    }

    /// Lowering it below the minimum lowers the minimum too. A value that
    /// is not finite is refused.
    open var maximumValue: Float {
        get { range.maximum }
        set { range.setMaximum(newValue) }
    }

    open var isContinuous = true

    open func setValue(_ value: Float, animated: Bool) {
        self.value = value
    }

    // MARK: Geometry

    /// The track: the slider's whole width, ``ControlMetrics/sliderTrackHeight``
    /// high, centred.
    open func trackRect(forBounds bounds: CGRect) -> CGRect {
        let height = ControlMetrics.sliderTrackHeight
        return CGRect(x: bounds.minX, y: bounds.midY - height / 2, width: bounds.width, height: height)
    }

    /// The thumb for `value`: ``ControlMetrics/sliderThumbDiameter`` wide,
    /// its centre moving from one end of the track to the other, inset by
    /// half the thumb.
    open func thumbRect(forBounds bounds: CGRect, trackRect rect: CGRect, value: Float) -> CGRect {
        let diameter = ControlMetrics.sliderThumbDiameter
        let range = maximumValue - minimumValue
        let fraction = range > 0 ? CGFloat((value - minimumValue) / range) : 0
        return CGRect(x: rect.minX + thumbTravel(along: rect) * fraction, y: bounds.midY - diameter / 2, width: diameter, height: diameter)
    }

    private func thumbTravel(along track: CGRect) -> CGFloat {
        max(track.width - ControlMetrics.sliderThumbDiameter, 0)
    }

    private var currentThumbRect: CGRect {
        thumbRect(forBounds: bounds, trackRect: trackRect(forBounds: bounds), value: value)
    }

    // MARK: Tracking

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let location = touch.location(in: self)
        let thumb = currentThumbRect
        let margin = ControlMetrics.sliderThumbTouchMargin
        guard thumb.insetBy(dx: -margin, dy: -margin).contains(location) else { return false }
        grabOffset = location.x - thumb.midX
        valueAtGrab = value
        return true
    }

    open override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        follow(touch, with: event)
        return true
    }

    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        if let touch { follow(touch, with: event) }
        if !isContinuous { reportValueIfChanged(since: valueAtGrab, with: event) }
    }

    open override func cancelTracking(with event: UIEvent?) {
        if !isContinuous { reportValueIfChanged(since: valueAtGrab, with: event) }
    }

    /// Moves the thumb's centre under the finger (less the grab offset).
    private func follow(_ touch: UITouch, with event: UIEvent?) {
        let track = trackRect(forBounds: bounds)
        let travel = thumbTravel(along: track)
        guard travel > 0 else { return }
        let centre = touch.location(in: self).x - grabOffset
        let fraction = Float((centre - track.minX - ControlMetrics.sliderThumbDiameter / 2) / travel)
        let previous = value
        value = minimumValue + fraction * (maximumValue - minimumValue)
        if isContinuous { reportValueIfChanged(since: previous, with: event) }
    }

    private func reportValueIfChanged(since oldValue: Float, with event: UIEvent?) {
        guard value != oldValue else { return }
        sendActions(for: .valueChanged, with: event)
        sendActions(for: .primaryActionTriggered, with: event)
    }

    // MARK: Gestures

    /// A one-finger horizontal swipe that grabbed the thumb is the slider's.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        guard isEnabled, isTracking, let swipe = recognizer as? UISwipeGestureRecognizer,
              swipe.numberOfTouchesRequired == 1 else { return false }
        return !swipe.direction.isEmpty && swipe.direction.isSubset(of: [.left, .right])
    }
}
