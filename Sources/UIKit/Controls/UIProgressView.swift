/// A bar that fills from the left as a task progresses.
///
/// It looks like iOS 17's: a thin track (``ControlMetrics/progressViewHeight``
/// high, round ends) in ``trackTintColor`` (``UIColor/systemFill`` by
/// default), filled up to ``progress`` with ``progressTintColor`` (the tint
/// by default). The `.bar` style has square ends and a clear track. The bar
/// is centred vertically in the bounds; its track and fill are layers, so
/// changing the progress redraws nothing.
@preconcurrency @MainActor
open class UIProgressView: UIView {
    public enum Style: Int, Sendable {
        /// The standard bar.
        case `default` = 0
        /// For a toolbar: square ends, no track colour.
        case bar
    }

    open var progressViewStyle: Style = .default {
        didSet { updateAppearance() }
    }

    private var range = BoundedValue<Float>(0, in: 0...1) {
        didSet { updateAppearance() }
    }
    private let trackLayer = CALayer.partWithoutActions()
    private let fillLayer = CALayer.partWithoutActions()

    /// How far the task is, 0…1; values beyond are pinned, NaN is refused.
    open var progress: Float {
        get { range.value }
        set { range.setValue(newValue) }
    }

    /// The fill's colour; nil is the tint.
    open var progressTintColor: UIColor? {
        didSet { updateAppearance() }
    }

    /// The track's colour; nil is ``UIColor/systemFill`` (clear for `.bar`).
    open var trackTintColor: UIColor? {
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

    /// A progress view of `style`, as wide as it is given later and
    /// ``ControlMetrics/progressViewHeight`` high.
    public convenience init(progressViewStyle style: Style) {
        self.init(frame: CGRect(x: 0, y: 0, width: 0, height: ControlMetrics.progressViewHeight))
        progressViewStyle = style
    }

    /// Sets ``progress``. The change is shown at once: there are no view
    /// animations here yet, so `animated` is accepted and ignored.
    open func setProgress(_ progress: Float, animated: Bool) {
        self.progress = progress
    }

    open override var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: ControlMetrics.progressViewHeight)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        CGSize(width: size.width, height: ControlMetrics.progressViewHeight)
    }

    open override var frame: CGRect {
        didSet { updateAppearance() }
    }

    open override var bounds: CGRect {
        didSet { updateAppearance() }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        updateAppearance()
    }

    private func addAppearanceLayers() {
        layer.addSublayer(trackLayer)
        layer.addSublayer(fillLayer)
        updateAppearance()
    }

    private func updateAppearance() {
        let height = min(ControlMetrics.progressViewHeight, bounds.height)
        let track = CGRect(x: bounds.minX, y: bounds.midY - height / 2, width: bounds.width, height: height)
        let radius = progressViewStyle == .default ? height / 2 : 0
        trackLayer.frame = track
        trackLayer.cornerRadius = radius
        trackLayer.backgroundColor = (trackTintColor ?? (progressViewStyle == .default ? .systemFill : .clear)).cgColor
        fillLayer.frame = CGRect(x: track.minX, y: track.minY, width: track.width * CGFloat(range.value), height: height)
        fillLayer.cornerRadius = radius
        fillLayer.backgroundColor = (progressTintColor ?? tintColor).cgColor
    }
}
