import CoreGraphics

/// A layer seen in perspective: its plane mapped to where it is seen by a
/// projective mapping (a homography), which the compositor draws by
/// drawing the layer flat into a buffer (its shadow, group and mask, as
/// anywhere) and taking each pixel's colour from where the inverse mapping
/// puts it in that buffer, filtered bilinearly. A layer's own 3-D
/// transform (or its superlayer's `sublayerTransform`) with perspective
/// makes one (`LayerPlane`), and so does a flip transition's turn.
///
/// A class: every layer of every frame asks whether it has one, and a
/// reference is tested for nil in one comparison, where an optional value
/// this large (holding a reference too) is copied out first.
final class LayerProjection {
    /// From the layer's coordinates to where they are seen, in the layer's
    /// coordinates as placed flat (``RenderLayer/toDevice``): the layer is
    /// seen at `toDevice(matrix · p)`.
    let matrix: Homography
    /// How much darker the face is drawn, 0…1 (a flip's turning face).
    let shade: Double
    /// A page curl (PageCurl.swift), drawn instead of the mapping.
    let curl: PageCurl?

    init(matrix: Homography, shade: Double, curl: PageCurl? = nil) {
        self.matrix = matrix
        self.shade = shade
        self.curl = curl
    }

    /// The most pixels of the flat drawing a frame makes for one layer:
    /// 2^24 (64 MB), beyond which the layer is not drawn — a layer placed
    /// that large is a mistake (chosen here, as the shadow's 2^26).
    static let maximumFlatPixels = 1 << 24

    /// The nearest a point may come to the eye and be drawn: the depth
    /// divisor w of a point drawn is at least this (magnified a million
    /// times); nearer, and behind the eye, nothing is drawn.
    static let nearestW = 1e-6

    /// From the flat drawing's pixels to where they are seen in the surface.
    func flatToSurface(toDevice t: CGAffineTransform) -> Homography? {
        let place = Homography(affine: t)
        guard let unplace = place.inverse else { return nil }
        return place.then(matrix).then(unplace)
    }

    /// From the surface's pixels back to the flat drawing's; nil if the
    /// mapping cannot be undone.
    func surfaceToFlat(toDevice t: CGAffineTransform) -> Homography? {
        flatToSurface(toDevice: t)?.inverse
    }

