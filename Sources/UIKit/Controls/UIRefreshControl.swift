/// A spinner above a scroll view's content that starts a refresh when the
/// user pulls the content down far enough.
///
/// Attach it with the scroll view's `refreshControl`. As in UIKit: while a
/// finger drags the content down past ``ControlMetrics/refreshControlTriggerDistance``
/// beyond its top, the control starts refreshing (``isRefreshing``) and
/// sends `.valueChanged`, once per pull; when the finger lifts, the scroll
/// view's top inset grows by ``ControlMetrics/refreshControlHeight`` so the
/// spinner stays in sight. ``endRefreshing()`` takes the inset back.
/// ``beginRefreshing()`` (in code) starts refreshing without an event and
/// adds the inset at once.
@preconcurrency @MainActor
open class UIRefreshControl: UIControl {
    public private(set) var isRefreshing = false
    /// Shown under the spinner.
    open var attributedTitle: NSAttributedString? {
        didSet { titleLabel.attributedText = attributedTitle }
    }
    private let spinner = UIActivityIndicatorView(style: .medium)
    private let titleLabel = UILabel(frame: .zero)
    /// Places the control above `scrollView`'s content: the scroll view's
    /// `refreshControl` calls this.
    func attach(to scrollView: UIScrollView) {
        let height = ControlMetrics.refreshControlHeight
        frame = CGRect(x: 0, y: -height, width: scrollView.bounds.width, height: height)
        scrollView.insertSubview(self, at: 0)
        scrollView.alwaysBounceVertical = true
    }

    /// Whether the top inset has been grown for the spinner.
    private var holdsInset = false

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addSubviews()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addSubviews()
    }

    public convenience init() {
        self.init(frame: .zero)
    }

    private func addSubviews() {
        spinner.hidesWhenStopped = false
        addSubview(spinner)
        titleLabel.font = .systemFont(ofSize: 13)
        titleLabel.textColor = .secondaryLabel
        titleLabel.textAlignment = .center
        addSubview(titleLabel)
    }

    private var scrollView: UIScrollView? { superview as? UIScrollView }

    /// Starts refreshing, as if pulled, but sends nothing.
    open func beginRefreshing() {
        guard !isRefreshing else { return }
        isRefreshing = true
        spinner.startAnimating()
        holdInset()
    }

    /// Stops refreshing and gives the scroll view its inset back.
    open func endRefreshing() {
        guard isRefreshing else { return }
        isRefreshing = false
        spinner.stopAnimating()
        guard holdsInset, let scrollView else { return }
        holdsInset = false
        scrollView.contentInset.top -= ControlMetrics.refreshControlHeight
    }

    private func holdInset() {
        guard !holdsInset, let scrollView else { return }
        holdsInset = true
        scrollView.contentInset.top += ControlMetrics.refreshControlHeight
    }

    /// The scroll view scrolled: a drag past the trigger distance starts a refresh.
    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        guard scrollView.isDragging, !isRefreshing else { return }
        let pulled = -(scrollView.contentOffset.y + scrollView.adjustedContentInset.top)
        guard pulled >= ControlMetrics.refreshControlTriggerDistance else { return }
        isRefreshing = true
        spinner.startAnimating()
        sendActions(for: .valueChanged)
    }

    /// The finger lifted: a refresh that started keeps the spinner in sight.
    func scrollViewDidEndDragging(_ scrollView: UIScrollView) {
        if isRefreshing { holdInset() }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        spinner.center = CGPoint(x: bounds.midX, y: bounds.midY - (attributedTitle == nil ? 0 : 8))
        titleLabel.frame = CGRect(x: 0, y: spinner.frame.maxY + 4, width: bounds.width, height: 16)
    }
}
