import TestExpectations
import Testing
@testable import CoreGraphics
import DrawingTestSupport
import GeometryTestSupport

@Suite struct CGPathTests {
    @Test func buildsElementsAndReportsThem() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 5, y: 2))
        path.addQuadCurve(to: CGPoint(x: 5, y: 8), control: CGPoint(x: 9, y: 5))
        path.addCurve(to: CGPoint(x: 1, y: 8), control1: CGPoint(x: 4, y: 10), control2: CGPoint(x: 2, y: 10))
        path.closeSubpath()
        var kinds: [CGPathElementType] = []
        var lastPoints: [CGPoint] = []
        path.applyWithBlock { element in
            kinds.append(element.pointee.type)
            if element.pointee.type == .addCurveToPoint { lastPoints = (0..<3).map { element.pointee.points[$0] } }
        }
        expectEqual(kinds, [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        expectEqual(lastPoints, [CGPoint(x: 4, y: 10), CGPoint(x: 2, y: 10), CGPoint(x: 1, y: 8)])
        expectEqual(path.currentPoint, CGPoint(x: 1, y: 2))     // a close returns to the start
        expectEqual(path.boundingBox, CGRect(x: 1, y: 2, width: 8, height: 8))
        // The drawn curves reach x = 7 (quad: 5 + 2·¼·4… at t = ½) and y = 9.5, not the controls.
        #expect(approximately(path.boundingBoxOfPath, CGRect(x: 1, y: 2, width: 6, height: 7.5)))
        #expect(CGMutablePath().boundingBox.isNull)
    }

    @Test func lineWithoutCurrentPointStartsASubpath() {
        let path = CGMutablePath()
        path.addLine(to: CGPoint(x: 3, y: 3))
        expectEqual(path.currentPoint, CGPoint(x: 3, y: 3))
        var kinds: [CGPathElementType] = []
        path.applyWithBlock { kinds.append($0.pointee.type) }
        expectEqual(kinds, [.moveToPoint])
    }

    @Test func containsFollowsTheFillRule() {
        let rings = CGMutablePath()
        rings.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        rings.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))     // same direction: winding 2 inside
        #expect(rings.contains(CGPoint(x: 5, y: 5), using: .winding))
        #expect(!rings.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        #expect(rings.contains(CGPoint(x: 1, y: 1), using: .evenOdd))
        #expect(!rings.contains(CGPoint(x: 11, y: 5)))
        #expect(!rings.contains(CGPoint(x: CGFloat.nan, y: 5)))
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        #expect(circle.contains(CGPoint(x: 5, y: 0.05)))
        #expect(!circle.contains(CGPoint(x: 0.5, y: 0.5)))          // outside the curve, inside the box
        #expect(circle.contains(CGPoint(x: 15, y: 5), transform: CGAffineTransform(translationX: 10, y: 0)))
    }

    @Test func arcsGoTheWayTheySay() {
        // Counter-clockwise (increasing angle) from 0 to π/2: through (cos 45°, sin 45°).
        let ccw = CGMutablePath()
        ccw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(approximately(ccw.currentPoint, CGPoint(x: 0, y: 10)))
        #expect(approximately(ccw.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 10)))
        // Clockwise from 0 to π/2 is the long way round: three quarters.
        let cw = CGMutablePath()
        cw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(approximately(cw.boundingBoxOfPath, CGRect(x: -10, y: -10, width: 20, height: 20)))
        // A full turn is a whole circle; points on it are within 0.03 % of the radius.
        let full = CGMutablePath()
        full.addArc(center: CGPoint(x: 5, y: 5), radius: 5, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        for polygon in full.polygons(transform: .identity, tolerance: 0.0001) {
            for p in polygon { #expect(abs(hypot(p.x - 5, p.y - 5) - 5) < 0.0015) }
        }
        // A tangent arc rounds a right-angled corner.
        let corner = CGMutablePath()
        corner.move(to: CGPoint(x: 0, y: 0))
        corner.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 4)
        #expect(approximately(corner.currentPoint, CGPoint(x: 10, y: 4)))
        #expect(approximately(corner.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 4)))
        // NaN angles add nothing.
        let bad = CGMutablePath()
        bad.addArc(center: .zero, radius: 1, startAngle: .nan, endAngle: 1, clockwise: false)
        #expect(bad.isEmpty)
    }

    @Test func roundedRectsClampTheirCorners() {
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerWidth: 50, cornerHeight: 50, transform: nil)
        #expect(approximately(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 20, height: 10)))
        #expect(path.contains(CGPoint(x: 10, y: 5)))
        #expect(!path.contains(CGPoint(x: 0.5, y: 0.5)))
    }

    @Test func copiesAreTransformed() {
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: nil)
        var t = CGAffineTransform(scaleX: 3, y: 1)
        expectEqual(path.copy(using: &t)!.boundingBox, CGRect(x: 0, y: 0, width: 6, height: 2))
        let mutable = path.mutableCopy()!
        mutable.addRect(CGRect(x: 10, y: 10, width: 1, height: 1))
        expectEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 2, height: 2))    // the original is untouched
        expectEqual(mutable.boundingBox, CGRect(x: 0, y: 0, width: 11, height: 11))
        expectEqual(path, path.copy()!)
    }
}

