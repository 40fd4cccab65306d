import CoreGraphics

/// A flip's turn seen in perspective: a layer turning about its centre line
/// under Core Animation's perspective, the `m34 = −1/d` of a
/// `CATransform3D`, is a projective mapping of its plane (a homography),
/// which the compositor draws by drawing the layer's group flat into a
/// buffer and taking each frame pixel's colour from where the inverse
/// mapping puts it in that buffer, filtered bilinearly.
///
/// In the layer's own coordinates about its bounds' centre, a point (x, y)
/// turned by φ about the vertical centre line goes to depth
/// z = ∓x·sin φ and is seen at (x·cos φ, y) / (1 − z/d). iOS's flip then
/// draws the turning layer a little smaller, so that its nearer edge stays
/// as high as the layer is and its corners are never cut ("the camera
/// dollies back a bit, so the corners of the animated layers are fully
/// visible"; "the view is scaled during the flipping animation such that
/// the tallest edge of the flipped view stays the height of the container
/// view": two developers' descriptions of UIKit's flip transitions):
/// the factor k = 1 − (w/2)·|sin φ|/d, w the layer's width.
struct FlipProjection {
    /// The distance d from the eye to the layer's plane, in the layer's
    /// points: m34 = −1/500 (−0.002), the value the common re-creations of
    /// UIKit's flip use (Ray Wenderlich's custom-transition tutorial, and
    /// many `transform.m34 = -1.0 / 500` flips); Apple does not publish
    /// the perspective of its own flip.
    static let perspectiveDistance: Double = 500

    /// The homography of the turn, acting on points relative to the
    /// bounds' centre, row by row: p′ ∝ matrix · (x, y, 1).
    let matrix: Homography
    /// The bounds' centre, in the layer's coordinates.
    let center: CGPoint

    /// The layer with bounds `bounds` shown as `pose` says; nil when it
    /// is edge on (nothing to draw) or faces the viewer squarely (drawn
    /// flat: no projection).
    init?(pose: FlipPose, bounds: CGRect) {
        let c = cos(pose.angle), s = sin(pose.angle)
        guard abs(c) > 1e-3, abs(s) > 1e-9 else { return nil }
        let d = Self.perspectiveDistance
        let halfSpan = Double(pose.aboutVerticalAxis ? bounds.width : bounds.height) / 2
        let k = max(1e-3, 1 - halfSpan * abs(s) / d)
        // Depth z = direction · (x or y) · sin φ; seen through w = 1 − z/d.
        let tilt = -pose.direction * s / d
        matrix = pose.aboutVerticalAxis
            ? Homography(k * c, 0, 0, 0, k, 0, tilt, 0, 1)
            : Homography(k, 0, 0, 0, k * c, 0, 0, tilt, 1)
        center = CGPoint(x: bounds.midX, y: bounds.midY)
    }

    /// From the frame's pixels back to the flat layer's pixels, for a layer
    /// whose flat mapping to the frame is `toDevice`; nil if it cannot be
    /// inverted.
    func frameToFlat(toDevice t: CGAffineTransform) -> Homography? {
        // The layer's coordinates about its centre, to the frame's.
        let cx = Double(center.x), cy = Double(center.y)
        let a = Double(t.a), b = Double(t.b), c = Double(t.c), d = Double(t.d)
        let place = Homography(a, c, a * cx + c * cy + Double(t.tx), b, d, b * cx + d * cy + Double(t.ty), 0, 0, 1)
        guard let unplace = place.inverse, let unturn = matrix.inverse else { return nil }
        return place.then(unturn).then(unplace)
    }
}

/// How a flip shows its layer at a moment (`CATransition.flip(at:)`).
package struct FlipPose: Equatable {
    /// The turn of the face shown, from −π/2 to π/2; 0 faces the viewer.
    package var angle: Double
    /// Whether the face shown is the old look (the first half of the flip).
    package var showsOldLook: Bool
    /// About the vertical centre line (a flip from the left or right), or
    /// the horizontal one.
    package var aboutVerticalAxis: Bool
    /// −1 when a positive angle brings the left (top) edge toward the
    /// viewer, 1 the right (bottom) one.
    package var direction: Double
}

/// A 3 × 3 projective mapping of the plane, row by row, acting on column
/// vectors (x, y, 1).
struct Homography {
    var m00, m01, m02, m10, m11, m12, m20, m21, m22: Double

    init(_ m00: Double, _ m01: Double, _ m02: Double, _ m10: Double, _ m11: Double, _ m12: Double,
         _ m20: Double, _ m21: Double, _ m22: Double) {
        (self.m00, self.m01, self.m02, self.m10, self.m11, self.m12, self.m20, self.m21, self.m22)
            = (m00, m01, m02, m10, m11, m12, m20, m21, m22)
    }

    /// This mapping after `first`: self · first.
    func then(_ first: Homography) -> Homography {
        let f = first
        return Homography(
            m00 * f.m00 + m01 * f.m10 + m02 * f.m20, m00 * f.m01 + m01 * f.m11 + m02 * f.m21, m00 * f.m02 + m01 * f.m12 + m02 * f.m22,
            m10 * f.m00 + m11 * f.m10 + m12 * f.m20, m10 * f.m01 + m11 * f.m11 + m12 * f.m21, m10 * f.m02 + m11 * f.m12 + m12 * f.m22,
            m20 * f.m00 + m21 * f.m10 + m22 * f.m20, m20 * f.m01 + m21 * f.m11 + m22 * f.m21, m20 * f.m02 + m21 * f.m12 + m22 * f.m22)
    }

