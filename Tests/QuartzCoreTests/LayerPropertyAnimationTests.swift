import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

/// The properties Apple marks animatable beyond the geometry and the
/// layer's colours — a shape layer's stroke and fill, a gradient's points,
/// `contentsRect` — animate frame by frame, are drawn as shown, and run
/// implicit animations on standalone layers as any animatable property.
@MainActor
@Suite(.serialized) struct LayerPropertyAnimationTests {
    /// A shape layer stroking a horizontal line across a 40-point frame,
    /// 4 points wide, black on white.
    func strokedLine(in root: CALayer) -> CAShapeLayer {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 0, y: 20))
        line.addLine(to: CGPoint(x: 40, y: 20))
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = line
        shape.fillColor = nil
        shape.strokeColor = color(0, 0, 0)
        shape.lineWidth = 4
        root.addSublayer(shape)
        return shape
    }

    /// `strokeEnd` from 0 to 1 (the progress ring of many apps): at each
    /// refresh the presentation's `strokeEnd` is t and the line is drawn
    /// to 40·t points, the pixels left of that black and right of it white.
    @Test func strokeEndDrawsTheLineAsFarAsShownFrameByFrame() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, compositor) = try makeScene()
        let shape = strokedLine(in: root)
        CATransaction.flush()
        compositor.renderFrame()
        shape.add(linear("strokeEnd", from: 0, to: 1), forKey: "draw")
        for step in stride(from: 6, through: 54, by: 6) {
            let t = Double(step) / 60
            showFrame(at: 100 + t, clock, compositor)
            let shown = try #require(shape.presentation())
            #expect(abs(shown.strokeEnd - t) < 1e-12, "strokeEnd at \(t)")
            expectEqual(shape.strokeEnd, 1, "the model")
            let end = 40 * t
            // Whole pixels clear of the end: black before it, white after.
            expectEqual(matches(compositor.pixel(x: Int(end) - 1, y: 20), (0, 0, 0, 255)), true, "before the end at \(t)")
            expectEqual(matches(compositor.pixel(x: Int(end.rounded(.up)) + 1, y: 20), white), true, "after the end at \(t)")
        }
    }

    /// `lineWidth`, `fillColor`, `strokeColor`, `strokeStart`,
    /// `miterLimit` and `lineDashPhase` follow the linear formula a + (b − a)·t;
    /// colours component by component.
    @Test func theOtherShapeValuesAnimate() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, _) = try makeScene()
        let shape = strokedLine(in: root)
        CATransaction.flush()
        shape.add(linear("lineWidth", from: 2, to: 10), forKey: "w")
        shape.add(linear("fillColor", from: color(1, 0, 0), to: color(0, 0, 1)), forKey: "f")
        shape.add(linear("strokeColor", from: color(0, 1, 0), to: color(1, 1, 1, 0)), forKey: "s")
        shape.add(linear("strokeStart", from: 0, to: 0.5), forKey: "start")
        shape.add(linear("miterLimit", from: 4, to: 8), forKey: "m")
        shape.add(linear("lineDashPhase", from: 0, to: 12), forKey: "d")
        for step in 1...59 {
            let t = Double(step) / 60
            clock.refresh(at: 100 + t)
            let shown = try #require(shape.presentation())
            #expect(abs(shown.lineWidth - (2 + 8 * t)) < 1e-12)
            #expect(abs(shown.strokeStart - 0.5 * t) < 1e-12)
            #expect(abs(shown.miterLimit - (4 + 4 * t)) < 1e-12)
            #expect(abs(shown.lineDashPhase - 12 * t) < 1e-12)
            let fill = try #require(shown.fillColor), stroke = try #require(shown.strokeColor)
            #expect(abs(fill.red - (1 - t)) < 1e-12 && abs(fill.blue - t) < 1e-12)
            #expect(abs(stroke.red - t) < 1e-12 && abs(stroke.green - 1) < 1e-12 && abs(stroke.alpha - (1 - t)) < 1e-12)
        }
    }

    /// A standalone shape layer runs an implicit animation for `strokeEnd`
    /// (0.25 s from the value shown, Core Animation's default), as for any
    /// animatable property; a view's layer would not, outside a block.
    @Test func aStandaloneShapeLayerAnimatesStrokeEndImplicitly() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let view = StandInView()
        let shape = CAShapeLayer()
        view.layer.addSublayer(shape)
        CATransaction.flush()
        shape.strokeEnd = 0.2
        let implicit = try #require(shape.animation(forKey: "strokeEnd") as? CABasicAnimation)
        expectEqual(implicit.duration, 0.25)
        expectEqual(implicit.fromValue as? CGFloat, 1)
        // Half way (0.125 s in, on the default ease-in-out-like curve's middle, 0.6).
        clock.refresh(at: 100.125)
        #expect(abs(try #require(shape.presentation()).strokeEnd - 0.6) < 1e-6)
    }

    /// `contentsRect` and its parts animate: the presentation's rectangle
    /// is the linear mix at each refresh, and the compositor shows that
    /// part of the image (a 2-pixel image, red then blue: its right half
    /// alone fills the layer blue).
    @Test func contentsRectAnimatesAndIsDrawnAsShown() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, compositor) = try makeScene(width: 10, height: 10)
        let layer = CALayer()
        layer.frame = root.bounds
        let context = try #require(CGContext(data: nil, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 8,
                                             space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        context.setFillColor(color(1, 0, 0))
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        context.setFillColor(color(0, 0, 1))
        context.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        layer.contents = context.makeImage()
        root.addSublayer(layer)
        CATransaction.flush()
        compositor.renderFrame()
        let whole = CGRect(x: 0, y: 0, width: 1, height: 1), right = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let animation = linear("contentsRect", from: whole, to: right)
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "pan")
        layer.add(linear("contentsRect.size.height", from: 1, to: 0.5), forKey: "squash")
        for step in 1...59 {
            let t = Double(step) / 60
            clock.refresh(at: 100 + t)
            let shown = try #require(layer.presentation()).contentsRect
            expectEqual(abs(shown.minX - 0.5 * t) < 1e-12 && abs(shown.width - (1 - 0.5 * t)) < 1e-12, true, "x, width at \(t)")
            expectEqual(abs(shown.height - (1 - 0.5 * t)) < 1e-12, true, "height at \(t)")
        }
        showFrame(at: 101.5, clock, compositor)
        expectEqual(try #require(layer.presentation()).contentsRect, right)
        expectEqual(matches(compositor.pixel(x: 1, y: 5), (0, 0, 255, 255)), true, "the right half alone, blue")
    }

    /// A gradient's `startPoint` and `endPoint` animate (Apple marks both
    /// animatable); the layer is drawn with the points shown.
    @Test func gradientPointsAnimate() throws {
        let clock = TestMediaClock()
        defer { clock.uninstall() }
        let (root, compositor) = try makeScene(width: 20, height: 20)
        let gradient = CAGradientLayer()
        gradient.frame = root.bounds
        gradient.colors = [color(1, 0, 0), color(0, 0, 1)]
        root.addSublayer(gradient)
        CATransaction.flush()
        compositor.renderFrame()
        gradient.add(linear("startPoint", from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0, y: 0.5)), forKey: "s")
        gradient.add(linear("endPoint", from: CGPoint(x: 0.5, y: 1), to: CGPoint(x: 1, y: 0.5)), forKey: "e")
        for step in 1...59 {
            let t = Double(step) / 60
            clock.refresh(at: 100 + t)
            let shown = try #require(gradient.presentation())
            expectEqual(abs(shown.startPoint.x - 0.5 * (1 - t)) < 1e-12 && abs(shown.startPoint.y - 0.5 * t) < 1e-12, true, "start at \(t)")
            expectEqual(abs(shown.endPoint.x - (0.5 + 0.5 * t)) < 1e-12 && abs(shown.endPoint.y - (1 - 0.5 * t)) < 1e-12, true, "end at \(t)")
        }
        // Almost at the end the gradient runs left to right: red at the
        // left edge, blue at the right, on the middle row alike top and bottom.
        showFrame(at: 100 + 59.0 / 60, clock, compositor)
        let left = compositor.pixel(x: 0, y: 10), rightPixel = compositor.pixel(x: 19, y: 10)
        #expect(left.red > 200 && left.blue < 60, "left \(left)")
        #expect(rightPixel.blue > 200 && rightPixel.red < 60, "right \(rightPixel)")
        let top = compositor.pixel(x: 2, y: 0), bottom = compositor.pixel(x: 2, y: 19)
        #expect(abs(Int(top.red) - Int(bottom.red)) < 40, "top \(top) and bottom \(bottom) nearly alike")
    }
}
