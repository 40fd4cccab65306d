import DrawingTestSupport
import TestExpectations
import Testing
@testable import UIKit

/// A view that fills half of itself with its colour: the top half, or the bottom.
@MainActor
final class HalfFilledView: UIView {
    var color = UIColor.red { didSet { setNeedsDisplay() } }
    var fillsTopHalf = true

    override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.setFillColor(color.cgColor)
        context.fill(CGRect(x: 0, y: fillsTopHalf ? 0 : bounds.height / 2, width: bounds.width, height: bounds.height / 2))
    }
}

/// Views draw into images kept by the application's pool, which hands an
/// image out again only once nothing else holds it.
@MainActor
@Suite struct BackingStoreReuseTests {
    /// A window, displayed, and an empty pool: the first display of a class
    /// not yet known (the window's, in a run of these tests alone) draws it
    /// into a store to learn whether it draws, and leaves that store free.
    private func makeScene() -> UIWindow {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        UIScreen.main.scale = 1
        UIApplication.shared.runLoop.runUntilIdle()
        UIApplication.shared.backingStores.removeAll()
        return window
    }

    @Test func aBackingStoreNothingElseHoldsIsDrawnIntoAgainClearedFirst() throws {
        let window = makeScene()
        let first = HalfFilledView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(first)
        UIApplication.shared.runLoop.runUntilIdle()
        var shown: CGImage? = try #require(first.layer.contents as? CGImage)
        expectEqual(rgba(shown!, 5, 2), [255, 0, 0, 255])
        // Its ink (where the compositor samples it) is the top half.
        expectEqual(shown!.inkBounds, PixelRect(x0: 0, y0: 0, x1: 10, y1: 5))

        // Drawn again, into another image: the one still held here is left as it was.
        first.color = .blue
        UIApplication.shared.runLoop.runUntilIdle()
        let redrawn = try #require(first.layer.contents as? CGImage)
        #expect(redrawn !== shown)
        expectEqual(rgba(redrawn, 5, 2), [0, 0, 255, 255])
        expectEqual(rgba(shown!, 5, 2), [255, 0, 0, 255])

        // Let go of, it is the next 10×10 view's backing store, cleared before it draws.
        let freed = ObjectIdentifier(shown!)
        shown = nil
        expectEqual(UIApplication.shared.backingStores.counts.free, 1)
        let second = HalfFilledView(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
        second.color = .green
        second.fillsTopHalf = false
        window.addSubview(second)
        UIApplication.shared.runLoop.runUntilIdle()
        let reused = try #require(second.layer.contents as? CGImage)
        expectEqual(ObjectIdentifier(reused), freed)
        expectEqual(rgba(reused, 5, 2), [0, 0, 0, 0], "the old red is gone")
        expectEqual(rgba(reused, 5, 7), [0, 255, 0, 255])
        // The pool forgot the old ink before drawing: it is measured again.
        expectEqual(reused.inkBounds, PixelRect(x0: 0, y0: 5, x1: 10, y1: 10))
        // The first view's image was not touched.
        expectEqual(rgba(redrawn, 5, 2), [0, 0, 255, 255])

        // Another size gets an image of its own.
        let wide = HalfFilledView(frame: CGRect(x: 0, y: 20, width: 20, height: 10))
        window.addSubview(wide)
        UIApplication.shared.runLoop.runUntilIdle()
        let wideImage = try #require(wide.layer.contents as? CGImage)
        #expect(wideImage.width == 20 && wideImage.height == 10)
        expectEqual(UIApplication.shared.backingStores.counts.stores, 3)
    }

    /// A backing store larger than what the pool may hold in all is drawn
    /// into and shown, but not kept.
    @Test func aHugeBackingStoreIsNotKept() throws {
        let window = makeScene()
        let side = 3_000  // 36 MB of pixels at scale 1
        let huge = HalfFilledView(frame: CGRect(x: 0, y: 0, width: side, height: side))
        window.addSubview(huge)
        UIApplication.shared.runLoop.runUntilIdle()
        let image = try #require(huge.layer.contents as? CGImage)
        expectEqual(rgba(image, 10, 10), [255, 0, 0, 255])
        expectEqual(UIApplication.shared.backingStores.counts.stores, 0)
    }

    /// Free stores beyond the pool's limit are let go.
    @Test func thePoolKeepsAFewFreeStoresAtMost() {
        let window = makeScene()
        var views: [HalfFilledView] = []
        for index in 0..<(BackingStorePool.spareLimit + 4) {
            let view = HalfFilledView(frame: CGRect(x: 0, y: 0, width: 1 + index, height: 1))
            window.addSubview(view)
            views.append(view)
        }
        UIApplication.shared.runLoop.runUntilIdle()
        let before = UIApplication.shared.backingStores.counts
        #expect(before.stores >= BackingStorePool.spareLimit + 4)
        for view in views { view.removeFromSuperview() }
        views = []
        UIApplication.shared.runLoop.runUntilIdle()
        // The next display finds them free, keeps the limit and lets the rest go.
        let last = HalfFilledView(frame: CGRect(x: 0, y: 0, width: 30, height: 30))
        window.addSubview(last)
        UIApplication.shared.runLoop.runUntilIdle()
        let after = UIApplication.shared.backingStores.counts
        expectEqual(after.free, BackingStorePool.spareLimit)
        #expect(after.stores <= before.stores - 3, "four let go, one made for the last view: \(before) → \(after)")
    }
}
