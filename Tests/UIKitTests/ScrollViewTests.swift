import TestExpectations
import Testing
@testable import UIKit

/// Records what a scroll view tells its delegate; can change the target
/// offset of a release and offers a view to zoom.
@MainActor
final class ScrollDelegateLog: UIScrollViewDelegate {
    var entries: [String] = []
    var scrolls = 0
    var offsets: [CGPoint] = []
    var releaseVelocity: CGPoint?
    var plannedTarget: CGPoint?
    var replacementTarget: CGPoint?
    var zoomView: UIView?

    /// The calls other than `scrollViewDidScroll`/`scrollViewDidZoom`, in order.
    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        scrolls += 1
        offsets.append(scrollView.contentOffset)
    }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { entries.append("willBeginDragging") }
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint,
                                   targetContentOffset: UnsafeMutablePointer<CGPoint>) {
        entries.append("willEndDragging")
        releaseVelocity = velocity
        plannedTarget = targetContentOffset.pointee
        if let replacementTarget { targetContentOffset.pointee = replacementTarget }
    }
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        entries.append("didEndDragging(\(decelerate))")
    }
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) { entries.append("willBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { entries.append("didEndDecelerating") }
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) { entries.append("didEndScrollingAnimation") }
    func viewForZooming(in scrollView: UIScrollView) -> UIView? { zoomView }
    func scrollViewWillBeginZooming(_ scrollView: UIScrollView, with view: UIView?) { entries.append("willBeginZooming") }
    func scrollViewDidEndZooming(_ scrollView: UIScrollView, with view: UIView?, atScale scale: CGFloat) {
        entries.append("didEndZooming(\(scale))")
    }
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: UIScrollView) { entries.append("didChangeAdjustedContentInset") }
}

/// A window filled by a 400×800 scroll view over 400×4000 of content, a
/// recording view on the content at (0,0,400,200), and a delegate.
@MainActor
private func scrollScene(contentSize: CGSize = CGSize(width: 400, height: 4000))
    -> (UIScrollView, RecordingView, ScrollDelegateLog, TouchSynthesizer) {
    let window = makeWindow()
    let scrollView = UIScrollView(frame: window.bounds)
    scrollView.contentSize = contentSize
    let content = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
    scrollView.addSubview(content)
    window.addSubview(scrollView)
    let log = ScrollDelegateLog()
    scrollView.delegate = log
    return (scrollView, content, log, TouchSynthesizer(window: window))
}

extension TouchSynthesizer {
    /// Moves `finger` to `end` in `steps` equal moves spread over `seconds`.
    func drag(_ finger: Int, from start: CGPoint, to end: CGPoint, steps: Int = 10, over seconds: TimeInterval = 0.16) {
        for step in 1...steps {
            advance(by: seconds / Double(steps))
            let t = CGFloat(step) / CGFloat(steps)
            touchMove(finger, to: CGPoint(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t))
        }
    }

    /// A finger put down at `start`, dragged to `end` and lifted there at once (a fling).
    func fling(from start: CGPoint, to end: CGPoint, steps: Int = 10, over seconds: TimeInterval = 0.16) {
        let finger = touchDown(at: start)
        drag(finger, from: start, to: end, steps: steps, over: seconds)
        touchUp(finger)
    }
}

@MainActor
@Suite struct ScrollViewTests {
    // MARK: Geometry

    @Test func contentOffsetIsTheBoundsOriginAndEveryChangeIsReported() {
        let (scrollView, _, log, _) = scrollScene()
        scrollView.contentOffset = CGPoint(x: 0, y: 120)
        expectEqual(scrollView.bounds.origin, CGPoint(x: 0, y: 120))
        scrollView.bounds.origin = CGPoint(x: 0, y: 50)
        expectEqual(scrollView.contentOffset, CGPoint(x: 0, y: 50))
        scrollView.setContentOffset(CGPoint(x: 0, y: 50), animated: false)  // unchanged: not reported
        expectEqual(log.offsets, [CGPoint(x: 0, y: 120), CGPoint(x: 0, y: 50)])
        // Content is hit-tested where the offset shows it.
        #expect(scrollView.hitTest(CGPoint(x: 10, y: 60), with: nil) === scrollView.subviews[0])
        #expect(scrollView.hitTest(CGPoint(x: 10, y: 260), with: nil) === scrollView)
    }

