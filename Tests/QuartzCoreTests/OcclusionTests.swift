import GeometryTestSupport
import TestExpectations
import Testing
@testable import QuartzCore

/// What a later opaque layer covers is not drawn (Occlusion.swift): every
/// pixel must still come out as if everything were drawn, back to front.
@MainActor
@Suite struct OcclusionTests {
    let yellow = (255, 255, 0, 255)

    @Test func onlyAnOpaqueUnfadedSquareOnWholePixelsHidesWhatIsUnder() throws {
        let (root, compositor) = try makeScene(width: 60, height: 20)
        let under = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 60, height: 20), color: color(1, 0, 0))
        _ = under
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 10, height: 10), color: color(0, 0, 1, 0.5))   // translucent
        let faded = addLayer(to: root, frame: CGRect(x: 10, y: 0, width: 10, height: 10), color: color(0, 0, 1))
        faded.opacity = 0.5
        let hidden = addLayer(to: root, frame: CGRect(x: 20, y: 0, width: 10, height: 10), color: color(0, 0, 1))
        hidden.isHidden = true
        let turned = addLayer(to: root, frame: CGRect(x: 32, y: 2, width: 8, height: 8), color: color(0, 0, 1))
        turned.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        _ = addLayer(to: root, frame: CGRect(x: 40.5, y: 0, width: 9, height: 10), color: color(0, 0, 1))       // half pixels
        _ = addLayer(to: root, frame: CGRect(x: 50, y: 0, width: 10, height: 10), color: color(0, 0, 1))       // opaque
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 5, y: 5), (128, 0, 128, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 15, y: 5), (128, 0, 128, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 25, y: 5), red))
        #expect(matches(compositor.pixel(x: 36, y: 6), blue))
        #expect(matches(compositor.pixel(x: 32, y: 2), red))       // outside the turned square's corner
        #expect(matches(compositor.pixel(x: 40, y: 0), (128, 0, 128, 255), tolerance: 2))
        #expect(matches(compositor.pixel(x: 45, y: 5), blue))
        #expect(matches(compositor.pixel(x: 55, y: 5), blue))
        #expect(matches(compositor.pixel(x: 55, y: 15), red))
    }

    @Test func theRoundedCornersOfAnOccluderShowWhatIsUnder() throws {
        let (root, compositor) = try makeScene()
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        let card = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(0, 0, 1))
        card.cornerRadius = 10
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 0, y: 0), red))
        #expect(matches(compositor.pixel(x: 39, y: 39), red))
        #expect(matches(compositor.pixel(x: 20, y: 0), blue))
        #expect(matches(compositor.pixel(x: 0, y: 20), blue))
        #expect(matches(compositor.pixel(x: 2, y: 2), red))       // outside the arc
        #expect(matches(compositor.pixel(x: 3, y: 3), blue))      // inside it
        let edge = compositor.pixel(x: 1, y: 4)                   // on it: both
        #expect(edge.red > 0 && edge.blue > 0 && Int(edge.red) + Int(edge.blue) >= 254)
    }

    @Test func aLaterSiblingOfAnAncestorHidesPartOfASublayerOnly() throws {
        let (root, compositor) = try makeScene()
        let parent = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        _ = addLayer(to: parent, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(0, 1, 0))
        _ = addLayer(to: root, frame: CGRect(x: 15, y: 15, width: 10, height: 10), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 12, y: 12), green))
        #expect(matches(compositor.pixel(x: 20, y: 20), blue))
        #expect(matches(compositor.pixel(x: 27, y: 27), green))    // the sublayer beyond the occluder
        #expect(matches(compositor.pixel(x: 5, y: 5), red))
    }

    @Test func anOccluderInsideAFadedGroupDoesNotHideWhatIsUnderTheGroup() throws {
        let (root, compositor) = try makeScene()
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(1, 0, 0))
        let group = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: nil)
        group.opacity = 0.5
        _ = addLayer(to: group, frame: CGRect(x: 0, y: 0, width: 20, height: 40), color: color(0, 1, 0))
        _ = addLayer(to: group, frame: CGRect(x: 10, y: 0, width: 20, height: 40), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        // Inside the group blue hides green; the group, faded, shows the red under it.
        #expect(matches(compositor.pixel(x: 15, y: 5), (128, 0, 128, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 5, y: 5), (128, 128, 0, 255), tolerance: 1))
        #expect(matches(compositor.pixel(x: 35, y: 5), red))
    }

    @Test func movingTheOccluderAwayDrawsWhatItHid() throws {
        let (root, compositor) = try makeScene()
        _ = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(1, 0, 0))
        let cover = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 20, height: 20), color: color(0, 0, 1))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), blue))
        cover.position = CGPoint(x: 30, y: 30)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 10, y: 10), red))
        #expect(matches(compositor.pixel(x: 30, y: 30), blue))
    }

    /// A faded layer with a background and a border is one group: the
    /// background does not show through the border (drawn in one pass
    /// now, without a group buffer).
    @Test func aFadedBackgroundAndBorderAreOneGroup() throws {
        let (root, compositor) = try makeScene()
        let layer = addLayer(to: root, frame: CGRect(x: 10, y: 10, width: 20, height: 20), color: color(1, 0, 0))
        layer.borderWidth = 4
        layer.borderColor = color(0, 0, 1)
        layer.opacity = 0.5
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 11, y: 20), (128, 128, 255, 255), tolerance: 1))   // border over white
        #expect(matches(compositor.pixel(x: 20, y: 20), (255, 128, 128, 255), tolerance: 1))   // background over white
        #expect(matches(compositor.pixel(x: 9, y: 20), white))
        // A translucent border shows the background under it, within the group.
        layer.borderColor = color(0, 0, 1, 0.5)
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 11, y: 20), (191, 128, 191, 255), tolerance: 1))
    }

    @Test func aRoundedFadedBorderMatchesTheGroupAtItsEdges() throws {
        let (root, compositor) = try makeScene(width: 40, height: 40, scale: 2)
        let layer = addLayer(to: root, frame: CGRect(x: 5, y: 5, width: 30, height: 30), color: color(1, 0, 0))
        layer.cornerRadius = 8
        layer.borderWidth = 1.5
        layer.borderColor = color(0, 0, 0)
        layer.opacity = 0.6
        CATransaction.flush()
        compositor.renderFrame()
        // Straight border: black at 60 % over white.
        #expect(matches(compositor.pixel(x: 40, y: 11), (102, 102, 102, 255), tolerance: 1))
        // Inside: red at 60 % over white.
        #expect(matches(compositor.pixel(x: 40, y: 40), (255, 102, 102, 255), tolerance: 1))
        // Outside the rounded corner: white.
        #expect(matches(compositor.pixel(x: 11, y: 11), white))
    }
}

