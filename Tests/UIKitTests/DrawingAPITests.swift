import DrawingTestSupport
import Foundation
import TestExpectations
import Testing
@testable import UIKit

/// A picture `size` points at scale 1 drawn by `draw` on a clear background.
@MainActor
private func picture(_ size: CGSize, _ draw: (CGContext) -> Void) -> CGImage {
    let format = UIGraphicsImageRendererFormat()
    format.scale = 1
    return UIGraphicsImageRenderer(size: size, format: format).image { draw($0.cgContext) }.cgImage!
}

private let redToBlue = CGGradient(
    colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [UIColor.red.cgColor, UIColor.blue.cgColor] as CFArray, locations: [0, 1])!

@MainActor
@Suite struct GradientDrawingTests {
    @Test func aLinearGradientMixesAlongItsLineAndPaintsBeyondItsEndsOnlyWhenAsked() {
        _ = makeWindow()
        let line = { (options: CGGradientDrawingOptions) in
            picture(CGSize(width: 100, height: 10)) {
                $0.drawLinearGradient(redToBlue, start: CGPoint(x: 20, y: 0), end: CGPoint(x: 80, y: 0), options: options)
            }
        }
        let plain = line([])
        expectEqual(rgba(plain, 10, 5), [0, 0, 0, 0], "before the start: nothing")
        expectEqual(rgba(plain, 90, 5), [0, 0, 0, 0], "after the end: nothing")
        #expect(close(rgba(plain, 20, 5), [255, 0, 0, 255], tolerance: 4))
        #expect(close(rgba(plain, 50, 5), [127, 0, 128, 255], tolerance: 5))
        #expect(close(rgba(plain, 79, 5), [0, 0, 255, 255], tolerance: 6))
        let extended = line([.drawsBeforeStartLocation, .drawsAfterEndLocation])
        expectEqual(rgba(extended, 5, 5), [255, 0, 0, 255])
        expectEqual(rgba(extended, 95, 5), [0, 0, 255, 255])
    }

    @Test func aRadialGradientGoesFromTheStartCircleToTheEndCircle() {
        _ = makeWindow()
        let image = picture(CGSize(width: 100, height: 100)) {
            $0.drawRadialGradient(redToBlue, startCenter: CGPoint(x: 50, y: 50), startRadius: 0,
                                  endCenter: CGPoint(x: 50, y: 50), endRadius: 40, options: [])
        }
        #expect(close(rgba(image, 50, 50), [255, 0, 0, 255], tolerance: 8))
        #expect(close(rgba(image, 70, 50), [125, 0, 130, 255], tolerance: 8))
        #expect(close(rgba(image, 50, 88), [5, 0, 250, 255], tolerance: 8))
        expectEqual(rgba(image, 95, 50), [0, 0, 0, 0], "outside the end circle: nothing")
        expectEqual(rgba(image, 3, 3), [0, 0, 0, 0])
    }

    @Test func aGradientFillsOnlyTheClipAndTakesTheContextsAlpha() {
        _ = makeWindow()
        let image = picture(CGSize(width: 100, height: 100)) { context in
            context.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
            context.clip()
            context.clip(to: CGRect(x: 0, y: 0, width: 100, height: 60))
            context.setAlpha(0.5)
            context.drawLinearGradient(redToBlue, start: .zero, end: CGPoint(x: 0, y: 100),
                                       options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        }
        expectEqual(rgba(image, 2, 2), [0, 0, 0, 0], "outside the ellipse")
        expectEqual(rgba(image, 50, 80), [0, 0, 0, 0], "outside the rectangle")
        #expect(close(rgba(image, 50, 10), [114, 0, 13, 128], tolerance: 4), "half opaque, premultiplied")
    }

    @Test func gradientsLookRight() {
        _ = makeWindow()
        let rainbow = CGGradient(
            colorsSpace: CGColorSpaceCreateDeviceRGB(),
            colors: [UIColor.red.cgColor, UIColor.yellow.cgColor, UIColor.green.cgColor, UIColor.blue.cgColor] as CFArray,
            locations: [0, 0.3, 0.6, 1])!
        let image = picture(CGSize(width: 240, height: 120)) { context in
            UIColor.white.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 240, height: 120))
            context.saveGState()
            context.addRect(CGRect(x: 10, y: 10, width: 100, height: 100))
            context.clip()
            context.drawLinearGradient(rainbow, start: CGPoint(x: 10, y: 10), end: CGPoint(x: 110, y: 110), options: [])
            context.restoreGState()
            context.saveGState()
            context.addEllipse(in: CGRect(x: 130, y: 10, width: 100, height: 100))
            context.clip()
            context.drawRadialGradient(rainbow, startCenter: CGPoint(x: 160, y: 40), startRadius: 5,
                                       endCenter: CGPoint(x: 180, y: 60), endRadius: 50, options: [.drawsAfterEndLocation])
            context.restoreGState()
        }
        try? image.pngData().write(to: FileManager.default.temporaryDirectory.appendingPathComponent("gradients.png"))
        expectMatchesReference(image, named: "gradients")
    }
}

