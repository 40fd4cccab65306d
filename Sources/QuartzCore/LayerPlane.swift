import CoreGraphics

/// Where a layer's plane lies in its superlayer's, in Core Animation's
/// model: every layer but a `CATransformLayer` flattens its sublayers into
/// its own plane ("the flattened hierarchy rendering model used by other
/// layer types", Apple's `CATransformLayer` page). A sublayer's points
/// (x, y, 0) go through its 4 × 4 transform about its anchor point, to its
/// position and `zPosition`, then through the superlayer's
/// `sublayerTransform` about the superlayer's anchor point, and are seen in
/// the superlayer's plane at (x/w, y/w): a projective mapping of the plane
/// (``CATransform3D/planeMapping``), one per level. Drawing and hit-testing
/// both use it, so a touch lands where the layer is seen.
///
/// A transform layer does not flatten: its sublayers' points go on in 3-D
/// through its sublayer transform and its own placement, and through every
/// transform layer above it, to the first layer that flattens, where they
/// are seen (``placement(_:through:)``).
enum LayerPlane {
    /// One layer's geometry, as far as its placement goes.
    struct Level {
        var bounds: CGRect
        var anchorPoint: CGPoint
        var transform: CATransform3D
        var position: CGPoint
        var zPosition: CGFloat
        var sublayerTransform: CATransform3D

        /// The anchor point in the layer's coordinates.
        var anchor: CGPoint {
            CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
        }

        /// From the layer's coordinates to its superlayer's, in 3-D: about
        /// the anchor point through the transform, to the position and
        /// `zPosition` (the superlayer's sublayer transform left out).
        var placement: CATransform3D {
            let anchor = anchor
            let m = CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), transform)
            return CATransform3DConcat(m, CATransform3DMakeTranslation(position.x, position.y, zPosition))
        }

        /// The sublayer transform about the anchor point, in the layer's
        /// coordinates; nil for the identity.
        var sublayerTransformAboutAnchor: CATransform3D? {
            guard !CATransform3DIsIdentity(sublayerTransform) else { return nil }
            let anchor = anchor
            return CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), sublayerTransform),
                CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
        }
    }

    /// From the layer's coordinates to its superlayer's, in 3-D; through
    /// the superlayer's sublayer transform when `superlayer` is given.
    static func placement(of layer: Level, under superlayer: Level?) -> CATransform3D {
        let m = layer.placement
        guard let through = superlayer?.sublayerTransformAboutAnchor else { return m }
        return CATransform3DConcat(m, through)
    }

    /// From the layer's coordinates to the coordinates of the first layer
    /// above it that flattens, `flattening` (nil to leave its sublayer
    /// transform out), through the transform layers between, `passedOver`
    /// (nearest first): each one's sublayer transform, then its placement.
    static func placement(of layer: Level, through passedOver: [Level], under flattening: Level?) -> CATransform3D {
        var m = layer.placement
        for level in passedOver {
            if let s = level.sublayerTransformAboutAnchor { m = CATransform3DConcat(m, s) }
            m = CATransform3DConcat(m, level.placement)
        }
        if let s = flattening?.sublayerTransformAboutAnchor { m = CATransform3DConcat(m, s) }
        return m
    }

    /// How far in front a point (x, y) of a plane placed by `m` is: z/w
    /// where it is seen (the eye looks down z from the front, as
    /// `zPosition` orders layers); −∞ at or behind the eye.
    static func depth(of point: CGPoint, through m: CATransform3D) -> Double {
        let x = Double(point.x), y = Double(point.y)
        let z = x * Double(m.m13) + y * Double(m.m23) + Double(m.m43)
        let w = x * Double(m.m14) + y * Double(m.m24) + Double(m.m44)
        return w > 0 ? z / w : -.infinity
    }
}
