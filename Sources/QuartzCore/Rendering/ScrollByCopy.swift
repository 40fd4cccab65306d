/// Scroll by copy: when a clipping layer's sublayers only moved together
/// by whole pixels (a scroll view's `contentOffset` is its bounds' origin),
/// the pixels already drawn inside its clip are moved, and only what that
/// cannot give is drawn again: the strip the move exposes, what changed
/// inside, and what lies over the scrolled pixels. Browsers scroll a layer
/// this way, and so did Android's view system before its RenderThread.
///
/// The copy is the frame's old pixels moved by (dx, dy) within `rect`, so
/// every pixel it gives must be what drawing the new tree there gives:
/// - the scrolling layer is square-cornered, on whole pixels, and draws
///   nothing but its background, if any, under its sublayers (no border,
///   contents or shadow), so that inside its clip the frame holds its
///   subtree alone, over one colour that does not move: its background
///   when that is opaque; else the ground beneath it — the opaque
///   background of the first ancestor that covers the whole clip, with
///   nothing drawn between the two there (the ancestors in between draw
///   nothing of their own, and no earlier sibling of the layer or of those
///   ancestors reaches into the clip). A scroll view without a background
///   colour of its own, over its view controller's opaque view, is such a
///   layer;
/// - its ancestors draw straight into the frame (opacity 1, no mask, no
///   border, no shadow cast by their group, clipping only to whole pixels);
/// - its sublayers that did not change are where they were, moved by
///   (dx, dy) exactly (their transform to the frame differs only by that);
/// - what lies over the scrolled pixels (a later sibling of the layer or of
///   an ancestor: a navigation bar, a floating button) was copied with
///   them: drawn again where it is and where its copy landed;
/// - what was waiting to be drawn (damage of an earlier commit not yet in
///   the frame) moves with the pixels: drawn again where it lands too.
/// Everything else is damage as usual, old rectangles moved by the copy.
package struct PixelScroll: Equatable, Sendable {
    /// The pixels that move: the scrolling layer's clip, in the frame.
    package var rect: PixelRect
    package var dx: Int
    package var dy: Int

    /// Where the moved pixels land: the part of `rect` they still cover.
    package var destination: PixelRect { rect.intersection(rect.offsetBy(dx: dx, dy: dy)) }

    /// Whether turning a ring of rows of `frame` makes this scroll for less
    /// than moving its pixels: a scroll of whole rows (as wide as the frame,
    /// straight up or down) whose rows outside its rectangle, copied back
    /// after the turn, are fewer than the rows a move would copy.
    package func turnsRing(of frame: PixelRect) -> Bool {
        let rect = rect.intersection(frame), to = destination.intersection(frame)
        let kept = (frame.y1 - frame.y0) - rect.height
        return dx == 0 && dy != 0 && !to.isEmpty && to.x0 == frame.x0 && to.x1 == frame.x1 && kept < to.height
    }
}

extension PixelRect {
    /// The same pixels moved by (dx, dy).
    package func offsetBy(dx: Int, dy: Int) -> PixelRect {
        isEmpty ? self : PixelRect(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
    }

    /// The part of `self` that none of `others` covers, as rectangles that
    /// do not overlap, handed to `body` one by one (no array: a frame that
    /// moves to other memory works them out).
    func forEachPart(notCoveredByAnyOf others: ArraySlice<PixelRect>, _ body: (PixelRect) -> Void) {
        guard let first = others.first else {
            if !isEmpty { body(self) }
            return
        }
        let rest = others.dropFirst()
        forEachPart(notCoveredBy: first) { $0.forEachPart(notCoveredByAnyOf: rest, body) }
    }

    /// The part of `self` that `other` does not cover, as at most four
    /// rectangles (above, below, left, right of it), handed to `body` one
    /// by one: no array, since every scrolled refresh works them out.
    func forEachPart(notCoveredBy other: PixelRect, _ body: (PixelRect) -> Void) {
        let inner = intersection(other)
        guard !inner.isEmpty else {
            if !isEmpty { body(self) }
            return
        }
        let above = PixelRect(x0: x0, y0: y0, x1: x1, y1: inner.y0)
        let below = PixelRect(x0: x0, y0: inner.y1, x1: x1, y1: y1)
        let left = PixelRect(x0: x0, y0: inner.y0, x1: inner.x0, y1: inner.y1)
        let right = PixelRect(x0: inner.x1, y0: inner.y0, x1: x1, y1: inner.y1)
        if !above.isEmpty { body(above) }
        if !below.isEmpty { body(below) }
        if !left.isEmpty { body(left) }
        if !right.isEmpty { body(right) }
    }
}

/// Inside a scrolled layer during a commit: its old pixels were copied by
/// (dx, dy) within `area`, so an old rectangle is now where it was moved.
struct ScrolledPixels {
    var dx = 0, dy = 0
    var area = PixelRect.empty