@MainActor
@Suite struct ShapeLayerTests {
    /// `layers` in a 120 × 120 container on white, rendered at scale 1.
    private func render(_ layers: [CALayer], opacity: Float = 1) -> CGImage {
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 120, height: 120)
        container.backgroundColor = UIColor.white.cgColor
        for layer in layers { container.addSublayer(layer) }
        return picture(CGSize(width: 120, height: 120)) { container.render(in: $0) }
    }

    private func line(from: CGPoint, to: CGPoint) -> CGPath {
        let path = CGMutablePath()
        path.move(to: from)
        path.addLine(to: to)
        return path
    }

    @Test func theDefaultsAreCoreAnimations() {
        let shape = CAShapeLayer()
        expectEqual(shape.fillColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        #expect(shape.strokeColor == nil && shape.lineWidth == 1 && shape.miterLimit == 10)
        #expect(shape.strokeStart == 0 && shape.strokeEnd == 1)
        #expect(shape.lineCap == .butt && shape.lineJoin == .miter && shape.fillRule == .nonZero)
        #expect(shape.lineDashPattern == nil && shape.lineDashPhase == 0)
        shape.lineWidth = -1
        shape.strokeEnd = .nan
        #expect(shape.lineWidth == 1 && shape.strokeEnd == 1)
    }

    @Test func aPathIsFilledThenStrokedOutsideItsLayersEmptyBounds() {
        _ = makeWindow()
        let shape = CAShapeLayer()  // bounds empty: the path is drawn anyway
        shape.path = CGPath(rect: CGRect(x: 20, y: 20, width: 40, height: 40), transform: nil)
        shape.fillColor = UIColor.red.cgColor
        shape.strokeColor = UIColor.blue.cgColor
        shape.lineWidth = 4
        let image = render([shape])
        expectEqual(rgba(image, 40, 40), [255, 0, 0, 255])
        expectEqual(rgba(image, 20, 40), [0, 0, 255, 255], "the stroke, over the fill's edge")
        expectEqual(rgba(image, 17, 40), [255, 255, 255, 255])
    }

    @Test func strokeStartAndEndCutTheStrokeByLength() {
        _ = makeWindow()
        let shape = CAShapeLayer()
        shape.path = line(from: CGPoint(x: 10, y: 50), to: CGPoint(x: 110, y: 50))
        shape.strokeColor = UIColor.green.cgColor
        shape.lineWidth = 6
        shape.strokeStart = 0.2
        shape.strokeEnd = 0.6
        let image = render([shape])
        expectEqual(rgba(image, 25, 50), [255, 255, 255, 255])
        expectEqual(rgba(image, 32, 50), [0, 255, 0, 255])
        expectEqual(rgba(image, 68, 50), [0, 255, 0, 255])
        expectEqual(rgba(image, 75, 50), [255, 255, 255, 255])
    }

    @Test func dashesCapsAndTheFillRule() {
        _ = makeWindow()
        let dashed = CAShapeLayer()
        dashed.path = line(from: CGPoint(x: 10, y: 20), to: CGPoint(x: 90, y: 20))
        dashed.strokeColor = UIColor.black.cgColor
        dashed.lineWidth = 4
        dashed.lineDashPattern = [10, 10]
        dashed.lineDashPhase = 5
        let round = CAShapeLayer()
        round.path = line(from: CGPoint(x: 10, y: 40), to: CGPoint(x: 90, y: 40))
        round.strokeColor = UIColor.black.cgColor
        round.lineWidth = 10
        round.lineCap = .round
        let ring = CAShapeLayer()
        let rings = CGMutablePath()
        rings.addRect(CGRect(x: 10, y: 60, width: 50, height: 50))
        rings.addRect(CGRect(x: 25, y: 75, width: 20, height: 20))
        ring.path = rings
        ring.fillColor = UIColor.blue.cgColor
        ring.fillRule = .evenOdd
        let image = render([dashed, round, ring])
        // Phase 5: painted 10…15, clear 15…25, painted 25…35.
        expectEqual(rgba(image, 12, 20), [0, 0, 0, 255])
        expectEqual(rgba(image, 20, 20), [255, 255, 255, 255])
        expectEqual(rgba(image, 30, 20), [0, 0, 0, 255])
        expectEqual(rgba(image, 7, 40), [0, 0, 0, 255], "a round cap reaches past the end")
        expectEqual(rgba(image, 15, 70), [0, 0, 255, 255])
        expectEqual(rgba(image, 35, 85), [255, 255, 255, 255], "even-odd: the inner square is a hole")
    }

    @Test func aTranslucentShapeIsOneGroupOfFillAndStroke() {
        _ = makeWindow()
        let shape = CAShapeLayer()
        shape.path = CGPath(rect: CGRect(x: 20, y: 20, width: 40, height: 40), transform: nil)
        shape.fillColor = UIColor.red.cgColor
        shape.strokeColor = UIColor.blue.cgColor
        shape.lineWidth = 4
        shape.opacity = 0.5
        let image = render([shape])
        // Where the stroke covers the fill, half the blue over white, no red.
        #expect(close(rgba(image, 21, 40), [128, 128, 255, 255], tolerance: 2))
        #expect(close(rgba(image, 40, 40), [255, 128, 128, 255], tolerance: 2))
    }

    @Test func shapeLayersLookRight() {
        _ = makeWindow()
        UIScreen.main.scale = 2
        let star = CAShapeLayer()
        let points = (0..<10).map { i -> CGPoint in
            let angle = CGFloat(i) * .pi / 5 - .pi / 2, radius: CGFloat = i % 2 == 0 ? 45 : 18
            return CGPoint(x: 55 + radius * cos(angle), y: 55 + radius * sin(angle))
        }
        let starPath = CGMutablePath()
        starPath.addLines(between: points)
        starPath.closeSubpath()
        star.path = starPath
        star.fillColor = UIColor.yellow.cgColor
        star.strokeColor = UIColor.orange.cgColor
        star.lineWidth = 3
        star.lineJoin = .round
        let arc = CAShapeLayer()
        arc.frame = CGRect(x: 110, y: 10, width: 90, height: 90)
        arc.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 80, height: 80), transform: nil)
        arc.fillColor = nil
        arc.strokeColor = UIColor.systemBlue.cgColor
        arc.lineWidth = 8
        arc.lineCap = .round
        arc.strokeEnd = 0.7
        let zigzag = CAShapeLayer()
        let zig = CGMutablePath()
        zig.addLines(between: [CGPoint(x: 10, y: 150), CGPoint(x: 40, y: 115), CGPoint(x: 70, y: 150), CGPoint(x: 100, y: 115)])
        zigzag.path = zig
        zigzag.fillColor = nil
        zigzag.strokeColor = UIColor.purple.cgColor
        zigzag.lineWidth = 6
        zigzag.lineJoin = .bevel
        zigzag.lineDashPattern = [12, 4]
        let container = CALayer()
        container.frame = CGRect(x: 0, y: 0, width: 210, height: 160)
        container.backgroundColor = UIColor.white.cgColor
        for layer in [star, arc, zigzag] { container.addSublayer(layer) }
        let format = UIGraphicsImageRendererFormat()
        format.scale = 2
        let image = UIGraphicsImageRenderer(size: CGSize(width: 210, height: 160), format: format).image {
            container.render(in: $0.cgContext)
        }.cgImage!
        try? image.pngData().write(to: FileManager.default.temporaryDirectory.appendingPathComponent("shape-layers.png"))
        expectMatchesReference(image, named: "shape-layers")
    }
}