/// A group's buffer is cleared only where its own opaque background will
/// not cover it: what an earlier group left there never shows.
@MainActor
@Suite struct GroupBufferTests {
    @Test func whatAnEarlierGroupLeftInTheBufferNeverShows() throws {
        let (root, compositor) = try makeScene(width: 80, height: 40)
        // The first group fills the buffer with green where the second's
        // corners and its translucent sublayer will be.
        let first = addLayer(to: root, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(0, 1, 0))
        first.opacity = 0.99
        _ = addLayer(to: first, frame: CGRect(x: 0, y: 0, width: 40, height: 40), color: color(0, 1, 0))
        let second = addLayer(to: root, frame: CGRect(x: 40, y: 0, width: 40, height: 40), color: color(0, 0, 1))
        second.cornerRadius = 10
        second.masksToBounds = true
        second.opacity = 0.5
        _ = addLayer(to: second, frame: CGRect(x: 20, y: 10, width: 20, height: 20), color: color(1, 0, 0, 0.5))
        CATransaction.flush()
        compositor.renderFrame()
        #expect(matches(compositor.pixel(x: 40, y: 0), white))                             // outside the corner
        #expect(matches(compositor.pixel(x: 79, y: 39), white))
        #expect(matches(compositor.pixel(x: 50, y: 20), (128, 128, 255, 255), tolerance: 1))   // blue at 50 %
        // The translucent sublayer over the blue, the two at 50 %: (64, 0, 64) over white.
        #expect(matches(compositor.pixel(x: 70, y: 20), (191, 128, 191, 255), tolerance: 1))
        var green = 0
        for y in 0..<40 {
            for x in 40..<80 {
                let p = compositor.pixel(x: x, y: y)
                if Int(p.green) > Int(p.red) + 8 && Int(p.green) > Int(p.blue) + 8 { green += 1 }
            }
        }
        expectEqual(green, 0, "\(green) pixels show the first group's green")
    }
}

