import Foundation

/// A 4 × 4 transform taken apart into what animates well: translation,
/// scale, shear, a turn and perspective, each along x, y and z.
///
/// Core Animation does not interpolate a `CATransform3D` entry by entry: it
/// takes both ends apart into "primitive components (rotation,
/// translation, etc.)" and builds the transform again from the interpolated
/// components, turning the shortest way (developers' accounts of animating
/// `transform`: an animation from the identity to a whole turn shows no
/// turn, and a turn of 270° one way is made as 90° the other). Apple
/// publishes no formula; this is the decomposition CSS Transforms specifies
/// for 3-D matrices (Spencer Thomas's `unmatrix`, Graphics Gems II), written
/// for Core Animation's row vectors: perspective applied last, then the
/// upper 3 × 3 split by Gram–Schmidt into scale, shear and an orthonormal
/// turn, which is interpolated as a unit quaternion along the great circle
/// (slerp, the shorter arc), the other parts straight.
///
/// It is also how the transform key paths read and write one part
/// (`transform.rotation.x`, `transform.scale.z`, …): Apple's key-value
/// coding extensions name the parts; the turn is read as angles about x,
/// then y, then z (a point turns about x first), each within its usual
/// range (`rotation.y` within ±π/2).
package struct TransformDecomposition: Equatable {
    package var translation = SIMD3<Double>(0, 0, 0)
    package var scale = SIMD3<Double>(1, 1, 1)
    /// The shears xy, xz, yz: how much of the first axis each later one takes.
    package var shear = SIMD3<Double>(0, 0, 0)
    /// The turn as a unit quaternion (x, y, z, w).
    package var quaternion = SIMD4<Double>(0, 0, 0, 1)
    /// The matrix's fourth column once the rest is taken out: (0, 0, 0, 1)
    /// without perspective.
    package var perspective = SIMD4<Double>(0, 0, 0, 1)

    package init() {}

    /// Nil for a matrix that cannot be taken apart: `m44` = 0, or an upper
    /// 3 × 3 without an inverse when there is perspective to solve for.
    /// An axis scaled to 0 is read as a scale of 0 along the identity's
    /// direction.
    package init?(_ t: CATransform3D) {
        let m44 = Double(t.m44)
        guard m44 != 0, t.isFinite else { return nil }
        var rows = [
            SIMD3<Double>(Double(t.m11), Double(t.m12), Double(t.m13)) / m44,
            SIMD3<Double>(Double(t.m21), Double(t.m22), Double(t.m23)) / m44,
            SIMD3<Double>(Double(t.m31), Double(t.m32), Double(t.m33)) / m44,
        ]
        let move = SIMD3<Double>(Double(t.m41), Double(t.m42), Double(t.m43)) / m44
        let column = SIMD3<Double>(Double(t.m14), Double(t.m24), Double(t.m34)) / m44
        if column != .zero {
            // The matrix is A · P, A affine and P the identity with the
            // fourth column p: the upper 3 × 3 times (p1, p2, p3) is the
            // fourth column, and t · p + p4 = 1.
            guard let p = Self.solve(rows, column) else { return nil }
            perspective = SIMD4<Double>(p.x, p.y, p.z, 1 - (move * p).sum())
        }
        translation = move
        // Gram–Schmidt; an axis squashed to nothing (scale 0, a layer
        // growing from nothing) takes the identity's direction, kept square
        // to the others, so that the rest still reads.
        scale.x = Self.length(rows[0])
        rows[0] = scale.x > 0 ? rows[0] / scale.x : SIMD3(1, 0, 0)
        shear.x = (rows[0] * rows[1]).sum()
        rows[1] -= shear.x * rows[0]
        scale.y = Self.length(rows[1])
        if scale.y > 0 {
            rows[1] /= scale.y
            shear.x /= scale.y
        } else {
            rows[1] = Self.unit(square: [rows[0]], toward: [SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0)])
        }
        shear.y = (rows[0] * rows[2]).sum()
        rows[2] -= shear.y * rows[0]
        shear.z = (rows[1] * rows[2]).sum()
        rows[2] -= shear.z * rows[1]
        scale.z = Self.length(rows[2])
        if scale.z > 0 {
            rows[2] /= scale.z
            shear.y /= scale.z
            shear.z /= scale.z
        } else {
            rows[2] = Self.cross(rows[0], rows[1])
        }
        // A mirror shows as a negative x scale, so that the rest is a turn.
        if Self.determinant(rows) < 0 {
            scale.x = -scale.x
            rows[0] = -rows[0]
            shear.x = -shear.x
            shear.y = -shear.y
        }
        quaternion = Self.quaternion(rows)
    }

    /// The transform again: scale, shear, the turn, the translation, then
    /// the perspective.
    package var transform: CATransform3D {
        let u = Self.rows(quaternion)
        let r0 = scale.x * u[0]
        let r1 = scale.y * (u[1] + shear.x * u[0])
        let r2 = scale.z * (u[2] + shear.y * u[0] + shear.z * u[1])
        let p = SIMD3<Double>(perspective.x, perspective.y, perspective.z)
        let w = SIMD3<Double>((r0 * p).sum(), (r1 * p).sum(), (r2 * p).sum())
        return CATransform3D(
            m11: r0.x, m12: r0.y, m13: r0.z, m14: w.x,
            m21: r1.x, m22: r1.y, m23: r1.z, m24: w.y,
            m31: r2.x, m32: r2.y, m33: r2.z, m34: w.z,
            m41: translation.x, m42: translation.y, m43: translation.z, m44: (translation * p).sum() + perspective.w)
    }

    /// The turn as angles (x, y, z): the turn about x, then y, then z.
    package var angles: SIMD3<Double> {
        get {
            let u = Self.rows(quaternion)
            let sinY = -u[0].z
            guard abs(sinY) < 1 - 1e-12 else {
                // Gimbal lock: the turns about x and z are one; all of it about x.
                return SIMD3<Double>(atan2(-u[2].y, u[1].y), sinY > 0 ? .pi / 2 : -.pi / 2, 0)
            }
            return SIMD3<Double>(atan2(u[1].z, u[2].z), asin(sinY), atan2(u[0].y, u[0].x))
        }
        set {
            quaternion = Self.quaternion(Self.rows(CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeRotation(newValue.x, 1, 0, 0), CATransform3DMakeRotation(newValue.y, 0, 1, 0)),
                CATransform3DMakeRotation(newValue.z, 0, 0, 1))))
        }
    }

    /// The transform `progress` of the way from `a` to `b` (progress may
    /// leave 0…1): every part straight but the turn, which follows the
    /// shorter great circle. Matrices that cannot be taken apart are mixed
    /// entry by entry.
    package static func interpolate(_ a: CATransform3D, _ b: CATransform3D, _ progress: Double) -> CATransform3D {
        guard let from = TransformDecomposition(a), let to = TransformDecomposition(b) else {
            return entryByEntry(a, b, progress)
        }
        var mix = TransformDecomposition()
        mix.translation = from.translation + (to.translation - from.translation) * progress
        mix.scale = from.scale + (to.scale - from.scale) * progress
        mix.shear = from.shear + (to.shear - from.shear) * progress
        mix.perspective = from.perspective + (to.perspective - from.perspective) * progress
        mix.quaternion = slerp(from.quaternion, to.quaternion, progress)
        return mix.transform
    }

    /// Spherical linear interpolation between unit quaternions, the shorter
    /// way: q0·sin((1−t)θ)/sin θ + q1·sin(tθ)/sin θ, cos θ = q0·q1 (q1
    /// negated first when that is negative: the same turn, the other way
    /// round the sphere); nearly equal turns are mixed straight and
    /// normalised.
    static func slerp(_ q0: SIMD4<Double>, _ q1: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        var q1 = q1
        var dot = (q0 * q1).sum()
        if dot < 0 { q1 = -q1; dot = -dot }
        guard dot < 1 - 1e-9 else {
            let q = q0 + (q1 - q0) * t
            return q / (q * q).sum().squareRoot()
        }
        let theta = acos(min(1, dot))
        let s = sin(theta)
        return q0 * (sin((1 - t) * theta) / s) + q1 * (sin(t * theta) / s)
    }

    private static func entryByEntry(_ a: CATransform3D, _ b: CATransform3D, _ t: Double) -> CATransform3D {
        func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * t }
        return CATransform3D(
            m11: mix(a.m11, b.m11), m12: mix(a.m12, b.m12), m13: mix(a.m13, b.m13), m14: mix(a.m14, b.m14),
            m21: mix(a.m21, b.m21), m22: mix(a.m22, b.m22), m23: mix(a.m23, b.m23), m24: mix(a.m24, b.m24),
            m31: mix(a.m31, b.m31), m32: mix(a.m32, b.m32), m33: mix(a.m33, b.m33), m34: mix(a.m34, b.m34),
            m41: mix(a.m41, b.m41), m42: mix(a.m42, b.m42), m43: mix(a.m43, b.m43), m44: mix(a.m44, b.m44))
    }

    private static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// The first of `candidates` that keeps a length once the parts along
    /// the unit vectors `basis` are taken out, normalised.
    private static func unit(square basis: [SIMD3<Double>], toward candidates: [SIMD3<Double>]) -> SIMD3<Double> {
        for candidate in candidates {
            var v = candidate
            for b in basis { v -= (v * b).sum() * b }
            let l = length(v)
            if l > 1e-6 { return v / l }
        }
        return candidates[0]
    }

    private static func determinant(_ r: [SIMD3<Double>]) -> Double {
        r[0].x * (r[1].y * r[2].z - r[1].z * r[2].y) - r[0].y * (r[1].x * r[2].z - r[1].z * r[2].x)
            + r[0].z * (r[1].x * r[2].y - r[1].y * r[2].x)
    }

    /// x with `rows` · x = `b` (Cramer's rule); nil when `rows` has no inverse.
    private static func solve(_ rows: [SIMD3<Double>], _ b: SIMD3<Double>) -> SIMD3<Double>? {
        let d = determinant(rows)
        guard abs(d) > 1e-12 else { return nil }
        func replaced(_ i: Int) -> [SIMD3<Double>] {
            rows.indices.map { r in var row = rows[r]; row[i] = b[r]; return row }
        }
        return SIMD3<Double>(determinant(replaced(0)), determinant(replaced(1)), determinant(replaced(2))) / d
    }

    private static func rows(_ t: CATransform3D) -> [SIMD3<Double>] {
        [SIMD3<Double>(Double(t.m11), Double(t.m12), Double(t.m13)),
         SIMD3<Double>(Double(t.m21), Double(t.m22), Double(t.m23)),
         SIMD3<Double>(Double(t.m31), Double(t.m32), Double(t.m33))]
    }

    /// The quaternion of a turn given by its rows (the images of the axes),
    /// read as the columns of the usual column-vector rotation matrix
    /// (Shepperd's method: from the largest of the trace and the diagonal).
    private static func quaternion(_ u: [SIMD3<Double>]) -> SIMD4<Double> {
        // m[i][j] of the column-vector matrix is u[j][i].
        let m00 = u[0].x, m01 = u[1].x, m02 = u[2].x
        let m10 = u[0].y, m11 = u[1].y, m12 = u[2].y
        let m20 = u[0].z, m21 = u[1].z, m22 = u[2].z
        let trace = m00 + m11 + m22
        var q: SIMD4<Double>
        if trace > 0 {
            let s = 0.5 / (trace + 1).squareRoot()
            q = SIMD4(( m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s)
        } else if m00 > m11 && m00 > m22 {
            let s = 2 * (1 + m00 - m11 - m22).squareRoot()
            q = SIMD4(0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
        } else if m11 > m22 {
            let s = 2 * (1 + m11 - m00 - m22).squareRoot()
            q = SIMD4((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
        } else {
            let s = 2 * (1 + m22 - m00 - m11).squareRoot()
            q = SIMD4((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)
        }
        return q / (q * q).sum().squareRoot()
    }

    /// The rows of the turn `q` (the inverse of ``quaternion(_:)``).
    private static func rows(_ q: SIMD4<Double>) -> [SIMD3<Double>] {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        // Columns of the column-vector matrix, which are the rows here.
        return [
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)),
        ]
    }
}
