import TestExpectations
import Testing
@testable import UIKit

/// The touch router on its own: built with a stand-in application, fed
/// frames of samples by hand. The application's queue, run loop and
/// gesture arena take no part (windows still announce themselves to the
/// application when made, which the router never asks about).
@MainActor
private final class Router {
    let host = StandInEventPathHost()
    let delivery = EventDeliveryState()
    let event = UIEvent(type: .touches, timestamp: 0)
    let router: TouchRouter
    let log = CallLog()

    init(windows: [UIWindow]) {
        router = TouchRouter(host: host, delivery: delivery, touchesEvent: event)
        for window in windows { window.isHidden = false }
        host.windows = windows
        delivery.traceHandler = { [log] record in
            if case .touchesDelivered(let phase, let view, let count) = record.step {
                log.add("\((view as? LoggingView)?.name ?? "?") \(phase) ×\(count)")
            }
        }
    }

    /// One frame at `time`: prepared, given to the views of each window
    /// that owns some of its touches, and finished, as the application does
    /// with no recognizer in the way.
    func frame(at time: TimeInterval, _ samples: [TouchSample]) {
        event.timestamp = time
        router.prepare(event, from: samples, samples.indices)
        for window in host.windows {
            router.deliverToViews(router.touches(of: event, in: window), of: event)
        }
        router.finish(event)
    }

    static func sample(_ touch: UITouch, _ phase: UITouch.Phase, _ x: CGFloat, _ y: CGFloat) -> TouchSample {
        TouchSample(touch: touch, phase: phase, location: CGPoint(x: x, y: y), majorRadius: 10,
                    majorRadiusTolerance: 1, force: 0, maximumPossibleForce: 0)
    }
}

@MainActor
@Suite struct TouchRouterTests {
    @Test func aTouchGoesToTheFrontMostHitForLifeAndIsTimedOnce() {
        let log = CallLog()
        let back = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let front = UIWindow(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let backView = LoggingView("back", frame: back.bounds, log: log)
        let frontView = LoggingView("front", frame: front.bounds, log: log)
        back.addSubview(backView)
        front.addSubview(frontView)
        let router = Router(windows: [front, back])
        let touch = UITouch(fingerIdentifier: 1)
        router.frame(at: 1, [Router.sample(touch, .began, 10, 10)])
        #expect(touch.window === front && touch.view === frontView)
        #expect(touch.timestamp == 1 && touch.tapCount == 1)
        expectEqual(router.router.touchesOnScreen, [touch])
        // Still the front view's when it moves over the back window only;
        // a stationary sample leaves the time of the last change.
        router.frame(at: 2, [Router.sample(touch, .moved, 80, 80)])
        router.frame(at: 3, [Router.sample(touch, .stationary, 80, 80)])
        expectEqual(touch.timestamp, 2)
        router.frame(at: 4, [Router.sample(touch, .ended, 80, 80)])
        expectEqual(log.entries, ["front began", "front moved", "front ended"])
        expectEqual(router.log.entries, ["front began ×1", "front moved ×1", "front ended ×1"])
        #expect(router.router.touchesOnScreen.isEmpty)
    }

    @Test func aTouchThatHitsNothingReachesNoView() {
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let router = Router(windows: [window])
        let touch = UITouch(fingerIdentifier: 1)
        router.frame(at: 1, [Router.sample(touch, .began, 200, 200)])
        #expect(touch.window == nil && touch.view == nil && !touch.isDeliveredToView)
        #expect(router.log.entries.isEmpty)
    }

    @Test func samplesAfterTheTouchEndedOrTheApplicationCancelledItAreSkipped() {
        let log = CallLog()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let view = LoggingView("view", frame: window.bounds, log: log)
        window.addSubview(view)
        let router = Router(windows: [window])

        // Rule: nothing after the end.
        let ended = UITouch(fingerIdentifier: 1)
        router.frame(at: 1, [Router.sample(ended, .began, 10, 10)])
        router.frame(at: 2, [Router.sample(ended, .ended, 10, 10)])
        router.router.prepare(router.event, from: [Router.sample(ended, .moved, 20, 20)], 0..<1)
        #expect(router.event.touchesInOrder.isEmpty && ended.phase == .ended)

        // Rule: after the application cancelled a touch (its view left the
        // window), only that cancellation applies.
        let cancelled = UITouch(fingerIdentifier: 2)
        router.frame(at: 3, [Router.sample(cancelled, .began, 10, 10)])
        router.router.viewDidLeaveWindow(view)
        expectEqual(router.host.queuedFrames.count, 1)
        let cancellation = router.host.queuedFrames[0]
        #expect(cancellation.count == 1 && cancellation[0].touch === cancelled && cancellation[0].phase == .cancelled
            && cancellation[0].isApplicationCancellation)
        router.frame(at: 4, [Router.sample(cancelled, .moved, 30, 30)])
        #expect(cancelled.phase == .began && cancelled.screenLocation == CGPoint(x: 10, y: 10))
        router.frame(at: 5, cancellation)
        expectEqual(cancelled.phase, .cancelled)
        router.frame(at: 6, [Router.sample(cancelled, .ended, 30, 30)])
        expectEqual(cancelled.phase, .cancelled)
        expectEqual(log.entries, ["view began", "view ended", "view began", "view cancelled"])
    }

