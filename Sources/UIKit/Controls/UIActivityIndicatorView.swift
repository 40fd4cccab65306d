/// A spinner that shows that something is under way.
///
/// It spins while ``isAnimating``, by the display's timing (a
/// `CADisplayLink` on the main run loop, so with the manual clock in tests):
/// eight spokes round a centre, the darkest one stepping an eighth of a turn
/// every ``ControlMetrics/activityIndicatorStepDuration``, the others fading
/// behind it. Stopped, it shows the spokes still, or hides itself when
/// ``hidesWhenStopped`` is true (the default; so a new indicator is hidden
/// until it starts). The spinner is ``ControlMetrics/activityIndicatorMediumSide``
/// or ``ControlMetrics/activityIndicatorLargeSide`` across by ``style``,
/// centred in the bounds, in ``color``.
@preconcurrency @MainActor
open class UIActivityIndicatorView: UIView {
    public enum Style: Int, Sendable {
        case medium = 100
        case large = 101
        @available(*, deprecated, renamed: "large")
        case whiteLarge = 0
        @available(*, deprecated, renamed: "medium")
        case white = 1
        @available(*, deprecated, renamed: "medium")
        case gray = 2
    }

    /// The spinner's size; changing it resizes the view (keeping its centre).
    open var style: Style = .medium {
        didSet { resizeForStyle() }
    }

    private func resizeForStyle() {
        let centre = center
        bounds.size = CGSize(width: side, height: side)
        center = centre
        setNeedsDisplay()
    }

    /// The spokes' colour; setting nil gives back the default, a grey
    /// (``UIColor/secondaryLabel``, chosen to match iOS 13 to 17).
    open var color: UIColor! {
        get { storedColor ?? .secondaryLabel }
        set {
            storedColor = newValue
            setNeedsDisplay()
        }
    }

    open var hidesWhenStopped = true {
        didSet { isHidden = hidesWhenStopped && !isAnimating }
    }

    open private(set) var isAnimating = false

    private var storedColor: UIColor?
    private var displayLink: CADisplayLink?
    private var startTime: TimeInterval?
    /// Which spoke is darkest, 0…7 clockwise from the top.
    private(set) var leadingSpoke = 0 {
        didSet { if leadingSpoke != oldValue { setNeedsDisplay() } }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
        isHidden = true
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        backgroundColor = .clear
        isHidden = true
    }

    /// An indicator of `style`, sized for it.
    public convenience init(style: Style) {
        self.init(frame: .zero)
        self.style = style
        // Observers do not run for a property set in the class's own initializer.
        resizeForStyle()
    }

    private var side: CGFloat {
        switch style {
        case .large, .whiteLarge: ControlMetrics.activityIndicatorLargeSide
        default: ControlMetrics.activityIndicatorMediumSide
        }
    }

    open override var intrinsicContentSize: CGSize { CGSize(width: side, height: side) }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    /// Shows the indicator and spins it from the top spoke.
    open func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        isHidden = false
        startTime = nil
        let link = CADisplayLink { [weak self] link in self?.spin(at: link.timestamp) }
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    /// Stops the spinning, and hides the indicator if ``hidesWhenStopped``.
    open func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        displayLink?.invalidate()
        displayLink = nil
        if hidesWhenStopped { isHidden = true }
    }

    private func spin(at time: TimeInterval) {
        let start = startTime ?? time
        startTime = start
        let steps = Int(((time - start) / ControlMetrics.activityIndicatorStepDuration).rounded(.down))
        leadingSpoke = steps % ControlMetrics.activityIndicatorSpokeCount
    }

    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let count = ControlMetrics.activityIndicatorSpokeCount
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        let inner = side * ControlMetrics.activityIndicatorSpokeInnerRadius
        let outer = side * ControlMetrics.activityIndicatorSpokeOuterRadius
        context.setLineWidth(side * ControlMetrics.activityIndicatorSpokeWidth)
        context.setLineCap(.round)
        for spoke in 0..<count {
            // Clockwise from the top, in UIKit's y-down space.
            let angle = CGFloat(spoke) / CGFloat(count) * 2 * .pi
            let direction = CGPoint(x: sin(angle), y: -cos(angle))
            let behind = (leadingSpoke - spoke + count) % count
            context.setStrokeColor(color.withAlphaComponent(color.cgColor.alpha * ControlMetrics.activityIndicatorSpokeAlpha(behind: behind)).cgColor)
            context.move(to: CGPoint(x: centre.x + direction.x * inner, y: centre.y + direction.y * inner))
            context.addLine(to: CGPoint(x: centre.x + direction.x * outer, y: centre.y + direction.y * outer))
            context.strokePath()
        }
    }
}
