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

    /// Every call a filler makes to a painter, in order (behind the
    /// occluders: what they let through), and the rows filled without a
    /// second question of what is visible.
    struct CallRecorder: SpanPainter {
        enum Call: Equatable {
            case fill(y: Int, x0: Int, x1: Int)
            case hole(y: Int, x0: Int, x1: Int)
            case blend(y: Int, x: Int, outer: Float, hole: Float, hasHole: Bool)
        }
        var calls: [Call] = []
        var rowsFilledVisible: Set<Int> = []

        mutating func fill(y: Int, from x0: Int, to x1: Int) { calls.append(.fill(y: y, x0: x0, x1: x1)) }
        mutating func fillHole(y: Int, from x0: Int, to x1: Int) { calls.append(.hole(y: y, x0: x0, x1: x1)) }
        mutating func blend(y: Int, x: Int, coverage: Float) { calls.append(.blend(y: y, x: x, outer: coverage, hole: 0, hasHole: false)) }
        mutating func blendVisible(y: Int, x: Int, outer: Float, hole: Float, hasHole: Bool) {
            calls.append(.blend(y: y, x: x, outer: outer, hole: hole, hasHole: hasHole))
        }
        mutating func fillVisible(y: Int, from x0: Int, to x1: Int) {
            rowsFilledVisible.insert(y)
            fill(y: y, from: x0, to: x1)
        }
    }

    /// A shape between pixels at any fraction, with or without a hole (a
    /// border), rounded or not, clipped, some turned or flipped, and random
    /// occluders, in a 64×64 frame.
    struct RandomFill {
        let shape: RoundedRectShape
        let hole: RoundedRectShape?
        let toDevice: CGAffineTransform
        let clip: PixelRect
        let occluders: [PixelRect]

        init(_ g: inout Generator) {
            func fraction(_ g: inout Generator) -> CGFloat { g.chance(20) ? 0 : CGFloat(g.int(1...99)) / 100 }
            let rect = CGRect(x: CGFloat(g.int(-6...30)) + fraction(&g), y: CGFloat(g.int(-6...30)) + fraction(&g),
                              width: CGFloat(g.int(1...40)) + fraction(&g), height: CGFloat(g.int(1...40)) + fraction(&g))
            shape = RoundedRectShape(rect: rect, radius: g.chance(50) ? CGFloat(g.int(1...12)) : 0,
                                     corners: g.chance(80) ? .all : [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
            hole = g.chance(50) ? shape.inset(by: [1, 2, 1.5, 0.3][g.int(0...3)]) : nil
            let scale = [1, 1.5, 2, 3][g.int(0...3)]
            let flipped = g.chance(10)
            var toDevice = CGAffineTransform(scaleX: scale, y: flipped ? -scale : scale)
            if g.chance(15) { toDevice = toDevice.concatenating(CGAffineTransform(rotationAngle: CGFloat(g.int(1...80)) * .pi / 180)) }
            self.toDevice = toDevice.concatenating(CGAffineTransform(translationX: CGFloat(g.int(0...8)) + fraction(&g),
                                                                     y: (flipped ? 64 : 0) + fraction(&g)))
            clip = g.chance(30) ? PixelRect(x0: g.int(0...20), y0: g.int(0...20), x1: g.int(30...64), y1: g.int(30...64))
                : PixelRect(x0: 0, y0: 0, x1: 64, y1: 64)
            var occluders: [PixelRect] = []
            for _ in 0..<g.int(0...6) {
                let x0 = g.int(-4...60), y0 = g.int(-4...60)
                occluders.append(PixelRect(x0: x0, y0: y0, x1: x0 + g.int(1...30), y1: y0 + g.int(1...40)))
            }
            self.occluders = occluders.sorted { $0.y0 < $1.y0 }
        }

        /// What `painter` gets behind the occluders, the rows between the
        /// corners drawn together or one by one.
        func fill<Painter: SpanPainter>(_ painter: Painter, together: Bool) -> Painter {
            guard var filler = ShapeFiller(shape: shape, hole: hole, toDevice: toDevice) else { return painter }
            filler.drawsRowsBetweenCornersTogether = together
            var sorted = occluders, active = occluders
            return sorted.withUnsafeMutableBufferPointer { sorted in
                active.withUnsafeMutableBufferPointer { active in
                    var occluded = OccludedPainter(base: painter, sorted: sorted, active: active)
                    filler.fill(within: clip, toDevice: toDevice, painter: &occluded)
                    return occluded.base
                }
            }
        }
    }

    /// The rows between the corners of a shape that does not turn are drawn
    /// together, each measured pixel's coverage kept for its column and
    /// what is visible asked once a row: the painter behind the occluders
    /// must get the very calls, coverage to the bit, that drawing the rows
    /// one by one gives.
    @Test(arguments: 0..<60)
    func rowsDrawnTogetherGiveThePainterTheSameCalls(seed: Int) {
        var g = Generator(state: UInt64(4000 + seed))
        let scene = RandomFill(&g)
        let together = scene.fill(CallRecorder(), together: true).calls
        let oneByOne = scene.fill(CallRecorder(), together: false).calls
        expectEqual(together, oneByOne, "seed \(seed): \(scene.shape) hole \(String(describing: scene.hole)) through \(scene.toDevice)")
    }

    /// The painters that work out a column's colour once (a solid colour;
    /// a background with its border, faded) draw the very pixels, over
    /// random ones, as they do a pixel at a time.
    @Test(arguments: 0..<40)
    func rowsDrawnTogetherGiveTheSamePixels(seed: Int) {
        var g = Generator(state: UInt64(5000 + seed))
        let scene = RandomFill(&g)
        let start = (0..<(64 * 64)).map { _ in PixelRunTests.pixel(&g) }
        let color = PixelRunTests.pixel(&g), background = PixelRunTests.pixel(&g), border = PixelRunTests.pixel(&g)
        let alpha = UInt32(g.chance(30) ? 255 : g.int(0...255))
        func pixels(together: Bool, bordered: Bool) -> [UInt32] {
            var frame = start
            frame.withUnsafeMutableBufferPointer { buffer in
                let surface = PixelSurface(base: buffer.baseAddress!, stride: 64, extent: PixelRect(x0: 0, y0: 0, x1: 64, y1: 64))
                if bordered {
                    _ = scene.fill(BorderedBackgroundPainter(surface: surface, background: background, border: border, alpha: alpha),
                                   together: together)
                } else {
                    _ = scene.fill(SolidPainter(surface: surface, color: color), together: together)
                }
            }
            return frame
        }
        for bordered in [false, true] {
            let together = pixels(together: true, bordered: bordered), oneByOne = pixels(together: false, bordered: bordered)
            expectEqual(together.indices.filter { together[$0] != oneByOne[$0] }.count, 0,
                        "seed \(seed), bordered \(bordered): \(scene.shape) through \(scene.toDevice)")
        }
    }

    /// Which rows are drawn together: those whose pixel centres lie half a
    /// pixel inside the shape's straight top and bottom edges and below
    /// and above its corners, and no others, at 1× and at 3×, with the
    /// edges between pixels.
    @Test(arguments: [(1.0, 0.0), (3.0, 0.0), (1.0, 4.0), (3.0, 4.0)])
    func theRowsBetweenTheCornersAreDrawnTogether(scale: Double, radius: Double) throws {
        let rect = CGRect(x: 2.3, y: 3.6, width: 10.5, height: 20.3)
        let shape = RoundedRectShape(rect: rect, radius: radius, corners: .all)
        let toDevice = CGAffineTransform(scaleX: scale, y: scale)
        let filler = try #require(ShapeFiller(shape: shape, toDevice: toDevice))
        var painter = CallRecorder()
        filler.fill(within: PixelRect(x0: 0, y0: 0, x1: 200, y1: 200), toDevice: toDevice, painter: &painter)
        // A row's centre is at (y + ½) / scale in layer units.
        let expected = Set((0..<200).filter { y in
            let centre = (Double(y) + 0.5) / scale
            return centre > 3.6 + radius + 0.5 / scale && centre < 23.9 - radius - 0.5 / scale
        })
        #expect(!expected.isEmpty)
        expectEqual(painter.rowsFilledVisible, expected)
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
