@testable import UIKit

/// The application as the touch router and the gesture arena see it, for
/// tests of either alone: it records what they ask of it.
@MainActor
final class StandInEventPathHost: EventPathHost {
    /// What the part reported, in order.
    var reports: [Diagnostic] = []
    /// The windows to hit-test, front first.
    var windows: [UIWindow] = []
    /// The frames the part queued, in order.
    var queuedFrames: [[TouchSample]] = []

    func report(_ diagnostic: Diagnostic) { reports.append(diagnostic) }

    func frontmostHit(at screenLocation: CGPoint, with event: UIEvent) -> (window: UIWindow, view: UIView)? {
        for window in windows {
            if let view = window.hitTest(window.layer.convertFromSuperlayer(screenLocation), with: event) { return (window, view) }
        }
        return nil
    }

    func enqueueTouchFrameNow(_ samples: [TouchSample]) { queuedFrames.append(samples) }
}

/// The views' side of touch delivery, for tests of the arena alone: it
/// records what the arena tells it.
@MainActor
final class RecordingViewTouchDelivery: ViewTouchDelivery {
    var calls: [String] = []

    func discardHeldBegan(of touches: [UITouch]) { calls.append("discardHeldBegan \(touches.count)") }
    func cancelViewDelivery(of touches: [UITouch]) { calls.append("cancelViewDelivery \(touches.count)") }
    func releaseHeldTouches(_ touches: [UITouch]) { calls.append("releaseHeldTouches \(touches.count)") }
}
