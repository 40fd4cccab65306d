import Foundation

/// A value an animation moves between, in one of the shapes Core Animation
/// interpolates: a number, a point, a size, a rectangle, a transform or a
/// colour. Animations take their values as `Any` (`0`, `1.0`, a `CGFloat`,
/// an `NSNumber`, a `CGPoint`, …), as Core Animation's do; they are read
/// into this form once, when the animation is added.
package enum AnimatableValue: Equatable {
    case scalar(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(CATransform3D)
    /// Red, green, blue, alpha, not premultiplied: colours are interpolated
    /// component by component, as Core Animation does.
    case color(red: Double, green: Double, blue: Double, alpha: Double)

    /// Reads a value given to an animation; nil for anything that is not
    /// one of the shapes above (or a number that is not finite).
    package init?(_ any: Any?) {
        switch any {
        case let v as Double: self = .scalar(v)
        case let v as CGFloat: self = .scalar(Double(v))
        case let v as Float: self = .scalar(Double(v))
        case let v as Int: self = .scalar(Double(v))
        case let v as NSNumber: self = .scalar(v.doubleValue)
        case let v as CGPoint: self = .point(v)
        case let v as CGSize: self = .size(v)
        case let v as CGRect: self = .rect(v)
        case let v as CATransform3D: self = .transform(v)
        case let v as CGAffineTransform: self = .transform(CATransform3DMakeAffineTransform(v))
        case let v as CGColor: self = .color(red: Double(v.red), green: Double(v.green), blue: Double(v.blue), alpha: Double(v.alpha))
        default: return nil
        }
        guard isFinite else { return nil }
    }

    /// The value as the `Any` a layer property holds.
    package var anyValue: Any {
        switch self {
        case .scalar(let v): CGFloat(v)
        case .point(let v): v
        case .size(let v): v
        case .rect(let v): v
        case .transform(let v): v
        case .color(let r, let g, let b, let a): CGColor(red: r, green: g, blue: b, alpha: a)
        }
    }

    var isFinite: Bool {
        switch self {
        case .scalar(let v): v.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite
        case .size(let s): s.width.isFinite && s.height.isFinite
        case .rect(let r): r.isFinite
        case .transform(let t): t.isFinite
        case .color(let r, let g, let b, let a): r.isFinite && g.isFinite && b.isFinite && a.isFinite
        }
    }

    /// The numbers the value is made of, for arithmetic component by
    /// component (transforms are handled apart, by their parts).
    private var components: [Double] {
        switch self {
        case .scalar(let v): [v]
        case .point(let p): [p.x, p.y]
        case .size(let s): [s.width, s.height]
        case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
        case .transform(let t): TransformParts(t).components
        case .color(let r, let g, let b, let a): [r, g, b, a]
        }
    }

    /// A value of the same shape as `self` made of `c`.
    private func with(_ c: [Double]) -> AnimatableValue {
        switch self {
        case .scalar: .scalar(c[0])
        case .point: .point(CGPoint(x: c[0], y: c[1]))
        case .size: .size(CGSize(width: c[0], height: c[1]))
        case .rect: .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .transform: .transform(TransformParts(components: c).transform)
        case .color: .color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        }
    }

    private func sameShape(_ other: AnimatableValue) -> Bool {
        switch (self, other) {
        case (.scalar, .scalar), (.point, .point), (.size, .size), (.rect, .rect), (.transform, .transform), (.color, .color): true
        default: false
        }
    }

    /// `combine` applied to each pair of components of `self` and `other`,
    /// two values of the same shape; transforms by their parts. What
    /// `with(_:)` of the combined `components` gives, without building the
    /// arrays: an animation does this at every refresh.
    @inline(__always)
    private func combined(with other: AnimatableValue, _ combine: (Double, Double) -> Double) -> AnimatableValue {
        switch (self, other) {
        case let (.scalar(a), .scalar(b)):
            return .scalar(combine(a, b))
        case let (.point(a), .point(b)):
            return .point(CGPoint(x: combine(a.x, b.x), y: combine(a.y, b.y)))
        case let (.size(a), .size(b)):
            return .size(CGSize(width: combine(a.width, b.width), height: combine(a.height, b.height)))
        case let (.rect(a), .rect(b)):
            return .rect(CGRect(x: combine(a.origin.x, b.origin.x), y: combine(a.origin.y, b.origin.y),
                                width: combine(a.size.width, b.size.width), height: combine(a.size.height, b.size.height)))
        case let (.color(r0, g0, b0, a0), .color(r1, g1, b1, a1)):
            return .color(red: combine(r0, r1), green: combine(g0, g1), blue: combine(b0, b1), alpha: combine(a0, a1))
        default:
            let a = components, b = other.components
            var c = a
            for i in c.indices { c[i] = combine(a[i], b[i]) }
            return with(c)
        }
    }

    /// The value `progress` of the way from `from` to `to` (progress may
    /// leave 0…1, for curves and springs that overshoot). Values of
    /// different shapes jump half way, as Core Animation does with values it
    /// cannot interpolate.
    /// Two transforms of which either has depth are taken apart in 3-D
    /// (``TransformDecomposition``); two affine ones in the plane
    /// (``TransformParts``), as CSS Transforms interpolates 2-D and 3-D
    /// matrices (Core Animation publishes no formula of its own).
    package static func interpolate(_ from: AnimatableValue, _ to: AnimatableValue, _ progress: Double) -> AnimatableValue {
        guard from.sameShape(to) else { return progress < 0.5 ? from : to }
        if case .transform(let a) = from, case .transform(let b) = to, !(CATransform3DIsAffine(a) && CATransform3DIsAffine(b)) {
            return .transform(TransformDecomposition.interpolate(a, b, progress))
        }
        return from.combined(with: to) { a, b in a + (b - a) * progress }
    }

    /// `self` followed by `other`: the sum of numbers, points, sizes,
    /// rectangles and colours, and for transforms the concatenation
    /// (`self` applied first), which is how Core Animation adds transforms
    /// for additive and cumulative animations.
    package func adding(_ other: AnimatableValue) -> AnimatableValue {
        guard sameShape(other) else { return self }
        if case .transform(let a) = self, case .transform(let b) = other { return .transform(CATransform3DConcat(a, b)) }
        return combined(with: other, +)
    }

    /// What must be added to `other` to give `self`: the difference, and
    /// for transforms `self` followed by the inverse of `other`.
    package func subtracting(_ other: AnimatableValue) -> AnimatableValue {
        guard sameShape(other) else { return self }
        if case .transform(let a) = self, case .transform(let b) = other {
            // The whole 4 × 4 inverse (a 3-D turn animated in a view's block
            // runs additively too); the identity for a matrix without one.
            let inverse = CATransform3DInvert(b)
            let undoes = CATransform3DConcat(b, inverse).isNearlyIdentity
            return .transform(CATransform3DConcat(a, undoes ? inverse : CATransform3DIdentity))
        }
        return combined(with: other, -)
    }

    /// `self` scaled by `factor`, for cumulative repeats: numbers and the
    /// like multiply; a transform is applied `factor` times (by its parts).
    package func scaled(by factor: Double) -> AnimatableValue {
        if case .transform = self { return AnimatableValue.interpolate(.transform(CATransform3DIdentity), self, factor) }
        return with(components.map { $0 * factor })
    }

    /// The shape's zero: what an additive animation adds to change nothing.
    package var zero: AnimatableValue {
        switch self {
        case .scalar: .scalar(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .transform: .transform(CATransform3DIdentity)
        case .color: .color(red: 0, green: 0, blue: 0, alpha: 0)
        }
    }

    /// The straight-line distance to `other`, for paced keyframes.
    package func distance(to other: AnimatableValue) -> Double {
        guard sameShape(other) else { return 0 }
        let a = components, b = other.components
        var sum = 0.0
        for i in a.indices { sum += (b[i] - a[i]) * (b[i] - a[i]) }
        return sum.squareRoot()
    }
}

/// An affine transform taken apart into what interpolates well in the
/// plane: translation, rotation about z, scale, shear (decomposed as CSS
/// does 2-D matrices; transforms with depth go through
/// ``TransformDecomposition``), the depth terms kept as numbers for paced
/// keyframes' distances. Core Animation interpolates transforms by their
/// parts too, so that a half-way rotation is a rotation and not a squashed
/// matrix.
package struct TransformParts: Equatable {
    var translationX = 0.0, translationY = 0.0
    var scaleX = 1.0, scaleY = 1.0
    var rotation = 0.0
    var shear = 0.0
    /// m13, m14, m23, m24, m31, m32, m33, m34, m43, m44.
    var depth: [Double] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 1]

    package init() {}

    package init(_ t: CATransform3D) {
        let a = Double(t.m11), b = Double(t.m12), c = Double(t.m21), d = Double(t.m22)
        translationX = Double(t.m41)
        translationY = Double(t.m42)
        var sx = (a * a + b * b).squareRoot()
        var (ua, ub) = sx > 0 ? (a / sx, b / sx) : (1, 0)
        var skew = ua * c + ub * d
        var (uc, ud) = (c - ua * skew, d - ub * skew)
        let sy = (uc * uc + ud * ud).squareRoot()
        if sy > 0 { uc /= sy; ud /= sy; skew /= sy }
        // A reflection shows as a negative x scale.
        if ua * ud - ub * uc < 0 { sx = -sx; ua = -ua; ub = -ub; skew = -skew }
        scaleX = sx
        scaleY = sy
        shear = skew
        rotation = atan2(ub, ua)
        depth = [t.m13, t.m14, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m43, t.m44].map { Double($0) }
    }

    init(components c: [Double]) {
        translationX = c[0]; translationY = c[1]; scaleX = c[2]; scaleY = c[3]; rotation = c[4]; shear = c[5]
        depth = Array(c[6...])
    }

    var components: [Double] { [translationX, translationY, scaleX, scaleY, rotation, shear] + depth }

    /// The transform again: scale, shear, rotation, then translation.
    package var transform: CATransform3D {
        let cosR = cos(rotation), sinR = sin(rotation)
        // Rows of [scale x shear] then rotation, in row-vector convention.
        let a = scaleX * cosR, b = scaleX * sinR
        let c = scaleY * (shear * cosR - sinR), d = scaleY * (shear * sinR + cosR)
        return CATransform3D(
            m11: a, m12: b, m13: depth[0], m14: depth[1],
            m21: c, m22: d, m23: depth[2], m24: depth[3],
            m31: depth[4], m32: depth[5], m33: depth[6], m34: depth[7],
            m41: translationX, m42: translationY, m43: depth[8], m44: depth[9])
    }
}