/// A white context with a UIKit-style flip (y down, origin top-left) so
/// user coordinates are memory coordinates.
func makeFlippedContext(width: Int, height: Int, info: UInt32 = CGImageAlphaInfo.premultipliedLast.rawValue) -> CGContext {
    let context = makeContext(width: width, height: height, info: info)
    context.translateBy(x: 0, y: CGFloat(height))
    context.scaleBy(x: 1, y: -1)
    return context
}

@Suite struct PathDrawingTests {
    @Test func nonZeroAndEvenOddFills() {
        for rule in [CGPathFillRule.winding, .evenOdd] {
            let context = makeFlippedContext(width: 20, height: 20)
            context.addRect(CGRect(x: 2, y: 2, width: 16, height: 16))
            context.addEllipse(in: CGRect(x: 6, y: 6, width: 8, height: 8))
            context.fillPath(using: rule)
            expectEqual(bytes(context, 3, 3)[3], 255)
            expectEqual(bytes(context, 10, 10)[3], (rule == .winding ? 255 : 0))
            expectEqual(bytes(context, 1, 1)[3], 0)
            #expect(context.isPathEmpty)                             // filling consumed the path
        }
    }

    @Test func circleEdgesAreAntiAliasedByArea() {
        let context = makeFlippedContext(width: 40, height: 40)
        context.fillEllipse(in: CGRect(x: 10, y: 10, width: 20, height: 20))
        expectEqual(bytes(context, 20, 20), [0, 0, 0, 255])
        // The edge at x = 10 crosses row 19 near the pixel's left side: the
        // pixel (10, 19) is covered all but a sliver of its curve.
        let edge = Int(bytes(context, 10, 19)[3])
        #expect((200...255).contains(edge))
        expectEqual(bytes(context, 9, 19)[3], 0)
        // Total coverage equals the circle's area (π·100) within half a percent.
        var sum = 0
        for y in 0..<40 { for x in 0..<40 { sum += Int(bytes(context, x, y)[3]) } }
        let area = Double(sum) / 255
        #expect(abs(area - .pi * 100) < 0.005 * .pi * 100, "area \(area)")
    }

    @Test func strokesHaveTheirWidthCapsAndJoins() {
        // A horizontal line 4 wide from x 5 to 15 at y 10: butt caps end at the points.
        func line(cap: CGLineCap) -> CGContext {
            let context = makeFlippedContext(width: 30, height: 20)
            context.setLineWidth(4)
            context.setLineCap(cap)
            context.move(to: CGPoint(x: 5, y: 10))
            context.addLine(to: CGPoint(x: 15, y: 10))
            context.strokePath()
            return context
        }
        let butt = line(cap: .butt), square = line(cap: .square), round = line(cap: .round)
        #expect(bytes(butt, 5, 8)[3] == 255 && bytes(butt, 14, 11)[3] == 255)
        #expect(bytes(butt, 5, 7)[3] == 0 && bytes(butt, 5, 12)[3] == 0)     // 2 either side of y = 10
        #expect(bytes(butt, 4, 10)[3] == 0 && bytes(butt, 15, 10)[3] == 0)
        #expect(bytes(square, 3, 8)[3] == 255 && bytes(square, 16, 11)[3] == 255)
        expectEqual(bytes(square, 2, 10)[3], 0)
        #expect(bytes(round, 3, 9)[3] > 200 && bytes(round, 3, 8)[3] < 128)   // the cap is round
        expectEqual(bytes(round, 2, 10)[3], 0)

        // An L-shaped corner at (10, 10): a miter fills the outer corner, a bevel cuts it.
        func corner(join: CGLineJoin) -> CGContext {
            let context = makeFlippedContext(width: 20, height: 20)
            context.setLineWidth(6)
            context.setLineJoin(join)
            context.move(to: CGPoint(x: 0, y: 10))
            context.addLine(to: CGPoint(x: 10, y: 10))
            context.addLine(to: CGPoint(x: 10, y: 20))
            context.strokePath()
            return context
        }
        expectEqual(bytes(corner(join: .miter), 12, 7)[3], 255)
        expectEqual(bytes(corner(join: .bevel), 12, 7)[3], 0)
        // A round join is the quarter disc of radius 3 about (10, 10): pixel (11, 8)
        // (centre 2.1 from the corner) is in it, (12, 7) (centre 3.5 away) is not.
        expectEqual(bytes(corner(join: .round), 11, 8)[3], 255)
        #expect(bytes(corner(join: .round), 12, 7)[3] < 10)
        // With a miter limit below √2 (the right angle's ratio), the miter becomes a bevel.
        let limited = makeFlippedContext(width: 20, height: 20)
        limited.setLineWidth(6)
        limited.setMiterLimit(1.2)
        limited.move(to: CGPoint(x: 0, y: 10)); limited.addLine(to: CGPoint(x: 10, y: 10)); limited.addLine(to: CGPoint(x: 10, y: 20))
        limited.strokePath()
        expectEqual(bytes(limited, 12, 7)[3], 0)
    }

