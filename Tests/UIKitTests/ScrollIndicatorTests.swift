import DrawingTestSupport
import TestExpectations
import Testing
@testable import UIKit

/// A white 100×200 window filled by a scroll view over 100×800 of content.
@MainActor
private func indicatorScene(contentSize: CGSize = CGSize(width: 100, height: 800))
    -> (UIWindow, UIScrollView, TouchSynthesizer) {
    let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 200))
    window.backgroundColor = .white
    let scrollView = UIScrollView(frame: window.bounds)
    scrollView.contentSize = contentSize
    window.addSubview(scrollView)
    return (window, scrollView, TouchSynthesizer(window: window))
}

/// What the window shows, at `scale` pixels per point.
@MainActor
private func picture(of window: UIWindow, scale: CGFloat = 2) -> CGImage {
    UIApplication.shared.runLoop.runUntilIdle()
    let format = UIGraphicsImageRendererFormat()
    format.scale = scale
    return UIGraphicsImageRenderer(size: window.bounds.size, format: format).image { context in
        window.layer.render(in: context.cgContext)
    }.cgImage!
}

@MainActor
@Suite struct ScrollIndicatorTests {
    private var vertical: (UIScrollView) -> CALayer? { { $0.scrollIndicators.vertical } }

    @Test func aDragShowsTheVerticalIndicatorAlongTheTrailingEdge() throws {
        let (_, scrollView, synthesizer) = indicatorScene()
        #expect(scrollView.scrollIndicators.vertical == nil)  // nothing until the content moves
        let finger = synthesizer.touchDown(at: CGPoint(x: 50, y: 150))
        synthesizer.drag(finger, from: CGPoint(x: 50, y: 150), to: CGPoint(x: 50, y: 50), steps: 5, over: 0.1)
        let layer = try #require(scrollView.scrollIndicators.vertical)
        #expect(!layer.isHidden)
        #expect(scrollView.scrollIndicators.horizontal?.isHidden ?? true)  // the content is no wider than the view
        // 2.5 pt wide, 2.5 pt from the edge; the view shows a quarter of the
        // content, so the indicator is a quarter of the 195 pt track long.
        let offset = scrollView.contentOffset.y
        #expect(layer.frame.minX == 95 && layer.frame.width == 2.5)
        #expect(abs(layer.frame.height - 195.0 / 4) < 0.001)
        let progress = offset / 600
        #expect(abs(layer.frame.minY - (offset + 2.5 + progress * (195 - 195.0 / 4))) < 0.001)
        expectEqual(layer.cornerRadius, 1.25)
        #expect(!scrollView.subviews.contains { $0.layer === layer })  // a layer, not a subview
        synthesizer.touchUp(finger)
    }

    @Test func itIsDrawnOverTheContent() throws {
        let (window, scrollView, synthesizer) = indicatorScene()
        scrollView.flashScrollIndicators()
        // Content added after the indicator was made is still drawn below it.
        let band = UIView(frame: CGRect(x: 0, y: 25, width: 100, height: 35))
        band.backgroundColor = UIColor(white: 0.2, alpha: 1)
        scrollView.addSubview(band)
        let image = picture(of: window)
        // The capsule is px 190–195 across at 2×, rows 5–102: black at 35%
        // inside, and a 1 px white border at 35%, which shows over the dark band.
        #expect(close(rgba(image, 192, 10), [166, 166, 166, 255], tolerance: 3), "\(rgba(image, 192, 10))")
        #expect(close(rgba(image, 192, 80), [33, 33, 33, 255], tolerance: 3), "\(rgba(image, 192, 80))")
        // The border is drawn over the fill, as Core Animation draws a border: 33 + 35% of (255 − 33).
        #expect(close(rgba(image, 190, 80), [111, 111, 111, 255], tolerance: 3), "\(rgba(image, 190, 80))")
        expectEqual(rgba(image, 186, 10), [255, 255, 255, 255])  // beside it
        expectEqual(rgba(image, 192, 130), [255, 255, 255, 255])  // below its 48.75 pt
        expectMatchesReference(image, named: "scroll-indicator", tolerance: 2)
        _ = synthesizer
    }

    @Test func theIndicatorsHideHalfASecondAfterTheContentStops() throws {
        let (_, scrollView, synthesizer) = indicatorScene()
        synthesizer.fling(from: CGPoint(x: 50, y: 150), to: CGPoint(x: 50, y: 100), steps: 4, over: 0.08)
        let layer = try #require(scrollView.scrollIndicators.vertical)
        #expect(scrollView.isDecelerating && !layer.isHidden)
        var waited = 0.0
        while scrollView.isDecelerating && waited < 10 {
            synthesizer.advance(by: 0.1)
            waited += 0.1
        }
        #expect(!scrollView.isDecelerating)
        #expect(!layer.isHidden)  // still there just after it stops
        synthesizer.advance(by: ScrollIndicatorMetrics.hideDelay + 0.1)
        // Fading: shown at part of its opacity, the model untouched.
        #expect(!layer.isHidden)
        let shown = try #require(layer.presentation()).opacity
        #expect(shown > 0 && shown < 1)
        expectEqual(layer.opacity, 1)
        synthesizer.advance(by: ScrollIndicatorMetrics.fadeDuration)
        #expect(layer.isHidden)
        #expect(layer.animationKeys() == nil)
    }

