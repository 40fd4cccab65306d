/// The scroll indicators: thin capsules along the trailing and bottom edges
/// that show which part of the content is on screen.
///
/// 1. They show while the content moves because of the user or an
///    animation (dragging, decelerating, an animated offset change) and
///    fade out ``ScrollIndicatorMetrics/hideDelay`` after it stops (over
///    ``ScrollIndicatorMetrics/fadeDuration``, then they are hidden).
///    `flashScrollIndicators()` shows them for
///    ``ScrollIndicatorMetrics/flashDuration`` without any movement. Setting
///    `contentOffset` in code shows nothing, as in UIKit.
/// 2. Each shows only along an axis the content is longer than the view
///    (with the content insets), and only while its `shows…ScrollIndicator`
///    property is true.
/// 3. Geometry (``ScrollIndicatorMetrics``): each runs along its edge, inset
///    by `verticalScrollIndicatorInsets` / `horizontalScrollIndicatorInsets`
///    and a margin; its length is the visible share of the content (no
///    shorter than a minimum), its place the share scrolled past. Pulled
///    past an edge, it shrinks by the overshoot, down to a shorter minimum,
///    and stays at that end. When both show, each stops short of the corner
///    the other uses.
/// 4. Colours follow `indicatorStyle`.
///
/// They are layers of the scroll view's layer, drawn above the content
/// (`zPosition`), not subviews as in UIKit: `subviews` holds only what the
/// application added.
extension UIScrollView {
    /// Called whenever the offset, the size or the content size changes:
    /// the indicators follow, and show if the user or an animation moved the content.
    func scrollIndicatorsFollowContent(offsetChanged: Bool) {
        if offsetChanged && isMovingByItself {
            showScrollIndicators(for: ScrollIndicatorMetrics.hideDelay)
        } else if scrollIndicators.areShown {
            layOutScrollIndicators()
        }
    }

    /// The user or an animation, not code setting the offset, is moving the content.
    private var isMovingByItself: Bool {
        if isDragging { return true }
        if case .none = motion { return false }
        return true
    }

    /// Rule 1: shows them now, and hides them after `duration` unless the content moves on.
    func showScrollIndicators(for duration: TimeInterval) {
        stopFadingScrollIndicators()
        scrollIndicators.areShown = true
        layOutScrollIndicators()
        let runLoop = UIApplication.shared.runLoop
        if let timer = scrollIndicators.hideTimer, timer.isValid {
            runLoop.reschedule(timer, after: duration)
        } else {
            scrollIndicators.hideTimer = runLoop.schedule(after: duration) { [weak self] _ in self?.hideScrollIndicatorsIfStill() }
        }
    }

    /// Rule 1: hides them unless the content is still moving.
    private func hideScrollIndicatorsIfStill() {
        if isMovingByItself {
            showScrollIndicators(for: ScrollIndicatorMetrics.hideDelay)
            return
        }
        scrollIndicators.areShown = false
        scrollIndicators.hideTimer = nil
        fadeOutScrollIndicators()
    }

    /// The shown indicators fade to nothing, then are hidden.
    private func fadeOutScrollIndicators() {
        let duration = ScrollIndicatorMetrics.fadeDuration
        for layer in [scrollIndicators.vertical, scrollIndicators.horizontal] {
            guard let layer, !layer.isHidden else { continue }
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0
            fade.duration = duration
            fade.fillMode = .forwards
            fade.isRemovedOnCompletion = false
            layer.add(fade, forKey: "fade")
        }
        scrollIndicators.fadeTimer = UIApplication.shared.runLoop.schedule(after: duration) { [weak self] _ in
            guard let self else { return }
            stopFadingScrollIndicators()
            layOutScrollIndicators()
        }
    }

    /// A fade under way stops: the indicators show whole again (or are hidden next).
    private func stopFadingScrollIndicators() {
        scrollIndicators.fadeTimer?.invalidate()
        scrollIndicators.fadeTimer = nil
        scrollIndicators.vertical?.removeAnimation(forKey: "fade")
        scrollIndicators.horizontal?.removeAnimation(forKey: "fade")
    }

    /// Rules 2–4: places and colours the two layers, or hides them.
    func layOutScrollIndicators() {
        let inset = adjustedContentInset
        let size = bounds.size
        let showsVertical = scrollIndicators.areShown && showsVerticalScrollIndicator
            && contentSize.height + inset.top + inset.bottom > size.height
        let showsHorizontal = scrollIndicators.areShown && showsHorizontalScrollIndicator
            && contentSize.width + inset.left + inset.right > size.width
        if showsVertical || scrollIndicators.vertical != nil {
            let layer = scrollIndicators.layer(.vertical, in: self)
            layer.isHidden = !showsVertical
            if showsVertical { place(layer, vertical: true, leavingCorner: showsHorizontal) }
        }
        if showsHorizontal || scrollIndicators.horizontal != nil {
            let layer = scrollIndicators.layer(.horizontal, in: self)
            layer.isHidden = !showsHorizontal
            if showsHorizontal { place(layer, vertical: false, leavingCorner: showsVertical) }
        }
    }