    static let none = ScrolledPixels()

    /// Where the old pixels of `rect` are now (nothing moved outside a scroll).
    func old(_ rect: PixelRect) -> PixelRect {
        area.isEmpty ? rect : rect.offsetBy(dx: dx, dy: dy).intersection(area)
    }

    /// Whether `toDevice` is `old` moved by the copy: the same linear part,
    /// the translation by (dx, dy) up to the rounding of the arithmetic that
    /// works transforms out (far below what any pixel's coverage can tell).
    func isMoved(_ old: CGAffineTransform, to toDevice: CGAffineTransform) -> Bool {
        old.a == toDevice.a && old.b == toDevice.b && old.c == toDevice.c && old.d == toDevice.d
            && abs(Double(toDevice.tx - old.tx) - Double(dx)) < Self.tolerance
            && abs(Double(toDevice.ty - old.ty) - Double(dy)) < Self.tolerance
    }

    /// How far from whole pixels a move may be and still count as one: the
    /// arithmetic's rounding on coordinates of a few thousand pixels is
    /// about 1e-12 (chosen here, as the pixel-grid tests' 1e-9 elsewhere).
    static let tolerance = 1e-7
}

extension RenderLayer {
    /// Whether the layer draws at most one colour under its sublayers,
    /// clipped to square bounds: inside its clip the frame holds its
    /// subtree over that colour (over what lies beneath, when the colour is
    /// not opaque), which stays where it is.
    var scrollsByCopy: Bool {
        masksToBounds && mask == nil && !isHidden && opacity == 1
            && (cornerRadius == 0 || maskedCorners.isEmpty)
            && !hasBorder && contents == nil && gradient == nil && shape == nil && shadow == nil
            && sublayerTransform.isIdentity && sublayerTransform3D == nil && transitionOverlay == nil && projection == nil
    }

    var hasOpaqueBackground: Bool { background.map { $0.pixel >> 24 == 255 } == true }

    /// Whether the layer draws nothing of its own under its sublayers: an
    /// ancestor between a layer scrolled over the ground and the ground.
    var drawsNothingUnderSublayers: Bool {
        (background == nil || background?.pixel == 0) && contents == nil && gradient == nil && shape == nil && shadow == nil
    }

    /// Whether the layer's background is one opaque colour over all of
    /// `rect`, with nothing else of its own drawn over it: the ground
    /// beneath a layer scrolled by copy that has no opaque background.
    func isGround(under rect: PixelRect) -> Bool {
        opaquelyCovers(rect) && contents == nil && gradient == nil && shape == nil
    }

