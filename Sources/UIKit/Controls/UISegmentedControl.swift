/// A row of segments, each a title or an image, of which one is selected.
///
/// Touch behaviour, as in UIKit (iOS 13 and later): a finger that lands on
/// an enabled segment highlights the segment under it, the highlight
/// following the finger from segment to segment; lifting the finger over a
/// segment selects that segment and, if the selection changed, sends
/// `.valueChanged`. Lifting it outside the control (beyond
/// ``ControlMetrics/touchInsideMargin``), or a cancelled touch, changes
/// nothing. A momentary control (``isMomentary``) shows no selection: it
/// sends `.valueChanged` on every touch up over a segment, with
/// ``selectedSegmentIndex`` set to that segment while its actions run, and
/// then goes back to ``noSegment`` (Apple: momentary segments "don't update
/// the value of selectedSegmentIndex after tracking ends"). Setting the
/// selection in code sends nothing.
///
/// It looks like iOS 17's: a light grey track with round corners
/// (``UIColor/tertiarySystemFill``), the selected segment on a white
/// rounded "thumb" (``selectedSegmentTintColor``) with a soft shadow, thin
/// separators between unselected segments, titles in 13-point system font
/// (semibold when selected) in ``UIColor/label``, and images as templates
/// in the same colour. The measures are in ``ControlMetrics``.
@preconcurrency @MainActor
open class UISegmentedControl: UIControl {
    /// The index of no segment.
    public static let noSegment = -1

    private struct Segment {
        var title: String?
        var image: UIImage?
        var isEnabled = true
        /// 0: an equal share of what the fixed widths leave.
        var width: CGFloat = 0
    }

    private var segments: [Segment] = []
    /// What shows each segment: a label or an image view, in segment order.
    private var contentViews: [UIView] = []
    private let thumbLayer = CALayer.partWithoutActions()
    private var separatorLayers: [CALayer] = []
    /// The segment under the finger while tracking.
    private var highlightedSegment = UISegmentedControl.noSegment

    /// The selected segment, or ``noSegment``. An index out of range is
    /// refused (the selection stays as it was).
    open var selectedSegmentIndex = UISegmentedControl.noSegment {
        didSet {
            if selectedSegmentIndex != UISegmentedControl.noSegment && !segments.indices.contains(selectedSegmentIndex) {
                selectedSegmentIndex = oldValue
            }
            setNeedsLayout()
            updateContentStyles()
        }
    }

    /// Whether segments show no selection and send `.valueChanged` on every tap.
    open var isMomentary = false {
        didSet { setNeedsLayout() }
    }

    /// The selected segment's thumb; nil is white.
    open var selectedSegmentTintColor: UIColor? {
        didSet { thumbLayer.backgroundColor = (selectedSegmentTintColor ?? .white).cgColor }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        setUpAppearance()
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        setUpAppearance()
    }

    /// A control with a segment for each item, a `String` (a title) or a
    /// ``UIImage``; other items are left out.
    public convenience init(items: [Any]?) {
        self.init(frame: .zero)
        for item in items ?? [] {
            if let title = item as? String {
                insertSegment(withTitle: title, at: numberOfSegments, animated: false)
            } else if let image = item as? UIImage {
                insertSegment(with: image, at: numberOfSegments, animated: false)
            }
        }
        frame.size = sizeThatFits(.zero)
    }

    private func setUpAppearance() {
        layer.backgroundColor = UIColor.tertiarySystemFill.cgColor
        layer.cornerRadius = ControlMetrics.segmentedControlCornerRadius
        thumbLayer.backgroundColor = UIColor.white.cgColor
        thumbLayer.cornerRadius = ControlMetrics.segmentedControlThumbCornerRadius
        thumbLayer.shadowOpacity = ControlMetrics.segmentedControlThumbShadowOpacity
        thumbLayer.shadowOffset = ControlMetrics.segmentedControlThumbShadowOffset
        thumbLayer.shadowRadius = ControlMetrics.segmentedControlThumbShadowRadius
        layer.addSublayer(thumbLayer)
    }

    // MARK: Segments

    open var numberOfSegments: Int { segments.count }

