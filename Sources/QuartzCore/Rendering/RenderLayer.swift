/// A layer as it was committed: the copy the compositor draws from, so
/// that the application may go on changing its layers while a frame is
/// drawn. Made and updated only by ``CommittedLayerTree`` at commits (or
/// once, for `render(in:)`), never by the application.
@MainActor
package final class RenderLayer {
    // Every stored property is read for each layer of each frame, only on
    // the main actor and never through overlapping inout accesses: dynamic
    // exclusivity checks would only cost time (the exclusivity pass of
    // scripts/test puts them back).

    // What the layer was at the commit.
    @exclusivity(unchecked) var bounds = CGRect.zero
    @exclusivity(unchecked) var position = CGPoint.zero
    @exclusivity(unchecked) var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// The affine part of the transform (all of it, for most layers).
    @exclusivity(unchecked) var transform = CGAffineTransform.identity
    /// The whole transform when it has depth (any term beyond the affine
    /// part); nil otherwise.
    @exclusivity(unchecked) var transform3D: CATransform3D?
    /// The sublayer transform when it is affine; the identity when it has
    /// depth (``sublayerTransform3D``), which each sublayer's placement in
    /// depth then goes through instead.
    @exclusivity(unchecked) var sublayerTransform = CGAffineTransform.identity
    /// The sublayer transform when it has depth; nil otherwise.
    @exclusivity(unchecked) var sublayerTransform3D: CATransform3D?
    @exclusivity(unchecked) var isDoubleSided = true
    /// A `CATransformLayer`: it draws nothing of its own and does not
    /// flatten its sublayers, which are placed in depth through it.
    @exclusivity(unchecked) var isTransformLayer = false
    /// The layer's own opacity, before the transform layers above it (which
    /// form no group) apply theirs: ``opacity`` is the product, drawn.
    @exclusivity(unchecked) private var ownOpacity: Float = 1
    /// The product of the opacities of the transform layers directly above.
    @exclusivity(unchecked) private var passedOverOpacity: Float = 1
    /// How far in front the layer's centre is in its superlayer's space
    /// (z/w), by which sublayers placed in depth are drawn back to front.
    @exclusivity(unchecked) private(set) var depth: Double = 0
    /// Some sublayer has a transform with depth: the sublayers are drawn in
    /// order of ``depth``.
    @exclusivity(unchecked) var hasChildrenInDepth = false
    @exclusivity(unchecked) var zPosition: CGFloat = 0
    @exclusivity(unchecked) var isHidden = false
    @exclusivity(unchecked) var opacity: Float = 1
    @exclusivity(unchecked) var masksToBounds = false
    @exclusivity(unchecked) var background: PremultipliedColor?
    @exclusivity(unchecked) var cornerRadius: CGFloat = 0
    @exclusivity(unchecked) var maskedCorners: CACornerMask = .all
    @exclusivity(unchecked) var borderWidth: CGFloat = 0
    @exclusivity(unchecked) var border: PremultipliedColor?
    @exclusivity(unchecked) var shadow: ShadowStyle?
    /// A gradient layer's gradient, drawn over the background.
    @exclusivity(unchecked) var gradient: GradientStyle?
    /// A shape layer's path and how it is filled and stroked, drawn over
    /// the background (and a gradient) and under the contents.
    @exclusivity(unchecked) var shape: ShapeLayerStyle?
    /// The contents image; immutable, so sharing it is a snapshot.
    @exclusivity(unchecked) var contents: CGImage?
    @exclusivity(unchecked) var contentsGravity: CALayerContentsGravity = .resize
    @exclusivity(unchecked) var contentsScale: CGFloat = 1
    @exclusivity(unchecked) var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// The mask's committed copy (LayerMask.swift); it has no parent.
    @exclusivity(unchecked) var mask: RenderLayer?

    /// The sublayers in drawing order: by `zPosition`, then as listed; when
    /// they are placed in depth, by ``depth`` (``sortsChildrenByDepth``).
    @exclusivity(unchecked) package private(set) var children: [RenderLayer] = []
    /// Not retained: a node's parent owns it.
    @exclusivity(unchecked) package private(set) unowned(unsafe) var parent: RenderLayer?

    // Worked out from the above and the ancestors, after each commit.
    /// From the layer's own coordinates (its bounds space) to the frame's pixels.
    @exclusivity(unchecked) package internal(set) var toDevice = CGAffineTransform.identity
    /// The pixels the layer itself may touch: background, border, shadow.
    @exclusivity(unchecked) package internal(set) var ownRect = PixelRect.empty
    /// The pixels the layer and everything below it may touch.
    @exclusivity(unchecked) package internal(set) var subtreeRect = PixelRect.empty
    /// The pixels the layer clips its sublayers to when that is a square on
    /// whole pixels (``pixelAlignedMask``), else empty: where the clip of a
    /// layer scrolled by copy was (ScrollByCopy.swift).
    @exclusivity(unchecked) package internal(set) var clipRect = PixelRect.empty
    /// The pixels the layer replaces entirely (see Occlusion.swift).
    @exclusivity(unchecked) package internal(set) var occludingRect = PixelRect.empty
    /// Seen in perspective (Projection.swift): from its coordinates to where
    /// they are seen, as placed flat by ``toDevice``; nil for a flat layer.
    /// ``subtreeRect`` and ``ownRect`` are then where it is seen, in the
    /// surface it is drawn into, and ``flatSubtreeRect`` what it draws flat.
    @exclusivity(unchecked) var projection: LayerProjection?
    /// A layer in perspective: the pixels it and everything below it may
    /// touch, drawn flat (``toDevice``), before the projection.
    @exclusivity(unchecked) package internal(set) var flatSubtreeRect = PixelRect.empty
    /// Not double-sided, and its placement in its superlayer's plane shows
    /// its back: it draws nothing.
    @exclusivity(unchecked) package internal(set) var facesAway = false

    /// Changes copied at this commit that the geometry pass has not seen yet.
    @exclusivity(unchecked) var changes: LayerChanges = []
    /// Some node below has changes the geometry pass has not seen yet.
    @exclusivity(unchecked) var descendantChanged = false
    /// New in the tree at this commit: it has no old rectangles to damage.
    @exclusivity(unchecked) var isNew = true
    /// Where removed children were, to be drawn again.
    @exclusivity(unchecked) var removedRects: [PixelRect] = []

    /// The shadow's blurred coverage, kept until the shadow or the layer's
    /// place changes.
    @exclusivity(unchecked) var shadowCache: ShadowMask?

    package init() {}

    /// A running transition's picture of the layer's old look, drawn over
    /// it as the last child (see `placeTransitionOverlay()`).
    @exclusivity(unchecked) var transitionOverlay: RenderLayer?
    /// A running flip's turn in perspective, in the layer's coordinates
    /// (`LayerProjection.flipTurn`), and how dark its turning face is; nil
    /// otherwise. Part of ``projection``.
    @exclusivity(unchecked) var flipTurn: (matrix: Homography, shade: Double)?
    /// A running page curl (PageCurl.swift); nil otherwise. Part of ``projection``.
    @exclusivity(unchecked) var curl: PageCurl?

    /// Copies everything the compositor reads from `layer`: its animatable
    /// properties as shown at the frame's time (the model's own, for a layer
    /// without animations), then the rest.
    func copyProperties(from layer: CALayer) {
        let castShape = (bounds, cornerRadius, maskedCorners)
        let values = layer.animationList == nil ? LayerValues(of: layer) : layer.presentationValues(at: AnimationEngine.current.frameTime)
        bounds = values.bounds
        position = values.position
        anchorPoint = values.anchorPoint
        transform = CATransform3DGetAffineTransform(values.transform)
        transform3D = CATransform3DIsAffine(values.transform) ? nil : values.transform
        sublayerTransform3D = CATransform3DIsAffine(values.sublayerTransform) ? nil : values.sublayerTransform
        sublayerTransform = sublayerTransform3D == nil ? CATransform3DGetAffineTransform(values.sublayerTransform) : .identity
        isDoubleSided = layer.isDoubleSided
        zPosition = values.zPosition
        isTransformLayer = layer.isTransformLayer
        ownOpacity = values.opacity
        applyOpacity()
        background = values.backgroundColor.map { PremultipliedColor($0) }
        cornerRadius = values.cornerRadius
        borderWidth = values.borderWidth
        border = values.borderColor.map { PremultipliedColor($0) }
        shadow = ShadowStyle(values: values, path: layer.shadowPath)
        isHidden = layer.isHidden
        masksToBounds = layer.masksToBounds
        maskedCorners = layer.maskedCorners
        gradient = GradientStyle(of: layer, points: values.gradientPoints)
        shape = ShapeLayerStyle(of: layer, values: values.shape)
        contents = layer.contents.flatMap { $0 as? CGImage }  // anything else shows nothing, as in Core Animation
        contentsGravity = layer.contentsGravity
        contentsScale = layer.contentsScale
        contentsRect = values.contentsRect
        // Part of the image: cut it out once, at the commit, so that filtering
        // at its edges does not reach into the rest of the image.
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        if let image = contents, contentsRect != unit {
            let w = CGFloat(image.width), h = CGFloat(image.height)
            let part = contentsRect.standardized.intersection(unit)
            contents = part.isEmpty ? nil : image.cropping(to: CGRect(x: part.minX * w, y: part.minY * h, width: part.width * w, height: part.height * h))
            contentsRect = unit
        }
        transitionOverlay = nil
        flipTurn = nil
        curl = nil
        hidesSublayers = false
        if let progress = values.transitionProgress { showTransition(of: layer, at: progress, values: values) }
        if isTransformLayer { passOverOwnDrawing(values) }
        if shadowCache != nil, shadowCache?.style != shadow || castShape != (bounds, cornerRadius, maskedCorners) { shadowCache = nil }
    }

    /// ``opacity`` from the layer's own and the transform layers' above. A
    /// transform layer draws itself opaque (it has nothing to draw and
    /// forms no group) and hands its opacity to its sublayers, "applied to
    /// each sublayer individually" (Apple's `CATransformLayer` page).
    private func applyOpacity() {
        let product = ownOpacity * passedOverOpacity
        opacity = isTransformLayer ? (Self.drawnOpacity(product) > 0 ? 1 : 0) : Self.drawnOpacity(product)
    }

    /// A transform layer's own drawing, all ignored as Apple documents:
    /// "Only the sublayers of a transform layer are rendered" (background,
    /// contents, border), and "filters, backgroundFilters,
    /// compositingFilter, mask, masksToBounds, and shadow style properties"
    /// too. Its sublayer transform is kept whole, for the sublayers' placement.
    private func passOverOwnDrawing(_ values: LayerValues) {
        background = nil
        gradient = nil
        shape = nil
        borderWidth = 0
        border = nil
        contents = nil
        shadow = nil
        masksToBounds = false
        transitionOverlay = nil
        flipTurn = nil
        curl = nil
        sublayerTransform3D = values.sublayerTransform
        sublayerTransform = .identity
    }

    /// Gives the sublayers of a transform layer its opacity (times those
    /// above it).
    private func passOpacityToChildren() {
        let passed = ownOpacity * passedOverOpacity
        for child in children where child.passedOverOpacity != passed {
            child.passedOverOpacity = passed
            child.applyOpacity()
        }
    }

    /// `opacity` as the compositor draws it: in 256 steps (`PixelOps.alpha`),
    /// so that one rounding to the top step is drawn opaque and one rounding
    /// to 0 not at all. Kept as exactly 1 (or 0), such a layer is opaque for
    /// occlusion and needs no group buffer: the same pixels, drawn once (a
    /// fade's last frames; a layer at 0.999).
    static func drawnOpacity(_ opacity: Float) -> Float {
        let clamped = min(1, max(0, opacity))
        switch PixelOps.alpha(clamped) {
        case 255: return 1
        case 0: return 0
        default: return clamped
        }
    }

    /// A running transition at `progress`: the layer's new look moved, and
    /// its old look (the picture taken when the transition was added) as
    /// the overlay.
    private func showTransition(of layer: CALayer, at progress: Double, values: LayerValues) {
        guard let image = layer.animationList?.transitionSnapshot,
              let transition = layer.animation(forKey: LayerValues.transitionKey) as? CATransition
        else { return }
        if let flip = transition.flip(at: progress) { return showFlip(flip, oldLook: image, values: values) }
        if let pose = transition.curl(at: progress) {
            let oldLook = RenderLayer()
            oldLook.bounds = CGRect(origin: .zero, size: values.bounds.size)
            oldLook.anchorPoint = .zero
            oldLook.position = values.bounds.origin
            oldLook.contents = image
            curl = PageCurl(pose: pose, oldLook: oldLook)
            return
        }
        let place = transition.placement(at: progress)
        // The new look moves as a whole; the old one (or the part of it
        // that shows) is drawn where it is relative to it.
        let size = values.bounds.size
        transform = transform.concatenating(CGAffineTransform(translationX: place.new.x * size.width, y: place.new.y * size.height))
        guard let old = transition.oldLookShown(image, at: progress) else { return }
        let overlay = RenderLayer()
        overlay.bounds = CGRect(x: 0, y: 0, width: old.part.width * size.width, height: old.part.height * size.height)
        overlay.anchorPoint = .zero
        overlay.position = CGPoint(x: values.bounds.minX + (place.old.x - place.new.x + old.part.minX) * size.width,
                                   y: values.bounds.minY + (place.old.y - place.new.y + old.part.minY) * size.height)
        overlay.opacity = Float(place.oldOpacity)
        overlay.contents = old.image
        transitionOverlay = overlay
    }

    /// A flip at its point (`CATransition.flip(at:)`): the layer turned
    /// about its centre line in perspective (``projection``), showing its
    /// old look in the first half and its new one, its own drawing and
    /// sublayers, in the second.
    private func showFlip(_ pose: FlipPose, oldLook image: CGImage, values: LayerValues) {
        // Edge on (within a thousandth of a quarter turn), it shows nothing.
        guard abs(cos(pose.angle)) > 1e-3 else {
            opacity = 0
            return
        }
        flipTurn = LayerProjection.flipTurn(pose, bounds: values.bounds).map { ($0, LayerProjection.flipShade(at: pose.angle)) }
        guard pose.showsOldLook else { return }
        // The old look's picture stands for everything the layer draws.
        background = nil
        gradient = nil
        shape = nil
        borderWidth = 0
        border = nil
        contents = image
        contentsGravity = .resize
        contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
        hidesSublayers = true
    }

    /// In a flip's first half, the sublayers are hidden: the old look's
    /// picture on the layer stands for them (see `showFlip`).
    @exclusivity(unchecked) var hidesSublayers = false
    /// Whether the sublayers' nodes are hidden for a flip now.
    @exclusivity(unchecked) private var sublayersHiddenForFlip = false

    /// Hides the sublayers' nodes while ``hidesSublayers`` says so, and
    /// shows those that are not hidden themselves again after; each one
    /// that changes is drawn again.
    private func updateSublayersHiddenForFlip(_ sublayers: [CALayer]) {
        guard hidesSublayers || sublayersHiddenForFlip else { return }
        for sublayer in sublayers {
            guard let node = sublayer.committedNode, node.parent === self else { continue }
            let hidden = sublayer.isHidden || hidesSublayers
            guard node.isHidden != hidden else { continue }
            node.isHidden = hidden
            node.changes.insert(.group)
            descendantChanged = true
        }
        sublayersHiddenForFlip = hidesSublayers
    }

    /// Puts the transition overlay, if any, last among the children.
    func placeTransitionOverlay() {
        children.removeAll { $0.parent === self && $0.isTransitionOverlay }
        guard let overlay = transitionOverlay else { return }
        overlay.isTransitionOverlay = true
        overlay.parent = self
        children.append(overlay)
    }

    @exclusivity(unchecked) var isTransitionOverlay = false

    /// A copy of `layer` and its whole subtree, attached to `layer` as its
    /// committed node when `attach` is true.
    static func snapshot(of layer: CALayer, attach: Bool) -> RenderLayer {
        let node = RenderLayer()
        node.copyProperties(from: layer)
        node.children = (layer.sublayers ?? []).map { snapshot(of: $0, attach: attach) }
        for child in node.children {
            child.parent = node
            if node.hidesSublayers { child.isHidden = true }
        }
        node.sublayersHiddenForFlip = node.hidesSublayers
        node.sortChildrenByZ()
        node.placeTransitionOverlay()
        node.mask = layer.isTransformLayer ? nil : layer.mask.map { snapshot(of: $0, attach: attach) }
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
            for old in children where !old.isTransitionOverlay && !kept.contains(where: { $0 === old }) {
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
        if transitionOverlay != nil || children.last?.isTransitionOverlay == true { placeTransitionOverlay() }
        updateSublayersHiddenForFlip(sublayers)
        syncMask(with: layer)
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
    /// point, then to `position`. For a layer placed in depth, its flat
    /// placement (``flatTransform``), which ``projection`` turns.
    var toSuperlayer: CGAffineTransform {
        let anchor = CGPoint(
            x: bounds.minX + anchorPoint.x * bounds.width,
            y: bounds.minY + anchorPoint.y * bounds.height)
        return CGAffineTransform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(placesInDepth || isTransformLayer ? flatTransform : transform)
            .concatenating(CGAffineTransform(translationX: position.x, y: position.y))
    }

    /// Whether the layer's plane is seen in its superlayer's in perspective:
    /// its transform has perspective, or the superlayer's sublayer transform
    /// has depth (then its placement, `zPosition` and all, goes through it).
    var placesInDepth: Bool {
        if let transform3D, !transform3D.flattensAffinely { return true }
        return parent?.sublayerTransform3D != nil
    }

    /// How a layer placed in depth is drawn flat: scaled as its transform
    /// stretches its x and y axes (the lengths of its first two rows, over
    /// `m44`), so that the flat drawing has about the detail of the layer
    /// seen face on; the projection does the rest.
    var flatTransform: CGAffineTransform {
        guard let t = transform3D else { return .identity }
        let w = abs(t.m44) > 1e-6 ? abs(t.m44) : 1
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot() / w
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot() / w
        return CGAffineTransform(scaleX: sx, y: sy)
    }

    /// The layer's geometry as its placement uses it (LayerPlane.swift);
    /// the sublayer transform's depth only, its affine part being in
    /// ``sublayerSpaceToDevice``.
    var planeLevel: LayerPlane.Level {
        LayerPlane.Level(bounds: bounds, anchorPoint: anchorPoint, transform: transform3D ?? CATransform3DMakeAffineTransform(transform),
                         position: position, zPosition: zPosition, sublayerTransform: sublayerTransform3D ?? CATransform3DIdentity)
    }

    /// Where the layer is placed in 3-D, from its coordinates to those of
    /// the first layer above that flattens (its superlayer, or the one above
    /// the transform layers it is in), that layer's sublayer transform with
    /// depth included; and the flat placement to the same space, which the
    /// compositor draws it by before the projection (``toSuperlayer`` and
    /// each transform layer's), and the flattening layer.
    private func placementInDepth() -> (placed: CATransform3D, flat: CGAffineTransform, flattening: RenderLayer?) {
        var passedOver: [LayerPlane.Level] = []
        var flat = toSuperlayer
        var above = parent
        while let layer = above, layer.isTransformLayer {
            passedOver.append(layer.planeLevel)
            flat = flat.concatenating(layer.toSuperlayer)
            above = layer.parent
        }
        return (LayerPlane.placement(of: planeLevel, through: passedOver, under: above?.planeLevel), flat, above)
    }

    /// The centre of the bounds, whose depth orders sublayers placed in depth.
    private var centre: CGPoint { CGPoint(x: bounds.midX, y: bounds.midY) }

    /// Works out ``projection``, ``facesAway`` and ``depth`` from the
    /// placement (after ``toDevice``, before the rectangles).
    private func updatePlacementInDepth() {
        guard !isTransformLayer else {
            // Drawn as its sublayers only, each placed in depth through it.
            projection = nil
            facesAway = false
            depth = LayerPlane.depth(of: centre, through: placementInDepth().placed)
            return
        }
        let inDepth = placesInDepth
        guard inDepth || flipTurn != nil || curl != nil || !isDoubleSided else {
            projection = nil
            facesAway = false
            depth = transform3D == nil ? Double(zPosition) : LayerPlane.depth(of: centre, through: planeLevel.placement)
            return
        }
        let flat = Homography(affine: toSuperlayer)
        var parentSublayer = parent.map { Homography(affine: $0.sublayerTransform) }
        var matrix = flipTurn?.matrix
        var seen = flat
        depth = Double(zPosition)
        if inDepth {
            let placement = placementInDepth()
            let placed = placement.placed.planeMapping
            seen = placed
            parentSublayer = placement.flattening.map { Homography(affine: $0.sublayerTransform) }
            depth = LayerPlane.depth(of: centre, through: placement.placed)
            // Seen = flat · turn: the turn is the flat placement undone after the true one.
            let turn = Homography(affine: placement.flat).inverse.map { $0.then(placed) }
            matrix = turn.map { t in matrix.map { t.then($0) } ?? t } ?? Homography(0, 0, 0, 0, 0, 0, 0, 0, 0)
        }
        projection = matrix.map { LayerProjection(matrix: $0, shade: flipTurn?.shade ?? 0) }
        if let curl {
            // A curl is drawn flat (on a layer also placed in depth, too).
            projection = LayerProjection(matrix: Homography(1, 0, 0, 0, 1, 0, 0, 0, 1), shade: 0, curl: curl)
            curl.oldLook.updateSubtreeGeometry(curl.oldLook.toSuperlayer.concatenating(toDevice))
            curl.oldLook.clearChanges()
        }
        // Which way the layer faces in its superlayer's plane, where it is
        // seen (w > 0): the sign of the determinant, the sublayer
        // transform's affine part included.
        let facing = seen.determinant * (parentSublayer?.determinant ?? 1)
        facesAway = !isDoubleSided && !(facing > 0)
    }

    /// Whether the sublayers are drawn back to front by ``depth`` rather
    /// than by `zPosition` and order alone: in a transform layer, under a
    /// sublayer transform with depth, or when some sublayer's transform has
    /// depth. Core Animation sorts layers in depth ("Sibling drawing order
    /// is more complicated in the presence of certain types of transforms,
    /// such as perspective transforms and rotations around X/Y", David
    /// Duncan of Apple, cocoa-dev, July 2011; a view moved 10 points
    /// forward by its transform is drawn over a later sibling, a developer
    /// reports), cutting layers that cross each other where they cross;
    /// here each is drawn whole, by the depth of its centre (the painter's
    /// order, right for layers that do not cross, as a cube's faces).
    var sortsChildrenByDepth: Bool { isTransformLayer || sublayerTransform3D != nil || hasChildrenInDepth }

    /// Puts the children in order of ``depth``, back to front (equal depths
    /// keep their order); a transition's overlay stays last.
    func sortChildrenByDepth() {
        guard children.count > 1 else { return }
        let overlay = children.last?.isTransitionOverlay == true ? children.removeLast() : nil
        children = children.enumerated()
            .sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
            .map(\.element)
        if let overlay { children.append(overlay) }
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

    /// Where the contents go, in the layer's coordinates, by the gravity:
    /// stretched, fitted or filled with the aspect ratio kept, or at their
    /// natural size (pixels over `contentsScale`) against an edge or corner.
    var contentsPlacement: CGRect? {
        guard let image = contents else { return nil }
        let part = contentsRect.standardized
        let natural = CGSize(
            width: CGFloat(image.width) * part.width / contentsScale,
            height: CGFloat(image.height) * part.height / contentsScale)
        guard natural.width > 0, natural.height > 0, natural.width.isFinite, natural.height.isFinite else { return nil }
        let b = bounds
        func placed(_ size: CGSize, _ fx: CGFloat, _ fy: CGFloat) -> CGRect {
            CGRect(x: b.minX + (b.width - size.width) * fx, y: b.minY + (b.height - size.height) * fy, width: size.width, height: size.height)
        }
        switch contentsGravity {
        case .resizeAspect, .resizeAspectFill:
            let fit = min(b.width / natural.width, b.height / natural.height)
            let fill = max(b.width / natural.width, b.height / natural.height)
            let k = contentsGravity == .resizeAspect ? fit : fill
            return placed(CGSize(width: natural.width * k, height: natural.height * k), 0.5, 0.5)
        case .center: return placed(natural, 0.5, 0.5)
        case .top: return placed(natural, 0.5, 0)
        case .bottom: return placed(natural, 0.5, 1)
        case .left: return placed(natural, 0, 0.5)
        case .right: return placed(natural, 1, 0.5)
        case .topLeft: return placed(natural, 0, 0)
        case .topRight: return placed(natural, 1, 0)
        case .bottomLeft: return placed(natural, 0, 1)
        case .bottomRight: return placed(natural, 1, 1)
        default: return b
        }
    }

    /// From the contents image's pixels to the frame's.
    func contentsToDevice(_ image: CGImage, in rect: CGRect) -> CGAffineTransform {
        let part = contentsRect.standardized
        let w = CGFloat(image.width), h = CGFloat(image.height)
        return CGAffineTransform(translationX: -part.minX * w, y: -part.minY * h)
            .concatenating(CGAffineTransform(scaleX: rect.width / (part.width * w), y: rect.height / (part.height * h)))
            .concatenating(CGAffineTransform(translationX: rect.minX, y: rect.minY))
            .concatenating(toDevice)
    }

    /// The device pixels of the bounds: exactly, when they lie on whole
    /// pixels without rotation; otherwise grown by one for anti-aliasing.
    var boundsPixelRect: PixelRect {
        pixelAlignedBounds ?? PixelRect(covering: bounds.applying(toDevice).insetBy(dx: -1, dy: -1))
    }

    /// The device pixels of the bounds when they are exactly a rectangle of
    /// whole pixels (no rotation, integral edges).
    var pixelAlignedBounds: PixelRect? { pixelAlignedBounds(through: toDevice) }

    /// ``pixelAlignedBounds`` through `t` instead of ``toDevice``.
    func pixelAlignedBounds(through t: CGAffineTransform) -> PixelRect? {
        guard let r = unturnedDeviceEdges(through: t) else { return nil }
        let x0 = DevicePixel.nearest(r.x0), y0 = DevicePixel.nearest(r.y0), x1 = DevicePixel.nearest(r.x1), y1 = DevicePixel.nearest(r.y1)
        guard DevicePixel.isOn(r.x0, x0), DevicePixel.isOn(r.y0, y0), DevicePixel.isOn(r.x1, x1), DevicePixel.isOn(r.y1, y1) else { return nil }
        return PixelRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The bounds' edges in device pixels through `t`, when it neither turns
    /// nor flips them and they lie within ±1e9 (finite); nil otherwise.
    /// Each edge is `a·x + tx` (`d·y + ty`), as `CGRect.applying` gives it,
    /// without its four corners.
    @inline(__always)
    func unturnedDeviceEdges(through t: CGAffineTransform) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        guard t.b == 0, t.c == 0, t.a > 0, t.d > 0 else { return nil }
        let b = bounds
        let x0 = Double(t.a) * Double(b.minX) + Double(t.tx), x1 = Double(t.a) * Double(b.maxX) + Double(t.tx)
        let y0 = Double(t.d) * Double(b.minY) + Double(t.ty), y1 = Double(t.d) * Double(b.maxY) + Double(t.ty)
        // NaN fails every comparison, so it is refused here too.
        guard abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9 else { return nil }
        return (x0, y0, x1, y1)
    }

    /// Works out ``toDevice``, ``ownRect`` and ``subtreeRect`` for this node
    /// and every node below it.
    func updateSubtreeGeometry(_ toDevice: CGAffineTransform) {
        self.toDevice = toDevice
        updatePlacementInDepth()
        if isTransformLayer { passOpacityToChildren() }
        let childSpace = sublayerSpaceToDevice
        var inDepth = false
        for child in children {
            child.updateSubtreeGeometry(child.toSuperlayer.concatenating(childSpace))
            child.clearChanges()
            inDepth = inDepth || child.transform3D != nil
        }
        hasChildrenInDepth = inDepth
        if sortsChildrenByDepth { sortChildrenByDepth() }
        updateMaskGeometry()
        updateOwnRect()
        updateSubtreeRect()
    }

    /// The device pixels of the contents, where they are drawn.
    var contentsPixelRect: PixelRect {
        guard let rect = contentsPlacement else { return .empty }
        let covering = PixelRect(covering: rect.applying(toDevice).insetBy(dx: -1, dy: -1))
        return masksToBounds ? covering.intersection(boundsPixelRect) : covering
    }

    /// The device pixels a shape layer's fill and stroke may touch.
    var shapePixelRect: PixelRect {
        guard let shape else { return .empty }
        let covering = PixelRect(covering: shape.extent.applying(toDevice).insetBy(dx: -1, dy: -1))
        return masksToBounds ? covering.intersection(boundsPixelRect) : covering
    }

    func updateOwnRect() {
        updateOccludingRect()
        clipRect = masksToBounds && projection == nil ? pixelAlignedMask ?? .empty : .empty
        guard !isHidden, opacity > 0, !facesAway else { ownRect = .empty; return }
        var rect = contentsPixelRect.union(shapePixelRect)
        if background != nil || gradient != nil || (borderWidth > 0 && border != nil) { rect = rect.union(boundsPixelRect) }
        if let shadow { rect = rect.union(shadow.pixelRect(of: self)) }
        ownRect = rect
    }

    /// The pixels the background, border, contents and sublayers may touch,
    /// clipped by ``masksToBounds``: everything but the shadow and the mask.
    var groupPixelRect: PixelRect {
        var content = contentsPixelRect.union(shapePixelRect)
        if background != nil || gradient != nil || (borderWidth > 0 && border != nil) { content = content.union(boundsPixelRect) }
        for child in children { content = content.union(child.subtreeRect) }
        if masksToBounds { content = content.intersection(boundsPixelRect) }
        return content
    }

    func updateSubtreeRect() {
        guard !isHidden, opacity > 0, !facesAway else { subtreeRect = .empty; return }
        var content = groupPixelRect
        if let shadow { content = content.union(shadow.pixelRect(of: self)) }
        if let mask { content = content.intersection(mask.subtreeRect) }
        guard let projection else { subtreeRect = content; return }
        if let curl = projection.curl { content = content.union(curl.oldLook.subtreeRect) }
        flatSubtreeRect = content
        subtreeRect = projection.surfaceRect(of: content, toDevice: toDevice)
        ownRect = subtreeRect
    }

    /// The pixels the layer draws before any projection: ``subtreeRect``,
    /// or for a layer in perspective ``flatSubtreeRect``.
    var planeSubtreeRect: PixelRect { projection == nil ? subtreeRect : flatSubtreeRect }

    func clearChanges() {
        // A shadow cast by the layer's group is stale once anything in the group changed.
        if shadowCache?.castByGroup == true && (!changes.isEmpty || descendantChanged || !removedRects.isEmpty) { shadowCache = nil }
        changes = []
        descendantChanged = false
        isNew = false
        removedRects = []
    }
}

extension PremultipliedColor {
    /// The colour as the compositor's pixels hold it: R G B A in memory.
    var pixel: UInt32 { PixelFormat.rgba.word(self) }
}

/// What a layer's shadow looks like; equal styles give equal shadows.
struct ShadowStyle: Equatable {
    var color: PremultipliedColor
    var opacity: Float
    var offset: CGSize
    var radius: CGFloat
    /// The shape casting it, in the layer's coordinates; nil: what the
    /// layer draws (ContentShadow.swift). Immutable (the layer keeps a copy).
    var path: CGPath?

    /// The shadow of a layer's animatable values; nil when they cast none.
    init?(values: LayerValues, path: CGPath?) {
        guard let color = values.shadowColor, values.shadowOpacity > 0 else { return nil }
        self.color = PremultipliedColor(color)
        opacity = min(1, values.shadowOpacity)
        offset = values.shadowOffset
        radius = values.shadowRadius
        self.path = path
    }

    /// The shape's box in the layer's coordinates.
    @MainActor func shapeBounds(of node: RenderLayer) -> CGRect {
        guard let path else { return node.bounds }
        let box = path.boundingBoxOfPath
        return box.isNull || !box.isFinite ? .zero : box
    }

    /// The pixels the blurred shadow may touch.
    @MainActor func pixelRect(of node: RenderLayer) -> PixelRect {
        let t = node.toDevice
        let shape: CGRect
        if path == nil && !node.castsBackgroundShadow {
            let group = node.groupPixelRect
            guard !group.isEmpty else { return .empty }
            shape = group.cgRect
        } else {
            shape = shapeBounds(of: node).applying(t)
        }
        let deviceOffset = offsetInDevice(t)
        let spread = blurExtent(t)
        let pixels = PixelRect(covering: shape.offsetBy(dx: deviceOffset.width, dy: deviceOffset.height)
            .insetBy(dx: -spread - 1, dy: -spread - 1))
        return node.masksToBounds ? pixels.intersection(node.boundsPixelRect) : pixels
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
