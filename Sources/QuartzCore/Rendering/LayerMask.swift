/// A layer's `mask`: another layer tree whose alpha multiplies the layer.
///
/// The mask is committed with the layer it masks, as a ``RenderLayer``
/// tree of its own hanging off the masked node (``RenderLayer/mask``, no
/// parent), placed in the masked layer's bounds space. It is drawn as a
/// layer tree like any other, into a buffer of its own, and only its alpha
/// is used: the masked layer (its shadow, background, contents, sublayers
/// and border, clipped by `masksToBounds` first) is drawn into a group
/// buffer, and each pixel of the group is composited scaled by the mask's
/// alpha there.
///
/// The shadow is masked too. Core Animation's documentation says only that
/// the mask's alpha decides how much of the layer's "content and
/// background" shows; applications meet a layer whose `mask` is set losing
/// the shadow outside the mask's shape (the usual way out is a container
/// view that casts the shadow, with the masked view inside it), so the
/// mask applies to everything the layer draws, shadow included.
///
/// Damage: any change to the mask, or anywhere in its tree, is a change of
/// the masked layer's group, which draws the masked layer's whole subtree
/// again where it was and where it is.
extension RenderLayer {
    /// Brings ``mask`` up to date with `layer`'s mask; a new mask, none any
    /// more, or a change in the mask's tree marks this layer's group changed.
    func syncMask(with layer: CALayer) {
        // A transform layer ignores its mask (Apple's `CATransformLayer` page).
        guard !layer.isTransformLayer, let maskLayer = layer.mask else {
            if mask != nil {
                mask = nil
                changes.insert(.group)
            }
            return
        }
        if let node = mask, maskLayer.committedNode === node {
            guard !maskLayer.pendingChanges.isEmpty || maskLayer.descendantHasChanges else { return }
            node.sync(with: maskLayer)
        } else {
            mask = RenderLayer.snapshot(of: maskLayer, attach: true)
        }
        changes.insert(.group)
    }

    /// Places the mask's tree in this layer's bounds space, as a sublayer
    /// would be (the sublayer transform does not apply to it).
    func updateMaskGeometry() {
        guard let mask else { return }
        mask.updateSubtreeGeometry(mask.toSuperlayer.concatenating(toDevice))
        mask.clearChanges()
    }
}

extension Compositor {
    /// Draws `node` through `mask`: the layer with its shadow into a group
    /// buffer, the mask's tree into another, then the group scaled by the
    /// mask's alpha over `surface`. Only where the mask can have alpha
    /// (``RenderLayer/subtreeRect`` is already cut to it) is drawn.
    func drawMasked(_ node: RenderLayer, by mask: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        let region = node.planeSubtreeRect.intersection(clip)
        guard !region.isEmpty else { return }
        let (group, groupBuffer) = scratch.surface(covering: region)
        defer { scratch.recycle(groupBuffer) }
        if let shadow = node.shadow { drawShadow(shadow, of: node, into: group, clip: region) }
        drawGroup(of: node, into: group, clip: region, opacity: node.opacity)
        let (alpha, alphaBuffer) = scratch.surface(covering: region)
        defer { scratch.recycle(alphaBuffer) }
        withoutOccluders { draw(mask, into: alpha, clip: region) }
        for y in region.y0..<region.y1 {
            let row = surface.row(y), source = group.row(y), coverage = alpha.row(y)
            for x in region.x0..<region.x1 {
                let s = source[x], m = coverage[x] >> 24
                guard s != 0, m != 0 else { continue }
                row[x] = PixelOps.over(m == 255 ? s : PixelOps.scale(s, by: m), row[x])
            }
        }
    }
}
