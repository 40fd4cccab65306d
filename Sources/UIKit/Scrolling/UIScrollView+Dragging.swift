/// Dragging, releasing and the content's motion on its own.
///
/// 1. A finger lands: the scroll view is tracking. If the content was
///    moving on its own it stops there, and the touch only stopped it.
/// 2. The pan begins once the finger has moved 10 points along an axis the
///    scroll view can scroll (so an inner scroll view that scrolls only
///    sideways lets an outer vertical one take a vertical drag). With
///    directional lock, a drag that starts close to one axis stays on it.
/// 3. While dragging, the content follows the finger from where the pan
///    began (it does not jump by the 10 points); past an edge it follows
///    less and less (``ScrollViewConstants/rubberBand(_:dimension:)``), or
///    stops at the edge without ``bounces``.
/// 4. On release the scroll view plans where the content will rest — where
///    coasting from the release velocity ends, kept inside the content; the
///    nearest page in the direction of the velocity with paging; the edge if
///    it is pulled past one — and lets the delegate change that target.
/// 5. Then the content moves there, frame by frame on a display link (at
///    the screen's refreshes, as UIKit's scroll animations are, so each
///    refresh shows a new offset): coasting (``AxisMotion``), overshooting
///    an edge and springing back, or springing onto a page or back into range.
///    The offset shown on the way is on the screen's pixel grid, as UIKit's
///    is: the compositor then copies the content's pixels rather than
///    filtering them (a whole screen of table cells at a fraction of a pixel
///    cost 50 ms a frame); the motion keeps the exact offset for its
///    physics. Coasting comes to rest on the target's nearest pixel, as
///    UIKit's does (``onPixelGrid(_:)``); an animated change of offset ends
///    on the exact offset asked for.
extension UIScrollView {
    struct DragState {
        /// The offset the drag started from, without rubber-banding: where
        /// the finger "holds" the content.
        let startOffset: CGPoint
        /// The pan's translation when it began, which the content ignores.
        let startTranslation: CGPoint
        /// The axes the drag moves (directional lock may leave one out).
        let scrollsHorizontally: Bool
        let scrollsVertically: Bool
    }

    enum Motion {
        case none
        /// Coasting or springing after a drag (`isDecelerating`).
        case decelerating(x: AxisMotion, y: AxisMotion)
        /// An animated change of offset (and zoom scale, when zooming).
        case animating(ScrollAnimation)
    }

    // MARK: Which way the content can move

    /// The offsets at which the content is fully in place, on each axis.
    var offsetRange: (x: ClosedRange<CGFloat>, y: ClosedRange<CGFloat>) {
        offsetRange(contentSize: contentSize)
    }

    /// The same for content of another size (as it will be after a zoom).
    func offsetRange(contentSize: CGSize) -> (x: ClosedRange<CGFloat>, y: ClosedRange<CGFloat>) {
        let inset = adjustedContentInset
        let size = bounds.size
        let minX = 0 - inset.left, minY = 0 - inset.top  // no negative zero without insets
        let maxX = max(minX, contentSize.width + inset.right - size.width)
        let maxY = max(minY, contentSize.height + inset.bottom - size.height)
        return (minX...maxX, minY...maxY)
    }

    var canScrollHorizontally: Bool {
        let inset = adjustedContentInset
        return contentSize.width + inset.left + inset.right > bounds.width || (bounces && alwaysBounceHorizontal)
    }

    var canScrollVertically: Bool {
        let inset = adjustedContentInset
        return contentSize.height + inset.top + inset.bottom > bounds.height || (bounces && alwaysBounceVertical)
    }

    /// Step 2: how far the finger has moved along the axes the scroll view can scroll.
    func scrollableDistance(of translation: CGPoint) -> CGFloat {
        switch (canScrollHorizontally, canScrollVertically) {
        case (true, true): hypot(translation.x, translation.y)
        case (true, false): abs(translation.x)
        case (false, true): abs(translation.y)
        case (false, false): 0
        }
    }

    // MARK: Steps 1–3: touching and dragging

    /// Step 1. Coasting, springing and an animated change of offset stop
    /// where they are shown, and the touch that stopped them is not the
    /// content's. A zoom animation runs on (a drag that starts ends it).
    func panDidReceive(_ touches: Set<UITouch>) {
        isTracking = true
        switch motion {
        case .decelerating: break
        case .animating(let animation) where !animation.zooms: break
        case .none, .animating: return
        }
        stopMotion()
        for touch in touches { touch.isDeliveredToView = false }
    }

    /// The pan's touches are gone: if it never dragged and the content is out
    /// of range (a touch caught it bouncing, or a pinch left it there), it springs back.
    func panDidReset() {
        isTracking = false
        springBackIntoRange()
    }

