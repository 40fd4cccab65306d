/// Group opacity without a buffer, where the buffer would change nothing.
///
/// A faded layer that clips its sublayers is drawn as a group: into a
/// buffer, then composited with its opacity through its rounded bounds.
/// Between the rows of its corners, though, a group made of rectangles of
/// one colour that do not turn — the layer's background and border,
/// sublayers that are plain rectangles — holds the same colour over whole
/// blocks of pixels. Each part covers a pixel by a factor of the pixel's
/// column times a factor of its row (`RoundedRectShape.coverage`), and
/// away from the part's edges both are 0 or 1. The columns and rows where
/// some edge lies (the pixel it crosses; both pixels beside it when it
/// lies within a hair of a pixel boundary) cut the rows into cells; in a
/// cell every factor is the same on every pixel, so the buffer holds one
/// colour there, composited with the group's opacity and the bounds'
/// coverage, both the same too. Each cell is worked out at one of its
/// pixels with the arithmetic the fillers and painters use there
/// (`ShapeFiller.coverage(ofPixelX:y:)`, `PixelOps`), and cells of one
/// colour side by side and one above another are drawn as one solid
/// rectangle straight into the frame: the buffer's pixels to the bit, on
/// whole pixels or between them (a card sliding by a third of a pixel at
/// each frame). Only the rows through the corners still go through the
/// buffer. An edge within `DevicePixel.tolerance` of a pixel boundary lies
/// on it, as everywhere in the compositor.
struct FlatGroup {
    /// The rows between the layer's corners, over every column it may
    /// touch: where the group is drawn in cells.
    let band: PixelRect
    /// The sublayers drawn in the group (at most `maximumSublayers`).
    let drawnSublayers: Int

    /// Sublayers drawn at most (the cells' edges are kept on the stack).
    static let maximumSublayers = 8
    /// Cuts along one axis at most: three an edge, two edges a side for
    /// the bounds, the border and each sublayer, and the band's two ends.
    var maximumCuts: Int { 3 * 2 * (2 + drawnSublayers) + 2 }
    /// How far from a pixel boundary (in device pixels) an edge must lie
    /// for the pixels beside it to be taken as whole: far beyond the
    /// arithmetic's rounding, so that away from the pixels an edge crosses
    /// every factor is exactly 0 or 1.
    static let slack = 1e-5
}

extension RenderLayer {
    /// The rows where this layer's group may be drawn in cells; nil unless
    /// the group is rectangles of one colour that do not turn, clipped by
    /// the layer's bounds (see ``FlatGroup``).
    var flatGroup: FlatGroup? {
        guard masksToBounds, mask == nil, gradient == nil, contents == nil, shape == nil, !drawsBorderedBackground,
              let edges = unturnedDeviceEdges(through: toDevice) else { return nil }
        var drawn = 0
        for child in children where child.isDrawnInGroup {
            // A plain rectangle of one colour, nothing in or on it.
            guard child.children.isEmpty, child.mask == nil, child.shadow == nil, child.contents == nil, child.gradient == nil,
                  child.shape == nil, !child.hasBorder, child.cornerRadius == 0 || child.maskedCorners.isEmpty, child.projection == nil,
                  child.unturnedDeviceEdges(through: child.toDevice) != nil else { return nil }
            drawn += 1
        }
        guard drawn <= FlatGroup.maximumSublayers else { return nil }
        // Rows whose pixels lie wholly beyond the corners' reach: through
        // them the bounds' sides are straight.
        let reach = cornerRadius > 0 && !maskedCorners.isEmpty ? Double(cornerRadius) * Double(toDevice.d) : 0
        let covering = boundsPixelRect
        let band = PixelRect(x0: covering.x0, y0: max(-DevicePixel.floor(-(edges.y0 + reach)), covering.y0),
                             x1: covering.x1, y1: min(DevicePixel.floor(edges.y1 - reach), covering.y1))
        return band.isEmpty ? nil : FlatGroup(band: band, drawnSublayers: drawn)
    }

    /// Whether the compositor draws the layer at all.
    var isDrawnInGroup: Bool { !isHidden && opacity > 0 }
}

/// One part of a flat group: what covers a pixel, and its colour as the
/// group's buffer gets it.
private struct GroupPart {
    let filler: ShapeFiller
    let color: UInt32
    /// A border: covers the shape less its hole.
    let isBorder: Bool
}

