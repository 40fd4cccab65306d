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
    /// pixel of the frame within `clip` and the turned layer's bounding box
    /// (inside the flat layer's footprint) takes the buffer's colour where
    /// the inverse mapping puts it, with the layer's opacity. Its shadow is
    /// not drawn while it turns.
    func drawProjected(_ node: RenderLayer, _ projection: FlipProjection, into surface: PixelSurface, clip: PixelRect) {
        let flat = node.groupPixelRect.intersection(surface.extent)
        guard !flat.isEmpty, let back = projection.frameToFlat(toDevice: node.toDevice),
              let turned = back.inverse.flatMap({ Self.boundingBox(of: flat, through: $0) }) else { return }
        let target = turned.intersection(flat).intersection(clip)
        guard !target.isEmpty else { return }
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
            // Only across the layer (ProjectedRow.swift), u, v and w stepped
            // to its first pixel as the loop steps them.
            let across = back.columns(sampling: buffer.extent, row: y, from: target.x0, to: target.x1)
            for _ in target.x0..<across.lowerBound {
                u += back.m00
                v += back.m10
                w += back.m20
            }
            for x in across {
                if w > 1e-12 {
                    let sample = Self.bilinear(buffer, x: u / w - 0.5, y: v / w - 0.5)
                    if sample != 0 { row[x] = PixelOps.over(alpha == 255 ? sample : PixelOps.scale(sample, by: alpha), row[x]) }
                }
                u += back.m00
                v += back.m10
                w += back.m20
            }
        }
    }

    /// The whole pixels around where `mapping` takes `rect`'s corners (a
    /// projective mapping takes a rectangle to a convex quadrilateral, inside
    /// its corners' box where w stays positive); nil if a corner goes to
    /// infinity.
    private static func boundingBox(of rect: PixelRect, through mapping: Homography) -> PixelRect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(rect.x0, rect.y0), (rect.x1, rect.y0), (rect.x0, rect.y1), (rect.x1, rect.y1)] {
            guard let p = mapping.apply(Double(x), Double(y)) else { return nil }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return PixelRect(covering: CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).insetBy(dx: -1, dy: -1))
    }

    /// The buffer's colour at (`x`, `y`), between pixel centres, bilinearly;
    /// transparent beyond its edges, so that the turned layer's edges are
    /// smooth.
    @inline(__always)
    private static func bilinear(_ buffer: PixelSurface, x: Double, y: Double) -> UInt32 {
        let extent = buffer.extent
        guard x > Double(extent.x0) - 1, y > Double(extent.y0) - 1, x < Double(extent.x1), y < Double(extent.y1) else { return 0 }
        // Whole parts and weights from one conversion each, of the
        // coordinate in 256ths (exact: a power of two), which truncates (the
        // C library's floor is a call on the baseline x86-64), one less
        // below zero: floor(256·x) holds floor(x) above its low 8 bits and
        // the weight, trunc(256·(x − floor(x))), in them.
        var x256 = Int(x * 256), y256 = Int(y * 256)
        if Double(x256) > x * 256 { x256 -= 1 }
        if Double(y256) > y * 256 { y256 -= 1 }
        let x0 = x256 >> 8, y0 = y256 >> 8
        let wx = UInt32(truncatingIfNeeded: x256 & 255), wy = UInt32(truncatingIfNeeded: y256 & 255)
        if x0 >= extent.x0, x0 + 1 < extent.x1, y0 >= extent.y0, y0 + 1 < extent.y1 {
            // Inside the buffer (the turned layer but for its edges): its four
            // pixels as they are; four equal ones (most of a card of one
            // colour) are the sample, as mixing them gives.
            let upper = buffer.row(y0), lower = buffer.row(y0 + 1)
            let t00 = upper[x0], t10 = upper[x0 + 1], t01 = lower[x0], t11 = lower[x0 + 1]
            if t00 == t10 && t00 == t01 && t00 == t11 { return t00 }
            return lerpBytes(lerpBytes(t00, t10, wx), lerpBytes(t01, t11, wx), wy)
        }
        func at(_ px: Int, _ py: Int) -> UInt32 {
            extent.x0 <= px && px < extent.x1 && extent.y0 <= py && py < extent.y1 ? buffer.row(py)[px] : 0
        }
        return lerpBytes(lerpBytes(at(x0, y0), at(x0 + 1, y0), wx), lerpBytes(at(x0, y0 + 1), at(x0 + 1, y0 + 1), wx), wy)
    }
}
