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
@preconcurrency @MainActor
open class UISwitch: UIControl {
    open var isOn = false
    private var touchStartX: CGFloat = 0
    private var isDragging = false

    open override var frame: CGRect {
        get { super.frame }
        set { super.frame = CGRect(origin: newValue.origin, size: ControlMetrics.switchSize) }
    }

    open func setOn(_ on: Bool, animated: Bool) {
        isOn = on
    }

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        touchStartX = touch.location(in: self).x
        isDragging = false
        return true
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
        guard newValue != isOn else { return }
        isOn = newValue
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
