/// Who gets a touch, and when.
///
/// 1. A finger lands. The application asks its visible windows, front to
///    back (the highest `windowLevel` first; among equal levels, the most
///    recently shown first), to hit-test the point with `hitTest(_:with:)`.
///    The first window that returns a view owns the touch. That view and
///    window are the touch's for life: every later phase goes to them, even
///    after the finger has left the view.
/// 2. The touch's tap count goes up by one if it lands within
///    ``TouchTapCounting/maximumInterval`` of the previous tap's end and
///    within ``TouchTapCounting/allowableMovement`` of where it began.
/// 3. A view whose `isMultipleTouchEnabled` is false receives only the first
///    of its touches: one that lands while the view tracks another is not
///    delivered to it.
/// 4. While a view whose `isExclusiveTouch` is true tracks a touch, no other
///    view in its window receives new touches; and an exclusive view
///    receives no new touch while another view in its window tracks one.
/// 5. The application sends each event to every window that owns some of its
///    touches (`UIApplication.sendEvent(_:)`, then `UIWindow.sendEvent(_:)`).
///    The window calls each of its views once per phase, with all of that
///    view's touches in that phase: `touchesBegan`, then `touchesMoved`,
///    `touchesEnded` and `touchesCancelled`; views in the order their touches
///    appear in the frame. Stationary touches are in the event but not
///    delivered. The view passes what it does not handle up the responder chain.
/// 6. A view that leaves its window while it tracks touches receives
///    `touchesCancelled` for them as the next event in the queue; from then
///    on the finger is ignored until it lifts.
@MainActor
final class TouchRouter {
    /// Touches that began and have not ended, in the order they began.
    private(set) var activeTouches: [UITouch] = []
    private var lastTap: (location: CGPoint, time: TimeInterval, count: Int)?

    // MARK: Steps 1–4: preparing an event for delivery

    /// Gives each touch the state this event carries and routes new touches.
    func prepare(_ event: UIEvent, in application: UIApplication) {
        var touches: [UITouch] = []
        touches.reserveCapacity(event.touchSamples.count)
        for sample in event.touchSamples {
            let touch = sample.touch
            // A queued frame may still mention a touch the application has since cancelled.
            if touch.isEndedByApplication && !sample.isApplicationCancellation { continue }
            if touch.phase == .ended || touch.phase == .cancelled, sample.phase != .began { continue }
            apply(sample, to: touch, at: event.timestamp)
            if sample.phase == .began {
                route(touch, event: event, application: application)
            }
            touches.append(touch)
        }
        event.touchesInOrder = touches
    }

    private func apply(_ sample: TouchSample, to touch: UITouch, at timestamp: TimeInterval) {
        if sample.phase == .began {
            touch.previousScreenLocation = sample.location
            touch.startScreenLocation = sample.location
        } else {
            touch.previousScreenLocation = touch.screenLocation
        }
        touch.screenLocation = sample.location
        touch.phase = sample.phase
        if sample.phase != .stationary { touch.timestamp = timestamp }
        touch.majorRadius = sample.majorRadius
        touch.majorRadiusTolerance = sample.majorRadiusTolerance
        touch.force = sample.force
        touch.maximumPossibleForce = sample.maximumPossibleForce
    }

    private func route(_ touch: UITouch, event: UIEvent, application: UIApplication) {
        touch.timestamp = event.timestamp
        touch.tapCount = tapCount(for: touch)
        activeTouches.append(touch)
        // Step 1: the front-most window that hit-tests a view owns the touch.
        for window in application.windowsFrontToBack() {
            let point = window.layer.convertFromSuperlayer(touch.screenLocation)
            if let view = window.hitTest(point, with: event) {
                touch.window = window
                touch.view = view
                break
            }
        }
        guard let view = touch.view, let window = touch.window else {
            touch.isDeliveredToView = false
            return
        }
        let tracking = activeTouches.filter { $0 !== touch && $0.window === window && $0.isDeliveredToView && $0.view != nil }
        // Step 3: one touch at a time for a view that is not multiple-touch enabled.
        if !view.isMultipleTouchEnabled && tracking.contains(where: { $0.view === view }) {
            touch.isDeliveredToView = false
        }
        // Step 4: an exclusive view tracks alone, and is not joined while it does.
        if view.isExclusiveTouch && tracking.contains(where: { $0.view !== view }) {
            touch.isDeliveredToView = false
        }
        if tracking.contains(where: { $0.view !== view && $0.view!.isExclusiveTouch }) {
            touch.isDeliveredToView = false
        }
    }

