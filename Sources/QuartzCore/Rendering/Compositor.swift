/// Draws committed layer trees into pixels, layer by layer, back to front,
/// within a clip rectangle (the damaged part of the frame).
///
/// For each layer: its shadow, then — as one group when the layer's
/// opacity or rounded mask must apply to everything together — its
/// background, its sublayers in z order, and its border on top. A group is
/// drawn into an offscreen buffer covering only the clip, then composited
/// with the layer's opacity through its mask. Everything else is drawn
/// straight into the frame: a layer without sublayers folds its opacity
/// into its colours, and an axis-aligned, square-cornered mask on whole
/// pixels is a smaller clip rectangle.
@MainActor
package final class Compositor {
    private let scratch = ScratchBuffers()

    package init() {}

    /// Draws `node` and its subtree into `surface`, within `clip`.
    func draw(_ node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        guard !node.isHidden, node.opacity > 0 else { return }
        let clip = clip.intersection(surface.extent)
        guard node.subtreeRect.intersects(clip) else { return }
        if let shadow = node.shadow { drawShadow(shadow, of: node, into: surface, clip: clip) }

        let ownParts = (node.background != nil ? 1 : 0) + (node.hasBorder ? 1 : 0) + (node.contents != nil ? 1 : 0)
        let maskClip = node.masksToBounds ? node.pixelAlignedMask : nil
        let needsGroup = (node.opacity < 1 && (!node.children.isEmpty || ownParts > 1))
            || (node.masksToBounds && (!node.children.isEmpty || node.contents != nil) && maskClip == nil)
        guard needsGroup else {
            drawContent(of: node, into: surface, clip: clip, childClip: maskClip.map { clip.intersection($0) } ?? clip, alpha: node.opacity)
            return
        }
        var region = node.boundsPixelRect
        if !node.masksToBounds { for child in node.children { region = region.union(child.subtreeRect) } }
        region = region.intersection(clip)
        guard !region.isEmpty else { return }
        let (group, buffer) = scratch.surface(covering: region)
        defer { scratch.recycle(buffer) }
        drawContent(of: node, into: group, clip: region, childClip: region, alpha: 1)
        var painter = SurfacePainter(surface: surface, source: group, alpha: PixelOps.alpha(node.opacity))
        if node.masksToBounds {
            if let mask = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) {
                mask.fill(within: region, toDevice: node.toDevice, painter: &painter)
            }
        } else {
            for y in region.y0..<region.y1 { painter.fill(y: y, from: region.x0, to: region.x1) }
        }
    }

    private func drawContent(of node: RenderLayer, into surface: PixelSurface, clip: PixelRect, childClip: PixelRect, alpha: Float) {
        let alpha8 = PixelOps.alpha(alpha)
        if let background = node.background,
           let filler = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) {
            var painter = SolidPainter(surface: surface, color: PixelOps.scale(background.pixel, by: alpha8))
            filler.fill(within: clip, toDevice: node.toDevice, painter: &painter)
        }
        if let image = node.contents, let rect = node.contentsPlacement, !childClip.isEmpty {
            drawContents(image, in: rect, of: node, into: surface, clip: childClip, alpha: alpha)
        }
        if !childClip.isEmpty {
            for child in node.children { draw(child, into: surface, clip: childClip) }
        }
        if node.hasBorder, let border = node.border {
            let outer = node.roundedBounds
            if let filler = ShapeFiller(shape: outer, hole: outer.inset(by: Double(node.borderWidth)), toDevice: node.toDevice) {
                var painter = SolidPainter(surface: surface, color: PixelOps.scale(border.pixel, by: alpha8))
                filler.fill(within: clip, toDevice: node.toDevice, painter: &painter)
            }
        }
    }

    private let sampleScratch = UnsafeMutablePointer<UInt32>.allocate(capacity: ImagePainter.chunk)

    isolated deinit { sampleScratch.deallocate() }

    /// The contents image in `rect` (layer coordinates), filtered bilinearly
    /// unless the layer maps it onto whole pixels one to one.
    private func drawContents(_ image: CGImage, in rect: CGRect, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect, alpha: Float) {
        let transform = node.contentsToDevice(image, in: rect)
        guard let filler = ShapeFiller(shape: RoundedRectShape(rect: rect, radius: 0, corners: []), toDevice: node.toDevice),
              let sampler = ImageSampler(source: image.pixels, transform: transform, alpha: CGFloat(alpha), nearest: !image.shouldInterpolate, targetFormat: .rgba)
        else { return }
        withExtendedLifetime(image) {
            var painter = ImagePainter(surface: surface, sampler: sampler, scratch: sampleScratch)
            filler.fill(within: clip, toDevice: node.toDevice, painter: &painter)
        }
    }

    private func drawShadow(_ style: ShadowStyle, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        let cache = node.shadowCache
        if cache == nil || cache?.style != style || cache?.toDevice != node.toDevice || cache?.visible != surface.extent {
            node.shadowCache = ShadowMask.make(style: style, shape: node.roundedBounds, toDevice: node.toDevice, visible: surface.extent)
        }
        node.shadowCache?.draw(into: surface, clip: clip, opacity: node.opacity)
    }
}

extension RenderLayer {
    var hasBorder: Bool { borderWidth > 0 && border != nil }

    var roundedBounds: RoundedRectShape {
        RoundedRectShape(rect: bounds, radius: cornerRadius, corners: maskedCorners)
    }

    /// The device pixels of the bounds when masking to them is clipping to
    /// a rectangle: whole pixels, no rotation, no rounded corner.
    var pixelAlignedMask: PixelRect? {
        if cornerRadius > 0 && !maskedCorners.isEmpty { return nil }
        return pixelAlignedBounds
    }
}