    /// Whether the layer draws straight into the frame whatever its
    /// sublayers do, clipping them to whole pixels if at all: an ancestor
    /// of a layer scrolled by copy.
    var passesPixelsThrough: Bool {
        guard opacity == 1, mask == nil, !hasBorder, projection == nil, sublayerTransform3D == nil else { return false }
        if let shadow, shadow.path == nil, !castsBackgroundShadow { return false }
        return !masksToBounds || pixelAlignedMask != nil
    }
}

extension CommittedLayerTree {
    /// When `node`'s only change is that its sublayers moved by whole
    /// pixels inside its unmoved clip, records the copy of its pixels,
    /// damages what the copy cannot give, and brings the subtree's
    /// geometry up to date; false (nothing done) otherwise.
    func scrollByCopy(_ node: RenderLayer, toDevice: CGAffineTransform) -> Bool {
        guard let frame = scrollExtent, !node.isNew, node.changes.isSubset(of: [.geometry, .sublayers]), node.scrollsByCopy,
              let clip = node.pixelAlignedBounds(through: toDevice), clip == node.clipRect else { return false }
        let old = node.toDevice
        let dx = (Double(toDevice.tx - old.tx)).rounded(), dy = (Double(toDevice.ty - old.ty)).rounded()
        guard abs(dx) < Double(clip.width), abs(dy) < Double(clip.height) else { return false }
        var area = clip.intersection(frame)
        var overlays: [PixelRect] = []
        // Without an opaque background of its own, the layer's pixels hold
        // what lies beneath it: they may move only over one opaque colour.
        var needsGround = !node.hasOpaqueBackground
        var level = node
        while let parent = level.parent {
            guard !parent.isHidden, parent.passesPixelsThrough else { return false }
            if parent.masksToBounds, let parentClip = parent.pixelAlignedMask { area = area.intersection(parentClip) }
            if let index = parent.children.firstIndex(where: { $0 === level }) {
                if needsGround {
                    for earlier in parent.children[..<index] where earlier.subtreeRect.intersects(area) { return false }
                    if parent.isGround(under: area) { needsGround = false }
                    else if !parent.drawsNothingUnderSublayers { return false }
                }
                for later in parent.children[(index + 1)...] where !later.subtreeRect.isEmpty { overlays.append(later.subtreeRect) }
            }
            level = parent
        }
        let moved = ScrolledPixels(dx: Int(dx), dy: Int(dy), area: area)
        guard !needsGround, !area.isEmpty, moved.isMoved(old, to: toDevice) else { return false }
        if moved.dx != 0 || moved.dy != 0 {
            // What had not been drawn yet moves with the pixels.
            for rect in damage.rects { damage.add(moved.old(rect.intersection(area))) }
            scrolls.append(PixelScroll(rect: area, dx: moved.dx, dy: moved.dy))
            area.forEachPart(notCoveredBy: area.offsetBy(dx: moved.dx, dy: moved.dy)) { damage.add($0) }
            for overlay in overlays where overlay.intersects(area) {
                damage.add(overlay.intersection(area))
                damage.add(moved.old(overlay.intersection(area)))
            }
        }
        node.toDevice = toDevice
        for rect in node.removedRects { damage.add(moved.old(rect)) }
        let childSpace = node.sublayerSpaceToDevice
        for child in node.children {
            updateGeometry(child, toDevice: child.toSuperlayer.concatenating(childSpace), scrolled: moved)
        }
        node.updateOwnRect()
        node.updateSubtreeRect()
        node.clearChanges()
        return true
    }
}

extension RenderLayer {
    /// Moves the subtree's place by whole pixels: what working it out
    /// again after a scroll gives (the same rectangles moved, the
    /// transforms' translations moved), without that arithmetic for each
    /// of a long list's layers.
    func translateSubtree(dx: Int, dy: Int) {
        toDevice.tx += CGFloat(dx)
        toDevice.ty += CGFloat(dy)
        ownRect = ownRect.offsetBy(dx: dx, dy: dy)
        clipRect = clipRect.offsetBy(dx: dx, dy: dy)
        subtreeRect = subtreeRect.offsetBy(dx: dx, dy: dy)
        flatSubtreeRect = flatSubtreeRect.offsetBy(dx: dx, dy: dy)
        occludingRect = occludingRect.offsetBy(dx: dx, dy: dy)
        for child in children { child.translateSubtree(dx: dx, dy: dy) }
        mask?.translateSubtree(dx: dx, dy: dy)
    }
}

extension PixelSurface {
    /// Moves the pixels of `scroll.rect` by its offset, within it; returns
    /// how many it moved.
    @discardableResult
    func apply(_ scroll: PixelScroll) -> Int {
        let to = scroll.destination.intersection(extent)
        guard !to.isEmpty else { return 0 }
        if scroll.dx == 0, spansWholeRows(to) {
            // One move of the rows, which lie end to end (a list as wide as
            // the screen): the C library's memmove moves them faster in one
            // call than row by row.
            (row(to.y0) + to.x0).update(from: row(to.y0 - scroll.dy) + to.x0, count: to.area)
            return to.area
        }
        // Rows moving down are copied bottom first, so that none is read
        // after it was written; within a row, update(from:) copies as
        // memmove does, overlapping or not.
        let rows = scroll.dy > 0 ? Swift.stride(from: to.y1 - 1, through: to.y0, by: -1) : Swift.stride(from: to.y0, through: to.y1 - 1, by: 1)
        for y in rows {
            (row(y) + to.x0).update(from: row(y - scroll.dy) + to.x0 - scroll.dx, count: to.width)
        }
        return to.area
    }