/// Random layer trees (masks and shadows among them) drawn with and
/// without occlusion: every pixel the same.
@MainActor
@Suite struct OcclusionPropertyTests {
    /// Seeded, so that a failure names its seed.
    typealias Generator = SeededGenerator

    func addRandomLayers(to parent: CALayer, count: Int, depth: Int, size: Int, _ g: inout Generator) {
        for _ in 0..<count {
            let layer = CALayer()
            let half = g.chance(20) ? 0.5 : 0
            layer.frame = CGRect(x: CGFloat(g.int(-4...size - 4)) + half, y: CGFloat(g.int(-4...size - 4)),
                                 width: CGFloat(g.int(2...size / 2)), height: CGFloat(g.int(2...size / 2)) + half)
            let alpha: CGFloat = g.chance(25) ? 0.5 : 1
            layer.backgroundColor = g.chance(85)
                ? CGColor(red: CGFloat(g.int(0...255)) / 255, green: CGFloat(g.int(0...255)) / 255, blue: CGFloat(g.int(0...255)) / 255, alpha: alpha)
                : nil
            if g.chance(40) { layer.cornerRadius = CGFloat(g.int(1...8)) }
            if g.chance(30) { layer.borderWidth = CGFloat(g.int(1...3)); layer.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
            if g.chance(20) { layer.opacity = 0.6 }
            if g.chance(15) { layer.setAffineTransform(CGAffineTransform(rotationAngle: CGFloat(g.int(1...40)) * .pi / 180)) }
            if g.chance(20) { layer.masksToBounds = true }
            if g.chance(10) { layer.isHidden = true }
            if g.chance(10) { layer.zPosition = CGFloat(g.int(-1...1)) }
            if g.chance(10) {
                let mask = CALayer()
                mask.frame = CGRect(x: g.int(-2...4), y: g.int(-2...4), width: g.int(2...size / 2), height: g.int(2...size / 2))
                mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: g.chance(50) ? 1 : 0.5)
                mask.cornerRadius = CGFloat(g.int(0...6))
                layer.mask = mask
            }
            if g.chance(10) {
                layer.shadowOpacity = 0.5
                layer.shadowRadius = CGFloat(g.int(0...3))
                layer.shadowOffset = CGSize(width: g.int(-3...3), height: g.int(-3...3))
            }
            parent.addSublayer(layer)
            if depth > 0 && g.chance(40) { addRandomLayers(to: layer, count: g.int(1...3), depth: depth - 1, size: size / 2, &g) }
        }
    }

    @Test(arguments: 0..<40)
    func occlusionChangesNoPixel(seed: Int) throws {
        var g = Generator(state: UInt64(seed))
        let scale: CGFloat = g.chance(50) ? 1 : 2
        let (root, occluding) = try makeScene(width: 48, height: 48, scale: scale)
        addRandomLayers(to: root, count: g.int(4...14), depth: 2, size: 48, &g)
        let plain = try LayerCompositor(rootLayer: root, pixelWidth: occluding.pixelWidth, pixelHeight: occluding.pixelHeight, scale: scale)
        plain.leavesOutOccludedPixels = false
        CATransaction.flush()
        occluding.renderFrame()
        plain.renderFrame()
        var differing = 0
        for y in 0..<occluding.pixelHeight {
            for x in 0..<occluding.pixelWidth where !matches(occluding.pixel(x: x, y: y), { let p = plain.pixel(x: x, y: y); return (Int(p.red), Int(p.green), Int(p.blue), Int(p.alpha)) }()) {
                differing += 1
            }
        }
        expectEqual(differing, 0, "seed \(seed): \(differing) pixels differ")
    }
}