    @Test func aHeldDragKeepsThemAndCodeScrollingShowsNothing() throws {
        let (_, scrollView, synthesizer) = indicatorScene()
        scrollView.contentOffset = CGPoint(x: 0, y: 100)
        #expect(scrollView.scrollIndicators.vertical == nil)
        let finger = synthesizer.touchDown(at: CGPoint(x: 50, y: 150))
        synthesizer.drag(finger, from: CGPoint(x: 50, y: 150), to: CGPoint(x: 50, y: 100), steps: 5, over: 0.1)
        synthesizer.advance(by: 3)  // the finger rests on the glass
        expectEqual(scrollView.scrollIndicators.vertical?.isHidden, false)
        synthesizer.touchUp(finger)
        synthesizer.advance(by: 1.5)  // the hide delay, then the fade
        expectEqual(scrollView.scrollIndicators.vertical?.isHidden, true)
    }

    @Test func flashingShowsThemForASecond() throws {
        let (_, scrollView, synthesizer) = indicatorScene(contentSize: CGSize(width: 300, height: 800))
        scrollView.flashScrollIndicators()
        let vertical = try #require(scrollView.scrollIndicators.vertical)
        let horizontal = try #require(scrollView.scrollIndicators.horizontal)
        #expect(!vertical.isHidden && !horizontal.isHidden)
        // Both show: each leaves the corner to the other.
        #expect(vertical.frame.maxY <= 200 - 2.5 - 2.5 - 2.5)
        #expect(horizontal.frame.maxX <= 100 - 2.5 - 2.5 - 2.5)
        #expect(horizontal.frame.minY == 195 && horizontal.frame.height == 2.5)
        synthesizer.advance(by: 0.9)
        #expect(!vertical.isHidden)
        synthesizer.advance(by: 0.2 + ScrollIndicatorMetrics.fadeDuration)  // then they fade out
        #expect(vertical.isHidden && horizontal.isHidden)
    }

    @Test func theShowsPropertiesKeepAnIndicatorAway() {
        let (_, scrollView, _) = indicatorScene(contentSize: CGSize(width: 300, height: 800))
        scrollView.showsVerticalScrollIndicator = false
        scrollView.flashScrollIndicators()
        #expect(scrollView.scrollIndicators.vertical?.isHidden ?? true)
        expectEqual(scrollView.scrollIndicators.horizontal?.isHidden, false)
        // Alone, the horizontal one runs to the corner.
        #expect(scrollView.scrollIndicators.horizontal!.frame.maxX <= 97.5)
        scrollView.showsHorizontalScrollIndicator = false
        expectEqual(scrollView.scrollIndicators.horizontal?.isHidden, true)
    }

    @Test func insetsMoveTheIndicatorInFromTheEdges() throws {
        let (_, scrollView, _) = indicatorScene()
        scrollView.verticalScrollIndicatorInsets = UIEdgeInsets(top: 20, left: 0, bottom: 30, right: 10)
        scrollView.flashScrollIndicators()
        let layer = try #require(scrollView.scrollIndicators.vertical)
        #expect(layer.frame.minX == 85 && layer.frame.minY == 22.5)
        expectEqual(layer.frame.height, ScrollIndicatorMetrics.minimumLength)  // a quarter of 145 pt is shorter
        scrollView.scrollIndicatorInsets = .zero
        #expect(layer.frame.minX == 95 && scrollView.horizontalScrollIndicatorInsets == .zero)
    }

    @Test func pulledPastTheTopItShrinksAndStaysThere() throws {
        let (_, scrollView, synthesizer) = indicatorScene()
        let finger = synthesizer.touchDown(at: CGPoint(x: 50, y: 20))
        synthesizer.drag(finger, from: CGPoint(x: 50, y: 20), to: CGPoint(x: 50, y: 190), steps: 5, over: 0.1)
        let layer = try #require(scrollView.scrollIndicators.vertical)
        #expect(scrollView.contentOffset.y < 0)
        expectEqual(layer.frame.minY, scrollView.contentOffset.y + 2.5)
        #expect(layer.frame.height < 195.0 / 4 && layer.frame.height >= ScrollIndicatorMetrics.minimumCompressedLength)
        synthesizer.touchUp(finger)
    }

    @Test func theStyleSetsTheColours() {
        let (window, scrollView, _) = indicatorScene()
        window.backgroundColor = .black
        scrollView.indicatorStyle = .white
        scrollView.flashScrollIndicators()
        let image = picture(of: window)
        let inside = rgba(image, 192, 40)
        #expect(close(inside, [128, 128, 128, 255], tolerance: 3), "\(inside)")  // white at 50% over black
        scrollView.indicatorStyle = .black
        window.backgroundColor = .white
        #expect(close(rgba(picture(of: window), 192, 40), [128, 128, 128, 255], tolerance: 3))
    }
}
