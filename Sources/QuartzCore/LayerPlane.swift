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
enum LayerPlane {
    /// From the layer's coordinates (its bounds space) to its superlayer's.
    /// `sublayerTransform` is the superlayer's, or nil to leave it out.
    static func mapping(bounds: CGRect, anchorPoint: CGPoint, transform: CATransform3D, position: CGPoint, zPosition: CGFloat,
                        sublayerTransform: CATransform3D?, superlayerAnchor: CGPoint) -> Homography {
        let anchor = CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
        var m = CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), transform)
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(position.x, position.y, zPosition))
        if let sublayerTransform, !CATransform3DIsIdentity(sublayerTransform) {
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(-superlayerAnchor.x, -superlayerAnchor.y, 0))
            m = CATransform3DConcat(m, sublayerTransform)
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(superlayerAnchor.x, superlayerAnchor.y, 0))
        }
        return m.planeMapping
    }
}
