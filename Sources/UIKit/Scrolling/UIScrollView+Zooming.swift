/// Zooming: the view the delegate returns from `viewForZooming(in:)` is
/// scaled by a transform, keeping its frame's origin, and the content size
/// becomes its frame's size, as in UIKit.
///
/// A pinch (two fingers, `pinchGestureRecognizer`) zooms about the point
/// between the fingers and pans with them. Past the minimum or maximum scale
/// it goes on with resistance (the rubber-band formula applied to the scale,
/// with the limit as the dimension) and, on release, animates back into
/// range; content left past an edge springs back.
extension UIScrollView {
    struct PinchState {
        let view: UIView
        /// The point under the fingers when the pinch began, in the zoomed
        /// view's own coordinates: it stays under them.
        let anchor: CGPoint
        let startZoomScale: CGFloat
        /// The pinch's scale when it began: its hysteresis does not count.
        let startPinchScale: CGFloat
    }

    /// The delegate's view to zoom, if any.
    var zoomingView: UIView? { delegate?.viewForZooming(in: self) }

    var canZoom: Bool { maximumZoomScale > minimumZoomScale && zoomingView != nil }

    /// There is a pinch recognizer while the scales leave room to zoom.
    func updatePinchGestureRecognizer() {
        let zooms = maximumZoomScale > minimumZoomScale
        if zooms, storedPinch == nil {
            let pinch = UIPinchGestureRecognizer()
            pinch.addTarget(self, action: UIScrollView.pinchGestureDidChange)
            addGestureRecognizer(pinch)
            storedPinch = pinch
        } else if !zooms, let pinch = storedPinch {
            removeGestureRecognizer(pinch)
            storedPinch = nil
        }
    }

    /// Zooms `view` to `scale` with its point `anchor` shown at `viewportPoint`
    /// (relative to the scroll view's top-left corner), as far as the content allows.
    func zoom(_ view: UIView, to scale: CGFloat, keeping anchor: CGPoint, at viewportPoint: CGPoint, animated: Bool) {
        stopMotion()
        let offset = offset(showing: anchor, of: view, at: viewportPoint, zoomScale: scale)
        if animated {
            animate(toOffset: offset, zoomScale: scale)
        } else {
            applyZoomScale(scale)
            contentOffset = offset
        }
    }

    /// The content offset, kept in range, that shows `anchor` of `view` at
    /// `viewportPoint` once the zoom scale is `scale`.
    func offset(showing anchor: CGPoint, of view: UIView, at viewportPoint: CGPoint, zoomScale scale: CGFloat) -> CGPoint {
        let origin = view.frame.origin, viewBounds = view.bounds
        let range = offsetRange(contentSize: CGSize(width: viewBounds.width * scale, height: viewBounds.height * scale))
        return CGPoint(
            x: clamp(origin.x + (anchor.x - viewBounds.minX) * scale - viewportPoint.x, range.x),
            y: clamp(origin.y + (anchor.y - viewBounds.minY) * scale - viewportPoint.y, range.y))
    }

    func clampedZoomScale(_ scale: CGFloat) -> CGFloat {
        min(max(scale, minimumZoomScale), max(minimumZoomScale, maximumZoomScale))
    }

    /// Scales the zoomed view to `scale`, keeping its frame's origin, and
    /// makes its frame's size the content size.
    func applyZoomScale(_ scale: CGFloat) {
        guard let view = zoomingView else { return }
        let origin = view.frame.origin
        view.transform = CGAffineTransform(scaleX: scale, y: scale)
        let moved = view.frame.origin
        view.center = CGPoint(x: view.center.x + origin.x - moved.x, y: view.center.y + origin.y - moved.y)
        contentSize = view.frame.size
        storedZoomScale = scale
        delegate?.scrollViewDidZoom(self)
    }

    // MARK: Pinching

    func pinchGestureDidChange() {
        guard let recognizer = storedPinch else { return }
        switch recognizer.state {
        case .began:
            guard let view = zoomingView else { return }
            stopMotion()
            pinch = PinchState(view: view, anchor: recognizer.location(in: view),
                               startZoomScale: storedZoomScale, startPinchScale: recognizer.scale)
            isZooming = true
            scrollDidStart(with: recognizer.currentTouchesNotIgnored)
            delegate?.scrollViewWillBeginZooming(self, with: view)
        case .changed:
            guard let pinch else { return }
            applyZoomScale(rubberBandZoomScale(pinch.startZoomScale * recognizer.scale / pinch.startPinchScale))
            // The anchor stays under the fingers, which also pans with them.
            let anchor = pinch.view.convert(pinch.anchor, to: self)
            let fingers = recognizer.location(in: self)
            contentOffset = CGPoint(x: contentOffset.x + anchor.x - fingers.x, y: contentOffset.y + anchor.y - fingers.y)
        case .ended, .cancelled:
            guard let pinch else { return }
            self.pinch = nil
            isZooming = false
            let scale = clampedZoomScale(storedZoomScale)
            if scale != storedZoomScale {
                isZoomBouncing = true
                let fingers = recognizer.location(in: self)
                let viewportPoint = CGPoint(x: fingers.x - contentOffset.x, y: fingers.y - contentOffset.y)
                animate(toOffset: offset(showing: pinch.anchor, of: pinch.view, at: viewportPoint, zoomScale: scale), zoomScale: scale)
            } else {
                delegate?.scrollViewDidEndZooming(self, with: pinch.view, atScale: scale)
                springBackIntoRange()
            }
        case .possible, .failed:
            break
        }
    }

    private func rubberBandZoomScale(_ wanted: CGFloat) -> CGFloat {
        let low = minimumZoomScale, high = max(minimumZoomScale, maximumZoomScale)
        guard bouncesZoom else { return clampedZoomScale(wanted) }
        if wanted > high { return high + ScrollViewConstants.rubberBand(wanted - high, dimension: high) }
        if wanted < low { return low - ScrollViewConstants.rubberBand(low - wanted, dimension: low) }
        return wanted
    }
}
