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
/// pixels is a smaller clip rectangle. Pixels that a later opaque layer
/// will cover are left out (Occlusion.swift). A layer with a `mask` layer
/// is drawn, shadow and all, into a buffer and composited through the
/// mask's alpha (LayerMask.swift); a shadow without a path is cast by the
/// layer's group (ContentShadow.swift).
@MainActor
package final class Compositor {
    let scratch = ScratchBuffers()
    /// The occluders of the layers being drawn, a stack: each layer's list
    /// is `occluders[activeOccluders...]`, what its ancestors' lists and its
    /// later siblings hide of it.
    @exclusivity(unchecked) var occluders: [PixelRect] = []
    @exclusivity(unchecked) private var activeOccluders = 0
    /// For each level being drawn, its sublayers that occlude something
    /// (their index and rectangle), a stack as well.
    @exclusivity(unchecked) private var siblingOccluders: [(index: Int, rect: PixelRect)] = []
    /// What the rows of a layer turned about a vertical line share, column
    /// by column (Projection.swift); kept from frame to frame for its storage.
    @exclusivity(unchecked) var projectedColumns: [ProjectedColumn] = []

    /// Whether pixels a later opaque layer covers are left out (always,
    /// but in tests that check it changes no pixel).
    package var leavesOutOccludedPixels = true
    /// Whether a group of rectangles of one colour skips its buffer
    /// between its corners (always, but in tests that check it changes no
    /// pixel; FlatGroup.swift).
    package var flattensGroups = true
    /// Whether a contents image is sampled only around its ink, where its
    /// samples can be other than transparent (always, but in tests that
    /// check it changes no pixel; ``inkedPart(of:through:within:)``).
    package var clipsImagesToInk = true
    /// Whether a layer turned about a vertical line (a flip from the left
    /// or right) works out each column's share of the mapping once for all
    /// its rows, and one turned about a horizontal line each row's once for
    /// all its pixels (always, but in tests that check it changes no pixel;
    /// Projection.swift).
    package var sharesProjectedAxes = true

    package init() {}

    /// Draws `node` and its subtree into `surface`, within `clip`.
    func draw(_ node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        guard !node.isHidden, node.opacity > 0 else { return }
        let clip = clip.intersection(surface.extent)
        guard node.subtreeRect.intersects(clip) else { return }
        if let projection = node.projection { return drawProjected(node, projection, into: surface, clip: clip) }
        drawInPlane(node, into: surface, clip: clip)
    }

    /// Draws `node` in its own plane (before any projection): through its
    /// mask, or its shadow then its group.
    @inline(__always)
    func drawInPlane(_ node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        if let mask = node.mask { return drawMasked(node, by: mask, into: surface, clip: clip) }
        if let shadow = node.shadow { drawShadow(shadow, of: node, into: surface, clip: clip) }
        drawGroup(of: node, into: surface, clip: clip, opacity: node.opacity)
    }

    /// Draws the layer's background, contents, sublayers and border (not
    /// its shadow, nor through its mask) with `opacity` for the layer's.
    func drawGroup(of node: RenderLayer, into surface: PixelSurface, clip: PixelRect, opacity: Float) {
        // A background and border alone are drawn together in one pass, as a group would.
        let ownParts = node.drawsBorderedBackground ? 1
            : (node.background != nil ? 1 : 0) + (node.gradient != nil ? 1 : 0) + (node.hasBorder ? 1 : 0) + (node.contents != nil ? 1 : 0)
                + (node.shape?.partCount ?? 0)
        let maskClip = node.masksToBounds ? node.pixelAlignedMask : nil
        let needsGroup = (opacity < 1 && (!node.children.isEmpty || ownParts > 1))
            || (node.masksToBounds && (!node.children.isEmpty || node.contents != nil) && maskClip == nil)
        guard needsGroup else {
            drawContent(of: node, into: surface, clip: clip, childClip: maskClip.map { clip.intersection($0) } ?? clip, alpha: opacity)
            return
        }
        var region = node.boundsPixelRect
        if !node.masksToBounds {
            region = region.union(node.shapePixelRect)
            for child in node.children { region = region.union(child.subtreeRect) }
        }
        region = region.intersection(clip)
        guard !region.isEmpty else { return }
        if flattensGroups, opacity == 1, let inside = node.opaqueClipInterior?.intersection(region), !inside.isEmpty {
            // A layer that clips to bounds between pixels or with rounded
            // corners (a clipping view sliding, a sheet's card, a presenter
            // scaled back) over an opaque ground: there the buffer would
            // hold that ground and what is drawn over it, composited
            // opaque, so it is drawn straight there; only the pixels along
            // the edges and through the corners go through the buffer.
            drawContent(of: node, into: surface, clip: inside, childClip: inside, alpha: 1)
            let strips = [
                PixelRect(x0: region.x0, y0: region.y0, x1: region.x1, y1: inside.y0),
                PixelRect(x0: region.x0, y0: inside.y1, x1: region.x1, y1: region.y1),
                PixelRect(x0: region.x0, y0: inside.y0, x1: inside.x0, y1: inside.y1),
                PixelRect(x0: inside.x1, y0: inside.y0, x1: region.x1, y1: inside.y1),
            ]
            for strip in strips where !strip.isEmpty { drawThroughBuffer(node, into: surface, region: strip, opacity: 1) }
            return
        }
        if flattensGroups, let flat = node.flatGroup {
            // Only the rows through the corners need the buffer (FlatGroup.swift).
            let band = flat.band.intersection(region)
            guard !band.isEmpty else { return drawThroughBuffer(node, into: surface, region: region, opacity: opacity) }
            drawThroughBuffer(node, into: surface, region: PixelRect(x0: region.x0, y0: region.y0, x1: region.x1, y1: band.y0), opacity: opacity)
            drawFlat(node, flat, into: surface, band: band, opacity: opacity)
            drawThroughBuffer(node, into: surface, region: PixelRect(x0: region.x0, y0: band.y1, x1: region.x1, y1: region.y1), opacity: opacity)
            return
        }
        drawThroughBuffer(node, into: surface, region: region, opacity: opacity)
    }

    /// The group within `region`: drawn into a buffer, then composited with
    /// `opacity` through the layer's mask.
    private func drawThroughBuffer(_ node: RenderLayer, into surface: PixelSurface, region: PixelRect, opacity: Float) {
        guard !region.isEmpty else { return }
        // The background, drawn first, replaces what the buffer held where
        // it is opaque: only the rest is cleared.
        let (group, buffer) = scratch.surface(covering: region, overwritten: node.opaqueBackgroundRect)
        defer { scratch.recycle(buffer) }
        drawContent(of: node, into: group, clip: region, childClip: region, alpha: 1)
        var painter = SurfacePainter(surface: surface, source: group, alpha: PixelOps.alpha(opacity))
        let shape = node.masksToBounds ? node.roundedBounds : RoundedRectShape(rect: region.cgRect, radius: 0, corners: [])
        let toDevice = node.masksToBounds ? node.toDevice : .identity
        if let mask = ShapeFiller(shape: shape, toDevice: toDevice) {
            paint(mask, within: region, toDevice: toDevice, painter: &painter)
        }
    }

    /// Covers `filler`'s shape with `painter`, leaving out the active occluders.
    @inline(__always)
    func paint<Painter: SpanPainter>(_ filler: ShapeFiller, within clip: PixelRect, toDevice: CGAffineTransform, painter: inout Painter) {
        guard activeOccluders < occluders.count else {
            filler.fill(within: clip, toDevice: toDevice, painter: &painter)
            return
        }
        let count = occluders.count - activeOccluders
        if occluderScratch.count < 2 * count {
            occluderScratch.deallocate()
            occluderScratch = .allocate(capacity: max(2 * count, 2 * occluderScratch.count))
        }
        let sorted = UnsafeMutableBufferPointer(rebasing: occluderScratch[0..<count])
        let active = UnsafeMutableBufferPointer(rebasing: occluderScratch[count..<(2 * count)])
        for i in 0..<count { sorted[i] = occluders[activeOccluders + i] }
        sortByTopEdge(sorted, using: active)
        var occluded = OccludedPainter(base: painter, sorted: sorted, active: active)
        filler.fill(within: clip, toDevice: toDevice, painter: &occluded)
        painter = occluded.base
    }

    /// Runs `body` with none of the occluders of the layers being drawn in
    /// force, for pictures that are not the frame's pixels (a mask, the
    /// source of a shadow): those must be whole.
    func withoutOccluders(_ body: () -> Void) {
        let saved = activeOccluders
        activeOccluders = occluders.count
        body()
        activeOccluders = saved
    }

    /// Sorts `rects` by `y0`, a bottom-up merge through `spare` (as many
    /// rectangles): the standard library's sort would allocate its runs on
    /// the heap, a few times every frame.
    private func sortByTopEdge(_ rects: UnsafeMutableBufferPointer<PixelRect>, using spare: UnsafeMutableBufferPointer<PixelRect>) {
        let count = rects.count
        var from = rects, to = spare
        var width = 1
        while width < count {
            var start = 0
            while start < count {
                let middle = min(start + width, count), end = min(start + 2 * width, count)
                var i = start, j = middle, k = start
                while i < middle && j < end {
                    if from[j].y0 < from[i].y0 { to[k] = from[j]; j += 1 } else { to[k] = from[i]; i += 1 }
                    k += 1
                }
                while i < middle { to[k] = from[i]; i += 1; k += 1 }
                while j < end { to[k] = from[j]; j += 1; k += 1 }
                start = end
            }
            swap(&from, &to)
            width *= 2
        }
        if from.baseAddress != rects.baseAddress {
            for i in 0..<count { rects[i] = from[i] }
        }
    }

    /// Room for the occluders of one paint, sorted, and for those of its current row.
    private var occluderScratch = UnsafeMutableBufferPointer<PixelRect>.allocate(capacity: 64)

    /// Draws the sublayers, each without what its later siblings (and the
    /// ancestors' occluders) hide; one hidden entirely is not visited.
    private func drawChildren(of node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        let children = node.children
        guard leavesOutOccludedPixels else {
            for child in children { draw(child, into: surface, clip: clip) }
            return
        }
        let inherited = activeOccluders, inheritedEnd = occluders.count
        // The sublayers that occlude anything here, once, rather than every
        // later sibling for each sublayer (a list's rows are many).
        let siblingsStart = siblingOccluders.count
        for j in children.indices {
            let r = children[j].occludingRect.intersection(clip)
            if !r.isEmpty { siblingOccluders.append((j, r)) }
        }
        defer {
            activeOccluders = inherited
            siblingOccluders.removeSubrange(siblingsStart...)
        }
        var nextSibling = siblingsStart
        for k in children.indices {
            let child = children[k]
            let area = child.subtreeRect.intersection(clip)
            guard !area.isEmpty else { continue }
            activeOccluders = occluders.count
            var hidden = false
            for i in inherited..<inheritedEnd {
                let r = occluders[i].intersection(area)
                if r == area { hidden = true; break }
                if !r.isEmpty { occluders.append(r) }
            }
            while nextSibling < siblingOccluders.count && siblingOccluders[nextSibling].index <= k { nextSibling += 1 }
            if !hidden {
                for j in nextSibling..<siblingOccluders.count {
                    let r = siblingOccluders[j].rect.intersection(area)
                    if r == area { hidden = true; break }
                    if !r.isEmpty { occluders.append(r) }
                }
            }
            if !hidden { draw(child, into: surface, clip: clip) }
            occluders.removeSubrange(inheritedEnd...)
        }
    }

    private func drawContent(of node: RenderLayer, into surface: PixelSurface, clip: PixelRect, childClip: PixelRect, alpha: Float) {
        let alpha8 = PixelOps.alpha(alpha)
        if node.drawsBorderedBackground, let background = node.background, let border = node.border {
            let outer = node.roundedBounds
            if let filler = ShapeFiller(shape: outer, hole: outer.inset(by: Double(node.borderWidth)), toDevice: node.toDevice) {
                var painter = BorderedBackgroundPainter(surface: surface, background: background.pixel, border: border.pixel, alpha: alpha8)
                paint(filler, within: clip, toDevice: node.toDevice, painter: &painter)
            }
            return
        }
        // The background lies under the sublayers: not where an opaque one will be.
        let ownOccluders = occluders.count
        if leavesOutOccludedPixels && !childClip.isEmpty {
            for child in node.children {
                let r = child.occludingRect.intersection(childClip)
                if !r.isEmpty { occluders.append(r) }
            }
        }
        if let background = node.background,
           let filler = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) {
            var painter = SolidPainter(surface: surface, color: PixelOps.scale(background.pixel, by: alpha8))
            paint(filler, within: clip, toDevice: node.toDevice, painter: &painter)
        }
        occluders.removeSubrange(ownOccluders...)
        if let gradient = node.gradient,
           let filler = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) {
            var painter = GradientPainter(surface: surface, style: gradient, bounds: node.bounds, toDevice: node.toDevice, alpha: alpha8)
            paint(filler, within: clip, toDevice: node.toDevice, painter: &painter)
        }
        if let shape = node.shape {
            drawShape(shape, into: surface, area: node.shapePixelRect, clip: node.masksToBounds ? childClip : clip, toDevice: node.toDevice, alpha: alpha)
        }
        if let image = node.contents, let rect = node.contentsPlacement, !childClip.isEmpty {
            drawContents(image, in: rect, of: node, into: surface, clip: childClip, alpha: alpha)
        }
        if !childClip.isEmpty && !node.children.isEmpty {
            drawChildren(of: node, into: surface, clip: childClip)
        }
        if node.hasBorder, let border = node.border {
            let outer = node.roundedBounds
            if let filler = ShapeFiller(shape: outer, hole: outer.inset(by: Double(node.borderWidth)), toDevice: node.toDevice) {
                var painter = SolidPainter(surface: surface, color: PixelOps.scale(border.pixel, by: alpha8))
                paint(filler, within: clip, toDevice: node.toDevice, painter: &painter)
            }
        }
    }

    private let sampleScratch = UnsafeMutablePointer<UInt32>.allocate(capacity: ImagePainter.chunk)

    isolated deinit {
        sampleScratch.deallocate()
        occluderScratch.deallocate()
    }

    /// The contents image in `rect` (layer coordinates), filtered bilinearly
    /// unless the layer maps it onto whole pixels one to one.
    private func drawContents(_ image: CGImage, in rect: CGRect, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect, alpha: Float) {
        let transform = node.contentsToDevice(image, in: rect)
        let clip = clipsImagesToInk ? Self.inkedPart(of: image, through: transform, within: clip) : clip
        guard !clip.isEmpty, let filler = ShapeFiller(shape: RoundedRectShape(rect: rect, radius: 0, corners: []), toDevice: node.toDevice),
              let sampler = ImageSampler(source: image.pixels, transform: transform, alpha: CGFloat(alpha), nearest: !image.shouldInterpolate, targetFormat: .rgba)
        else { return }
        withExtendedLifetime(image) {
            var painter = ImagePainter(surface: surface, sampler: sampler, scratch: sampleScratch)
            paint(filler, within: clip, toDevice: node.toDevice, painter: &painter)
        }
    }

    /// The part of `clip` where `image`, drawn through `transform` (its
    /// pixels to the frame's), can give anything but transparent samples:
    /// around its ink (`CGImage.inkBounds`) when the transform neither
    /// turns nor shears, else all of `clip`. A label's text image is
    /// mostly transparent: sampling its whole bounds between pixels, as it
    /// slides with a screen, was most of a navigation push's time.
    ///
    /// Exact: a sample (bilinear, or the nearest pixel) at a source point
    /// more than half a source pixel outside the ink mixes only transparent
    /// pixels, and a transparent sample changes no pixel. Beyond an edge
    /// of the image its edge pixels repeat, so ink touching an edge leaves
    /// that side unbounded. A pixel more on each side absorbs the rounding
    /// of the sampler's inverse transform.
    static func inkedPart(of image: CGImage, through transform: CGAffineTransform, within clip: PixelRect) -> PixelRect {
        guard transform.b == 0, transform.c == 0, transform.a != 0, transform.d != 0,
              transform.a.isFinite, transform.d.isFinite, transform.tx.isFinite, transform.ty.isFinite else { return clip }
        let ink = image.inkBounds
        guard !ink.isEmpty else { return .empty }
        func reach(from low: Int, to high: Int, size: Int, scale: CGFloat, offset: CGFloat, within clipLow: Int, _ clipHigh: Int) -> (Int, Int) {
            let from = low == 0 ? -CGFloat.infinity : CGFloat(low) - 0.5
            let to = high == size ? CGFloat.infinity : CGFloat(high) + 0.5
            let ends = (from * scale + offset, to * scale + offset)
            let (first, last) = ends.0 <= ends.1 ? ends : (ends.1, ends.0)
            func clamped(_ v: CGFloat) -> Int { Int(min(max(v, CGFloat(clipLow)), CGFloat(clipHigh))) }
            return (clamped(first.rounded(.down) - 1), clamped(last.rounded(.up) + 1))
        }
        let (x0, x1) = reach(from: ink.x0, to: ink.x1, size: image.width, scale: transform.a, offset: transform.tx, within: clip.x0, clip.x1)
        let (y0, y1) = reach(from: ink.y0, to: ink.y1, size: image.height, scale: transform.d, offset: transform.ty, within: clip.y0, clip.y1)
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    func drawShadow(_ style: ShadowStyle, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        if node.masksToBounds { return drawShadowClippedToBounds(style, of: node, into: surface, clip: clip) }
        drawUnclippedShadow(style, of: node, into: surface, clip: clip)
    }

    private func drawUnclippedShadow(_ style: ShadowStyle, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        let castByGroup = style.path == nil && !node.castsBackgroundShadow
        if node.shadowCache?.matches(style, toDevice: node.toDevice, visible: surface.extent, castByGroup: castByGroup) != true {
            node.shadowCache = castByGroup
                ? makeGroupShadow(style, of: node, visible: surface.extent)
                : ShadowMask.make(style: style, shape: node.roundedBounds, toDevice: node.toDevice, visible: surface.extent)
        }
        node.shadowCache?.draw(into: surface, clip: clip, opacity: node.opacity)
    }

    /// `masksToBounds` clips the shadow too, as in Core Animation (which
    /// draws the layer whole, shadow included, then clips it): only the
    /// shadow's part inside the rounded bounds shows, under a translucent
    /// background. Drawn into a buffer, composited through the shape.
    private func drawShadowClippedToBounds(_ style: ShadowStyle, of node: RenderLayer, into surface: PixelSurface, clip: PixelRect) {
        let region = clip.intersection(node.boundsPixelRect)
        guard !region.isEmpty, let filler = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) else { return }
        let (shadow, buffer) = scratch.surface(covering: region)
        defer { scratch.recycle(buffer) }
        drawUnclippedShadow(style, of: node, into: shadow, clip: region)
        var painter = SurfacePainter(surface: surface, source: shadow, alpha: 255)
        filler.fill(within: region, toDevice: node.toDevice, painter: &painter)
    }
}