    /// Springs back if the content is out of range and nothing else moves it.
    func springBackIntoRange() {
        guard drag == nil, case .none = motion, pinch == nil else { return }
        let offset = contentOffset, range = offsetRange
        let x = AxisMotion.springing(from: offset.x, to: clamp(offset.x, range.x), velocity: 0)
        let y = AxisMotion.springing(from: offset.y, to: clamp(offset.y, range.y), velocity: 0)
        if !x.isResting || !y.isResting { beginDecelerating(x: x, y: y) }
    }

    func panGestureDidChange() {
        switch storedPan.state {
        case .began: beginDragging()
        case .changed: dragContent()
        case .ended: endDragging(fingerVelocity: storedPan.velocity(in: self))
        case .cancelled: endDragging(fingerVelocity: .zero)
        case .possible, .failed: break
        }
    }

    private func beginDragging() {
        stopMotion()
        let translation = storedPan.translation(in: self)
        var horizontal = canScrollHorizontally, vertical = canScrollVertically
        if isDirectionalLockEnabled && horizontal && vertical {
            let ratio = ScrollViewConstants.directionalLockRatio
            if abs(translation.y) <= abs(translation.x) * ratio { vertical = false }
            else if abs(translation.x) <= abs(translation.y) * ratio { horizontal = false }
        }
        let offset = contentOffset, range = offsetRange, size = bounds.size
        drag = DragState(
            startOffset: CGPoint(x: unrubberBand(offset.x, range.x, size.width), y: unrubberBand(offset.y, range.y, size.height)),
            startTranslation: translation, scrollsHorizontally: horizontal, scrollsVertically: vertical)
        isDragging = true
        scrollDidStart(with: storedPan.currentTouchesNotIgnored)
        delegate?.scrollViewWillBeginDragging(self)
    }

    /// Step 3.
    private func dragContent() {
        guard let drag else { return }
        let translation = storedPan.translation(in: self)
        let range = offsetRange, size = bounds.size
        var offset = contentOffset
        if drag.scrollsHorizontally {
            offset.x = rubberBand(drag.startOffset.x - (translation.x - drag.startTranslation.x), range.x, size.width)
        }
        if drag.scrollsVertically {
            offset.y = rubberBand(drag.startOffset.y - (translation.y - drag.startTranslation.y), range.y, size.height)
        }
        contentOffset = offset
    }

    /// Something else moved the content during this drag (a sheet that
    /// takes the finger's movement while the content is at its top, as
    /// iOS's does): the drag goes on from where the content now is, the
    /// finger holding it there, instead of putting it back where the finger
    /// alone would have.
    func continueDragFromCurrentOffset() {
        guard let drag else { return }
        self.drag = DragState(startOffset: contentOffset, startTranslation: storedPan.translation(in: self),
                              scrollsHorizontally: drag.scrollsHorizontally, scrollsVertically: drag.scrollsVertically)
    }

    /// The offset shown for `wanted`, which may lie past an edge.
    private func rubberBand(_ wanted: CGFloat, _ range: ClosedRange<CGFloat>, _ dimension: CGFloat) -> CGFloat {
        guard bounces else { return clamp(wanted, range) }
        if wanted < range.lowerBound { return range.lowerBound - ScrollViewConstants.rubberBand(range.lowerBound - wanted, dimension: dimension) }
        if wanted > range.upperBound { return range.upperBound + ScrollViewConstants.rubberBand(wanted - range.upperBound, dimension: dimension) }
        return wanted
    }

    /// The inverse: where the finger holds content shown at `shown`.
    private func unrubberBand(_ shown: CGFloat, _ range: ClosedRange<CGFloat>, _ dimension: CGFloat) -> CGFloat {
        if shown < range.lowerBound { return range.lowerBound - ScrollViewConstants.dragDistance(showing: range.lowerBound - shown, dimension: dimension) }
        if shown > range.upperBound { return range.upperBound + ScrollViewConstants.dragDistance(showing: shown - range.upperBound, dimension: dimension) }
        return shown
    }

    // MARK: Steps 4–5: releasing