/// Runs of one colour along a row of cells: run `i` starts at `x[i]` and
/// ends where the next starts (the last at `end`).
private struct CellRuns {
    let x: UnsafeMutablePointer<Int>
    let color: UnsafeMutablePointer<UInt32>
    var count = 0

    mutating func append(_ start: Int, _ runColor: UInt32) {
        if count > 0 && color[count - 1] == runColor { return }
        x[count] = start
        color[count] = runColor
        count += 1
    }

    func sameRuns(as other: CellRuns) -> Bool {
        guard count == other.count else { return false }
        for i in 0..<count where x[i] != other.x[i] || color[i] != other.color[i] { return false }
        return true
    }
}

extension Compositor {
    /// The rows `band` of `node`'s group, straight into `surface`, cell by
    /// cell: each the colour the buffer would hold there, composited with
    /// `opacity` through the layer's bounds.
    func drawFlat(_ node: RenderLayer, _ group: FlatGroup, into surface: PixelSurface, band: PixelRect, opacity: Float) {
        guard let bounds = ShapeFiller(shape: node.roundedBounds, toDevice: node.toDevice) else { return }
        let alpha = PixelOps.alpha(opacity)
        // Sized for this group, and the cuts apart from the runs, so that each
        // temporary allocation stays within the 1 KiB the standard library
        // keeps on the stack; a larger one goes to the heap (two a group,
        // 68 a frame of the cards scene, when they were sized for the most).
        let cuts = group.maximumCuts
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * cuts) { cutStorage in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * cuts) { runStarts in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * cuts) { colors in
        withUnsafeTemporaryAllocation(of: GroupPart.self, capacity: 2 + group.drawnSublayers) { partStorage in
            // The parts in the order the buffer gets them.
            let parts = partStorage.baseAddress!
            var partCount = 0
            if let background = node.background {
                parts[partCount] = GroupPart(filler: bounds, color: background.pixel, isBorder: false)
                partCount += 1
            }
            for child in node.children where child.isDrawnInGroup {
                guard let background = child.background, let filler = ShapeFiller(shape: child.roundedBounds, toDevice: child.toDevice)
                else { continue }
                // A sublayer folds its opacity into its colour (`drawContent`).
                parts[partCount] = GroupPart(filler: filler, color: PixelOps.scale(background.pixel, by: PixelOps.alpha(child.opacity)), isBorder: false)
                partCount += 1
            }
            if node.hasBorder, let border = node.border,
               let filler = ShapeFiller(shape: node.roundedBounds, hole: node.roundedBounds.inset(by: Double(node.borderWidth)), toDevice: node.toDevice) {
                parts[partCount] = GroupPart(filler: filler, color: border.pixel, isBorder: true)
                partCount += 1
            }
            let columns = cutStorage.baseAddress!, rows = columns + cuts
            let columnCount = node.flatGroupCuts(into: columns, from: band.x0, to: band.x1, across: true)
            let rowCount = node.flatGroupCuts(into: rows, from: band.y0, to: band.y1, across: false)
            // Each row of cells as runs of one colour; rows of cells with
            // the same runs are drawn together.
            var drawn = CellRuns(x: runStarts.baseAddress!, color: colors.baseAddress!)
            var next = CellRuns(x: runStarts.baseAddress! + cuts, color: colors.baseAddress! + cuts)
            var drawnFrom = band.y0
            for r in 0..<(rowCount - 1) {
                next.count = 0
                for c in 0..<(columnCount - 1) {
                    next.append(columns[c], Self.flatGroupColor(x: columns[c], y: rows[r], bounds: bounds, parts: parts, count: partCount, alpha: alpha))
                }
                if r > 0 && next.sameRuns(as: drawn) { continue }
                fillRuns(drawn, rows: drawnFrom..<rows[r], end: band.x1, into: surface)
                swap(&drawn, &next)
                drawnFrom = rows[r]
            }
            fillRuns(drawn, rows: drawnFrom..<band.y1, end: band.x1, into: surface)
        }
        }
        }
        }
    }

    private func fillRuns(_ runs: CellRuns, rows: Range<Int>, end: Int, into surface: PixelSurface) {
        guard !rows.isEmpty else { return }
        for i in 0..<runs.count where runs.color[i] != 0 {
            let cell = PixelRect(x0: runs.x[i], y0: rows.lowerBound, x1: i + 1 < runs.count ? runs.x[i + 1] : end, y1: rows.upperBound)
            guard let filler = ShapeFiller(shape: RoundedRectShape(rect: cell.cgRect, radius: 0, corners: []), toDevice: .identity) else { continue }
            var painter = SolidPainter(surface: surface, color: runs.color[i])
            paint(filler, within: cell, toDevice: .identity, painter: &painter)
        }
    }

    /// What drawing the group through its buffer leaves over pixel (x, y):
    /// the buffer's pixel as each part is blended into it with its coverage
    /// there (as `SolidPainter` blends, which for a coverage of 1 is what
    /// its runs store), composited with `alpha` and the bounds' coverage
    /// (as `SurfacePainter` does). The colour to blend over the frame's
    /// pixel; 0 for none.
    private static func flatGroupColor(x: Int, y: Int, bounds: ShapeFiller, parts: UnsafeMutablePointer<GroupPart>, count: Int,
                                       alpha: UInt32) -> UInt32 {
        let inBounds = bounds.coverage(ofPixelX: x, y: y).outer
        guard inBounds > 0 else { return 0 }
        var pixel: UInt32 = 0
        for i in 0..<count {
            let part = parts[i]
            var coverage: Float
            if part.isBorder {
                let (outer, hole) = part.filler.coverage(ofPixelX: x, y: y)
                guard outer > 0 else { continue }
                coverage = outer * (1 - hole)
            } else {
                coverage = part.filler.coverage(ofPixelX: x, y: y).outer
            }
            pixel = PixelOps.over(PixelOps.scale(part.color, by: PixelOps.alpha(coverage)), pixel)
        }
        guard pixel != 0 else { return 0 }
        // Whole pixels of the bounds are composited with the group's alpha
        // (`SurfacePainter.fill`), the others with their coverage folded in
        // (`SurfacePainter.blend`): the same for a coverage of 1.
        return PixelOps.scale(pixel, by: PixelOps.alpha(inBounds * Float(alpha) / 255))
    }
}

