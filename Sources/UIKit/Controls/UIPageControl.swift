/// A row of dots, one per page, the current page's darker.
///
/// Touch behaviour, as Apple documents it: a tap to the right of the
/// current page's dot moves to the next page, to the left of it to the
/// previous one, one page at a time, on touch up inside, and sends
/// `.valueChanged` if the page changed (not at the first or last page).
/// Setting ``currentPage`` in code sends nothing.
///
/// It looks like iOS 17's: dots ``ControlMetrics/pageControlDotDiameter``
/// across, ``ControlMetrics/pageControlDotSpacing`` apart, centred in the
/// bounds, in ``pageIndicatorTintColor`` and the current one in
/// ``currentPageIndicatorTintColor``.
@preconcurrency @MainActor
open class UIPageControl: UIControl {
    private var dotLayers: [CALayer] = []

    /// How many pages (dots) there are; negative values count as 0.
    open var numberOfPages = 0 {
        didSet {
            if numberOfPages < 0 { numberOfPages = 0 }
            currentPage = min(currentPage, max(numberOfPages - 1, 0))
            rebuildDots()
        }
    }

    /// The current page, pinned to 0…``numberOfPages`` − 1.
    open var currentPage = 0 {
        didSet {
            let pinned = min(max(currentPage, 0), max(numberOfPages - 1, 0))
            if currentPage != pinned { currentPage = pinned }
            updateDots()
        }
    }

    /// Hides the dots when there is only one page.
    open var hidesForSinglePage = false {
        didSet { updateDots() }
    }

    /// The other pages' dots; nil is ``UIColor/tertiaryLabel`` (chosen).
    open var pageIndicatorTintColor: UIColor? {
        didSet { updateDots() }
    }

    /// The current page's dot; nil is ``UIColor/label`` (chosen).
    open var currentPageIndicatorTintColor: UIColor? {
        didSet { updateDots() }
    }

    /// The size the dots of `pageCount` pages need, with
    /// ``ControlMetrics/pageControlHeight``.
    open func size(forNumberOfPages pageCount: Int) -> CGSize {
        let count = CGFloat(max(pageCount, 0))
        let width = count * ControlMetrics.pageControlDotDiameter + max(count - 1, 0) * ControlMetrics.pageControlDotSpacing
        return CGSize(width: width + 2 * ControlMetrics.pageControlHorizontalPadding, height: ControlMetrics.pageControlHeight)
    }

    open override func sizeThatFits(_ size: CGSize) -> CGSize { self.size(forNumberOfPages: numberOfPages) }

    open override var intrinsicContentSize: CGSize { size(forNumberOfPages: numberOfPages) }

    private func rebuildDots() {
        for dot in dotLayers { dot.removeFromSuperlayer() }
        dotLayers.removeAll()
        for _ in 0..<numberOfPages {
            let dot = CALayer.partWithoutActions()
            dot.cornerRadius = ControlMetrics.pageControlDotDiameter / 2
            dotLayers.append(dot)
            layer.addSublayer(dot)
        }
        updateDots()
        invalidateIntrinsicContentSize()
    }

    /// The centre of page `page`'s dot in the bounds.
    private func dotCentre(_ page: Int) -> CGPoint {
        let content = size(forNumberOfPages: numberOfPages).width - 2 * ControlMetrics.pageControlHorizontalPadding
        let pitch = ControlMetrics.pageControlDotDiameter + ControlMetrics.pageControlDotSpacing
        let x = bounds.midX - content / 2 + ControlMetrics.pageControlDotDiameter / 2 + CGFloat(page) * pitch
        return CGPoint(x: x, y: bounds.midY)
    }

    private func updateDots() {
        let diameter = ControlMetrics.pageControlDotDiameter
        let hidden = hidesForSinglePage && numberOfPages == 1
        for (page, dot) in dotLayers.enumerated() {
            let centre = dotCentre(page)
            dot.frame = CGRect(x: centre.x - diameter / 2, y: centre.y - diameter / 2, width: diameter, height: diameter)
            dot.isHidden = hidden
            let color = page == currentPage ? currentPageIndicatorTintColor ?? .label : pageIndicatorTintColor ?? .tertiaryLabel
            dot.backgroundColor = color.cgColor
        }
    }

    open override var frame: CGRect {
        didSet { updateDots() }
    }

    open override var bounds: CGRect {
        didSet { updateDots() }
    }

    // MARK: Tracking

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        numberOfPages > 1
    }

    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        guard let touch, isTouchInside else { return }
        let forward = touch.location(in: self).x >= dotCentre(currentPage).x
        let page = min(max(currentPage + (forward ? 1 : -1), 0), numberOfPages - 1)
        guard page != currentPage else { return }
        currentPage = page
        sendActions(for: .valueChanged, with: event)
    }

    /// A single tap is the page control's, not an ancestor's tap recognizer's.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        isEnabled && recognizer.isSingleOneFingerTap
    }
}
