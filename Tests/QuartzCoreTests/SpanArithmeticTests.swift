import TestExpectations
import Testing
@testable import QuartzCore

/// The compositor's fast paths against the plain definitions they stand
/// for: runs of pixels blended eight at a time, and rows of a shape cut
/// once for many.
@Suite struct PixelRunTests {
    typealias Generator = OcclusionPropertyTests.Generator

    /// A random premultiplied pixel: every colour channel at most its alpha;
    /// a quarter opaque, some clear.
    static func pixel(_ g: inout Generator) -> UInt32 {
        let a: UInt32 = g.chance(25) ? 255 : (g.chance(10) ? 0 : UInt32(g.int(0...255)))
        func channel() -> UInt32 { a == 0 ? 0 : UInt32(g.int(0...Int(a))) }
        return channel() | channel() << 8 | channel() << 16 | a << 24
    }

    @Test(arguments: [0, 1, 51, 127, 128, 204, 254, 255])
    func aCompositedRunIsEachPixelFadedAndOver(alpha: Int) {
        var g = Generator(state: UInt64(alpha))
        for count in 0...21 {
            let source = (0..<count).map { _ in Self.pixel(&g) }
            let destination = (0..<count).map { _ in Self.pixel(&g) }
            var run = destination
            run.withUnsafeMutableBufferPointer { d in
                source.withUnsafeBufferPointer { s in
                    PixelOps.compositeRun(d.baseAddress!, s.baseAddress!, count: count, alpha: UInt32(alpha))
                }
            }
            let expected = zip(source, destination).map { s, d in
                PixelOps.over(PixelOps.scale(s, by: UInt32(alpha)), d)
            }
            expectEqual(run, expected, "alpha \(alpha), \(count) pixels")
        }
    }

    @Test func aTranslucentColourOverARunIsEachPixelBlended() {
        var g = Generator(state: 7)
        for _ in 0..<200 {
            let color = Self.pixel(&g)
            let count = g.int(0...21)
            let destination = (0..<count).map { _ in Self.pixel(&g) }
            var run = destination
            run.withUnsafeMutableBufferPointer { PixelOps.blendRun($0.baseAddress!, count: count, color: color) }
            expectEqual(run, destination.map { PixelOps.over(color, $0) })
        }
    }
}

/// Every pixel a shape filler touches gets the coverage of its centre
/// (`RoundedRectShape.coverage`), whatever the transform: the rows cut once
/// and reused, the pieces filled whole, measured or left out agree with
/// measuring each pixel alone.
@Suite struct ShapeRowTests {
    typealias Generator = OcclusionPropertyTests.Generator

    /// Coverage per pixel, 0…255, as a painter is given it.
    struct CoveragePainter: SpanPainter {
        let coverage: UnsafeMutablePointer<UInt8>
        let width: Int

        mutating func fill(y: Int, from x0: Int, to x1: Int) {
            for x in x0..<x1 { coverage[y * width + x] = 255 }
        }

        mutating func blend(y: Int, x: Int, coverage c: Float) {
            coverage[y * width + x] = UInt8(PixelOps.alpha(c))
        }
    }

    @Test(arguments: 0..<60)
    func eachPixelGetsTheCoverageOfItsCentre(seed: Int) {
        var g = Generator(state: UInt64(1000 + seed))
        func fraction() -> CGFloat { g.chance(50) ? 0 : CGFloat(g.int(0...7)) / 8 }
        let rect = CGRect(x: CGFloat(g.int(-6...30)) + fraction(), y: CGFloat(g.int(-6...30)) + fraction(),
                          width: CGFloat(g.int(1...40)) + fraction(), height: CGFloat(g.int(1...40)) + fraction())
        let shape = RoundedRectShape(rect: rect, radius: g.chance(50) ? CGFloat(g.int(1...12)) : 0,
                                     corners: g.chance(80) ? .all : [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        // The same scale along both axes: under a stretch, the corners'
        // coverage (the distance to the arc, scaled by the mean) and the
        // margins that decide which pixels are measured differ slightly.
        let scale = [1, 1.5, 2, 3][g.int(0...3)]
        var toDevice = CGAffineTransform(scaleX: scale, y: scale)
        if g.chance(40) { toDevice = toDevice.concatenating(CGAffineTransform(rotationAngle: CGFloat(g.int(1...80)) * .pi / 180)) }
        toDevice = toDevice.concatenating(CGAffineTransform(translationX: CGFloat(g.int(0...8)) + fraction(), y: fraction()))
        let differing = pixelsOffTheirCentresCoverage(shape, toDevice)
        expectEqual(differing, 0, "seed \(seed): \(differing) pixels of \(rect) through \(toDevice) differ from their centre's coverage")
    }

    /// A shape thinner than its rounded corners has no part covered whole:
    /// the box between its corners is turned inside out, not a run to fill.
    @Test func aShapeThinnerThanItsCornersIsMeasuredNotFilled() {
        let shape = RoundedRectShape(rect: CGRect(x: 26.125, y: 15, width: 1, height: 27), radius: 0.5, corners: .all)
        let toDevice = CGAffineTransform(scaleX: 1.5, y: 1.5).concatenating(CGAffineTransform(rotationAngle: 40 * .pi / 180))
        expectEqual(pixelsOffTheirCentresCoverage(shape, toDevice), 0)
    }

    /// How many pixels of a 64×64 frame the filler gives a coverage more
    /// than 1/255 away from that of the pixel's centre.
    func pixelsOffTheirCentresCoverage(_ shape: RoundedRectShape, _ toDevice: CGAffineTransform) -> Int {
        let size = 64
        guard let filler = ShapeFiller(shape: shape, toDevice: toDevice) else { return size * size }
        var grid = [UInt8](repeating: 0, count: size * size)
        grid.withUnsafeMutableBufferPointer { buffer in
            var painter = CoveragePainter(coverage: buffer.baseAddress!, width: size)
            filler.fill(within: PixelRect(x0: 0, y0: 0, x1: size, y1: size), toDevice: toDevice, painter: &painter)
        }
        let inverse = toDevice.inverted()
        var differing = 0
        for y in 0..<size {
            for x in 0..<size {
                let centre = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
                let expected = UInt8(PixelOps.alpha(shape.coverage(x: Double(centre.x), y: Double(centre.y), sx: filler.sx, sy: filler.sy)))
                if abs(Int(grid[y * size + x]) - Int(expected)) > 1 { differing += 1 }
            }
        }
        return differing
    }
}