extension RenderLayer {
    var hasBorder: Bool { borderWidth > 0 && border != nil }

    /// Whether the layer's own background replaces every pixel of `rect`:
    /// opaque, square-cornered, on whole pixels, not faded.
    func opaquelyCovers(_ rect: PixelRect) -> Bool {
        guard !isHidden, opacity == 1, mask == nil, let background, background.pixel >> 24 == 255,
              let bounds = pixelAlignedMask else { return false }
        return bounds.intersection(rect) == rect
    }

    /// Only a background and a border: no contents or sublayers between them.
    var drawsBorderedBackground: Bool { background != nil && hasBorder && gradient == nil && shape == nil && contents == nil && children.isEmpty }

    var roundedBounds: RoundedRectShape {
        RoundedRectShape(rect: bounds, radius: cornerRadius, corners: maskedCorners)
    }

    /// For a layer that clips its sublayers to unturned bounds, square or
    /// rounded: the whole pixels inside its bounds, between its corners'
    /// rows, where something it draws first replaces every pixel opaquely
    /// — its own opaque background, or a sublayer's (that sublayer's
    /// occluding rectangle: a controller's view filling a sheet's card or a
    /// scaled-back presenter). There its group in a buffer, composited
    /// opaque at full coverage, gives what drawing it straight into the
    /// frame gives: from that opaque pixel on, the same blends over the
    /// same pixels. Nil where there are none.
    var opaqueClipInterior: PixelRect? {
        guard masksToBounds, mask == nil, var inside = wholePixelsInsideBounds else { return nil }
        var ground = opaqueBackgroundRect
        for child in children where child.occludingRect.area > ground.area { ground = child.occludingRect }
        guard !ground.isEmpty else { return nil }
        if cornerRadius > 0 && !maskedCorners.isEmpty {
            // The corners' arcs reach no further into the bounds than the radius.
            let inset = Int((Double(cornerRadius) * Double(toDevice.d)).rounded(.up))
            inside = PixelRect(x0: inside.x0, y0: inside.y0 + inset, x1: inside.x1, y1: inside.y1 - inset)
        }
        inside = inside.intersection(ground)
        return inside.isEmpty ? nil : inside
    }

    /// The device pixels of the bounds when masking to them is clipping to
    /// a rectangle: whole pixels, no rotation, no rounded corner.
    var pixelAlignedMask: PixelRect? {
        if cornerRadius > 0 && !maskedCorners.isEmpty { return nil }
        return pixelAlignedBounds
    }
}