    /// Step 4. `fingerVelocity` is the pan's, in points per second.
    private func endDragging(fingerVelocity: CGPoint) {
        guard let drag else { return }
        self.drag = nil
        // The offset moves against the finger (0 - v: no negative zero for a finger at rest).
        let velocity = CGPoint(x: drag.scrollsHorizontally ? 0 - fingerVelocity.x : 0,
                               y: drag.scrollsVertically ? 0 - fingerVelocity.y : 0)
        let offset = contentOffset, range = offsetRange, size = bounds.size
        let planned = CGPoint(x: restingOffset(offset.x, velocity.x, range.x, size.width),
                              y: restingOffset(offset.y, velocity.y, range.y, size.height))
        var target = planned
        if let delegate {
            let perMillisecond = CGPoint(x: velocity.x / 1000, y: velocity.y / 1000)
            withUnsafeMutablePointer(to: &target) {
                delegate.scrollViewWillEndDragging(self, withVelocity: perMillisecond, targetContentOffset: $0)
            }
        }
        let x = axisMotion(offset.x, velocity.x, planned: planned.x, target: target.x, range.x)
        let y = axisMotion(offset.y, velocity.y, planned: planned.y, target: target.y, range.y)
        isDragging = false
        let decelerates = !x.isResting || !y.isResting
        delegate?.scrollViewDidEndDragging(self, willDecelerate: decelerates)
        if decelerates { beginDecelerating(x: x, y: y) }
    }

    /// Where content released at `offset` with `velocity` will rest on one axis.
    private func restingOffset(_ offset: CGFloat, _ velocity: CGFloat, _ range: ClosedRange<CGFloat>, _ pageLength: CGFloat) -> CGFloat {
        if !range.contains(offset) { return clamp(offset, range) }
        if isPagingEnabled && pageLength > 0 {
            let page: CGFloat
            if abs(velocity) < ScrollViewConstants.minimumPagingVelocity { page = (offset / pageLength).rounded() }
            else if velocity > 0 { page = (offset / pageLength).rounded(.up) }
            else { page = (offset / pageLength).rounded(.down) }
            return clamp(page * pageLength, range)
        }
        return clamp(AxisMotion.restingPoint(from: offset, velocity: velocity, rate: decelerationRate.rawValue), range)
    }

    /// Step 5 for one axis: how it gets from `offset` to `target`. Content
    /// past an edge and pages spring; otherwise it coasts — with the release
    /// velocity when the target is the planned one and the content bounces
    /// (so a fling into an edge overshoots it and springs back), or else with
    /// the velocity that ends exactly at the target.
    private func axisMotion(_ offset: CGFloat, _ velocity: CGFloat, planned: CGFloat, target: CGFloat,
                            _ range: ClosedRange<CGFloat>) -> AxisMotion {
        let rate = decelerationRate.rawValue
        if !range.contains(offset) || isPagingEnabled {
            return .springing(from: offset, to: target, velocity: velocity)
        }
        if target == planned && bounces { return .coasting(from: offset, velocity: velocity, rate: rate) }
        return .coasting(from: offset, to: target, rate: rate)
    }

    // MARK: The motion's display link

    func beginDecelerating(x: AxisMotion, y: AxisMotion) {
        motion = .decelerating(x: x, y: y)
        motionGeneration += 1
        isDecelerating = true
        delegate?.scrollViewWillBeginDecelerating(self)
        startMotionLink()
    }

    func animate(toOffset offset: CGPoint, zoomScale: CGFloat?) {
        motion = .animating(ScrollAnimation(
            fromOffset: contentOffset, toOffset: offset, fromScale: storedZoomScale, toScale: zoomScale ?? storedZoomScale,
            zooms: zoomScale != nil, start: UIApplication.shared.runLoop.clock.now))
        motionGeneration += 1
        startMotionLink()
    }

    private func startMotionLink() {
        lastFrameTime = UIApplication.shared.runLoop.clock.now
        motionOffset = contentOffset
        guard motionLink == nil else { return }
        let link = CADisplayLink { [weak self] link in
            guard let self else { return link.invalidate() }  // the scroll view went away mid-motion
            self.stepMotion(showingAt: link.targetTimestamp)
        }
        link.add(to: .main, forMode: .common)
        motionLink = link
    }

    /// One frame, shown at `time`: moves the content to where it is then,
    /// and when it has arrived, says so — unless the delegate, told of the
    /// move, started or stopped a motion itself.
    private func stepMotion(showingAt time: TimeInterval) {
        let now = max(time, lastFrameTime)
        let seconds = now - lastFrameTime
        lastFrameTime = now
        let generation = motionGeneration
        switch motion {
        case .none:
            stopMotionLink()
        case .decelerating(var x, var y):
            // From the exact offset, unless something else moved the content.
            let offset = contentOffset == onPixelGrid(motionOffset) ? motionOffset : contentOffset
            let range = offsetRange
            let next = CGPoint(x: x.step(from: offset.x, by: seconds, range: range.x, bounces: bounces),
                               y: y.step(from: offset.y, by: seconds, range: range.y, bounces: bounces))
            motion = .decelerating(x: x, y: y)
            let arrived = x.isResting && y.isResting
            motionOffset = next
            contentOffset = onPixelGrid(next)
            if arrived && motionGeneration == generation { finishDecelerating() }
        case .animating(let animation):
            let progress = animation.progress(at: now)
            if animation.zooms { applyZoomScale(animation.scale(at: progress)) }
            let next = animation.offset(at: progress)
            motionOffset = next
            contentOffset = progress >= 1 ? next : onPixelGrid(next)
            if progress >= 1 && motionGeneration == generation { finishAnimation(animation) }
        }
    }