    /// The surface's pixels the flat pixels `flat` may be seen in: the
    /// rectangle clipped to the part in front of the eye (w ≥ ``nearestW``),
    /// its corners mapped, the box around them grown by a pixel, within
    /// ±2^24 pixels; empty when nothing of it is in front.
    func surfaceRect(of flat: PixelRect, toDevice t: CGAffineTransform) -> PixelRect {
        guard !flat.isEmpty, let forward = flatToSurface(toDevice: t) else { return .empty }
        let corners = [(flat.x0, flat.y0), (flat.x1, flat.y0), (flat.x1, flat.y1), (flat.x0, flat.y1)].map { (x, y) -> (Double, Double, Double) in
            let (px, py) = (Double(x), Double(y))
            return (forward.m00 * px + forward.m01 * py + forward.m02,
                    forward.m10 * px + forward.m11 * py + forward.m12,
                    forward.m20 * px + forward.m21 * py + forward.m22)
        }
        // The quadrilateral cut by the plane w = nearestW (one plane of
        // Sutherland and Hodgman's clipping, in homogeneous coordinates).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: (Double, Double, Double)) {
            let x = p.0 / p.2, y = p.1 / p.2
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        let near = Self.nearestW
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            if a.2 >= near { add(a) }
            if (a.2 >= near) != (b.2 >= near) {
                let f = (near - a.2) / (b.2 - a.2)
                add((a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1), near))
            }
        }
        let limit = Double(1 << 24)
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return .empty }
        let box = CGRect(x: max(-limit, minX), y: max(-limit, minY), width: 0, height: 0)
        let far = CGPoint(x: min(limit, maxX), y: min(limit, maxY))
        guard far.x >= box.minX, far.y >= box.minY else { return .empty }
        return PixelRect(covering: CGRect(x: box.minX, y: box.minY, width: far.x - box.minX, height: far.y - box.minY).insetBy(dx: -1, dy: -1))
    }

    /// A flip's turn in perspective: a layer turning about its centre line
    /// under Core Animation's perspective, the `m34 = −1/d` of a
    /// `CATransform3D`.
    ///
    /// In the layer's own coordinates about its bounds' centre, a point
    /// (x, y) turned by φ about the vertical centre line goes to depth
    /// z = ∓x·sin φ and is seen at (x·cos φ, y) / (1 − z/d). iOS's flip then
    /// draws the turning layer a little smaller, so that its nearer edge stays
    /// as high as the layer is and its corners are never cut ("the camera
    /// dollies back a bit, so the corners of the animated layers are fully
    /// visible"; "the view is scaled during the flipping animation such that
    /// the tallest edge of the flipped view stays the height of the container
    /// view": two developers' descriptions of UIKit's flip transitions):
    /// the factor k = 1 − (w/2)·|sin φ|/d, w the layer's width. Nil when the
    /// layer is edge on (nothing to draw) or faces the viewer squarely
    /// (drawn flat: no projection).
    static func flipTurn(_ pose: FlipPose, bounds: CGRect) -> Homography? {
        let c = cos(pose.angle), s = sin(pose.angle)
        guard abs(c) > 1e-3, abs(s) > 1e-9 else { return nil }
        let d = flipPerspectiveDistance
        let halfSpan = Double(pose.aboutVerticalAxis ? bounds.width : bounds.height) / 2
        let k = max(1e-3, 1 - halfSpan * abs(s) / d)
        // Depth z = direction · (x or y) · sin φ; seen through w = 1 − z/d.
        let tilt = -pose.direction * s / d
        let turn = pose.aboutVerticalAxis
            ? Homography(k * c, 0, 0, 0, k, 0, tilt, 0, 1)
            : Homography(k, 0, 0, 0, k * c, 0, 0, tilt, 1)
        let cx = Double(bounds.midX), cy = Double(bounds.midY)
        return Homography(1, 0, cx, 0, 1, cy, 0, 0, 1).then(turn).then(Homography(1, 0, -cx, 0, 1, -cy, 0, 0, 1))
    }

    /// How much darker a flip's face is drawn at the turn `angle`:
    /// `flipMaximumShade`·|sin φ|, nothing face on, the most edge on. iOS's
    /// flip dims the turning face ("the slight dimming effect that the
    /// transitionFromView achieves", a developer re-creating it with a
    /// layer's transform); Apple publishes no figure.
    static func flipShade(at angle: Double) -> Double { flipMaximumShade * abs(sin(angle)) }

    /// The darkening of a flip's face edge on: half (chosen: "slight", and
    /// still visible on a light face as the turn ends).
    static let flipMaximumShade = 0.5

    /// The distance d from the eye to a flipping layer's plane, in the
    /// layer's points: m34 = −1/500 (−0.002), the value the common
    /// re-creations of UIKit's flip use (Ray Wenderlich's custom-transition
    /// tutorial, and many `transform.m34 = -1.0 / 500` flips); Apple does
    /// not publish the perspective of its own flip.
    static let flipPerspectiveDistance: Double = 500
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

    /// The affine transform `t` (which maps row vectors) as a mapping of
    /// column vectors.
    init(affine t: CGAffineTransform) {
        self.init(Double(t.a), Double(t.c), Double(t.tx), Double(t.b), Double(t.d), Double(t.ty), 0, 0, 1)
    }

    /// The sign of the determinant: negative when the mapping mirrors the
    /// plane where it is seen (w > 0), as the back of a layer is.
    var determinant: Double {
        m00 * (m11 * m22 - m12 * m21) - m01 * (m10 * m22 - m12 * m20) + m02 * (m10 * m21 - m11 * m20)
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
    /// A layer in perspective (``RenderLayer/projection``): drawn as
    /// anywhere else (shadow, group, mask, with its opacity) flat into a
    /// buffer with no occluders (they are the frame's, not the flat
    /// layer's), over the part of its flat drawing that the surface's
    /// pixels within `clip` see; then each of those pixels takes the
    /// buffer's colour where the inverse mapping puts it, darkened by the
    /// projection's shade. Pixels whose point of the layer is at or behind
    /// the eye take nothing.
    func drawProjected(_ node: RenderLayer, _ projection: LayerProjection, into surface: PixelSurface, clip: PixelRect) {
        if let curl = projection.curl { return drawCurl(node, curl, into: surface, clip: clip) }
        let target = node.subtreeRect.intersection(clip)
        guard !target.isEmpty, let back = projection.surfaceToFlat(toDevice: node.toDevice) else { return }
        var flat = node.flatSubtreeRect
        if let seen = Self.boundingBox(of: target, through: back) { flat = flat.intersection(seen) }
        guard !flat.isEmpty, flat.area <= LayerProjection.maximumFlatPixels else { return }
        // An opaque background drawn at full opacity (a flip's new look)
        // covers its pixels of the buffer: they need no clearing first.
        let covered = node.opacity == 1 && node.mask == nil ? node.opaqueBackgroundRect : .empty
        let (buffer, storage) = scratch.surface(covering: flat, overwritten: covered)
        defer { scratch.recycle(storage) }
        withoutOccluders { drawInPlane(node, into: buffer, clip: flat) }
        let keep = UInt32(max(0, min(256, ((1 - projection.shade) * 256).rounded())))
        let near = LayerProjection.nearestW
        let extent = buffer.extent
        // A turn about a vertical line (a flip from the left or right) maps
        // back with u and w free of y: they, and so each column's w, whether
        // it is in front and its point's x, are the same in every row, to
        // the bit — worked out once per frame (`ProjectedColumn`). About a
        // horizontal line, v and w are free of x: the same along a row.
        let columnsRepeat = sharesProjectedAxes && back.m01 == 0 && back.m21 == 0
        let rowsRepeat = sharesProjectedAxes && back.m10 == 0 && back.m20 == 0
        if columnsRepeat { fillProjectedColumns(back, target: target, extent: extent) }
        let columns = projectedColumns
        var blend = ProjectedBlend(keep: keep)
        for y in target.y0..<target.y1 {
            let row = surface.row(y)
            let py = Double(y) + 0.5, px = Double(target.x0) + 0.5
            // Linear along the row; divided by w at each pixel.
            var u = back.m00 * px + back.m01 * py + back.m02
            var v = back.m10 * px + back.m11 * py + back.m12
            var w = back.m20 * px + back.m21 * py + back.m22
            // Only across the layer (ProjectedRow.swift), u, v and w stepped
            // to its first pixel as the loop steps them.
            let across = back.columns(sampling: extent, row: y, from: target.x0, to: target.x1)
            if columnsRepeat {
                for _ in target.x0..<across.lowerBound { v += back.m10 }
                for x in across {
                    let column = columns[x - target.x0]
                    if let texelX = column.x, let texelY = Self.texel(v / column.w - 0.5, from: extent.y0, to: extent.y1) {
                        blend.put(Self.bilinear(buffer, texelX, texelY), into: row + x)
                    }
                    v += back.m10
                }
                continue
            }
            if rowsRepeat {
                // w and v stay as they are along the row (each step adds 0).
                guard w > 0 && w * near <= 1, let texelY = Self.texel(v / w - 0.5, from: extent.y0, to: extent.y1) else { continue }
                for _ in target.x0..<across.lowerBound { u += back.m00 }
                for x in across {
                    if let texelX = Self.texel(u / w - 0.5, from: extent.x0, to: extent.x1) {
                        blend.put(Self.bilinear(buffer, texelX, texelY), into: row + x)
                    }
                    u += back.m00
                }
                continue
            }
            for _ in target.x0..<across.lowerBound {
                u += back.m00
                v += back.m10
                w += back.m20
            }
            for x in across {
                // The flat point's own w is 1/w here: at least `near`, and in front.
                if w > 0 && w * near <= 1 {
                    blend.put(Self.bilinear(buffer, x: u / w - 0.5, y: v / w - 0.5), into: row + x)
                }
                u += back.m00
                v += back.m10
                w += back.m20
            }
        }
    }

    /// For each column of `target`, from its first, what the rows of a
    /// turn about a vertical line share (`back.m01` and `back.m21` zero):
    /// w and u stepped along the row from the same start as
    /// ``drawProjected(_:_:into:clip:)`` steps them, so the very same
    /// values, and the column's texel when it is in front.
    private func fillProjectedColumns(_ back: Homography, target: PixelRect, extent: PixelRect) {
        projectedColumns.removeAll(keepingCapacity: true)
        let py = Double(target.y0) + 0.5, px = Double(target.x0) + 0.5
        var u = back.m00 * px + back.m01 * py + back.m02
        var w = back.m20 * px + back.m21 * py + back.m22
        for _ in target.x0..<target.x1 {
            let inFront = w > 0 && w * LayerProjection.nearestW <= 1
            projectedColumns.append(ProjectedColumn(w: w, x: inFront ? Self.texel(u / w - 0.5, from: extent.x0, to: extent.x1) : nil))
            u += back.m00
            w += back.m20
        }
    }

    /// The whole pixels around where `mapping` takes `rect`'s corners (a
    /// projective mapping takes a rectangle to a convex quadrilateral, inside
    /// its corners' box where w stays positive), grown by two for the
    /// filter; nil if a corner goes to infinity or behind the eye.
    private static func boundingBox(of rect: PixelRect, through mapping: Homography) -> PixelRect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(rect.x0, rect.y0), (rect.x1, rect.y0), (rect.x0, rect.y1), (rect.x1, rect.y1)] {
            guard let p = mapping.apply(Double(x), Double(y)) else { return nil }
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let limit = Double(1 << 24)
        guard minX > -limit, minY > -limit, maxX < limit, maxY < limit else { return nil }
        return PixelRect(covering: CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).insetBy(dx: -2, dy: -2))
    }

    /// `pixel`'s colour darkened to `keep`/256, its alpha kept
    /// (premultiplied: a darker colour of the same coverage).
    @inline(__always)
    nonisolated static func darken(_ pixel: UInt32, keep: UInt32) -> UInt32 {
        let alpha = pixel & 0xFF00_0000
        let rb = ((pixel & 0x00FF_00FF) &* keep &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let g = ((pixel & 0x0000_FF00) &* keep &+ 0x0000_8000) >> 8 & 0x0000_FF00
        return alpha | rb | g
    }

    /// The buffer's colour at (`x`, `y`), between pixel centres, bilinearly;
    /// transparent beyond its edges, so that the turned layer's edges are
    /// smooth.
    @inline(__always)
    static func bilinear(_ buffer: PixelSurface, x: Double, y: Double) -> UInt32 {
        let extent = buffer.extent
        guard let across = texel(x, from: extent.x0, to: extent.x1), let down = texel(y, from: extent.y0, to: extent.y1) else { return 0 }
        return bilinear(buffer, across, down)
    }

    /// Where a coordinate `c` of a bilinear sample falls between the texel
    /// centres `low..<high` of one axis: the texel before it and its
    /// weight in 256ths; nil beyond the edges' texels, where the sample is
    /// transparent.
    @inline(__always)
    static func texel(_ c: Double, from low: Int, to high: Int) -> ProjectedTexel? {
        guard c > Double(low) - 1, c < Double(high) else { return nil }
        // Whole part and weight from one conversion of the coordinate in
        // 256ths (exact: a power of two), which truncates (the C library's
        // floor is a call on the baseline x86-64), one less below zero:
        // floor(256·c) holds floor(c) above its low 8 bits and the weight,
        // trunc(256·(c − floor(c))), in them.
        var c256 = Int(c * 256)
        if Double(c256) > c * 256 { c256 -= 1 }
        let index = c256 >> 8
        return ProjectedTexel(index: index, weight: UInt32(truncatingIfNeeded: c256 & 255), inside: index >= low && index + 1 < high)
    }

    /// The bilinear sample at the texels `across` and `down`, each within
    /// (edge − 1, edge) of the buffer.
    @inline(__always)
    static func bilinear(_ buffer: PixelSurface, _ across: ProjectedTexel, _ down: ProjectedTexel) -> UInt32 {
        let x0 = across.index, y0 = down.index, wx = across.weight, wy = down.weight
        if across.inside && down.inside {
            // Inside the buffer (the turned layer but for its edges): its four
            // pixels as they are; four equal ones (most of a card of one
            // colour) are the sample, as mixing them gives.
            let upper = buffer.row(y0), lower = buffer.row(y0 + 1)
            let t00 = upper[x0], t10 = upper[x0 + 1], t01 = lower[x0], t11 = lower[x0 + 1]
            if t00 == t10 && t00 == t01 && t00 == t11 { return t00 }
            return lerpBytes(lerpBytes(t00, t10, wx), lerpBytes(t01, t11, wx), wy)
        }
        let extent = buffer.extent
        func at(_ px: Int, _ py: Int) -> UInt32 {
            extent.x0 <= px && px < extent.x1 && extent.y0 <= py && py < extent.y1 ? buffer.row(py)[px] : 0
        }
        return lerpBytes(lerpBytes(at(x0, y0), at(x0 + 1, y0), wx), lerpBytes(at(x0, y0 + 1), at(x0 + 1, y0 + 1), wx), wy)
    }
}

