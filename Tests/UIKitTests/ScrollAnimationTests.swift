import TestExpectations
import Testing
@testable import UIKit

/// Animated scrolling and zooming in code, frame by frame: the scroll view
/// steps them on its display link, as it does its deceleration, showing
/// each frame's offset on the screen's pixel grid.
///
/// Without an event server the display refreshes at 60 Hz on the run
/// loop's clock, at whole multiples of 1/60 s; the link fires at the first
/// refresh after the animation starts, and each frame is worked out for its
/// target time, the refresh after it. So a frame shown at target time `t`
/// is at progress p = (t − start) / 0.3 s, and the offset there is
/// from + (to − from) · ease(p), ease being Core Animation's
/// ease-in-ease-out curve (control points 0.42, 0, 0.58, 1), rounded to
/// the screen's pixels until the last frame, which lands exactly.
@MainActor
@Suite struct ScrollAnimationTests {
    static let refresh = 1.0 / 60

    /// A delegate that records every offset and zoom scale shown, and the other calls.
    final class FrameLog: UITableViewDataSource, UITableViewDelegate {
        var offsets: [CGPoint] = []
        var scales: [CGFloat] = []
        var entries: [String] = []
        var zoomView: UIView?

        func scrollViewDidScroll(_ scrollView: UIScrollView) { offsets.append(scrollView.contentOffset) }
        func scrollViewDidZoom(_ scrollView: UIScrollView) { scales.append(scrollView.zoomScale) }
        func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) { entries.append("didEndScrollingAnimation") }
        func scrollViewDidEndZooming(_ scrollView: UIScrollView, with view: UIView?, atScale scale: CGFloat) {
            entries.append("didEndZooming(\(scale))")
        }
        func viewForZooming(in scrollView: UIScrollView) -> UIView? { zoomView }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 100 }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        }
    }

    /// The target times of the frames of an animation started at `start`:
    /// from the refresh after the first one past `start`, until one
    /// reaches its end.
    static func frameTimes(from start: TimeInterval, duration: TimeInterval = ScrollViewConstants.scrollAnimationDuration) -> [TimeInterval] {
        var times: [TimeInterval] = []
        var refresh = (start / Self.refresh).rounded(.down) + 1
        while times.last.map({ $0 < start + duration }) ?? true {
            times.append((refresh + 1) * Self.refresh)
            refresh += 1
        }
        return times
    }

    static let curve = CAMediaTimingFunction(name: .easeInEaseOut)

    /// The fraction of the change shown at `time`.
    static func eased(at time: TimeInterval, from start: TimeInterval) -> CGFloat {
        CGFloat(curve.value(at: min(1, (time - start) / ScrollViewConstants.scrollAnimationDuration)))
    }

    /// A clean window, its clock off the refresh grid (half way between two
    /// refreshes), and a synthesizer.
    static func window() -> (UIWindow, TouchSynthesizer) {
        let window = makeWindow()
        let synthesizer = TouchSynthesizer(window: window)
        let now = UIApplication.shared.runLoop.clock.now
        synthesizer.advance(by: ((now / refresh).rounded(.down) + 1.5) * refresh - now)
        return (window, synthesizer)
    }

    /// A scroll view filling a clean window (`window()`), with a content
    /// view of `contentSize` and a delegate logging every frame; zoomable up
    /// to `maximumZoomScale` when that is over 1, the content view being
    /// what it zooms.
    @MainActor
    struct Scene {
        /// Kept: the application does not keep windows alive.
        let window: UIWindow
        let scrollView: UIScrollView
        let content: UIView
        let log = FrameLog()
        let synthesizer: TouchSynthesizer

        init(contentSize: CGSize, content: UIView? = nil, maximumZoomScale: CGFloat = 1) {
            let (window, synthesizer) = ScrollAnimationTests.window()
            self.window = window
            self.synthesizer = synthesizer
            scrollView = UIScrollView(frame: window.bounds)
            scrollView.contentSize = contentSize
            self.content = content ?? UIView(frame: CGRect(origin: .zero, size: contentSize))
            scrollView.addSubview(self.content)
            window.addSubview(scrollView)
            scrollView.delegate = log
            if maximumZoomScale > 1 {
                log.zoomView = self.content
                scrollView.maximumZoomScale = maximumZoomScale
            }
        }
    }

    /// `value` is a whole number of pixels at the screen's scale.
    static func isOnPixelGrid(_ value: CGFloat) -> Bool {
        let pixels = value * UIScreen.main.scale
        return abs(pixels - pixels.rounded()) < 1e-9
    }

    @Test func setContentOffsetAnimatedShowsEachFrameOnTheCurveOnThePixelGrid() {
        let scene = Scene(contentSize: CGSize(width: 400, height: 4000))
        let (scrollView, log, synthesizer) = (scene.scrollView, scene.log, scene.synthesizer)
        let start = UIApplication.shared.runLoop.clock.now
        scrollView.setContentOffset(CGPoint(x: 0, y: 1000), animated: true)
        expectEqual(scrollView.contentOffset.y, 0, "nothing moves before the first frame")
        synthesizer.advance(by: 0.4)

        let times = Self.frameTimes(from: start)
        // 0.3 s is 18 refreshes: the first frame is 1.5 refreshes in (the
        // clock starts half way between two), the 18th 18.5 refreshes in.
        expectEqual(times.count, 18)
        expectEqual(log.offsets.count, times.count, "one scrollViewDidScroll per frame: \(log.offsets)")
        for (index, (offset, time)) in zip(log.offsets, times).enumerated() {
            let exact = 1000 * Self.eased(at: time, from: start)
            if index == times.count - 1 {
                expectEqual(offset.y, 1000, "the last frame lands exactly")
            } else {
                #expect(Self.isOnPixelGrid(offset.y), "frame \(index): \(offset.y)")
                #expect(abs(offset.y - exact) <= 0.5 / UIScreen.main.scale + 1e-9, "frame \(index): \(offset.y) against \(exact)")
            }
        }
        // Ease in, ease out: the middle frame moves most, the first and last least.
        let steps = zip(log.offsets.dropFirst(), log.offsets).map { $0.y - $1.y }
        #expect(steps[8] > 2 * steps[0] && steps[8] > 2 * steps[16])
        expectEqual(log.entries, ["didEndScrollingAnimation"])
        #expect(scrollView.motionLink == nil)
    }

    @Test func aFingerLandingStopsAnAnimatedOffsetWhereItIsShown() {
        let content = RecordingView(frame: CGRect(x: 0, y: 0, width: 400, height: 4000))
        let scene = Scene(contentSize: content.frame.size, content: content)
        let (scrollView, log, synthesizer) = (scene.scrollView, scene.log, scene.synthesizer)
        scrollView.setContentOffset(CGPoint(x: 0, y: 1000), animated: true)
        synthesizer.advance(by: 0.15)
        let shown = scrollView.contentOffset.y
        #expect(shown > 100 && shown < 900)
        let finger = synthesizer.touchDown(at: CGPoint(x: 200, y: 400))
        expectEqual(log.entries, ["didEndScrollingAnimation"])
        synthesizer.advance(by: 0.3)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 0.3)
        expectEqual(scrollView.contentOffset.y, shown, "it stays where the finger caught it")
        #expect(content.phases.isEmpty, "the touch that stopped the content is not the content's")
    }

    @Test func zoomToRectAnimatedScalesOnTheCurveWithTheOffsetOnThePixelGrid() {
        let scene = Scene(contentSize: CGSize(width: 400, height: 800), maximumZoomScale: 4)
        let (scrollView, log, synthesizer) = (scene.scrollView, scene.log, scene.synthesizer)
        let start = UIApplication.shared.runLoop.clock.now
        // A 100-point square centred at (150, 150) fills the 400-point width: scale 4.
        scrollView.zoom(to: CGRect(x: 100, y: 100, width: 100, height: 100), animated: true)
        expectEqual(scrollView.zoomScale, 1)
        synthesizer.advance(by: 0.4)

        let times = Self.frameTimes(from: start)
        expectEqual(log.scales.count, times.count, "one scrollViewDidZoom per frame: \(log.scales)")
        for (index, (scale, time)) in zip(log.scales, times).enumerated() {
            #expect(abs(scale - (1 + 3 * Self.eased(at: time, from: start))) < 1e-9, "frame \(index): \(scale)")
        }
        for offset in log.offsets.dropLast() {
            #expect(Self.isOnPixelGrid(offset.x) && Self.isOnPixelGrid(offset.y), "\(offset)")
        }
        expectEqual(scrollView.zoomScale, 4)
        expectEqual(scrollView.contentOffset, CGPoint(x: 600 - 200, y: 600 - 400), "(150, 150) × 4 in the middle")
        expectEqual(log.entries, ["didEndZooming(4.0)"])
    }

    @Test func setZoomScaleAnimatedRunsOnTheSameFrames() throws {
        let scene = Scene(contentSize: CGSize(width: 400, height: 800), maximumZoomScale: 3)
        let (scrollView, log, synthesizer) = (scene.scrollView, scene.log, scene.synthesizer)
        let start = UIApplication.shared.runLoop.clock.now
        scrollView.setZoomScale(3, animated: true)
        synthesizer.advance(by: 0.1)
        let time = try #require(Self.frameTimes(from: start).last { $0 <= UIApplication.shared.runLoop.clock.now + Self.refresh })
        #expect(abs(scrollView.zoomScale - (1 + 2 * Self.eased(at: time, from: start))) < 1e-9)
        synthesizer.advance(by: 0.3)
        #expect(scrollView.zoomScale == 3 && log.entries == ["didEndZooming(3.0)"])
    }

    @Test func scrollToRowAndScrollToItemAnimatedArriveThroughFrames() {
        let (window, synthesizer) = Self.window()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 44
        let log = FrameLog()
        table.delegate = log
        table.dataSource = log
        window.addSubview(table)
        table.layoutIfNeeded()
        table.scrollToRow(at: IndexPath(row: 50, section: 0), at: .top, animated: true)
        expectEqual(table.contentOffset.y, 0)
        synthesizer.advance(by: 0.15)
        let halfWay = table.contentOffset.y
        #expect(halfWay > 0 && halfWay < 2200 && Self.isOnPixelGrid(halfWay))
        expectEqual(table.indexPathsForVisibleRows?.first.map { $0.row > 0 }, true, "the rows on the way are laid out")
        synthesizer.advance(by: 0.2)
        expectEqual(table.contentOffset.y, 2200)
        expectEqual(table.indexPathsForVisibleRows?.first, IndexPath(row: 50, section: 0))
        expectEqual(log.entries, ["didEndScrollingAnimation"])
        expectEqual(log.offsets.count, 18)

        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 400, height: 100)
        layout.minimumLineSpacing = 0
        let collection = UICollectionView(frame: window.bounds, collectionViewLayout: layout)
        collection.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "item")
        let items = CollectionLog(counts: [100])
        collection.dataSource = items
        window.addSubview(collection)
        collection.layoutIfNeeded()
        collection.scrollToItem(at: IndexPath(item: 30, section: 0), at: .top, animated: true)
        synthesizer.advance(by: 0.15)
        #expect(collection.contentOffset.y > 0 && collection.contentOffset.y < 3000)
        synthesizer.advance(by: 0.2)
        expectEqual(collection.contentOffset.y, 3000)
    }
}