    /// `offset` rounded to the screen's pixels. UIKit rounds a content
    /// offset it is given to the screen's pixels: set to 71.75 on a 3×
    /// screen it reads 71.666… (Apple's developer forums, thread 666049),
    /// set to 3.8 or −7.5 on a 1× screen it reads 4 or −8 (open radar
    /// 23255528; andrewmarinov.com, "UIScrollView's contentOffset
    /// precision"), so a deceleration, whose every offset goes through that
    /// setter, also rests on a pixel: a resting offset between pixels
    /// would make its last frame the one drawn by filtering rather than by
    /// copying the pixels already drawn.
    private func onPixelGrid(_ offset: CGPoint) -> CGPoint {
        let scale = max(1, UIScreen.main.scale)
        return CGPoint(x: (offset.x * scale).rounded() / scale, y: (offset.y * scale).rounded() / scale)
    }

    /// Stops whatever moves the content, telling the delegate it ended, so
    /// that every beginning it heard of has its end. A zoom animation jumps
    /// to its end, so that the scale is never left out of range.
    func stopMotion() {
        switch motion {
        case .none:
            return
        case .decelerating:
            finishDecelerating()
        case .animating(let animation):
            motion = .none  // so that a delegate hearing of the jump finds nothing left to stop
            if animation.zooms {
                applyZoomScale(animation.toScale)
                contentOffset = animation.toOffset
            }
            finishAnimation(animation)
        }
    }

    private func finishDecelerating() {
        motion = .none
        motionGeneration += 1
        stopMotionLink()
        isDecelerating = false
        delegate?.scrollViewDidEndDecelerating(self)
    }

    private func finishAnimation(_ animation: ScrollAnimation) {
        motion = .none
        motionGeneration += 1
        stopMotionLink()
        if animation.zooms {
            isZoomBouncing = false
            delegate?.scrollViewDidEndZooming(self, with: zoomingView, atScale: storedZoomScale)
        } else {
            delegate?.scrollViewDidEndScrollingAnimation(self)
        }
    }

    private func stopMotionLink() {
        guard case .none = motion else { return }
        motionLink?.invalidate()
        motionLink = nil
    }
}

func clamp(_ value: CGFloat, _ range: ClosedRange<CGFloat>) -> CGFloat {
    min(max(value, range.lowerBound), range.upperBound)
}

/// An animated change of offset, and of zoom scale when zooming, over
/// ``ScrollViewConstants/scrollAnimationDuration`` on
/// ``ScrollViewConstants/scrollAnimationCurve``.
@MainActor
struct ScrollAnimation {
    let fromOffset: CGPoint, toOffset: CGPoint
    let fromScale: CGFloat, toScale: CGFloat
    let zooms: Bool
    let start: TimeInterval

    func progress(at time: TimeInterval) -> CGFloat {
        min(max((time - start) / ScrollViewConstants.scrollAnimationDuration, 0), 1)
    }

    func offset(at progress: CGFloat) -> CGPoint {
        let t = eased(progress)
        return CGPoint(x: fromOffset.x + (toOffset.x - fromOffset.x) * t, y: fromOffset.y + (toOffset.y - fromOffset.y) * t)
    }

    func scale(at progress: CGFloat) -> CGFloat {
        fromScale + (toScale - fromScale) * eased(progress)
    }

    private func eased(_ t: CGFloat) -> CGFloat { CGFloat(Self.curve.value(at: Double(t))) }

    private static let curve = CAMediaTimingFunction(name: ScrollViewConstants.scrollAnimationCurve)
}

/// The scroll view's pan: UIKit's pan, which begins only once the finger has
/// moved far enough along an axis its scroll view can scroll, and which
/// tells the scroll view when fingers land and when it resets.
final class ScrollViewPanGestureRecognizer: UIPanGestureRecognizer {
    private var scrollView: UIScrollView? { view as? UIScrollView }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesBegan(touches, with: event)
        scrollView?.panDidReceive(touches)
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        if state == .possible, let scrollView {
            // The translation is brought up to this event's fingers first.
            followFingers(at: event.timestamp)
            if scrollView.scrollableDistance(of: translation(in: scrollView)) < GestureThresholds.panHysteresis { return }
        }
        super.touchesMoved(touches, with: event)
    }

    override func reset() {
        super.reset()
        scrollView?.panDidReset()
    }
}