    @Test func dashesSplitTheLine() {
        let context = makeFlippedContext(width: 40, height: 10)
        context.setLineWidth(2)
        context.setLineDash(phase: 0, lengths: [4, 2])
        context.move(to: CGPoint(x: 0, y: 5))
        context.addLine(to: CGPoint(x: 40, y: 5))
        context.strokePath()
        let row = (0..<24).map { bytes(context, $0, 5)[3] == 255 ? "#" : "." }.joined()
        expectEqual(row, "####..####..####..####..")
        // A phase shifts the pattern; odd patterns repeat with on and off swapped.
        let shifted = makeFlippedContext(width: 20, height: 10)
        shifted.setLineWidth(2)
        shifted.setLineDash(phase: 1, lengths: [3])
        shifted.move(to: CGPoint(x: 0, y: 5)); shifted.addLine(to: CGPoint(x: 20, y: 5))
        shifted.strokePath()
        expectEqual((0..<12).map { bytes(shifted, $0, 5)[3] == 255 ? "#" : "." }.joined(), "##...###...#")
        // An invalid pattern draws a solid line.
        let invalid = makeFlippedContext(width: 10, height: 10)
        invalid.setLineWidth(2)
        invalid.setLineDash(phase: 0, lengths: [-1, 2])
        invalid.move(to: CGPoint(x: 0, y: 5)); invalid.addLine(to: CGPoint(x: 10, y: 5))
        invalid.strokePath()
        #expect((0..<10).allSatisfy { bytes(invalid, $0, 5)[3] == 255 })
    }

    @Test func strokeWidthFollowsTheTransform() {
        // Scaled 3× in y only: a horizontal line 2 wide becomes 6 pixels tall, 2 wide vertically-running lines stay 2.
        let context = makeFlippedContext(width: 30, height: 30)
        context.scaleBy(x: 1, y: 3)
        context.setLineWidth(2)
        context.move(to: CGPoint(x: 0, y: 5)); context.addLine(to: CGPoint(x: 30, y: 5))       // device y 15
        context.move(to: CGPoint(x: 25, y: 0)); context.addLine(to: CGPoint(x: 25, y: 10))     // device x 25
        context.strokePath()
        #expect(bytes(context, 5, 12)[3] == 255 && bytes(context, 5, 17)[3] == 255)
        #expect(bytes(context, 5, 11)[3] == 0 && bytes(context, 5, 18)[3] == 0)
        #expect(bytes(context, 24, 25)[3] == 255 && bytes(context, 25, 25)[3] == 255)
        #expect(bytes(context, 23, 25)[3] == 0 && bytes(context, 26, 25)[3] == 0)
    }