    private func place(_ layer: CALayer, vertical: Bool, leavingCorner: Bool) {
        let metrics = ScrollIndicatorMetrics.self
        let visible = bounds
        let insets = vertical ? verticalScrollIndicatorInsets : horizontalScrollIndicatorInsets
        let contentInset = adjustedContentInset
        // The track along the edge, in the scroll view's bounds space (which scrolls).
        let corner = leavingCorner ? metrics.thickness + metrics.margin : 0
        let trackStart = vertical ? visible.minY + insets.top + metrics.margin : visible.minX + insets.left + metrics.margin
        let trackEnd = vertical
            ? visible.maxY - insets.bottom - metrics.margin - corner
            : visible.maxX - insets.right - metrics.margin - corner
        let track = max(0, trackEnd - trackStart)
        let viewLength = vertical ? visible.height : visible.width
        let contentLength = vertical
            ? contentSize.height + contentInset.top + contentInset.bottom
            : contentSize.width + contentInset.left + contentInset.right
        let offset = vertical ? visible.minY + contentInset.top : visible.minX + contentInset.left
        let scrollable = max(contentLength - viewLength, 0)
        var length = min(track, max(metrics.minimumLength, track * viewLength / max(contentLength, 1)))
        var start: CGFloat
        if offset < 0 {
            length = max(metrics.minimumCompressedLength, length + offset)  // pulled down past the top
            start = trackStart
        } else if offset > scrollable {
            length = max(metrics.minimumCompressedLength, length - (offset - scrollable))
            start = trackEnd - length
        } else {
            start = trackStart + (scrollable > 0 ? offset / scrollable : 0) * (track - length)
        }
        length = min(length, track)
        start = min(max(start, trackStart), trackEnd - length)
        if vertical {
            let x = visible.maxX - insets.right - metrics.margin - metrics.thickness
            layer.frame = CGRect(x: x, y: start, width: metrics.thickness, height: length)
        } else {
            let y = visible.maxY - insets.bottom - metrics.margin - metrics.thickness
            layer.frame = CGRect(x: start, y: y, width: length, height: metrics.thickness)
        }
        layer.cornerRadius = metrics.thickness / 2
        let colours = metrics.colours(for: indicatorStyle)
        layer.backgroundColor = colours.fill
        layer.borderColor = colours.border
        layer.borderWidth = colours.border == nil ? 0 : metrics.borderWidth
    }
}

/// The scroll view's indicator layers, made the first time they show, and
/// whether they are shown.
struct ScrollIndicators {
    enum Axis { case vertical, horizontal }

    var vertical: CALayer?
    var horizontal: CALayer?
    var areShown = false
    var hideTimer: RunLoopTimer?
    var fadeTimer: RunLoopTimer?

    @MainActor
    mutating func layer(_ axis: Axis, in scrollView: UIScrollView) -> CALayer {
        if let existing = axis == .vertical ? vertical : horizontal { return existing }
        let layer = CALayer.partWithoutActions()
        layer.zPosition = ScrollIndicatorMetrics.zPosition
        layer.isHidden = true
        scrollView.layer.addSublayer(layer)
        if axis == .vertical { vertical = layer } else { horizontal = layer }
        return layer
    }
}

/// The indicators' sizes, times and colours. UIKit documents none of them.
public enum ScrollIndicatorMetrics {
    /// The capsule's width across its edge, in points. 2.5 pt is what the
    /// indicator views measure on iOS (their frames are 2.5 pt wide, as
    /// projects that recolour them report; JTSScrollIndicator, which copies
    /// the native look, uses 2.5 pt too); the ends are fully rounded.
    public static let thickness: CGFloat = 2.5
    /// The gap between the indicator and the scroll view's edge, in points
    /// (JTSScrollIndicator's copy of the native indicator: 2.5 pt).
    public static let margin: CGFloat = 2.5
    /// The shortest an indicator gets from the content's length, and the
    /// shortest it gets squeezed when the content is pulled past an edge
    /// (JTSScrollIndicator's copy of the native indicator: 37 pt and 8 pt).
    public static let minimumLength: CGFloat = 37
    public static let minimumCompressedLength: CGFloat = 8
    /// How long the indicators stay after the content stops, and how long
    /// `flashScrollIndicators()` shows them, in seconds: about what iOS shows
    /// (timed by eye on screen recordings, not documented).
    public static let hideDelay: TimeInterval = 0.5
    public static let flashDuration: TimeInterval = 1
    /// How long the indicators take to fade out (not documented; chosen
    /// here, about what screen recordings of iOS show).
    public static let fadeDuration: TimeInterval = 0.3
    /// The default style's border, in points.
    static let borderWidth: CGFloat = 0.5
    /// Above the content however its layers are ordered.
    static let zPosition: CGFloat = 1_000_000

    /// Fill and border by style, chosen to read as iOS's translucent grey
    /// capsules: dark with a light edge (default), dark, or light.
    static func colours(for style: UIScrollView.IndicatorStyle) -> (fill: CGColor, border: CGColor?) {
        switch style {
        case .default: (darkFill, lightBorder)
        case .black: (blackFill, nil)
        case .white: (whiteFill, nil)
        }
    }

    private static let darkFill = CGColor(red: 0, green: 0, blue: 0, alpha: 0.35)
    private static let lightBorder = CGColor(red: 1, green: 1, blue: 1, alpha: 0.35)
    private static let blackFill = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
    private static let whiteFill = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
}
