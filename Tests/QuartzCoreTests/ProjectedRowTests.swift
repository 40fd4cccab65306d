import TestExpectations
import Testing
@testable import QuartzCore
import GeometryTestSupport

/// A turned layer's rows are walked only across the layer
/// (`Homography.columns(sampling:row:from:to:)`): every pixel the
/// projection's loop would take a sample for must lie in the run, and the
/// run must be no more than a pixel or two wider than those pixels.
@Suite struct ProjectedRowTests {
    /// The pixels of row `y` in `x0..<x1` whose point, stepped along the row
    /// as the projection's loop steps it, lies where a bilinear sample of
    /// `extent` is not transparent, in front of the eye.
    func sampledPixels(_ back: Homography, _ extent: PixelRect, row y: Int, from x0: Int, to x1: Int) -> [Int] {
        let py = Double(y) + 0.5, px = Double(x0) + 0.5
        var u = back.m00 * px + back.m01 * py + back.m02
        var v = back.m10 * px + back.m11 * py + back.m12
        var w = back.m20 * px + back.m21 * py + back.m22
        var sampled: [Int] = []
        for x in x0..<x1 {
            if w > 0 {
                let sx = u / w - 0.5, sy = v / w - 0.5
                if sx > Double(extent.x0) - 1, sy > Double(extent.y0) - 1, sx < Double(extent.x1), sy < Double(extent.y1) { sampled.append(x) }
            }
            u += back.m00
            v += back.m10
            w += back.m20
        }
        return sampled
    }

    func check(_ back: Homography, _ extent: PixelRect, rows: Range<Int>, from x0: Int, to x1: Int, _ label: String) {
        for y in rows {
            let sampled = sampledPixels(back, extent, row: y, from: x0, to: x1)
            let run = back.columns(sampling: extent, row: y, from: x0, to: x1)
            if let first = sampled.first, let last = sampled.last {
                #expect(run.lowerBound <= first && last < run.upperBound, "\(label), row \(y): \(first)…\(last) not in \(run)")
                #expect(run.lowerBound >= first - 2 && run.upperBound <= last + 3, "\(label), row \(y): \(run) too wide for \(first)…\(last)")
            } else {
                #expect(run.count <= 3, "\(label), row \(y): \(run) for no pixel")
            }
        }
    }

    /// Flips of a card at every angle, about either axis, either way, at 1×
    /// and 3×, placed on and between pixels.
    @Test(arguments: 0..<16)
    func aFlippingCardsRowsAreWalkedOnlyAcrossIt(seed: Int) throws {
        var g = SeededGenerator(state: UInt64(seed) &+ 55)
        let scale = Double([1, 3][seed % 2])
        let bounds = CGRect(x: 0, y: 0, width: CGFloat(g.int(20...120)), height: CGFloat(g.int(20...160)))
        let toDevice = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: Double(g.int(0...300)) / 7, ty: Double(g.int(0...300)) / 7)
        let flat = PixelRect(covering: bounds.applying(toDevice))
        for step in 0..<12 {
            let pose = FlipPose(angle: -Double.pi / 2 + Double.pi * Double(step) / 11, showsOldLook: step < 6,
                                aboutVerticalAxis: seed % 4 < 2, direction: seed % 3 == 0 ? 1 : -1)
            guard let turn = LayerProjection.flipTurn(pose, bounds: bounds),
                  let back = LayerProjection(matrix: turn, shade: 0).surfaceToFlat(toDevice: toDevice) else { continue }
            let box = PixelRect(x0: flat.x0 - 40, y0: flat.y0 - 40, x1: flat.x1 + 40, y1: flat.y1 + 40)
            check(back, flat, rows: box.y0..<box.y1, from: box.x0, to: box.x1, "seed \(seed), step \(step)")
        }
    }

    /// Random projective mappings, w crossing zero within rows among them.
    @Test(arguments: 0..<12)
    func randomMappingsRowsAreWalkedOnlyWhereTheySample(seed: Int) {
        var g = SeededGenerator(state: UInt64(seed) &+ 900)
        func entry(_ size: Double) -> Double { (Double(g.int(0...2_000_000)) / 1_000_000 - 1) * size }
        let back = Homography(1 + entry(0.8), entry(0.5), entry(40), entry(0.5), 1 + entry(0.8), entry(40),
                              entry(0.004), entry(0.004), 1 + entry(0.9))
        let extent = PixelRect(x0: g.int(-10...30), y0: g.int(-10...30), x1: g.int(40...90), y1: g.int(40...90))
        check(back, extent, rows: -30..<130, from: -40, to: 160, "seed \(seed)")
    }

    @Test func anEmptyRowOrExtentGivesNoRun() {
        let identity = Homography(1, 0, 0, 0, 1, 0, 0, 0, 1)
        #expect(identity.columns(sampling: PixelRect(x0: 0, y0: 0, x1: 10, y1: 10), row: 3, from: 5, to: 5).isEmpty)
        #expect(identity.columns(sampling: .empty, row: 3, from: 0, to: 20).isEmpty)
        // Samples from pixel 0 to 9; a pixel more each side, and the tolerance's rounding.
        let run = identity.columns(sampling: PixelRect(x0: 0, y0: 0, x1: 10, y1: 10), row: 3, from: -20, to: 40)
        #expect(run.lowerBound >= -3 && run.lowerBound <= 0 && run.upperBound >= 10 && run.upperBound <= 12, "\(run)")
    }
}
