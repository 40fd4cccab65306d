/// A layer as it was committed: the copy the compositor draws from, so
/// that the application may go on changing its layers while a frame is
/// drawn. Made and updated only by ``CommittedLayerTree`` at commits (or
/// once, for `render(in:)`), never by the application.
@MainActor
package final class RenderLayer {
    // What the layer was at the commit.
    var bounds = CGRect.zero
    var position = CGPoint.zero
    var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    var transform = CGAffineTransform.identity
    var sublayerTransform = CGAffineTransform.identity
    var zPosition: CGFloat = 0
    var isHidden = false
    var opacity: Float = 1
    var masksToBounds = false
    var background: PremultipliedColor?
    var cornerRadius: CGFloat = 0
    var maskedCorners: CACornerMask = .all
    var borderWidth: CGFloat = 0
    var border: PremultipliedColor?
    var shadow: ShadowStyle?

    /// The sublayers in drawing order: by `zPosition`, then as listed.
    package private(set) var children: [RenderLayer] = []
    /// Not retained: a node's parent owns it.
    package private(set) unowned(unsafe) var parent: RenderLayer?

    // Worked out from the above and the ancestors, after each commit.
    /// From the layer's own coordinates (its bounds space) to the frame's pixels.
    package internal(set) var toDevice = CGAffineTransform.identity
    /// The pixels the layer itself may touch: background, border, shadow.
    package internal(set) var ownRect = PixelRect.empty
    /// The pixels the layer and everything below it may touch.
    package internal(set) var subtreeRect = PixelRect.empty

    /// Changes copied at this commit that the geometry pass has not seen yet.
    var changes: LayerChanges = []
    /// Some node below has changes the geometry pass has not seen yet.
    var descendantChanged = false
    /// New in the tree at this commit: it has no old rectangles to damage.
    var isNew = true
    /// Where removed children were, to be drawn again.
    var removedRects: [PixelRect] = []

    /// The shadow's blurred coverage, kept until the shadow or the layer's
    /// place changes.
    var shadowCache: ShadowMask?

    package init() {}

    /// Copies everything the compositor reads from `layer`.
    func copyProperties(from layer: CALayer) {
        bounds = layer.bounds
        position = layer.position
        anchorPoint = layer.anchorPoint
        transform = layer.affineTransform()
        sublayerTransform = CATransform3DGetAffineTransform(layer.sublayerTransform)
        zPosition = layer.zPosition
        isHidden = layer.isHidden
        opacity = min(1, max(0, layer.opacity))
        masksToBounds = layer.masksToBounds
        background = layer.backgroundColor.map(PremultipliedColor.init)
        cornerRadius = layer.cornerRadius
        maskedCorners = layer.maskedCorners
        borderWidth = layer.borderWidth
        border = layer.borderColor.map(PremultipliedColor.init)
        shadow = ShadowStyle(of: layer)
        if shadowCache != nil, shadowCache?.style != shadow { shadowCache = nil }
    }

    /// A copy of `layer` and its whole subtree, attached to `layer` as its
    /// committed node when `attach` is true.
    static func snapshot(of layer: CALayer, attach: Bool) -> RenderLayer {
        let node = RenderLayer()
        node.copyProperties(from: layer)
        node.children = (layer.sublayers ?? []).map { snapshot(of: $0, attach: attach) }
        for child in node.children { child.parent = node }
        node.sortChildrenByZ()
        if attach {
            layer.committedNode = node
            layer.pendingChanges = []
            layer.descendantHasChanges = false
        }
        return node
    }

    /// Brings this node up to date with `layer`, which has changes, or
    /// changes below it. Returns whether anything was copied.
    func sync(with layer: CALayer) {
        let layerChanges = layer.pendingChanges
        if !layerChanges.isEmpty {
            copyProperties(from: layer)
            changes.formUnion(layerChanges)
        }
        let sublayers = layer.sublayers ?? []
        if layerChanges.contains(.sublayers) {
            var kept: [RenderLayer] = []
            kept.reserveCapacity(sublayers.count)
            for sublayer in sublayers {
                if let node = sublayer.committedNode, node.parent === self {
                    if !sublayer.pendingChanges.isEmpty || sublayer.descendantHasChanges { node.sync(with: sublayer) }
                    kept.append(node)
                } else {
                    let node = RenderLayer.snapshot(of: sublayer, attach: true)
                    node.parent = self
                    kept.append(node)
                }
            }
            for old in children where !kept.contains(where: { $0 === old }) {
                if !old.isNew { removedRects.append(old.subtreeRect) }
                old.parent = nil
            }
            children = kept
            sortChildrenByZ()
        } else if layer.descendantHasChanges {
            for sublayer in sublayers where !sublayer.pendingChanges.isEmpty || sublayer.descendantHasChanges {
                guard let node = sublayer.committedNode, node.parent === self else { continue }
                node.sync(with: sublayer)
                descendantChanged = true
            }
        }
        layer.pendingChanges = []
        layer.descendantHasChanges = false
        if let parent { parent.descendantChanged = true }
    }

    private func sortChildrenByZ() {
        guard children.contains(where: { $0.zPosition != 0 }) else { return }
        children = children.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    // MARK: Geometry

    /// From this layer's coordinates to its superlayer's: about the anchor
    /// point, then to `position`.
    var toSuperlayer: CGAffineTransform {
        let anchor = CGPoint(
            x: bounds.minX + anchorPoint.x * bounds.width,
            y: bounds.minY + anchorPoint.y * bounds.height)
        return CGAffineTransform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(transform)
            .concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    }

    /// From a sublayer's superlayer space (this layer's coordinates) through
    /// the sublayer transform, which turns about this layer's anchor point.
    var sublayerSpaceToDevice: CGAffineTransform {
        guard !sublayerTransform.isIdentity else { return toDevice }
        let anchor = CGPoint(
            x: bounds.minX + anchorPoint.x * bounds.width,
            y: bounds.minY + anchorPoint.y * bounds.height)
        return CGAffineTransform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(sublayerTransform)
            .concatenating(CGAffineTransform(translationX: anchor.x, y: anchor.y))
            .concatenating(toDevice)
    }

    /// Whether the layer itself draws anything.
    var drawsItself: Bool {
        background != nil || (borderWidth > 0 && border != nil) || shadow != nil
    }

    /// The device pixels of the bounds, grown by one for anti-aliasing.
    var boundsPixelRect: PixelRect {
        PixelRect(covering: bounds.applying(toDevice).insetBy(dx: -1, dy: -1))
    }

    /// Works out ``toDevice``, ``ownRect`` and ``subtreeRect`` for this node
    /// and every node below it.
    func updateSubtreeGeometry(_ toDevice: CGAffineTransform) {
        self.toDevice = toDevice
        let childSpace = sublayerSpaceToDevice
        for child in children {
            child.updateSubtreeGeometry(child.toSuperlayer.concatenating(childSpace))
            child.clearChanges()
        }
        updateOwnRect()
        updateSubtreeRect()
    }

    func updateOwnRect() {
        guard !isHidden, opacity > 0 else { ownRect = .empty; return }
        var rect = PixelRect.empty
        if background != nil || (borderWidth > 0 && border != nil) { rect = boundsPixelRect }
        if let shadow { rect = rect.union(shadow.pixelRect(of: self)) }
        ownRect = rect
    }

    func updateSubtreeRect() {
        guard !isHidden, opacity > 0 else { subtreeRect = .empty; return }
        var content = PixelRect.empty
        if background != nil || (borderWidth > 0 && border != nil) { content = boundsPixelRect }
        for child in children { content = content.union(child.subtreeRect) }
        if masksToBounds { content = content.intersection(boundsPixelRect) }
        if let shadow { content = content.union(shadow.pixelRect(of: self)) }
        subtreeRect = content
    }

    func clearChanges() {
        changes = []
        descendantChanged = false
        isNew = false
        removedRects = []
    }
}

/// A colour as a premultiplied RGBA8 pixel, and as premultiplied floats.
package struct PremultipliedColor: Equatable, Sendable {
    /// Bytes R, G, B, A in memory order (little-endian: R in the low byte).
    package let pixel: UInt32
    package var alpha: UInt32 { pixel >> 24 }

    /// Components are clamped to 0…1; a component that is not a number counts as 0.
    package init(_ color: CGColor) {
        func clamp(_ v: CGFloat) -> Double { v.isNaN ? 0 : Double(min(1, max(0, v))) }
        let a = clamp(color.alpha)
        let r = UInt32((clamp(color.red) * a * 255).rounded())
        let g = UInt32((clamp(color.green) * a * 255).rounded())
        let b = UInt32((clamp(color.blue) * a * 255).rounded())
        pixel = r | g << 8 | b << 16 | UInt32((a * 255).rounded()) << 24
    }

    package init(pixel: UInt32) { self.pixel = pixel }
}

/// What a layer's shadow looks like; equal styles give equal shadows.
struct ShadowStyle: Equatable {
    var color: PremultipliedColor
    var opacity: Float
    var offset: CGSize
    var radius: CGFloat

    /// Nil when the layer casts no shadow (no colour, or opacity 0), or has
    /// nothing to cast one (no background).
    @MainActor init?(of layer: CALayer) {
        guard let color = layer.shadowColor, layer.shadowOpacity > 0, layer.backgroundColor != nil else { return nil }
        self.color = PremultipliedColor(color)
        opacity = min(1, layer.shadowOpacity)
        offset = layer.shadowOffset
        radius = layer.shadowRadius
    }

    /// The pixels the blurred shadow may touch.
    @MainActor func pixelRect(of node: RenderLayer) -> PixelRect {
        let t = node.toDevice
        let shape = node.bounds.applying(t)
        let deviceOffset = offsetInDevice(t)
        let spread = blurExtent(t)
        return PixelRect(covering: shape.offsetBy(dx: deviceOffset.width, dy: deviceOffset.height)
            .insetBy(dx: -spread - 1, dy: -spread - 1))
    }

    /// The offset in device pixels: the layer's scale applies, its rotation does not.
    func offsetInDevice(_ t: CGAffineTransform) -> CGSize {
        let scale = deviceScale(t)
        return CGSize(width: offset.width * scale, height: offset.height * scale)
    }

    /// The Gaussian's standard deviation in device pixels.
    func sigma(_ t: CGAffineTransform) -> CGFloat {
        radius * Self.sigmaPerRadius * deviceScale(t)
    }

    /// How far the blur reaches beyond the shape, in device pixels.
    func blurExtent(_ t: CGAffineTransform) -> CGFloat { (3 * sigma(t)).rounded(.up) }

    /// Core Animation does not document its blur. A shadow radius r is drawn
    /// here as a Gaussian of standard deviation r: design tools export a
    /// Core Animation shadow radius r as a blur of 2r, and a blur b is a
    /// Gaussian of deviation b/2 in CSS (chosen here, from those two).
    static let sigmaPerRadius: CGFloat = 1

    private func deviceScale(_ t: CGAffineTransform) -> CGFloat {
        (abs(t.a * t.d - t.b * t.c)).squareRoot()
    }
}