    @Test func contentInsetWidensTheRangeAndIsReported() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        scrollView.contentInset = UIEdgeInsets(top: 50, left: 0, bottom: 30, right: 0)
        expectEqual(scrollView.adjustedContentInset, scrollView.contentInset)
        expectEqual(log.entries, ["didChangeAdjustedContentInset"])
        expectEqual(scrollView.offsetRange.y, -50...3230)
        // A release above the inset springs back to -50, not to 0.
        scrollView.contentOffset = CGPoint(x: 0, y: -50)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 300))
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 300), to: CGPoint(x: 200, y: 400))
        synthesizer.advance(by: 0.5)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.y, -50)
    }

    @Test func setContentOffsetAnimatedAndScrollRectToVisible() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        let clock = UIApplication.shared.runLoop.clock
        let start = clock.now
        scrollView.setContentOffset(CGPoint(x: 0, y: 600), animated: true)
        expectEqual(scrollView.contentOffset.y, 0)
        synthesizer.advance(by: ScrollViewConstants.scrollAnimationDuration / 2)
        // Each step is worked out for the time its frame is shown: the
        // refresh after the last one that has passed (60 Hz, no server).
        let shownAt = ((clock.now * 60).rounded(.down) + 1) / 60
        let progress = (shownAt - start) / ScrollViewConstants.scrollAnimationDuration
        #expect(progress > 0.5 && progress <= 0.5 + 1.0 / 18 + 1e-9)
        // Ease in, ease out (Core Animation's curve), shown on the screen's pixel grid.
        let scale = UIScreen.main.scale
        let eased = CAMediaTimingFunction(name: .easeInEaseOut).value(at: progress)
        #expect(abs(scrollView.contentOffset.y - (600 * eased * scale).rounded() / scale) < 0.001)
        synthesizer.advance(by: ScrollViewConstants.scrollAnimationDuration / 2 + 0.02)
        expectEqual(scrollView.contentOffset.y, 600)
        expectEqual(log.entries, ["didEndScrollingAnimation"])

        // Already visible: no move. Below: the least move that shows it. Past the end: as far as the content goes.
        scrollView.scrollRectToVisible(CGRect(x: 0, y: 700, width: 100, height: 100), animated: false)
        expectEqual(scrollView.contentOffset.y, 600)
        scrollView.scrollRectToVisible(CGRect(x: 0, y: 1500, width: 100, height: 100), animated: false)
        expectEqual(scrollView.contentOffset.y, 800)
        scrollView.scrollRectToVisible(CGRect(x: 0, y: 100, width: 100, height: 50), animated: false)
        expectEqual(scrollView.contentOffset.y, 100)
        scrollView.scrollRectToVisible(CGRect(x: 0, y: 3900, width: 100, height: 300), animated: false)
        expectEqual(scrollView.contentOffset.y, 3200)
    }

    @Test func invalidValuesAreRefusedAndReported() {
        let (scrollView, _, _, _) = scrollScene()
        let application = UIApplication.shared
        scrollView.contentSize = CGSize(width: CGFloat.nan, height: 100)
        scrollView.contentInset = UIEdgeInsets(top: .infinity, left: 0, bottom: 0, right: 0)
        scrollView.minimumZoomScale = 0
        scrollView.maximumZoomScale = -.nan
        scrollView.setContentOffset(CGPoint(x: 0, y: CGFloat.nan), animated: true)
        scrollView.zoomScale = .nan
        scrollView.scrollRectToVisible(CGRect(x: 0, y: CGFloat.nan, width: 10, height: 10), animated: false)
        expectEqual(scrollView.contentSize, CGSize(width: 400, height: 4000))
        expectEqual(scrollView.contentInset, .zero)
        #expect(scrollView.minimumZoomScale == 1 && scrollView.maximumZoomScale == 1 && scrollView.zoomScale == 1)
        expectEqual(scrollView.contentOffset, .zero)
        // The offset is refused by the view's bounds; a bad zoom scale or rect is ignored.
        expectEqual(application.diagnostics.entries.map(\.kind), Array(repeating: .invalidGeometry, count: 5))
        #expect(application.runLoop.nextTimerFireDate == nil)  // nothing was set moving
    }

    /// UIKit's main run loop is in the tracking mode from the start of a
    /// drag until the content comes to rest.
    @Test func theRunLoopIsInTheTrackingModeWhileTheContentDragsOrDecelerates() {
        let (scrollView, _, _, synthesizer) = scrollScene()
        let runLoop = UIApplication.shared.runLoop
        expectEqual(runLoop.currentMode, .default)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 600))
        expectEqual(runLoop.currentMode, .default, "a finger that has not dragged yet leaves the mode alone")
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        #expect(scrollView.isDragging)
        expectEqual(runLoop.currentMode, .tracking)
        synthesizer.touchUp(finger)
        #expect(scrollView.isDecelerating)
        expectEqual(runLoop.currentMode, .tracking)
        synthesizer.advance(by: 10)
        #expect(!scrollView.isDecelerating)
        expectEqual(runLoop.currentMode, .default)
    }

    @Test func aScrollViewThatGoesAwayMidFlingStopsItsTimer() {
        let window = makeWindow()
        var scrollView: UIScrollView? = UIScrollView(frame: window.bounds)
        weak let weakScrollView = scrollView
        scrollView!.contentSize = CGSize(width: 400, height: 4000)
        window.addSubview(scrollView!)
        let synthesizer = TouchSynthesizer(window: window)
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        #expect(scrollView!.isDecelerating)
        scrollView!.removeFromSuperview()
        scrollView = nil
        #expect(weakScrollView == nil)
        synthesizer.advance(by: 0.05)
        #expect(UIApplication.shared.runLoop.nextTimerFireDate == nil)
    }

    // MARK: Dragging

    @Test func contentFollowsTheFingerOnceThePanBegins() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 600))
        #expect(scrollView.isTracking && !scrollView.isDragging)
        synthesizer.advance(by: 0.02)
        synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 595))
        #expect(scrollView.contentOffset.y == 0 && !scrollView.isDragging)  // under the 10 pt threshold
        synthesizer.advance(by: 0.02)
        synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 580))  // the pan begins here
        #expect(scrollView.isDragging)
        expectEqual(log.entries, ["willBeginDragging"])
        expectEqual(scrollView.contentOffset.y, 0)  // no jump by the threshold
        synthesizer.advance(by: 0.02)
        synthesizer.touchMove(finger, to: CGPoint(x: 230, y: 480))
        expectEqual(scrollView.contentOffset, CGPoint(x: 0, y: 100))  // follows 1:1; no horizontal room
        synthesizer.advance(by: 0.5)  // held still: no velocity left
        synthesizer.touchUp(finger)
        expectEqual(log.entries, ["willBeginDragging", "willEndDragging", "didEndDragging(false)"])
        expectEqual(log.releaseVelocity, .zero)
        #expect(!scrollView.isTracking && !scrollView.isDragging && !scrollView.isDecelerating)
        expectEqual(scrollView.contentOffset.y, 100)
    }

    @Test func pastAnEdgeTheContentRubberBandsAndSpringsBack() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.02)
        synthesizer.touchMove(finger, to: CGPoint(x: 200, y: 120))  // begins; the first 20 pt do not count
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 120), to: CGPoint(x: 200, y: 320))
        // 200 pt past the top edge shows (1 - 1 / (200 × 0.55 / 800 + 1)) × 800 = 96.7 pt of it.
        let shown = -scrollView.contentOffset.y
        #expect(abs(shown - ScrollViewConstants.rubberBand(200, dimension: 800)) < 0.001)
        #expect(abs(shown - 96.70) < 0.01)
        // Further pulls show less and less more.
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 320), to: CGPoint(x: 200, y: 520))
        #expect(-scrollView.contentOffset.y - shown < shown)
        // Back down: the finger holds the same content point, so the content returns exactly.
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 520), to: CGPoint(x: 200, y: 220))
        #expect(abs(scrollView.contentOffset.y + ScrollViewConstants.rubberBand(100, dimension: 800)) < 0.001)

        synthesizer.advance(by: 0.5)
        synthesizer.touchUp(finger)
        expectEqual(log.plannedTarget, .zero)
        expectEqual(log.entries, ["willBeginDragging", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating"])
        #expect(scrollView.isDecelerating)
        synthesizer.advance(by: 0.2)
        #expect(scrollView.contentOffset.y < 0 && scrollView.contentOffset.y > -20)  // most of the way back
        synthesizer.advance(by: 0.5)
        expectEqual(scrollView.contentOffset.y, 0)
        expectEqual(log.entries.last, "didEndDecelerating")
        #expect(!scrollView.isDecelerating)
        // A critically damped spring never passes the edge on its way back.
        #expect(log.offsets.allSatisfy { $0.y <= 0 })
    }

    @Test func aFingerLandingOnTheSpringBackHoldsTheContentWhereItIsShown() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        let pull = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.02)
        synthesizer.touchMove(pull, to: CGPoint(x: 200, y: 120))
        synthesizer.drag(pull, from: CGPoint(x: 200, y: 120), to: CGPoint(x: 200, y: 320))
        synthesizer.advance(by: 0.5)
        synthesizer.touchUp(pull)
        synthesizer.advance(by: 0.05)
        #expect(scrollView.isDecelerating)
        let caught = scrollView.contentOffset.y
        #expect(caught < -20, "still well past the edge: \(caught)")
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 400))
        #expect(!scrollView.isDecelerating && log.entries.last == "didEndDecelerating")
        synthesizer.advance(by: 0.3)
        expectEqual(scrollView.contentOffset.y, caught, "held where the finger caught it")
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.y, 0, "let go, it springs back to the edge")
    }

    @Test func withoutBouncesTheContentStopsAtTheEdges() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        scrollView.bounces = false
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 100), to: CGPoint(x: 200, y: 400))
        expectEqual(scrollView.contentOffset.y, 0)
        synthesizer.touchUp(finger)
        expectEqual(log.entries.last, "didEndDragging(false)")
        // A fling toward the end stops right at it.
        synthesizer.fling(from: CGPoint(x: 200, y: 700), to: CGPoint(x: 200, y: 100), steps: 4, over: 0.04)
        synthesizer.advance(by: 5)
        expectEqual(scrollView.contentOffset.y, 3200)
        #expect(log.offsets.allSatisfy { $0.y >= 0 && $0.y <= 3200 })
    }

    @Test func alwaysBounceLetsShortContentBeDragged() {
        let (scrollView, _, _, synthesizer) = scrollScene(contentSize: CGSize(width: 400, height: 300))
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 300))
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 300), to: CGPoint(x: 200, y: 100))
        synthesizer.touchUp(finger)
        #expect(scrollView.contentOffset.y == 0 && scrollView.panGestureRecognizer.state == .possible)

        scrollView.alwaysBounceVertical = true
        synthesizer.advance(by: 1)
        let second = synthesizer.touchDown(at: CGPoint(x: 200, y: 300))
        synthesizer.drag(second, from: CGPoint(x: 200, y: 300), to: CGPoint(x: 200, y: 100))
        #expect(scrollView.contentOffset.y > 0)  // rubber-banding over a range of one offset
        synthesizer.advance(by: 0.5)
        synthesizer.touchUp(second)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.y, 0)
    }

    // MARK: Deceleration

    @Test func aDeceleratingOffsetIsShownOnThePixelGridAndRestsOnItsTargetsNearestPixel() throws {
        let (scrollView, _, log, synthesizer) = scrollScene()
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 310))
        let planned = try #require(log.plannedTarget)
        #expect((planned.y * UIScreen.main.scale).rounded() != planned.y * UIScreen.main.scale, "a target between pixels, so the test can fail")
        log.offsets.removeAll()
        synthesizer.advance(by: 5)
        let shownOnTheWay = log.offsets.dropLast()
        #expect(shownOnTheWay.count > 100)
        for offset in shownOnTheWay {
            let pixels = offset.y * UIScreen.main.scale
            #expect(abs(pixels - pixels.rounded()) < 1e-9, "\(offset.y) is between pixels")
        }
        // UIKit rounds the offsets it is given to pixels, the resting one too.
        let scale = UIScreen.main.scale
        expectEqual(scrollView.contentOffset.y, (planned.y * scale).rounded() / scale)
        #expect(!scrollView.isDecelerating)
    }

    @Test func aFlingDeceleratesAndStopsWithinTheContent() throws {
        let (scrollView, _, log, synthesizer) = scrollScene()
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        let released = scrollView.contentOffset.y
        expectEqual(released, 270)  // 300 pt dragged, less the 30 pt before the pan began
        // 300 pt in 0.16 s upward: the content offset moves down the content at 1.875 pt/ms.
        let velocity = try #require(log.releaseVelocity)
        #expect(abs(velocity.y - 1.875) < 0.01 && velocity.x == 0)
        // It rests where the decay from that velocity ends: v / -ln(0.998) per ms further.
        let planned = try #require(log.plannedTarget)
        #expect(abs(planned.y - (released + velocity.y / -Foundation.log(0.998))) < 0.01)
        expectEqual(log.entries, ["willBeginDragging", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating"])
        #expect(scrollView.isDecelerating && !scrollView.isDragging && !scrollView.isTracking)

        // Frame by frame: one step at each refresh of the 60 Hz screen,
        // always forward, slower and slower.
        log.offsets.removeAll()
        let refreshesSoFar = (UIApplication.shared.runLoop.clock.now * 60).rounded(.down)
        synthesizer.advance(by: 0.51)
        let refreshes = (UIApplication.shared.runLoop.clock.now * 60).rounded(.down) - refreshesSoFar
        #expect(refreshes >= 30 && log.offsets.count == Int(refreshes))
        // Each shown offset is rounded to a pixel (a third of a point), so a
        // step may differ from the exact one by up to a pixel.
        let steps = zip(log.offsets.dropFirst(), log.offsets).map { $0.y - $1.y }
        #expect(steps.allSatisfy { $0 > 0 })
        #expect(zip(steps.dropFirst(), steps).allSatisfy { $0 < $1 + 1 / UIScreen.main.scale + 1e-9 })
        #expect(steps.last! < steps.first! / 2)
        synthesizer.advance(by: 5)
        expectEqual(scrollView.contentOffset.y, (planned.y * UIScreen.main.scale).rounded() / UIScreen.main.scale)
        #expect(scrollView.offsetRange.y.contains(scrollView.contentOffset.y))
        #expect(log.entries.last == "didEndDecelerating" && !scrollView.isDecelerating)
        // Nothing runs once it has stopped.
        let count = log.scrolls
        synthesizer.advance(by: 1)
        expectEqual(log.scrolls, count)
    }

    @Test func theFastRateStopsSooner() {
        var distances: [CGFloat] = []
        for rate in [UIScrollView.DecelerationRate.normal, .fast] {
            let (scrollView, _, _, synthesizer) = scrollScene()
            scrollView.decelerationRate = rate
            synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
            synthesizer.advance(by: 5)
            distances.append(scrollView.contentOffset.y - 270)
        }
        // 1.875 pt/ms over -ln(rate): about 937 pt at 0.998, 187 pt at 0.99.
        #expect(abs(distances[0] - 936.6) < 1 && abs(distances[1] - 186.6) < 1)
    }

    @Test func aFlingIntoTheEndOvershootsAndSpringsBack() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        scrollView.contentOffset = CGPoint(x: 0, y: 2800)
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        expectEqual(log.plannedTarget, CGPoint(x: 0, y: 3200))  // kept inside the content
        synthesizer.advance(by: 5)
        expectEqual(scrollView.contentOffset.y, 3200)
        #expect(log.offsets.contains { $0.y > 3200 })  // it went past the end and came back
        expectEqual(log.entries.suffix(2), ["willBeginDecelerating", "didEndDecelerating"])
    }

    @Test func theDelegateCanChangeWhereTheContentRests() {
        let (scrollView, _, log, synthesizer) = scrollScene()
        log.replacementTarget = CGPoint(x: 0, y: 500)
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        synthesizer.advance(by: 6)
        expectEqual(scrollView.contentOffset.y, 500)
        #expect(log.offsets.allSatisfy { $0.y <= 500 })  // it slows onto the new target, never past it
    }

    @Test func aTouchStopsDecelerationAndIsNotGivenToTheContent() {
        let (scrollView, content, log, synthesizer) = scrollScene()
        scrollView.delaysContentTouches = false
        synthesizer.fling(from: CGPoint(x: 200, y: 600), to: CGPoint(x: 200, y: 300))
        content.calls.removeAll()
        synthesizer.advance(by: 0.3)
        let stopped = scrollView.contentOffset
        synthesizer.tap(at: CGPoint(x: 200, y: 100))  // on the content, which has scrolled under it
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset, stopped)
        #expect(!scrollView.isDecelerating && log.entries.last == "didEndDecelerating")
        #expect(content.calls.isEmpty)
    }

    // MARK: Paging

    @Test func pagingLandsOnTheNearestPageInTheDirectionOfTheVelocity() {
        let (scrollView, _, log, synthesizer) = scrollScene(contentSize: CGSize(width: 2000, height: 800))
        scrollView.isPagingEnabled = true
        // A short flick to the left: the next page, although less than half of it was dragged.
        synthesizer.fling(from: CGPoint(x: 300, y: 400), to: CGPoint(x: 200, y: 400), steps: 5, over: 0.05)
        expectEqual(log.plannedTarget, CGPoint(x: 400, y: 0))
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset, CGPoint(x: 400, y: 0))
        expectEqual(log.entries.suffix(2), ["willBeginDecelerating", "didEndDecelerating"])

        // A slow drag past half a page, then a pause: the nearest page.
        let finger = synthesizer.touchDown(at: CGPoint(x: 350, y: 400))
        synthesizer.drag(finger, from: CGPoint(x: 350, y: 400), to: CGPoint(x: 100, y: 400), steps: 10, over: 1)
        synthesizer.advance(by: 0.3)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.x, 800)

        // Dragged back a little and released slowly: back to the same page.
        let back = synthesizer.touchDown(at: CGPoint(x: 100, y: 400))
        synthesizer.drag(back, from: CGPoint(x: 100, y: 400), to: CGPoint(x: 250, y: 400), steps: 10, over: 1)
        synthesizer.advance(by: 0.3)
        synthesizer.touchUp(back)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.x, 800)

        // A flick right: the previous page. A flick past the last page: the last page.
        synthesizer.fling(from: CGPoint(x: 100, y: 400), to: CGPoint(x: 200, y: 400), steps: 5, over: 0.05)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.x, 400)
        scrollView.contentOffset = CGPoint(x: 1600, y: 0)
        synthesizer.fling(from: CGPoint(x: 300, y: 400), to: CGPoint(x: 200, y: 400), steps: 5, over: 0.05)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset.x, 1600)
    }

    // MARK: Directional lock

    @Test(arguments: [false, true])
    func directionalLockKeepsAMostlyHorizontalDragHorizontal(locked: Bool) {
        let (scrollView, _, _, synthesizer) = scrollScene(contentSize: CGSize(width: 2000, height: 4000))
        scrollView.isDirectionalLockEnabled = locked
        scrollView.contentOffset = CGPoint(x: 500, y: 500)
        let finger = synthesizer.touchDown(at: CGPoint(x: 300, y: 400))
        synthesizer.drag(finger, from: CGPoint(x: 300, y: 400), to: CGPoint(x: 100, y: 340))
        #expect(scrollView.contentOffset.x > 600)
        expectEqual((scrollView.contentOffset.y == 500), locked)
        synthesizer.advance(by: 0.5)
        synthesizer.touchUp(finger)

        // A steep diagonal is not locked.
        synthesizer.advance(by: 1)
        scrollView.contentOffset = CGPoint(x: 500, y: 500)
        let diagonal = synthesizer.touchDown(at: CGPoint(x: 300, y: 400))
        synthesizer.drag(diagonal, from: CGPoint(x: 300, y: 400), to: CGPoint(x: 200, y: 300))
        #expect(scrollView.contentOffset.x > 500 && scrollView.contentOffset.y > 500)
        synthesizer.touchUp(diagonal)
    }

    // MARK: Nested scroll views

    @Test func anInnerScrollViewWinsItsOwnAxis() {
        let (outer, _, outerLog, synthesizer) = scrollScene()  // scrolls vertically
        let inner = UIScrollView(frame: CGRect(x: 0, y: 300, width: 400, height: 200))
        inner.contentSize = CGSize(width: 2000, height: 200)  // scrolls horizontally
        let innerLog = ScrollDelegateLog()
        inner.delegate = innerLog
        let cell = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
        inner.addSubview(cell)
        outer.addSubview(inner)

        // Sideways on the inner one: it scrolls, the outer one does not.
        synthesizer.fling(from: CGPoint(x: 300, y: 400), to: CGPoint(x: 100, y: 390))
        synthesizer.advance(by: 5)
        #expect(inner.contentOffset.x > 180 && inner.contentOffset.y == 0)
        #expect(outer.contentOffset == .zero && outerLog.entries.isEmpty)

        // Up and down on the inner one: the outer one scrolls, the inner one does not move.
        let innerOffset = inner.contentOffset
        synthesizer.fling(from: CGPoint(x: 200, y: 450), to: CGPoint(x: 190, y: 250))
        synthesizer.advance(by: 5)
        #expect(outer.contentOffset.y > 180)
        expectEqual(inner.contentOffset, innerOffset)
        expectEqual(innerLog.entries.filter { $0 == "willBeginDragging" }.count, 1)
        // The cell saw neither drag: each was a scroll before the delay was over.
        #expect(cell.calls.isEmpty)
    }

    // MARK: Scrolling disabled

    @Test func withScrollingDisabledDragsReachTheContentAndNothingScrolls() {
        let (scrollView, content, log, synthesizer) = scrollScene()
        scrollView.isScrollEnabled = false
        #expect(!scrollView.panGestureRecognizer.isEnabled)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        expectEqual(content.phases, ["began"])  // nothing to wait for: no delay
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 100), to: CGPoint(x: 200, y: 50))
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1)
        expectEqual(scrollView.contentOffset, .zero)
        #expect(log.entries.isEmpty && log.scrolls == 0)
        expectEqual(content.phases, ["began"] + Array(repeating: "moved", count: 10) + ["ended"])
        // Code still scrolls it.
        scrollView.setContentOffset(CGPoint(x: 0, y: 40), animated: false)
        expectEqual(scrollView.contentOffset.y, 40)
    }

    // MARK: Content touches

    @Test func aHeldTouchReachesTheContentAfterTheDelay() {
        let (_, content, _, synthesizer) = scrollScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.149)
        #expect(content.calls.isEmpty)
        synthesizer.advance(by: 0.002)
        expectEqual(content.phases, ["began"])
        synthesizer.touchUp(finger)
        expectEqual(content.phases, ["began", "ended"])
    }

    @Test func aSecondFingerLandingAfterTheFirstOnesDelayIsDelayedToo() {
        let (_, content, _, synthesizer) = scrollScene()
        content.isMultipleTouchEnabled = true
        let first = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.2)
        expectEqual(content.phases, ["began"])
        let second = synthesizer.touchDown(at: CGPoint(x: 300, y: 100))
        expectEqual(content.phases, ["began"])  // held back, as the first was
        synthesizer.advance(by: 0.149)
        expectEqual(content.phases, ["began"])
        synthesizer.advance(by: 0.002)
        expectEqual(content.phases, ["began", "began"])
        expectEqual(content.calls[1].touches.first.map { $0.location(in: content).x }, 300)

        // A third that lifts within its own delay begins at the release (its
        // end waits for the scroll view's pan to give up, as every end does).
        let third = synthesizer.touchDown(at: CGPoint(x: 200, y: 150))
        synthesizer.advance(by: 0.05)
        expectEqual(content.phases.count, 2)
        synthesizer.touchUp(third)
        expectEqual(content.phases, ["began", "began", "began"])
        synthesizer.touchUp([first, second])
        expectEqual(content.phases.filter { $0 == "ended" }.count, 2)  // one call with the first two…
        let endedTouches: Int = content.calls.filter { $0.phase == "ended" }.map(\.touches.count).reduce(0, +)
        expectEqual(endedTouches, 3)  // …and the third

        // All fingers up: the next touch starts over with a delay of its own.
        synthesizer.advance(by: 1)
        content.calls.removeAll()
        let fourth = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.1)
        #expect(content.calls.isEmpty)
        synthesizer.advance(by: 0.06)
        expectEqual(content.phases, ["began"])
        synthesizer.touchUp(fourth)
    }

    @Test func aSecondFingerThatStartsAScrollWithinItsDelayNeverReachesTheContent() {
        let (scrollView, content, _, synthesizer) = scrollScene()
        content.isMultipleTouchEnabled = true
        let first = synthesizer.touchDown(at: CGPoint(x: 100, y: 100))
        synthesizer.advance(by: 0.2)
        expectEqual(content.phases, ["began"])
        let second = synthesizer.touchDown(at: CGPoint(x: 300, y: 150))
        synthesizer.drag(second, from: CGPoint(x: 300, y: 150), to: CGPoint(x: 300, y: 50), steps: 4, over: 0.08)
        #expect(scrollView.contentOffset.y > 0)
        synthesizer.touchUp([first, second])
        synthesizer.advance(by: 1)
        // The scroll cancels the first finger's touch; the second's never reached the content.
        expectEqual(content.phases, ["began", "cancelled"])
        #expect(content.calls.allSatisfy { $0.touches.count == 1 && $0.touches.first === content.calls[0].touches.first })
    }

    @Test func aQuickTapReachesTheContentAtTheRelease() {
        let (_, content, _, synthesizer) = scrollScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.05)
        #expect(content.calls.isEmpty)
        synthesizer.touchUp(finger)
        expectEqual(content.phases, ["began", "ended"])
        #expect(content.calls[0].event === content.calls[1].event)  // both in the event of the release
    }

    @Test func aDragAfterTheDelayCancelsContentThatIsNotAControl() {
        let (scrollView, content, _, synthesizer) = scrollScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.2)
        expectEqual(content.phases, ["began"])
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 100), to: CGPoint(x: 200, y: 40))
        // The first move (6 pt) is under the pan's threshold and reaches the content.
        expectEqual(content.phases, ["began", "moved", "cancelled"])
        #expect(scrollView.contentOffset.y > 0)
        synthesizer.touchUp(finger)
        expectEqual(content.phases, ["began", "moved", "cancelled"])
    }

    @Test func withoutCancellingContentTouchesADragOnContentThatHasTheTouchDoesNotScroll() {
        let (scrollView, content, _, synthesizer) = scrollScene()
        scrollView.canCancelContentTouches = false
        #expect(!scrollView.panGestureRecognizer.cancelsTouchesInView)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 100))
        synthesizer.advance(by: 0.2)
        synthesizer.drag(finger, from: CGPoint(x: 200, y: 100), to: CGPoint(x: 200, y: 40))
        synthesizer.touchUp(finger)
        expectEqual(scrollView.contentOffset, .zero)
        #expect(content.phases.first == "began" && content.phases.last == "ended")

        // A drag that starts before the delay is over still scrolls, and the content never sees it.
        content.calls.removeAll()
        synthesizer.advance(by: 1)
        synthesizer.fling(from: CGPoint(x: 200, y: 150), to: CGPoint(x: 200, y: 50), steps: 4, over: 0.08)
        synthesizer.advance(by: 0.2)
        #expect(scrollView.contentOffset.y > 0)
        #expect(content.calls.isEmpty)
    }

    @Test func touchesShouldBeginCanKeepTouchesFromTheContent() {
        for delays in [true, false] {
            final class Refusing: UIScrollView {
                var asked: [UIView] = []
                override func touchesShouldBegin(_ touches: Set<UITouch>, with event: UIEvent?, in view: UIView) -> Bool {
                    asked.append(view)
                    return false
                }
            }
            let window = makeWindow()
            let scrollView = Refusing(frame: window.bounds)
            scrollView.contentSize = CGSize(width: 400, height: 4000)
            scrollView.delaysContentTouches = delays
            let content = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
            scrollView.addSubview(content)
            window.addSubview(scrollView)
            let synthesizer = TouchSynthesizer(window: window)

            synthesizer.tap(at: CGPoint(x: 200, y: 100))
            synthesizer.advance(by: 1)
            #expect(content.calls.isEmpty, "delays \(delays)")
            #expect(scrollView.asked.count == 1 && scrollView.asked[0] === content)
            // The scroll view still scrolls with such a touch.
            synthesizer.fling(from: CGPoint(x: 200, y: 150), to: CGPoint(x: 200, y: 50), steps: 4, over: 0.08)
            #expect(scrollView.contentOffset.y > 0)
            #expect(content.calls.isEmpty)
        }
    }

    @Test func touchesOnTheScrollViewItselfAreDelayedToo() {
        final class Probe: UIScrollView {
            var began = 0
            override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { began += 1 }
        }
        let window = makeWindow()
        let scrollView = Probe(frame: window.bounds)
        scrollView.contentSize = CGSize(width: 400, height: 4000)
        window.addSubview(scrollView)
        let synthesizer = TouchSynthesizer(window: window)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 700))
        expectEqual(scrollView.began, 0)
        synthesizer.advance(by: 0.2)
        expectEqual(scrollView.began, 1)
        synthesizer.touchUp(finger)
    }

    // MARK: Zooming

    @Test func pinchingZoomsAboutTheFingersAndBouncesBackIntoRange() {
        let (scrollView, _, log, synthesizer) = scrollScene(contentSize: CGSize(width: 400, height: 800))
        let image = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        scrollView.addSubview(image)
        #expect(scrollView.pinchGestureRecognizer == nil)  // no room to zoom yet
        scrollView.maximumZoomScale = 3
        #expect(scrollView.pinchGestureRecognizer != nil)
        // Without a view to zoom, pinching does nothing.
        let first = synthesizer.touchDown(at: [CGPoint(x: 150, y: 400), CGPoint(x: 250, y: 400)])
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(first[0], CGPoint(x: 100, y: 400)), (first[1], CGPoint(x: 300, y: 400))])
        synthesizer.touchUp(first)
        #expect(scrollView.zoomScale == 1 && log.entries.isEmpty)

        log.zoomView = image
        synthesizer.advance(by: 1)
        let fingers = synthesizer.touchDown(at: [CGPoint(x: 150, y: 400), CGPoint(x: 250, y: 400)])
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(fingers[0], CGPoint(x: 145, y: 400)), (fingers[1], CGPoint(x: 255, y: 400))])  // begins
        #expect(scrollView.isZooming && log.entries == ["willBeginZooming"])
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(fingers[0], CGPoint(x: 90, y: 400)), (fingers[1], CGPoint(x: 310, y: 400))])
        // Twice as far apart as when it began: twice the scale, about the point between the fingers.
        #expect(abs(scrollView.zoomScale - 2) < 1e-9)
        expectEqual(image.frame, CGRect(x: 0, y: 0, width: 800, height: 1600))
        expectEqual(scrollView.contentSize, CGSize(width: 800, height: 1600))
        #expect(abs(scrollView.contentOffset.x - 200) < 1e-9 && abs(scrollView.contentOffset.y - 400) < 1e-9)

        // Past the maximum it resists, and bounces back when the fingers lift.
        synthesizer.advance(by: 0.05)
        synthesizer.touchMove([(fingers[0], CGPoint(x: 0, y: 400)), (fingers[1], CGPoint(x: 400, y: 400))])
        #expect(scrollView.zoomScale > 3 && scrollView.zoomScale < 400.0 / 110)
        synthesizer.touchUp(fingers)
        #expect(!scrollView.isZooming && scrollView.isZoomBouncing)
        synthesizer.advance(by: 0.5)
        #expect(scrollView.zoomScale == 3 && !scrollView.isZoomBouncing)
        expectEqual(log.entries, ["willBeginZooming", "didEndZooming(3.0)"])
        #expect(scrollView.offsetRange.x.contains(scrollView.contentOffset.x))
        #expect(scrollView.offsetRange.y.contains(scrollView.contentOffset.y))
    }

    @Test func zoomScaleInCode() {
        let (scrollView, _, log, synthesizer) = scrollScene(contentSize: CGSize(width: 400, height: 800))
        let image = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 800))
        scrollView.addSubview(image)
        log.zoomView = image
        scrollView.minimumZoomScale = 0.5
        scrollView.maximumZoomScale = 4
        scrollView.zoomScale = 2  // about the centre of what is shown: (200, 400) stays in the middle
        expectEqual(scrollView.contentSize, CGSize(width: 800, height: 1600))
        expectEqual(scrollView.contentOffset, CGPoint(x: 200, y: 400))
        scrollView.zoomScale = 10
        expectEqual(scrollView.zoomScale, 4)
        scrollView.setZoomScale(1, animated: true)
        synthesizer.advance(by: 0.5)
        #expect(scrollView.zoomScale == 1 && scrollView.contentOffset == .zero)
        expectEqual(log.entries, ["didEndZooming(1.0)"])
        scrollView.zoom(to: CGRect(x: 100, y: 100, width: 100, height: 100), animated: false)
        expectEqual(scrollView.zoomScale, 4)
        expectEqual(scrollView.contentOffset, CGPoint(x: 600 - 200, y: 600 - 400))
    }
}
