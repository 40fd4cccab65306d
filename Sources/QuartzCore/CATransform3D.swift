import Foundation

/// A 4×4 layer transform, as in Core Animation, in row-vector convention:
/// a point `(x, y, z, 1)` is multiplied on the left.
///
/// A layer's transform acts on the plane of the layer, z = 0: what it does
/// there, seen from the front with the perspective its `m14`, `m24` (and
/// `m34`, through depth) give, is what the compositor draws and what
/// hit-testing and coordinate conversion undo.
public struct CATransform3D: Equatable, Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    public init() { self = CATransform3DIdentity }
}

public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1
)

extension CATransform3D {
    /// Whether every entry is a finite number.
    var isFinite: Bool {
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite
            && m21.isFinite && m22.isFinite && m23.isFinite && m24.isFinite
            && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite
            && m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
    }

    /// Whether every entry is within 1e-9 of the identity's.
    var isNearlyIdentity: Bool {
        let d = CATransform3DIdentity
        let pairs: [(CGFloat, CGFloat)] = [(m11, d.m11), (m12, d.m12), (m13, d.m13), (m14, d.m14), (m21, d.m21), (m22, d.m22),
                                           (m23, d.m23), (m24, d.m24), (m31, d.m31), (m32, d.m32), (m33, d.m33), (m34, d.m34),
                                           (m41, d.m41), (m42, d.m42), (m43, d.m43), (m44, d.m44)]
        return pairs.allSatisfy { abs($0.0 - $0.1) <= 1e-9 }
    }
}

public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t == CATransform3DIdentity }

public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(
        m11: m.a, m12: m.b, m13: 0, m14: 0,
        m21: m.c, m22: m.d, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: m.tx, m42: m.ty, m43: 0, m44: 1
    )
}

/// Whether `t` has no depth or perspective terms, so that it is exactly an affine transform.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0
        && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0 && t.m43 == 0 && t.m44 == 1
}

/// The affine part of `t`: what it does to points in the plane z = 0.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

/// `a` followed by `b`: a point goes through `a`, then through `b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    CATransform3D(
        m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
        m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
        m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
        m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
        m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
        m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
        m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
        m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
        m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
        m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
        m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
        m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
        m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
        m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
        m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
        m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
}

/// A turn by `angle` radians about the axis (`x`, `y`, `z`), by the right
/// hand rule in the layer's y-down space (about z, the same turn as
/// `CGAffineTransform(rotationAngle:)`); the identity when the axis has no
/// length or is not finite.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite, angle.isFinite else { return CATransform3DIdentity }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle), s = sin(angle), t = 1 - c
    return CATransform3D(
        m11: t * x * x + c, m12: t * x * y + z * s, m13: t * x * z - y * s, m14: 0,
        m21: t * x * y - z * s, m22: t * y * y + c, m23: t * y * z + x * s, m24: 0,
        m31: t * x * z + y * s, m32: t * y * z - x * s, m33: t * z * z + c, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `t` after a turn about (`x`, `y`, `z`): the turn applies first.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// `t` after a translation: the translation applies first.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)
}

/// `t` after a scale: the scale applies first.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)
}

/// Whether the two transforms are the same matrix.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// The inverse of `t`, or `t` itself when it has none, as Core Animation
/// documents ("returns the original matrix if the matrix has no inverse").
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    var m: [Double] = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                       t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
    var inverse: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    // Gauss-Jordan elimination with partial pivoting.
    for column in 0..<4 {
        var pivot = column
        for row in column..<4 where abs(m[row * 4 + column]) > abs(m[pivot * 4 + column]) { pivot = row }
        let p = m[pivot * 4 + column]
        guard abs(p) > 1e-12, p.isFinite else { return t }
        if pivot != column {
            for k in 0..<4 {
                m.swapAt(pivot * 4 + k, column * 4 + k)
                inverse.swapAt(pivot * 4 + k, column * 4 + k)
            }
        }
        for k in 0..<4 {
            m[column * 4 + k] /= p
            inverse[column * 4 + k] /= p
        }
        for row in 0..<4 where row != column {
            let f = m[row * 4 + column]
            guard f != 0 else { continue }
            for k in 0..<4 {
                m[row * 4 + k] -= f * m[column * 4 + k]
                inverse[row * 4 + k] -= f * inverse[column * 4 + k]
            }
        }
    }
    let r = inverse.map { CGFloat($0) }
    return CATransform3D(m11: r[0], m12: r[1], m13: r[2], m14: r[3], m21: r[4], m22: r[5], m23: r[6], m24: r[7],
                         m31: r[8], m32: r[9], m33: r[10], m34: r[11], m41: r[12], m42: r[13], m43: r[14], m44: r[15])
}

extension CATransform3D {
    /// What the matrix does to the plane z = 0 when the result is flattened
    /// onto the plane z = 0 again (Core Animation's model for every layer but
    /// a `CATransformLayer`): rows and columns 1, 2 and 4, as a mapping of
    /// (x, y, 1) — a projective mapping of the plane. Its `w` is the depth
    /// divisor: where it is not positive, the point is at or behind the eye.
    var planeMapping: Homography {
        Homography(Double(m11), Double(m21), Double(m41), Double(m12), Double(m22), Double(m42), Double(m14), Double(m24), Double(m44))
    }

    /// Whether flattening the plane z = 0 through the matrix is an affine
    /// mapping (no perspective): then `CATransform3DGetAffineTransform` is
    /// what it does. A turn about x or y without perspective is one (the
    /// layer is drawn narrower, as an orthographic view shows it).
    var flattensAffinely: Bool { m14 == 0 && m24 == 0 && m44 == 1 }
}