    /// Step 2.
    private func tapCount(for touch: UITouch) -> Int {
        guard let lastTap,
              touch.timestamp - lastTap.time <= TouchTapCounting.maximumInterval,
              distance(touch.startScreenLocation, lastTap.location) <= TouchTapCounting.allowableMovement
        else { return 1 }
        return lastTap.count + 1
    }

    // MARK: Step 5: delivery in a window

    /// Calls each view of `window` once per phase with its touches.
    func deliver(_ event: UIEvent, to window: UIWindow) {
        for phase in [UITouch.Phase.began, .moved, .ended, .cancelled] {
            var views: [UIView] = []
            var touchesPerView: [Set<UITouch>] = []
            for touch in event.touchesInOrder where touch.phase == phase && touch.window === window && touch.isDeliveredToView {
                guard let view = touch.view else { continue }
                if let index = views.firstIndex(where: { $0 === view }) {
                    touchesPerView[index].insert(touch)
                } else {
                    views.append(view)
                    touchesPerView.append([touch])
                }
            }
            for (view, touches) in zip(views, touchesPerView) {
                switch phase {
                case .began: view.touchesBegan(touches, with: event)
                case .moved: view.touchesMoved(touches, with: event)
                case .ended: view.touchesEnded(touches, with: event)
                case .cancelled: view.touchesCancelled(touches, with: event)
                case .stationary: break
                }
            }
        }
    }

    /// Forgets the touches that ended in `event`, remembering a tap for step 2.
    func finish(_ event: UIEvent) {
        for touch in event.touchesInOrder where touch.phase == .ended || touch.phase == .cancelled {
            activeTouches.removeAll { $0 === touch }
            if touch.phase == .ended && !touch.isEndedByApplication
                && distance(touch.screenLocation, touch.startScreenLocation) <= TouchTapCounting.allowableMovement {
                lastTap = (touch.startScreenLocation, touch.timestamp, touch.tapCount)
            } else {
                lastTap = nil
            }
        }
    }

    // MARK: Step 6: views leaving their window

    /// Cancels the touches of `view` and its subviews: called when the view
    /// leaves its window.
    func viewDidLeaveWindow(_ view: UIView, application: UIApplication) {
        guard !activeTouches.isEmpty else { return }
        let orphans = activeTouches.filter { touch in
            guard !touch.isEndedByApplication, touch.isDeliveredToView, let touchView = touch.view else { return false }
            return touchView.isDescendant(of: view)
        }
        guard !orphans.isEmpty else { return }
        var samples: [TouchSample] = []
        for touch in orphans {
            touch.isEndedByApplication = true
            samples.append(TouchSample(
                touch: touch, phase: .cancelled, location: touch.screenLocation,
                majorRadius: touch.majorRadius, majorRadiusTolerance: touch.majorRadiusTolerance,
                force: touch.force, maximumPossibleForce: touch.maximumPossibleForce,
                isApplicationCancellation: true))
        }
        application.enqueue(UIEvent(touchSamples: samples, timestamp: application.runLoop.clock.now))
    }

    private func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
        hypot(a.x - b.x, a.y - b.y)
    }
}

/// How close in time and place successive taps must be to count as one
/// multi-tap (`UITouch.tapCount`). UIKit does not document these values;
/// they are the ones SPEC.md §5 fixes for the tap recognizer, so that a
/// touch's tap count and a double-tap recognizer agree.
public enum TouchTapCounting {
    /// Longest pause between the end of one tap and the start of the next.
    public static let maximumInterval: TimeInterval = 0.35
    /// Farthest a tap may land from the previous one, and move while down.
    public static let allowableMovement: CGFloat = 45
}