    @Test func clippingToAPath() {
        let context = makeFlippedContext(width: 20, height: 20)
        context.addEllipse(in: CGRect(x: 0, y: 0, width: 20, height: 20))
        context.clip()
        context.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        expectEqual(bytes(context, 10, 10)[3], 255)
        #expect(bytes(context, 0, 0)[3] == 0 && bytes(context, 19, 19)[3] == 0)
        // An even-odd clip with a hole.
        let ring = makeFlippedContext(width: 20, height: 20)
        ring.addRect(CGRect(x: 0, y: 0, width: 20, height: 20))
        ring.addRect(CGRect(x: 5, y: 5, width: 10, height: 10))
        ring.clip(using: .evenOdd)
        ring.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
        #expect(bytes(ring, 2, 2)[3] == 255 && bytes(ring, 10, 10)[3] == 0)
        // Clipping to an empty path leaves nothing to draw in.
        let none = makeFlippedContext(width: 4, height: 4)
        none.clip()
        none.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        expectEqual(bytes(none, 1, 1)[3], 0)
    }

    @Test func badPathsDrawNothingAndDoNotCrash() {
        let context = makeFlippedContext(width: 10, height: 10)
        context.move(to: CGPoint(x: CGFloat.nan, y: 1)); context.addLine(to: CGPoint(x: 5, y: 5)); context.addLine(to: CGPoint(x: 1, y: 9))
        context.fillPath()
        context.move(to: CGPoint(x: 0, y: 0)); context.addLine(to: CGPoint(x: CGFloat.infinity, y: 5)); context.addLine(to: CGPoint(x: 1, y: 9))
        context.fillPath()
        context.move(to: CGPoint(x: 0, y: 0)); context.addCurve(to: CGPoint(x: 9, y: 9), control1: CGPoint(x: CGFloat.nan, y: 0), control2: CGPoint(x: 1, y: 1))
        context.setLineWidth(3)
        context.strokePath()
        context.setLineWidth(.nan)
        context.move(to: CGPoint(x: 0, y: 5)); context.addLine(to: CGPoint(x: 10, y: 5))
        context.strokePath()
        context.setLineWidth(-3)
        context.move(to: CGPoint(x: 0, y: 5)); context.addLine(to: CGPoint(x: 10, y: 5))
        context.strokePath()
        for y in 0..<10 { for x in 0..<10 { expectEqual(bytes(context, x, y)[3], 0) } }
    }

    @Test func hugePathsAreCutToTheBitmap() {
        // A 1e9-pixel circle whose edge passes through the bitmap, and a
        // dashed line crossing a trillion pixels with a tiny pattern.
        let context = makeFlippedContext(width: 20, height: 20)
        context.fillEllipse(in: CGRect(x: 10 - 2e9, y: -1e9, width: 2e9, height: 2e9))   // right edge at x = 10
        #expect(bytes(context, 5, 0)[3] == 255 && bytes(context, 5, 19)[3] == 255)
        expectEqual(bytes(context, 12, 10)[3], 0)
        context.setLineWidth(2)
        context.setLineDash(phase: 0, lengths: [1, 1])
        context.move(to: CGPoint(x: -1e12, y: 15)); context.addLine(to: CGPoint(x: 1e12, y: 15))
        context.strokePath()
        let row = (0..<20).filter { bytes(context, $0, 15)[3] > 0 }
        #expect(!row.isEmpty && row.count < 20)
    }

    @Test func blendModesBeyondNormal() {
        func result(_ mode: CGBlendMode, source: [CGFloat], destination: [CGFloat]) -> [UInt8] {
            let context = makeContext(width: 1, height: 1)
            context.setFillColor(red: destination[0], green: destination[1], blue: destination[2], alpha: destination[3])
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            context.setBlendMode(mode)
            context.setFillColor(red: source[0], green: source[1], blue: source[2], alpha: source[3])
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            return bytes(context, 0, 0)
        }
        let gray: [CGFloat] = [0.5, 0.5, 0.5, 1], red: [CGFloat] = [1, 0, 0, 1]
        #expect(close(result(.multiply, source: gray, destination: red), [128, 0, 0, 255], tolerance: 1))
        #expect(close(result(.screen, source: gray, destination: red), [255, 128, 128, 255], tolerance: 1))
        expectEqual(result(.clear, source: gray, destination: red), [0, 0, 0, 0])
        expectEqual(result(.destinationOver, source: gray, destination: red), [255, 0, 0, 255])
        expectEqual(result(.sourceIn, source: [0, 0, 1, 1], destination: [1, 0, 0, 0.5]), [0, 0, 128, 128])
        expectEqual(result(.destinationOut, source: [0, 0, 1, 0.5], destination: red), [127, 0, 0, 127])   // alpha 0.5 is 128/255
        #expect(close(result(.difference, source: gray, destination: red), [128, 128, 128, 255], tolerance: 1))
        expectEqual(result(.plusLighter, source: [0, 0, 1, 1], destination: red), [255, 0, 255, 255])
    }
}
