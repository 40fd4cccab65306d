/// The shadow of what a layer draws, when it has no `shadowPath`.
///
/// Core Animation casts such a shadow from the layer's composited alpha:
/// its background, border, contents and sublayers as one group. Here that
/// group is drawn (without the shadow, the mask or the layer's opacity)
/// into a buffer, its alpha is blurred by the same Gaussian as every
/// shadow, moved by the offset, tinted with `shadowColor` × `shadowOpacity`
/// and drawn beneath the layer.
///
/// Most shadows are of an opaque rounded background with everything else
/// inside it (a card and its contents): the group's alpha is then exactly
/// the background's coverage, and the shadow is rasterized from that shape
/// once and kept (``ShadowMask``), as before. The general case is worked
/// out over the part of the shadow in sight (and the source pixels within
/// the blur's reach of it) and kept too, until anything in the group
/// changes (``RenderLayer/clearChanges()``); such a change damages the
/// shadow's pixels as well (``CommittedLayerTree``).
extension RenderLayer {
    /// Whether the layer's shadow (without a path) is exactly the shadow of
    /// its background's rounded shape: the background is opaque, and the
    /// contents and sublayers are clipped to it (`masksToBounds`) or lie on
    /// pixels it covers whole, so that they add no alpha. Only for bounds
    /// that are scaled alike on both axes and not turned; anything else
    /// takes the general path, which gives the same picture, more slowly.
    var castsBackgroundShadow: Bool {
        guard let background, background.pixel >> 24 == 255 else { return false }
        if masksToBounds { return true }
        if contents != nil && !backgroundInteriorContains(contentsPixelRect) { return false }
        for child in children where !backgroundInteriorContains(pixelsDrawn(by: child)) { return false }
        return true
    }

    /// The shadow's pixels that change when the group's pixels in `rect`
    /// change: `rect` moved by the offset, grown by the blur's reach.
    func groupShadowDamage(for rect: PixelRect) -> PixelRect {
        guard let shadow, !rect.isEmpty else { return .empty }
        let offset = shadow.offsetInDevice(toDevice)
        let reach = min(shadow.blurExtent(toDevice), CGFloat(PixelRect.coordinateLimit / 4)) + 1
        return PixelRect(covering: rect.cgRect.offsetBy(dx: offset.width, dy: offset.height).insetBy(dx: -reach, dy: -reach))
    }

    /// The pixels `child` may touch: its subtree's rectangle, or, for a leaf
    /// that draws only within its bounds (a separator line), just the
    /// pixels its bounds cross, without the margin the subtree's rectangle
    /// keeps for edges off whole pixels.
    private func pixelsDrawn(by child: RenderLayer) -> PixelRect {
        guard !child.subtreeRect.isEmpty, child.children.isEmpty, child.shadow == nil, child.contents == nil, child.mask == nil
        else { return child.subtreeRect }
        return PixelRect(covering: child.bounds.applying(child.toDevice))
    }

    /// Whether every pixel of `rect` lies inside the background's rounded
    /// shape, so that the background covers it whole (its coverage is 1
    /// when the pixel's centre is half a pixel inside a straight edge, or
    /// 0.71 inside an arc: true when the pixel's square is inside). The
    /// shape is convex: the rectangle is inside when its corners are.
    private func backgroundInteriorContains(_ rect: PixelRect) -> Bool {
        guard !rect.isEmpty else { return true }
        let t = toDevice
        guard t.b == 0, t.c == 0, t.a > 0, t.a == t.d else { return false }
        let box = bounds.applying(t).standardized
        let limit = min(box.width, box.height) / 2
        let r = min(cornerRadius * t.a, limit)
        func radius(_ corner: CACornerMask) -> CGFloat { maskedCorners.contains(corner) ? r : 0 }
        func inside(_ x: CGFloat, _ y: CGFloat, _ corner: CACornerMask, _ cx: CGFloat, _ cy: CGFloat) -> Bool {
            let rc = radius(corner)
            let centreX = cx < 0 ? box.minX + rc : box.maxX - rc
            let centreY = cy < 0 ? box.minY + rc : box.maxY - rc
            guard x >= box.minX, x <= box.maxX, y >= box.minY, y <= box.maxY else { return false }
            let beyondX = cx < 0 ? x < centreX : x > centreX
            let beyondY = cy < 0 ? y < centreY : y > centreY
            guard beyondX && beyondY && rc > 0 else { return true }
            let dx = x - centreX, dy = y - centreY
            return (dx * dx + dy * dy).squareRoot() <= rc
        }
        let x0 = CGFloat(rect.x0), y0 = CGFloat(rect.y0), x1 = CGFloat(rect.x1), y1 = CGFloat(rect.y1)
        return inside(x0, y0, .layerMinXMinYCorner, -1, -1) && inside(x1, y0, .layerMaxXMinYCorner, 1, -1)
            && inside(x0, y1, .layerMinXMaxYCorner, -1, 1) && inside(x1, y1, .layerMaxXMaxYCorner, 1, 1)
    }
}

