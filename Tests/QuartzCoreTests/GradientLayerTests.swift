import Foundation
import TestExpectations
import Testing
@testable import QuartzCore

@MainActor
@Suite struct GradientLayerTests {
    func gradient(in root: CALayer, frame: CGRect, _ colors: [CGColor]) -> CAGradientLayer {
        let layer = CAGradientLayer()
        layer.frame = frame
        layer.colors = colors
        root.addSublayer(layer)
        return layer
    }

    @Test func anAxialGradientRunsFromTheStartPointToTheEndPoint() throws {
        let (root, compositor) = try makeScene(width: 40, height: 110)
        _ = gradient(in: root, frame: CGRect(x: 0, y: 5, width: 40, height: 100), [color(1, 0, 0), color(0, 0, 1)])
        CATransaction.flush()
        compositor.renderFrame()
        // Top to bottom by default: red at the top row, blue at the bottom, half way between in the middle.
        #expect(matches(compositor.pixel(x: 20, y: 5), (254, 0, 1, 255), tolerance: 2))
        #expect(matches(compositor.pixel(x: 20, y: 104), (1, 0, 254, 255), tolerance: 2))
        #expect(matches(compositor.pixel(x: 20, y: 55), (127, 0, 128, 255), tolerance: 2))
        #expect(matches(compositor.pixel(x: 20, y: 2), white))
        // The same colour along a row.
        #expect(compositor.pixel(x: 0, y: 30) == compositor.pixel(x: 39, y: 30))
    }

    @Test func locationsPlaceTheColoursAndTheEndsExtendTheirColours() throws {
        let (root, compositor) = try makeScene(width: 100, height: 10)
        let layer = gradient(in: root, frame: CGRect(x: 0, y: 0, width: 100, height: 10), [color(1, 0, 0), color(0, 1, 0), color(0, 0, 1)])
        layer.startPoint = CGPoint(x: 0, y: 0.5)
        layer.endPoint = CGPoint(x: 1, y: 0.5)
        layer.locations = [0.2, 0.5, 0.8]
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), red))                          // before the first location
        #expect(matches(compositor.pixel(x: 50, y: 5), (0, 255, 0, 255), tolerance: 5))
        #expect(matches(compositor.pixel(x: 95, y: 5), blue))                         // after the last
        #expect(matches(compositor.pixel(x: 35, y: 5), (127, 128, 0, 255), tolerance: 6))
        // Locations that do not match the colours are ignored: evenly spread.
        layer.locations = [0, 1]
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), (230, 25, 0, 255), tolerance: 6))
    }

    @Test func aRadialGradientGrowsFromItsCentre() throws {
        let (root, compositor) = try makeScene(width: 60, height: 60)
        let layer = gradient(in: root, frame: CGRect(x: 10, y: 10, width: 40, height: 40), [color(1, 1, 1), color(0, 0, 0)])
        layer.type = .radial
        layer.startPoint = CGPoint(x: 0.5, y: 0.5)
        layer.endPoint = CGPoint(x: 1, y: 1)
        CATransaction.flush()
        compositor.renderFrame()
        let centre = compositor.pixel(x: 30, y: 30), halfway = compositor.pixel(x: 40, y: 30), rim = compositor.pixel(x: 49, y: 30)
        #expect(centre.red > 245)
        #expect(halfway.red > 110 && halfway.red < 145)
        #expect(rim.red < 15)
        #expect(compositor.pixel(x: 30, y: 40) == halfway)   // the same distance down
    }

    @Test func cornersOpacityAndWhatIsNotAColour() throws {
        let (root, compositor) = try makeScene(width: 40, height: 40)
        let layer = gradient(in: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), [color(0, 0, 0)])
        layer.colors = ["not a colour", color(0, 0, 0), 42]   // only colours count: plain black
        layer.cornerRadius = 10
        layer.opacity = 0.5
        layer.startPoint = CGPoint(x: CGFloat.nan, y: 0)      // refused
        CATransaction.flush()
        compositor.renderFrame()
        expectEqual(layer.startPoint, CGPoint(x: 0.5, y: 0))
        #expect(matches(compositor.pixel(x: 20, y: 20), (128, 128, 128, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 0, y: 0), white))  // outside the rounded corner
        // No colours: nothing drawn; a background shows under a gradient.
        layer.colors = []
        layer.backgroundColor = color(1, 0, 0)
        layer.opacity = 1
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), red))
        layer.colors = [color(0, 0, 1, 0.5), color(0, 0, 1, 0.5)]
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 20, y: 20), (128, 0, 128, 255), tolerance: 1))
    }
}