    /// Inserts a titled segment at `segment`, clamped to 0…``numberOfSegments``.
    open func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        insert(Segment(title: title), at: segment)
    }

    /// Inserts a segment showing `image` at `segment`, clamped to 0…``numberOfSegments``.
    open func insertSegment(with image: UIImage?, at segment: Int, animated: Bool) {
        insert(Segment(image: image), at: segment)
    }

    private func insert(_ segment: Segment, at index: Int) {
        let index = min(max(index, 0), segments.count)
        segments.insert(segment, at: index)
        if selectedSegmentIndex != UISegmentedControl.noSegment && selectedSegmentIndex >= index { selectedSegmentIndex += 1 }
        rebuildContent()
    }

    /// Removes the segment at `segment`; an index out of range does nothing.
    /// Removing the selected segment leaves no selection.
    open func removeSegment(at segment: Int, animated: Bool) {
        guard segments.indices.contains(segment) else { return }
        segments.remove(at: segment)
        if selectedSegmentIndex == segment {
            selectedSegmentIndex = UISegmentedControl.noSegment
        } else if selectedSegmentIndex > segment {
            selectedSegmentIndex -= 1
        }
        rebuildContent()
    }

    open func removeAllSegments() {
        segments.removeAll()
        selectedSegmentIndex = UISegmentedControl.noSegment
        rebuildContent()
    }

    /// Shows `title` in the segment (instead of its image); an index out of
    /// range does nothing.
    open func setTitle(_ title: String?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].title = title
        segments[segment].image = nil
        rebuildContent()
    }

    open func titleForSegment(at segment: Int) -> String? {
        segments.indices.contains(segment) ? segments[segment].title : nil
    }

    /// Shows `image` in the segment (instead of its title); an index out of
    /// range does nothing.
    open func setImage(_ image: UIImage?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].image = image
        segments[segment].title = nil
        rebuildContent()
    }

    open func imageForSegment(at segment: Int) -> UIImage? {
        segments.indices.contains(segment) ? segments[segment].image : nil
    }

    /// A disabled segment cannot be selected by touch and is drawn faded.
    open func setEnabled(_ enabled: Bool, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].isEnabled = enabled
        updateContentStyles()
    }

    open func isEnabledForSegment(at segment: Int) -> Bool {
        segments.indices.contains(segment) && segments[segment].isEnabled
    }

    /// A fixed width for the segment; 0 (or a width that is not finite and
    /// positive) shares the rest equally.
    open func setWidth(_ width: CGFloat, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].width = width.isFinite && width > 0 ? width : 0
        setNeedsLayout()
    }

    open func widthForSegment(at segment: Int) -> CGFloat {
        segments.indices.contains(segment) ? segments[segment].width : 0
    }

    // MARK: Geometry

    /// Each segment's rectangle in the bounds: fixed widths as set, the rest
    /// shared equally, the whole height.
    private func segmentFrames() -> [CGRect] {
        var fixed: CGFloat = 0, flexible = 0
        for segment in segments {
            if segment.width > 0 { fixed += segment.width } else { flexible += 1 }
        }
        let share = flexible > 0 ? max(bounds.width - fixed, 0) / CGFloat(flexible) : 0
        var frames: [CGRect] = []
        var x = bounds.minX
        for segment in segments {
            let width = segment.width > 0 ? segment.width : share
            frames.append(CGRect(x: x, y: bounds.minY, width: width, height: bounds.height))
            x += width
        }
        return frames
    }

    /// The segment whose column contains `point`'s x, or ``noSegment``.
    private func segment(at point: CGPoint) -> Int {
        let frames = segmentFrames()
        for index in frames.indices where point.x >= frames[index].minX && point.x < frames[index].maxX {
            return index
        }
        return UISegmentedControl.noSegment
    }

    /// The widest segment's content plus padding, times the segments, and
    /// ``ControlMetrics/segmentedControlHeight`` high.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        var widest: CGFloat = 0, fixed: CGFloat = 0, flexible = 0
        for (index, segment) in segments.enumerated() {
            if segment.width > 0 { fixed += segment.width; continue }
            flexible += 1
            widest = max(widest, contentViews[index].sizeThatFits(.zero).width)
        }
        let padded = widest + 2 * ControlMetrics.segmentedControlContentPadding
        return CGSize(width: ceil(fixed + padded * CGFloat(flexible)), height: ControlMetrics.segmentedControlHeight)
    }

    open override var intrinsicContentSize: CGSize { sizeThatFits(.zero) }

    // MARK: Appearance

    private var showsSelection: Bool {
        !isMomentary && segments.indices.contains(selectedSegmentIndex)
    }

    private func rebuildContent() {
        for view in contentViews { view.removeFromSuperview() }
        contentViews.removeAll()
        for layer in separatorLayers { layer.removeFromSuperlayer() }
        separatorLayers.removeAll()
        for segment in segments {
            let view: UIView
            if let image = segment.image {
                view = UIImageView(image: image.renderingMode == .alwaysOriginal ? image : image.withRenderingMode(.alwaysTemplate))
                view.tintColor = .label
            } else {
                let label = UILabel(frame: .zero)
                label.text = segment.title
                label.textAlignment = .center
                view = label
            }
            contentViews.append(view)
            addSubview(view)
        }
        for _ in segments.dropFirst() {
            let separator = CALayer.partWithoutActions()
            separator.backgroundColor = UIColor.opaqueSeparator.cgColor
            separatorLayers.append(separator)
            layer.insertSublayer(separator, below: thumbLayer)
        }
        updateContentStyles()
        setNeedsLayout()
        invalidateIntrinsicContentSize()
    }

    /// Fonts, colours and fading of each segment's content for the state.
    private func updateContentStyles() {
        // Between a change to the segments and the rebuild of their views.
        guard contentViews.count == segments.count else { return }
        for (index, view) in contentViews.enumerated() {
            let selected = showsSelection && index == selectedSegmentIndex
            if let label = view as? UILabel {
                label.font = .systemFont(ofSize: ControlMetrics.segmentedControlFontSize, weight: selected ? .semibold : .regular)
                label.textColor = .label
            }
            var alpha: CGFloat = 1
            if !isEnabled || !segments[index].isEnabled {
                alpha = ControlMetrics.disabledControlAlpha
            } else if index == highlightedSegment && !selected {
                alpha = ControlMetrics.segmentedControlHighlightedContentAlpha
            }
            view.alpha = alpha
        }
    }

    open override var isEnabled: Bool {
        didSet {
            thumbLayer.opacity = isEnabled ? 1 : Float(ControlMetrics.disabledControlAlpha)
            updateContentStyles()
        }
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        let frames = segmentFrames()
        for (index, view) in contentViews.enumerated() {
            let fitting = view.sizeThatFits(.zero)
            let frame = frames[index].insetBy(dx: ControlMetrics.segmentedControlThumbInset, dy: 0)
            let size = CGSize(width: min(fitting.width, frame.width), height: min(fitting.height, frame.height))
            view.frame = CGRect(x: frame.midX - size.width / 2, y: frame.midY - size.height / 2, width: size.width, height: size.height)
        }
        thumbLayer.isHidden = !showsSelection
        if showsSelection {
            let inset = ControlMetrics.segmentedControlThumbInset
            thumbLayer.frame = frames[selectedSegmentIndex].insetBy(dx: inset, dy: inset)
        }
        let height = ControlMetrics.segmentedControlSeparatorHeight
        for (index, separator) in separatorLayers.enumerated() {
            // Between segments `index` and `index + 1`; hidden beside the
            // thumb or a pressed segment, as on iOS.
            let x = frames[index].maxX
            separator.frame = CGRect(x: x - 0.5, y: bounds.midY - height / 2, width: 1, height: height)
            let besideSelection = showsSelection && (selectedSegmentIndex == index || selectedSegmentIndex == index + 1)
            let besideHighlight = highlightedSegment == index || highlightedSegment == index + 1
            separator.isHidden = besideSelection || besideHighlight
        }
    }

    private func highlight(_ segment: Int) {
        guard segment != highlightedSegment else { return }
        highlightedSegment = segment
        updateContentStyles()
        setNeedsLayout()
    }

    // MARK: Tracking

    open override func beginTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let index = segment(at: touch.location(in: self))
        guard isEnabledForSegment(at: index) else { return false }
        highlight(index)
        return true
    }

    open override func continueTracking(_ touch: UITouch, with event: UIEvent?) -> Bool {
        let index = isTouchInside ? segment(at: touch.location(in: self)) : UISegmentedControl.noSegment
        highlight(isEnabledForSegment(at: index) ? index : UISegmentedControl.noSegment)
        return true
    }

    open override func endTracking(_ touch: UITouch?, with event: UIEvent?) {
        let index = highlightedSegment
        highlight(UISegmentedControl.noSegment)
        guard let touch, isTouchInside, index == segment(at: touch.location(in: self)), isEnabledForSegment(at: index) else { return }
        if isMomentary {
            selectedSegmentIndex = index
            sendActions(for: .valueChanged, with: event)
            selectedSegmentIndex = UISegmentedControl.noSegment
        } else if index != selectedSegmentIndex {
            selectedSegmentIndex = index
            sendActions(for: .valueChanged, with: event)
        }
    }

    open override func cancelTracking(with event: UIEvent?) {
        highlight(UISegmentedControl.noSegment)
    }

    /// A single tap is the control's, not an ancestor's tap recognizer's.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        isEnabled && recognizer.isSingleOneFingerTap
    }
}