    @Test func aSingleTouchViewAndAnExclusiveViewAreNotJoined() {
        let log = CallLog()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        let single = LoggingView("single", frame: CGRect(x: 0, y: 0, width: 100, height: 100), log: log)
        let exclusive = LoggingView("exclusive", frame: CGRect(x: 100, y: 0, width: 100, height: 100), log: log)
        single.isMultipleTouchEnabled = false
        exclusive.isExclusiveTouch = true
        window.addSubview(single)
        window.addSubview(exclusive)
        let router = Router(windows: [window])
        let first = UITouch(fingerIdentifier: 1), second = UITouch(fingerIdentifier: 2), third = UITouch(fingerIdentifier: 3)
        router.frame(at: 1, [Router.sample(first, .began, 10, 10)])
        router.frame(at: 2, [Router.sample(second, .began, 20, 20)])   // step 3: the view tracks one already
        router.frame(at: 3, [Router.sample(third, .began, 150, 50)])   // step 4: another view tracks one
        #expect(first.isDeliveredToView && !second.isDeliveredToView && !third.isDeliveredToView)
        #expect(third.isExcludedByExclusiveTouch && !second.isExcludedByExclusiveTouch)
        #expect(router.router.touches(of: router.event, in: window).isEmpty)  // excluded from everyone
        expectEqual(log.entries, ["single began"])
    }

    @Test func anUndecidedRecognizerHoldsTheBeganBackUntilItFails() {
        let log = CallLog()
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let view = LoggingView("view", frame: window.bounds, log: log)
        window.addSubview(view)
        let holder = UIGestureRecognizer()
        holder.delaysTouchesBegan = true
        view.addGestureRecognizer(holder)
        let router = Router(windows: [window])
        let touch = UITouch(fingerIdentifier: 1)
        router.router.prepare(router.event, from: [Router.sample(touch, .began, 10, 10)], 0..<1)
        touch.gestureRecognizerList = [holder]  // what the arena would have done
        router.router.deliverToViews([touch], of: router.event)
        #expect(log.entries.isEmpty && touch.heldPhases == [.began])
        holder.storedState = .failed
        router.router.releaseHeldTouches([touch])
        #expect(log.entries == ["view began"] && touch.heldPhases.isEmpty)
        expectEqual(router.log.entries, ["view began ×1"])
    }

    @Test func aSecondQuickTapInTheSameWindowCountsTwo() {
        let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(UIView(frame: window.bounds))
        let router = Router(windows: [window])
        let first = UITouch(fingerIdentifier: 1), second = UITouch(fingerIdentifier: 1)
        router.frame(at: 1, [Router.sample(first, .began, 10, 10)])
        router.frame(at: 1.05, [Router.sample(first, .ended, 10, 10)])
        router.frame(at: 1.2, [Router.sample(second, .began, 12, 12)])
        expectEqual(second.tapCount, 2)
        // Forgotten (the window was hidden, say): the next tap starts over.
        let third = UITouch(fingerIdentifier: 1)
        router.frame(at: 1.25, [Router.sample(second, .ended, 12, 12)])
        router.router.forgetTaps(in: window)
        router.frame(at: 1.3, [Router.sample(third, .began, 12, 12)])
        expectEqual(third.tapCount, 1)
    }
}