    /// `scroll` made by turning the ring of rows instead (a frame's memory,
    /// the compositor's own or a shared buffer the event server reads from
    /// the first row the commit names): the frame's first row moves on by the scroll's
    /// rows, which moves every row of the frame at once without touching a
    /// pixel, and the rows outside the scroll's rectangle (a bar above a
    /// list, one below) are copied back to their places. The surface so
    /// turned and how many pixels that copied, or nil when the scroll is
    /// not of whole rows or copying those rows would cost more than moving
    /// the scrolled ones. A list as tall as the frame moves for nothing.
    func rotated(by scroll: PixelScroll) -> (surface: PixelSurface, copied: Int)? {
        guard stride == extent.width, scroll.turnsRing(of: extent) else { return nil }
        let rect = scroll.rect.intersection(extent)
        let height = extent.y1 - extent.y0, kept = height - rect.height
        let turned = PixelSurface(base: base, stride: stride, extent: extent, firstRow: ((firstRow - scroll.dy) % height + height) % height)
        // The kept rows, from the one below the scroll round to the one
        // above it, lie in one run of memory rows, each going dy rows back:
        // copied in the order that reads every row before it is written.
        let order = scroll.dy > 0 ? Swift.stride(from: 0, to: kept, by: 1) : Swift.stride(from: kept - 1, to: -1, by: -1)
        for index in order {
            var y = rect.y1 + index
            if y >= extent.y1 { y -= height }
            (turned.row(y) + extent.x0).update(from: row(y) + extent.x0, count: extent.width)
        }
        return (turned, kept * extent.width)
    }

    /// Copies into `destination` the pixels of `source` (other memory, of
    /// the same extent) that lie (dx, dy) before it; returns how many.
    func copy(_ destination: PixelRect, from source: PixelSurface, dx: Int, dy: Int) -> Int {
        let to = destination.intersection(extent)
        guard !to.isEmpty else { return 0 }
        if dx == 0, spansWholeRows(to), source.firstRow == 0 {
            (row(to.y0) + to.x0).update(from: source.row(to.y0 - dy) + to.x0, count: to.area)
            return to.area
        }
        for y in to.y0..<to.y1 {
            (row(y) + to.x0).update(from: source.row(y - dy) + to.x0 - dx, count: to.width)
        }
        return to.area
    }

    /// Whether `rect`'s rows are whole rows of the surface, lying end to end in memory.
    private func spansWholeRows(_ rect: PixelRect) -> Bool {
        rect.x0 == extent.x0 && rect.x1 == extent.x1 && stride == extent.width && firstRow == 0
    }
}