@Suite struct DrawingOffTheMainThreadTests {
    /// What a background thread drew, and whether it saw a context before opening its own.
    struct BackgroundDrawing: Sendable {
        var sawAContextFirst: Bool
        var left: [UInt8]
        var right: [UInt8]
        var size: [Int]
    }

    /// Hands a value from the drawing thread to the test, which waits on
    /// the semaphore before reading it.
    final class Handover: @unchecked Sendable {
        var drawing: BackgroundDrawing?
        let done = DispatchSemaphore(value: 0)
    }

    // UIKit keeps a stack of current contexts per thread and documents
    // UIGraphicsImageRenderer as usable from any thread. The main thread
    // waits for the drawing thread without a suspension point, so that no
    // other test resets the application in between.
    @MainActor
    @Test func eachThreadDrawsOnItsOwnContextStack() throws {
        _ = makeWindow()
        let mainContext = try #require(CGContext(
            data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        UIGraphicsPushContext(mainContext)
        defer { UIGraphicsPopContext() }
        let handover = Handover()
        Thread {
            let sawAContextFirst = UIGraphicsGetCurrentContext() != nil
            UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 1)
            UIColor.red.setFill()
            UIGraphicsGetCurrentContext()?.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
            let red = UIGraphicsGetImageFromCurrentImageContext()
            UIGraphicsEndImageContext()
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            let image = UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4), format: format).image { context in
                UIColor.blue.setFill()
                context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
                red?.draw(in: CGRect(x: 0, y: 0, width: 2, height: 4))
                UIBezierPath(rect: CGRect(x: 3, y: 0, width: 1, height: 4)).fill()
            }
            let cgImage = image.cgImage!
            handover.drawing = BackgroundDrawing(
                sawAContextFirst: sawAContextFirst, left: rgba(cgImage, 0, 1), right: rgba(cgImage, 2, 1),
                size: [cgImage.width, cgImage.height])
            handover.done.signal()
        }.start()
        handover.done.wait()
        let drawing = try #require(handover.drawing)
        #expect(!drawing.sawAContextFirst, "the main thread's context is not the thread's")
        #expect(drawing.left == [255, 0, 0, 255] && drawing.right == [0, 0, 255, 255])
        expectEqual(drawing.size, [4, 4])
        #expect(UIGraphicsGetCurrentContext() === mainContext, "the main thread's stack is untouched")
    }
}

@MainActor
@Suite struct InterfaceBuilderAndMenuStandInTests {
    final class NibView: UIView {
        var awoke = false
        override func awakeFromNib() {
            super.awakeFromNib()
            awoke = true
        }
    }

    @Test func awakeFromNibIsAnOverridePointThatNothingCalls() {
        let view = NibView(frame: .zero)
        #expect(!view.awoke)
        view.awakeFromNib()
        #expect(view.awoke)
        UIViewController().awakeFromNib()
    }

    @Test func theMenuControllerKeepsItsItemsAndShowsNothing() {
        let window = makeWindow()
        let menu = UIMenuController.shared
        #expect(menu === UIMenuController.shared)
        menu.menuItems = [UIMenuItem(title: "Define", action: "define:")]
        menu.showMenu(from: window, rect: CGRect(x: 10, y: 10, width: 20, height: 20))
        #expect(!menu.isMenuVisible && menu.menuFrame == .zero)
        #expect(menu.menuItems?.first?.title == "Define" && menu.menuItems?.first?.action == "define:")
        _ = makeWindow()
        #expect(UIMenuController.shared.menuItems == nil, "a clean application has a new menu controller")
    }
}
