import Testing
import GeometryTestSupport
@testable import UIKit

/// A view's `frame` set while its transform is not the identity: the bounds
/// and centre change so that the frame reads back as set, and hit-testing
/// and conversions follow.
@MainActor
@Suite struct FrameUnderTransformTests {
    /// A view scaled by one half given the frame (100, 100, 100, 100), with a
    /// subview in the bottom-right quarter of its (now 200×200) bounds.
    func makeScaledView() -> (UIWindow, UIView, UIView) {
        let window = makeWindow()
        let scaled = UIView(frame: .zero)
        scaled.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        scaled.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
        let corner = UIView(frame: CGRect(x: 150, y: 150, width: 50, height: 50))
        scaled.addSubview(corner)
        window.addSubview(scaled)
        return (window, scaled, corner)
    }

    @Test func aHalfScaledViewGivenA100PointFrameHas200PointBounds() {
        let (_, scaled, _) = makeScaledView()
        #expect(approximately(scaled.bounds, CGRect(x: 0, y: 0, width: 200, height: 200)))
        #expect(approximately(scaled.center, CGPoint(x: 150, y: 150)))
        #expect(approximately(scaled.frame, CGRect(x: 100, y: 100, width: 100, height: 100)))
    }

    @Test func hitTestingReachesTheWholeScaledBounds() {
        let (window, scaled, corner) = makeScaledView()
        // The corner subview shows at 100 + 150·0.5 = 175 … 200 in the window.
        #expect(window.hitTest(CGPoint(x: 190, y: 190), with: nil) === corner)
        #expect(window.hitTest(CGPoint(x: 170, y: 170), with: nil) === scaled)
        #expect(window.hitTest(CGPoint(x: 201, y: 150), with: nil) === window)
    }

    @Test func conversionsGoThroughTheScale() {
        let (window, scaled, corner) = makeScaledView()
        #expect(approximately(scaled.convert(CGPoint(x: 200, y: 200), to: nil), CGPoint(x: 200, y: 200)))
        #expect(approximately(corner.convert(CGPoint.zero, to: window), CGPoint(x: 175, y: 175)))
        #expect(approximately(window.convert(CGPoint(x: 150, y: 150), to: scaled), CGPoint(x: 100, y: 100)))
    }

    @Test func aScrolledBoundsOriginMovesTheContentNotTheFrame() {
        let (window, scaled, corner) = makeScaledView()
        scaled.bounds.origin = CGPoint(x: 100, y: 100)
        #expect(approximately(scaled.frame, CGRect(x: 100, y: 100, width: 100, height: 100)))
        // The corner subview (150…200 in bounds space) now shows at 100 + (150 − 100)·0.5 = 125 … 150.
        #expect(window.hitTest(CGPoint(x: 140, y: 140), with: nil) === corner)
        #expect(approximately(corner.convert(CGPoint.zero, to: nil), CGPoint(x: 125, y: 125)))
    }

    @Test func aQuarterTurnedViewGetsTheFrameItWasGiven() {
        let window = makeWindow()
        let turned = UIView(frame: .zero)
        turned.transform = CGAffineTransform(rotationAngle: .pi / 2)
        turned.frame = CGRect(x: 40, y: 60, width: 80, height: 200)
        window.addSubview(turned)
        #expect(approximately(turned.bounds.size, CGSize(width: 200, height: 80)))
        #expect(approximately(turned.frame, CGRect(x: 40, y: 60, width: 80, height: 200)))
        // Its bounds' top-left corner turns to the frame's top-right corner.
        #expect(approximately(turned.convert(CGPoint.zero, to: nil), CGPoint(x: 120, y: 60)))
        #expect(window.hitTest(CGPoint(x: 115, y: 250), with: nil) === turned)
        #expect(window.hitTest(CGPoint(x: 125, y: 250), with: nil) === window)
    }
}