extension Compositor {
    /// The shadow of `node`'s group (see the top of this file) over the
    /// part of it that lies in `visible`: the group's alpha over the pixels
    /// the blur can carry there, blurred, moved by the offset (a fraction
    /// of a pixel by linear interpolation). Nil when it covers no pixel.
    func makeGroupShadow(_ style: ShadowStyle, of node: RenderLayer, visible: PixelRect) -> ShadowMask? {
        let area = visible.intersection(style.pixelRect(of: node))
        let groupRect = node.groupPixelRect
        guard !area.isEmpty, !groupRect.isEmpty else { return nil }
        let t = node.toDevice
        let offset = style.offsetInDevice(t)
        let whole = (x: Int(offset.width.rounded(.down)), y: Int(offset.height.rounded(.down)))
        let fraction = (x: Float(offset.width) - Float(whole.x), y: Float(offset.height) - Float(whole.y))
        // Three box blurs matching the Gaussian reach no further than 3σ.
        let reach = Int(min(style.blurExtent(t), CGFloat(PixelRect.coordinateLimit / 4)))
        // The blurred alpha at q shows at q + offset; interpolation reads q and the pixel before it.
        let needed = PixelRect(x0: area.x0 - whole.x - 1, y0: area.y0 - whole.y - 1, x1: area.x1 - whole.x, y1: area.y1 - whole.y)
        let extent = needed.insetBy(-reach).intersection(groupRect.insetBy(-reach))
        guard !extent.isEmpty, extent.width <= ShadowMask.maximumPixels / extent.height else { return nil }
        let source = extent.intersection(groupRect)
        guard !source.isEmpty else { return nil }

        var alpha = [UInt8](repeating: 0, count: extent.area)
        let (group, buffer) = scratch.surface(covering: source)
        withoutOccluders { drawGroup(of: node, into: group, clip: source, opacity: 1) }
        for y in source.y0..<source.y1 {
            let row = group.row(y), base = (y - extent.y0) * extent.width - extent.x0
            for x in source.x0..<source.x1 { alpha[base + x] = UInt8(row[x] >> 24) }
        }
        scratch.recycle(buffer)
        alpha.withUnsafeMutableBufferPointer { pixels in
            GaussianBlur.apply(to: pixels, width: extent.width, height: extent.height, sigma: Double(style.sigma(t)))
        }

        func blurred(_ x: Int, _ y: Int) -> Float {
            guard x >= extent.x0, x < extent.x1, y >= extent.y0, y < extent.y1 else { return 0 }
            return Float(alpha[(y - extent.y0) * extent.width + (x - extent.x0)])
        }
        var coverage = [UInt8](repeating: 0, count: area.area)
        let exact = fraction.x == 0 && fraction.y == 0
        for y in area.y0..<area.y1 {
            let qy = y - whole.y, base = (y - area.y0) * area.width - area.x0
            for x in area.x0..<area.x1 {
                let qx = x - whole.x
                let value = exact ? blurred(qx, qy)
                    : (1 - fraction.x) * (1 - fraction.y) * blurred(qx, qy) + fraction.x * (1 - fraction.y) * blurred(qx - 1, qy)
                        + (1 - fraction.x) * fraction.y * blurred(qx, qy - 1) + fraction.x * fraction.y * blurred(qx - 1, qy - 1)
                coverage[base + x] = UInt8(min(255, value + 0.5))
            }
        }
        return ShadowMask(style: style, toDevice: t, visible: visible, extent: area, coverage: coverage, castByGroup: true)
    }
}
