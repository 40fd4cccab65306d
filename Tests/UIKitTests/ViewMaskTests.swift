import TestExpectations
import Testing
@testable import UIKit

@MainActor
@Suite struct ViewMaskTests {
    private func pixel(_ compositor: LayerCompositor, _ x: Int, _ y: Int) -> [UInt8] {
        let p = compositor.pixel(x: x, y: y)
        return [p.red, p.green, p.blue, p.alpha]
    }

    @Test func aMaskViewsLayerMasksTheViewsLayerAndItsDrawingCounts() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        UIScreen.main.scale = 1
        window.backgroundColor = .white
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.backgroundColor = .blue
        window.addSubview(view)
        // A view that draws its top-left quarter red: only that quarter lets the blue view through.
        let mask = DiagonalView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.mask = mask
        #expect(view.mask === mask && view.layer.mask === mask.layer)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(mask.draws, 1)   // displayed though it is in no window
        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 40, pixelHeight: 40, scale: 1)
        compositor.renderFrame()
        expectEqual(pixel(compositor, 5, 5), [0, 0, 255, 255])
        expectEqual(pixel(compositor, 30, 30), [255, 255, 255, 255])
        view.mask = nil
        #expect(view.layer.mask == nil)
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
        expectEqual(pixel(compositor, 30, 30), [0, 0, 255, 255])
    }

    @Test func aViewThatDrawsAddedToAMaskViewLaterIsDrawnToo() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        UIScreen.main.scale = 1
        window.backgroundColor = .white
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.backgroundColor = .blue
        window.addSubview(view)
        let mask = UIView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        view.mask = mask
        let drawing = DiagonalView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        mask.addSubview(drawing)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(drawing.draws, 1)
        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 40, pixelHeight: 40, scale: 1)
        compositor.renderFrame()
        expectEqual(pixel(compositor, 5, 5), [0, 0, 255, 255])
        expectEqual(pixel(compositor, 30, 30), [255, 255, 255, 255])
    }

    @Test func hitTestingDoesNotConsultTheMask() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(view)
        view.mask = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(window.hitTest(CGPoint(x: 50, y: 50), with: nil) === view)   // hidden by the mask, still hit
    }

    @Test func aMaskViewInAHierarchyOrContainingTheViewIsRefusedAndReported() {
        let window = makeWindow()
        let parent = UIView(), view = UIView(), sibling = UIView(), kept = UIView()
        window.addSubview(parent)
        parent.addSubview(view)
        parent.addSubview(sibling)
        view.mask = kept
        view.mask = sibling      // in a hierarchy
        view.mask = parent       // an ancestor (and in a hierarchy)
        view.mask = view         // itself
        #expect(view.mask === kept && view.layer.mask === kept.layer)
        expectEqual(UIApplication.shared.diagnostics.entries.map(\.kind), [.hierarchyCycle, .hierarchyCycle, .hierarchyCycle])
        // A mask view added to a hierarchy stops masking.
        sibling.addSubview(kept)
        #expect(view.mask == nil && view.layer.mask == nil)
    }
}