    var inverse: Homography? {
        let c00 = m11 * m22 - m12 * m21, c01 = m12 * m20 - m10 * m22, c02 = m10 * m21 - m11 * m20
        let determinant = m00 * c00 + m01 * c01 + m02 * c02
        guard abs(determinant) > 1e-15, determinant.isFinite else { return nil }
        let r = 1 / determinant
        return Homography(
            c00 * r, (m02 * m21 - m01 * m22) * r, (m01 * m12 - m02 * m11) * r,
            c01 * r, (m00 * m22 - m02 * m20) * r, (m02 * m10 - m00 * m12) * r,
            c02 * r, (m01 * m20 - m00 * m21) * r, (m00 * m11 - m01 * m10) * r)
    }

    /// Where `point` goes (nil where it goes to infinity).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = m20 * x + m21 * y + m22
        guard w > 1e-12 else { return nil }
        return ((m00 * x + m01 * y + m02) / w, (m10 * x + m11 * y + m12) / w)
    }
}

extension Compositor {
    /// A layer under a flip's projection: its group (background, contents,
    /// sublayers, border, through its mask) drawn flat into a buffer with
    /// no occluders (they are the frame's, not the flat layer's), then each
    /// pixel of the frame within `clip` and the flat layer's footprint
    /// (the turned layer stays inside it) takes the buffer's colour where
    /// the inverse mapping puts it, with the layer's opacity. Its shadow is
    /// not drawn while it turns.
    func drawProjected(_ node: RenderLayer, _ projection: FlipProjection, into surface: PixelSurface, clip: PixelRect) {
        let flat = node.groupPixelRect.intersection(surface.extent)
        let target = flat.intersection(clip)
        guard !target.isEmpty, let back = projection.frameToFlat(toDevice: node.toDevice) else { return }
        let (buffer, storage) = scratch.surface(covering: flat)
        defer { scratch.recycle(storage) }
        withoutOccluders { drawGroup(of: node, into: buffer, clip: flat, opacity: 1) }
        let alpha = PixelOps.alpha(node.opacity)
        for y in target.y0..<target.y1 {
            let row = surface.row(y)
            let py = Double(y) + 0.5, px = Double(target.x0) + 0.5
            // Linear along the row; divided by w at each pixel.
            var u = back.m00 * px + back.m01 * py + back.m02
            var v = back.m10 * px + back.m11 * py + back.m12
            var w = back.m20 * px + back.m21 * py + back.m22
            for x in target.x0..<target.x1 {
                if w > 1e-12 {
                    let sample = Self.bilinear(buffer, x: u / w - 0.5, y: v / w - 0.5)
                    if sample != 0 { row[x] = PixelOps.over(PixelOps.scale(sample, by: alpha), row[x]) }
                }
                u += back.m00
                v += back.m10
                w += back.m20
            }
        }
    }

    /// The buffer's colour at (`x`, `y`), between pixel centres, bilinearly;
    /// transparent beyond its edges, so that the turned layer's edges are
    /// smooth.
    @inline(__always)
    private static func bilinear(_ buffer: PixelSurface, x: Double, y: Double) -> UInt32 {
        let extent = buffer.extent
        guard x > Double(extent.x0) - 1, y > Double(extent.y0) - 1, x < Double(extent.x1), y < Double(extent.y1) else { return 0 }
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let x0 = Int(fx), y0 = Int(fy)
        let wx = UInt32((x - fx) * 256), wy = UInt32((y - fy) * 256)
        func at(_ px: Int, _ py: Int) -> UInt32 {
            extent.x0 <= px && px < extent.x1 && extent.y0 <= py && py < extent.y1 ? buffer.row(py)[px] : 0
        }
        let top = mix(at(x0, y0), at(x0 + 1, y0), wx)
        let bottom = mix(at(x0, y0 + 1), at(x0 + 1, y0 + 1), wx)
        return mix(top, bottom, wy)
    }

    /// `a` and `b` mixed, `weight`/256 of `b`, every channel.
    @inline(__always)
    private static func mix(_ a: UInt32, _ b: UInt32, _ weight: UInt32) -> UInt32 {
        if weight == 0 || a == b { return a }
        let keep: UInt32 = 256 - weight
        let lanes: UInt32 = 0x00FF_00FF, half: UInt32 = 0x0080_0080
        let aRB: UInt32 = a & lanes, bRB: UInt32 = b & lanes
        let aAG: UInt32 = (a >> 8) & lanes, bAG: UInt32 = (b >> 8) & lanes
        let rbSum: UInt32 = aRB &* keep &+ bRB &* weight &+ half
        let agSum: UInt32 = aAG &* keep &+ bAG &* weight &+ half
        return ((rbSum >> 8) & lanes) | (((agSum >> 8) & lanes) << 8)
    }
}
