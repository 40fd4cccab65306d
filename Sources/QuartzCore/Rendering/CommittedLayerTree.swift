/// The committed copy of one layer tree, kept up to date at every commit,
/// and the damage each commit does to the frame it is drawn into.
///
/// At a commit it goes down the branches of the layer tree that changed
/// (layers keep a "something below changed" mark), copies the changed
/// layers into their ``RenderLayer`` nodes, and then works out where each
/// changed node is drawn now and where it was drawn before: both are
/// damage, to be drawn again.
/// - A change of geometry, group (opacity, hidden, masking, corners) or
///   sublayers damages the whole subtree, before and after.
/// - A change of appearance (background, border, shadow, contents)
///   damages what the layer itself draws, before and after.
/// - A removed sublayer damages what it covered.
/// - A change below a layer whose shadow its sublayers cast damages that
///   part of the shadow as well.
@MainActor
package final class CommittedLayerTree {
    package let rootLayer: CALayer
    package private(set) var root: RenderLayer?
    /// From the root's superlayer space (the screen, in points) to pixels.
    package let baseTransform: CGAffineTransform
    /// Everything drawn again since the damage was last taken.
    package internal(set) var damage = Damage()
    /// The pixels to move before the damage is drawn, in order (ScrollByCopy.swift).
    package internal(set) var scrolls: [PixelScroll] = []
    /// The frame's pixels, where a scroll may copy them; nil: never by copy
    /// (the tree's pixels are not kept from frame to frame).
    package var scrollExtent: PixelRect?

    package init(rootLayer: CALayer, baseTransform: CGAffineTransform) {
        self.rootLayer = rootLayer
        self.baseTransform = baseTransform
    }

    /// Copies what changed in the layer tree since the last commit.
    package func commitChanges() {
        guard let root, rootLayer.committedNode === root, root.parent == nil, rootLayer.superlayer == nil else {
            return commitWholeTree()
        }
        guard !rootLayer.pendingChanges.isEmpty || rootLayer.descendantHasChanges else { return }
        root.sync(with: rootLayer)
        updateGeometry(root, toDevice: root.toSuperlayer.concatenating(baseTransform))
    }

    private func commitWholeTree() {
        if let old = root { damage.add(old.subtreeRect) }
        let node = RenderLayer.snapshot(of: rootLayer, attach: true)
        root = node
        node.updateSubtreeGeometry(node.toSuperlayer.concatenating(baseTransform))
        node.clearChanges()
        damage.add(node.subtreeRect)
    }

    /// Hands over the damage gathered since the last call, added to
    /// `frameDamage`, and the scrolls to apply before drawing it, appended
    /// to `frameScrolls`; the tree's own lists are emptied in place, keeping
    /// their storage for the next commits (handing them out whole would
    /// leave them shared, and emptying a shared list copies it).
    package func takeDamage(into frameDamage: inout Damage, scrolls frameScrolls: inout [PixelScroll]) {
        for rect in damage.rects { frameDamage.add(rect) }
        frameScrolls.append(contentsOf: scrolls)
        discardDamage()
    }

    /// Forgets the damage and scrolls gathered since the last frame (one
    /// drawn whole).
    package func discardDamage() {
        damage.removeAll()
        scrolls.removeAll(keepingCapacity: true)
    }

    /// Marks everything the tree draws as damaged (a frame drawn from scratch).
    package func damageEverything() {
        if let root { damage.add(root.subtreeRect) }
    }

    /// Works out where `node` is drawn now (its transform to the frame is
    /// `toDevice`) and damages what changed, before and after. Inside a
    /// layer scrolled by copy (`scrolled`), the old pixels were moved with
    /// the copy: a node that only moved with them damages nothing.
    func updateGeometry(_ node: RenderLayer, toDevice: CGAffineTransform, scrolled: ScrolledPixels = .none) {
        defer { node.clearChanges() }
        for rect in node.removedRects { damage.add(scrolled.old(rect)) }
        let moved = scrolled.area.isEmpty ? toDevice == node.toDevice : scrolled.isMoved(node.toDevice, to: toDevice)
        // Inside a layer in perspective everything is drawn flat and then
        // projected: any change there redraws the whole layer where it is seen.
        let wholeSubtree = node.isNew || !moved
            || !node.changes.isDisjoint(with: [.geometry, .group, .sublayers])
            || (node.projection != nil && (!node.changes.isEmpty || node.descendantChanged || !node.removedRects.isEmpty))
        if wholeSubtree {
            if scrolled.area.isEmpty && !node.isNew && scrollByCopy(node, toDevice: toDevice) { return }
            if !node.isNew { damage.add(scrolled.old(node.subtreeRect)) }
            node.updateSubtreeGeometry(toDevice)
            damage.add(node.subtreeRect)
            return
        }
        if !scrolled.area.isEmpty {
            // Moved with the copied pixels: the geometry follows, without damage.
            guard node.changes.contains(.appearance) || node.descendantChanged else {
                return node.translateSubtree(dx: scrolled.dx, dy: scrolled.dy)
            }
            node.toDevice = toDevice
            node.updateMaskGeometry()
            if !node.changes.contains(.appearance) { node.updateOwnRect() }
        }
        if node.changes.contains(.appearance) {
            damage.add(scrolled.old(node.ownRect))
            node.shadowCache = nil
            node.updateOwnRect()
            damage.add(node.ownRect)
        }
        if node.descendantChanged || !scrolled.area.isEmpty {
            // A shadow cast by the sublayers (ContentShadow.swift), before
            // or after this commit, changes with them where they were and are.
            let shadowWithoutPath = node.shadow != nil && node.shadow?.path == nil
            var castByGroup = shadowWithoutPath && !node.castsBackgroundShadow
            var oldGroupChanges: [PixelRect] = shadowWithoutPath ? node.removedRects : []
            var groupChanges: [PixelRect] = []
            let childSpace = node.sublayerSpaceToDevice
            // Inside a scroll every sublayer moved: each one's geometry is worked out again.
            for child in node.children
            where !scrolled.area.isEmpty || !child.changes.isEmpty || child.descendantChanged || !child.removedRects.isEmpty {
                if shadowWithoutPath { oldGroupChanges.append(child.subtreeRect) }
                updateGeometry(child, toDevice: child.toSuperlayer.concatenating(childSpace), scrolled: scrolled)
                if shadowWithoutPath { groupChanges.append(child.subtreeRect) }
                if child.transform3D != nil { node.hasChildrenInDepth = true }
            }
            // A changed sublayer may have moved in depth past an unchanged
            // one: both are drawn again where the changed one was and is.
            if node.sortsChildrenByDepth { node.sortChildrenByDepth() }
            castByGroup = castByGroup || (shadowWithoutPath && !node.castsBackgroundShadow)
            if castByGroup {
                for rect in oldGroupChanges { damage.add(scrolled.old(node.groupShadowDamage(for: rect))) }
                for rect in groupChanges { damage.add(node.groupShadowDamage(for: rect)) }
            }
        }
        node.updateSubtreeRect()
    }
}