extension RenderLayer {
    /// The boundaries of a flat group's cells along one axis (`across`:
    /// columns) from `start` to `end`, sorted, without repeats, into
    /// `cuts`; their count (two at least).
    fileprivate func flatGroupCuts(into cuts: UnsafeMutablePointer<Int>, from start: Int, to end: Int, across: Bool) -> Int {
        var count = 1
        cuts[0] = start
        func cut(_ v: Int) {
            if v > start && v < end { cuts[count] = v; count += 1 }
        }
        func edge(_ e: Double) {
            let n = DevicePixel.nearest(e)
            // On a pixel boundary: the pixels on either side are whole.
            if DevicePixel.isOn(e, n) { return cut(n) }
            // Otherwise the pixels it crosses or lies within a hair of.
            let first = DevicePixel.floor(e - FlatGroup.slack), last = DevicePixel.floor(e + FlatGroup.slack) + 1
            for v in first...last { cut(v) }
        }
        func edges(of layer: RenderLayer, inset: Double = 0) {
            guard let e = layer.unturnedDeviceEdges(through: layer.toDevice) else { return }
            if across {
                let inset = inset * Double(layer.toDevice.a)
                edge(e.x0 + inset); edge(e.x1 - inset)
            } else {
                let inset = inset * Double(layer.toDevice.d)
                edge(e.y0 + inset); edge(e.y1 - inset)
            }
        }
        edges(of: self)
        if hasBorder { edges(of: self, inset: Double(borderWidth)) }
        for child in children where child.isDrawnInGroup { edges(of: child) }
        cuts[count] = end
        count += 1
        // Insertion sort (a few dozen at most), then the repeats out.
        for i in 1..<count {
            let v = cuts[i]
            var j = i - 1
            while j >= 0 && cuts[j] > v { cuts[j + 1] = cuts[j]; j -= 1 }
            cuts[j + 1] = v
        }
        var kept = 1
        for i in 1..<count where cuts[i] != cuts[kept - 1] {
            cuts[kept] = cuts[i]
            kept += 1
        }
        return kept
    }
}
