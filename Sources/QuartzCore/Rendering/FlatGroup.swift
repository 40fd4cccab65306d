/// Group opacity without a buffer, where the buffer would change nothing.
///
/// A faded layer that clips its sublayers is drawn as a group: into a
/// buffer, then composited with its opacity through its rounded bounds.
/// Between the rows of its corners, though, a group of opaque layers on
/// whole pixels (the layer's background, sublayers that are plain opaque
/// rectangles, a border of whole pixels) holds at each pixel exactly one
/// of them, whole: the buffer's pixel is that layer's colour, and
/// compositing it with opacity a gives what that colour scaled by a,
/// blended straight into the frame, gives, to the bit. So those rows are
/// drawn straight: each layer faded, only where no later one of the group
/// covers it (occluders, as in Occlusion.swift); the rows through the
/// corners still go through the buffer. A cards scene's faded, clipped
/// cards skip the buffer, its clearing and its reading for most of their
/// pixels.
struct FlatGroup {
    /// The layer's device pixels, but for the rows through its corners or
    /// along its border's top and bottom.
    let band: PixelRect
    /// The border's width in device pixels (0 without one).
    let border: Int
}

extension RenderLayer {
    /// The rows where this layer's group may be drawn without a buffer;
    /// nil unless the group is opaque layers on whole pixels that it clips.
    var flatGroup: FlatGroup? {
        guard masksToBounds, mask == nil, gradient == nil, contents == nil,
              let background, background.pixel >> 24 == 255,
              let bounds = pixelAlignedBounds else { return nil }
        var border = 0
        if hasBorder, let color = self.border {
            let across = Double(borderWidth) * Double(toDevice.a), down = Double(borderWidth) * Double(toDevice.d)
            guard color.pixel >> 24 == 255, across == down, across == across.rounded(), across < Double(bounds.width) else { return nil }
            border = Int(across)
        }
        for child in children where !child.isHidden && child.opacity > 0 {
            // A plain opaque rectangle on whole pixels, nothing in or on it.
            guard child.children.isEmpty, child.shadow == nil, child.contents == nil, child.gradient == nil,
                  !child.hasBorder, let childBounds = child.pixelAlignedBounds,
                  child.occludingRect == childBounds else { return nil }
        }
        let between = opaqueBackgroundRect
        let band = PixelRect(x0: bounds.x0, y0: max(between.y0, bounds.y0 + border),
                             x1: bounds.x1, y1: min(between.y1, bounds.y1 - border))
        return band.isEmpty ? nil : FlatGroup(band: band, border: border)
    }
}

extension Compositor {
    /// The rows `band` of `node`'s group, straight into `surface`: its
    /// background, its sublayers, its border's sides, each scaled by
    /// `opacity` and drawn where no later one of them is.
    func drawFlat(_ node: RenderLayer, _ flat: FlatGroup, into surface: PixelSurface, band: PixelRect, opacity: Float) {
        let alpha = PixelOps.alpha(opacity)
        let start = occluders.count
        defer { occluders.removeSubrange(start...) }
        let left = PixelRect(x0: flat.band.x0, y0: band.y0, x1: flat.band.x0 + flat.border, y1: band.y1).intersection(band)
        let right = PixelRect(x0: flat.band.x1 - flat.border, y0: band.y0, x1: flat.band.x1, y1: band.y1).intersection(band)
        if !left.isEmpty { occluders.append(left) }
        if !right.isEmpty { occluders.append(right) }
        // The sublayers' rectangles, last first: each is taken off the top
        // before its own layer is drawn, leaving those of the later ones.
        let children = node.children
        for child in children.reversed() where child.occludingRect.intersects(band) {
            occluders.append(child.occludingRect.intersection(band))
        }
        if let background = node.background {
            fill(node.roundedBounds, node.toDevice, color: PixelOps.scale(background.pixel, by: alpha), into: surface, within: band)
        }
        for child in children where child.occludingRect.intersects(band) {
            occluders.removeLast()
            if let background = child.background {
                fill(child.roundedBounds, child.toDevice, color: PixelOps.scale(background.pixel, by: alpha), into: surface, within: band)
            }
        }
        occluders.removeSubrange(start...)
        if let border = node.border, flat.border > 0 {
            let color = PixelOps.scale(border.pixel, by: alpha)
            if !left.isEmpty { fill(RoundedRectShape(rect: left.cgRect, radius: 0, corners: []), .identity, color: color, into: surface, within: band) }
            if !right.isEmpty { fill(RoundedRectShape(rect: right.cgRect, radius: 0, corners: []), .identity, color: color, into: surface, within: band) }
        }
    }

    private func fill(_ shape: RoundedRectShape, _ toDevice: CGAffineTransform, color: UInt32, into surface: PixelSurface, within band: PixelRect) {
        guard let filler = ShapeFiller(shape: shape, toDevice: toDevice) else { return }
        var painter = SolidPainter(surface: surface, color: color)
        paint(filler, within: band, toDevice: toDevice, painter: &painter)
    }
}
