import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

@MainActor
final class DiagonalView: UIView {
    var draws = 0
    override func draw(_ rect: CGRect) {
        draws += 1
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: bounds.width / 2, height: bounds.height / 2))
    }
}

@MainActor
@Suite struct ViewDrawingTests {
    private func pixel(_ compositor: LayerCompositor, _ x: Int, _ y: Int) -> [UInt8] {
        let p = compositor.pixel(x: x, y: y)
        return [p.red, p.green, p.blue, p.alpha]
    }

    @Test func aViewThatDrawsGetsABackingStoreAtTheScreensScaleShownOnScreen() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        UIScreen.main.scale = 2
        window.backgroundColor = .white
        let view = DiagonalView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        window.addSubview(view)
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(view.draws, 1)  // displayed on joining the window, once
        let image = try #require(view.layer.contents as? CGImage)
        #expect(image.width == 40 && image.height == 40)
        expectEqual(view.layer.contentsScale, 2)
        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 40, pixelHeight: 40, scale: 2)
        compositor.renderFrame()
        expectEqual(pixel(compositor, 5, 5), [255, 0, 0, 255])    // top left, y down
        expectEqual(pixel(compositor, 30, 30), [255, 255, 255, 255])
        view.setNeedsDisplay()
        UIApplication.shared.runLoop.runUntilIdle()
        expectEqual(view.draws, 2)
    }

    @Test func plainViewsKeepNoBackingStore() {
        let window = makeWindow()
        let plain = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(plain)
        UIApplication.shared.runLoop.runUntilIdle()
        #expect(plain.layer.contents == nil)
        expectEqual(UIApplication.shared.drawingClasses[ObjectIdentifier(UIView.self)], false)
        let other = UIView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(other)
        #expect(!other.layer.needsDisplay())  // its class is known not to draw
        #expect(UIGraphicsGetCurrentContext() == nil)  // the backing store was popped
    }

    @Test func anImageViewShowsItsImageByContentMode() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        UIScreen.main.scale = 1
        window.backgroundColor = .white
        let red = CGImage(width: 2, height: 2) { buffer in
            for y in 0..<2 { for x in 0..<2 { buffer.row(y).storeBytes(of: 0xFF00_00FF as UInt32, toByteOffset: x * 4, as: UInt32.self) } }
        }!
        let imageView = UIImageView(image: UIImage(cgImage: red, scale: 1))
        imageView.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        imageView.contentMode = .center
        window.addSubview(imageView)
        UIApplication.shared.runLoop.runUntilIdle()
        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 20, pixelHeight: 20, scale: 1)
        compositor.renderFrame()
        expectEqual(pixel(compositor, 9, 9), [255, 0, 0, 255])      // 2×2 in the middle
        expectEqual(pixel(compositor, 5, 5), [255, 255, 255, 255])
        imageView.contentMode = .scaleToFill
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
        expectEqual(pixel(compositor, 5, 5), [255, 0, 0, 255])
        imageView.image = nil
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
        expectEqual(pixel(compositor, 9, 9), [255, 255, 255, 255])
    }

    /// A label, a view that draws and a button with a title, just made and
    /// in no window: no run-loop turn has displayed them.
    private func freshTreeInNoWindow() -> UIView {
        let container = UIView(frame: CGRect(x: 0, y: 0, width: 160, height: 60))
        container.backgroundColor = .white
        let label = UILabel(frame: CGRect(x: 0, y: 0, width: 100, height: 30))
        label.text = "Hello"
        label.font = .boldSystemFont(ofSize: 22)
        let drawing = DiagonalView(frame: CGRect(x: 100, y: 0, width: 60, height: 60))
        let button = UIButton(type: .system)
        button.setTitle("Tap me", for: .normal)
        button.frame = CGRect(x: 0, y: 30, width: 100, height: 30)
        for view in [label, drawing, button] { container.addSubview(view) }
        return container
    }

    /// What a snapshot test checks: dark text in the label's half, the
    /// drawn red square, the button's title in its tint.
    private func expectTreeContentShows(_ image: CGImage, _ name: String) {
        try? image.pngData().write(to: FileManager.default.temporaryDirectory.appendingPathComponent("\(name).png"))
        let text = darkestPixel(image, in: CGRect(x: 0, y: 0, width: 100, height: 30))
        #expect(text[0] < 60 && text[1] < 60 && text[2] < 60, "the label's text: \(text)")
        expectEqual(rgba(image, 110, 10), [255, 0, 0, 255], "the view's draw(_:)")
        let title = darkestPixel(image, in: CGRect(x: 0, y: 30, width: 100, height: 30))
        #expect(title[2] > 200 && title[0] < 60, "the button's title in the tint: \(title)")
    }

    // Snapshot libraries render a view in no window with `layer.render(in:)`;
    // on iOS that lays out and displays what needs it first.
    @Test func renderingALayerTreeDisplaysWhatWasNeverDisplayed() throws {
        _ = makeWindow()
        UIScreen.main.scale = 1
        let tree = freshTreeInNoWindow()
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let image = try #require(UIGraphicsImageRenderer(size: tree.bounds.size, format: format).image { context in
            tree.layer.render(in: context.cgContext)
        }.cgImage)
        expectTreeContentShows(image, "render-in-fresh-tree")
    }

    @Test func drawHierarchyBeforeScreenUpdatesDisplaysWhatWasNeverDisplayed() throws {
        _ = makeWindow()
        UIScreen.main.scale = 1
        let tree = freshTreeInNoWindow()
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        let image = try #require(UIGraphicsImageRenderer(size: tree.bounds.size, format: format).image { _ in
            tree.drawHierarchy(in: tree.bounds, afterScreenUpdates: false)
        }.cgImage)
        expectTreeContentShows(image, "draw-hierarchy-fresh-tree")
    }

    @Test func drawHierarchyDrawsIntoTheCurrentContextAfterPendingUpdates() throws {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let view = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        view.backgroundColor = .blue
        window.addSubview(view)
        #expect(!view.drawHierarchy(in: view.bounds, afterScreenUpdates: true))  // no current context
        let ctx = try #require(CGContext(
            data: nil, width: 20, height: 20, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        ctx.translateBy(x: 0, y: 20)
        ctx.scaleBy(x: 1, y: -1)
        UIGraphicsPushContext(ctx)
        #expect(view.drawHierarchy(in: CGRect(x: 0, y: 0, width: 20, height: 10), afterScreenUpdates: true))
        UIGraphicsPopContext()
        let word = { (x: Int, y: Int) in ctx.data!.load(fromByteOffset: y * ctx.bytesPerRow + x * 4, as: UInt32.self) }
        expectEqual(word(15, 5), 0xFFFF_0000)   // blue, stretched to 20 wide
        expectEqual(word(15, 15), 0)            // below the rect
    }
}