/// Where a bilinear sample falls on one axis of a buffer: the texel before
/// it (whose centre is at or before it), the weight of the one after in
/// 256ths, and whether both are inside the buffer.
struct ProjectedTexel {
    var index: Int
    var weight: UInt32
    var inside: Bool
}

/// What every row of a turn about a vertical line shares at one column:
/// the depth divisor w, and the column's texel where the point is in front
/// (nil where it is not, or beyond the buffer's edges).
struct ProjectedColumn {
    var w: Double
    var x: ProjectedTexel?
}

/// Puts a projected layer's samples into the frame: darkened to
/// `keep`/256 (a turning face), over what is there. The last sample's
/// darkened colour is kept, since a card of one colour gives the same
/// sample pixel after pixel.
struct ProjectedBlend {
    let keep: UInt32
    private var lastSample: UInt32 = 0
    private var lastDarkened: UInt32 = 0

    init(keep: UInt32) { self.keep = keep }

    @inline(__always)
    mutating func put(_ sample: UInt32, into pixel: UnsafeMutablePointer<UInt32>) {
        guard sample != 0 else { return }
        var shown = sample
        if keep < 256 {
            if sample != lastSample {
                lastSample = sample
                lastDarkened = Compositor.darken(sample, keep: keep)
            }
            shown = lastDarkened
        }
        // An opaque sample covers the pixel (`over` would add nothing).
        pixel.pointee = shown >= 0xFF00_0000 ? shown : PixelOps.over(shown, pixel.pointee)
    }
}
