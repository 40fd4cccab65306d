import CoreGraphics
import Foundation

/// How a page curl shows its layer at a moment (`CATransition.curl(at:)`).
package struct PageCurlPose: Equatable {
    /// How far the page has rolled up, 0 (flat over the layer) to 1 (gone
    /// off the top edge).
    package var rolled: Double
    /// Whether the page is the old look (a curl up) or the new one (a curl
    /// down, the page unrolling over the old look).
    package var pageIsOldLook: Bool
}

/// A page curl, approximated as Core Animation's curls look: the page is
/// a sheet lying on the layer that rolls up round a horizontal cylinder
/// from its bottom edge. The cylinder, of radius ``radiusFraction`` of the
/// layer's height, lies on the page at the curl line; the page above the
/// line lies flat, the part below it wraps round the cylinder and comes
/// back, upside down, over the flat part, one cylinder's diameter above
/// it, seen from straight above (no perspective). The curl line moves
/// from the bottom edge up past the top edge (by the radius, so that the
/// roll itself leaves) as the page rolls. On the way round, the page's
/// front darkens as it turns from the viewer; its back is the page's
/// picture mirrored, seen through paper (mixed with white), shaded as it
/// turns; and the roll casts a short shadow on what it uncovers.
///
/// iOS's curls roll from a bottom corner on a slant and in perspective;
/// this one rolls straight up, with a constant radius, which is what
/// re-creations of the effect without a mesh do.
struct PageCurl {
    let pose: PageCurlPose
    /// The old look's picture over the layer's bounds, placed as a
    /// sublayer would be: the page curling up, or what the page (the layer
    /// itself) uncurls over.
    let oldLook: RenderLayer

    /// The cylinder's radius over the layer's height: a tenth (chosen: a
    /// full-screen page rolls on about 84 points, which looks like the
    /// iOS curl's roll; Apple publishes nothing of it).
    static let radiusFraction = 0.1
    /// How much darker the page's front is drawn standing on its edge.
    static let frontShade = 0.4
    /// How much of the page's back is paper (white) over its mirrored picture.
    static let paperOverBack = 0.6
    /// How much darker the page's back is drawn standing on its edge.
    static let backShade = 0.2
    /// How dark the roll's shadow is where it meets the layer.
    static let shadowDarkness = 0.3

    /// Where the page is at a point of the layer, in the layer's coordinates:
    /// what covers (x, `y`) from the page, nearest first, as the y of the
    /// page's point and how it is seen; `top` and `height` are the layer's
    /// bounds' top and height.
    struct Cover {
        /// The page's back, at page y `back`, shaded; nil if none there.
        var back: (y: Double, shade: Double)?
        /// The page's front, at page y `front`, shaded; nil if none there.
        var front: (y: Double, shade: Double)?
        /// How dark the roll's shadow is here, on what lies under the page.
        var shadow: Double
    }

    /// What of the page covers the line `y` of a layer whose bounds go
    /// from `top` down `height` points.
    static func cover(y: Double, top: Double, height: Double, rolled: Double) -> Cover {
        let r = radiusFraction * height
        let bottom = top + height
        // The curl line, from the bottom edge to a radius above the top.
        let line = bottom - rolled * (height + r)
        // How much of the page lies beyond the line, rolled up.
        let rolledLength = bottom - line
        var cover = Cover(back: nil, front: nil, shadow: 0)
        if y < line {
            // Under the roll's upper side: the page flat, and maybe its
            // back coming over, a half turn of the cylinder past the line.
            cover.front = y >= top ? (y, 0) : nil
            let along = Double.pi * r + (line - y)
            if along <= rolledLength { cover.back = (line + along, 0) }
        } else if y <= line + r {
            // On the cylinder: its lower half shows the page's front turning
            // away, its upper half the back coming over.
            let angle = asin(min(1, (y - line) / r))
            if r * angle <= rolledLength { cover.front = (line + r * angle, frontShade * sin(angle)) }
            let over = Double.pi - angle
            if r * over <= rolledLength { cover.back = (line + r * over, backShade * sin(over)) }
        }
        // The shadow of the roll, half a radius beyond its bulge.
        if rolledLength > 0, y > line + r, y < line + 1.5 * r {
            cover.shadow = shadowDarkness * (1 - (y - line - r) / (0.5 * r))
        }
        return cover
    }
}

extension Compositor {
    /// A layer in a page curl: the page (the old look's picture curling up,
    /// or the layer itself uncurling) and what lies under it (the layer, or
    /// the old look) each drawn flat into a buffer, then each pixel of
    /// `clip` in the layer's bounds made from them as ``PageCurl/cover(y:top:height:rolled:)``
    /// says: under, shadowed; the page's front; its back, nearest.
    func drawCurl(_ node: RenderLayer, _ curl: PageCurl, into surface: PixelSurface, clip: PixelRect) {
        let target = node.subtreeRect.intersection(clip).intersection(node.flatSubtreeRect)
        let flat = node.flatSubtreeRect
        guard !target.isEmpty, 2 * flat.area <= LayerProjection.maximumFlatPixels,
              let toLayer = node.toDevice.invertedIfPossible() else { return }
        let (page, pageStorage) = scratch.surface(covering: flat)
        defer { scratch.recycle(pageStorage) }
        let (under, underStorage) = scratch.surface(covering: flat)
        defer { scratch.recycle(underStorage) }
        withoutOccluders {
            drawInPlane(node, into: curl.pose.pageIsOldLook ? under : page, clip: flat)
            draw(curl.oldLook, into: curl.pose.pageIsOldLook ? page : under, clip: flat)
        }
        let t = node.toDevice
        let top = Double(node.bounds.minY), height = Double(node.bounds.height)
        guard height > 0 else { return }
        let paper = UInt32(max(0, min(256, (PageCurl.paperOverBack * 256).rounded())))
        for y in target.y0..<target.y1 {
            let row = surface.row(y), underRow = under.row(y)
            for x in target.x0..<target.x1 {
                let device = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let layer = device.applying(toLayer)
                let cover = PageCurl.cover(y: Double(layer.y), top: top, height: height, rolled: curl.pose.rolled)
                var pixel = underRow[x]
                if cover.shadow > 0 { pixel = Self.shaded(pixel, by: cover.shadow) }
                /// The page's colour at its point `pageY` of this column.
                func pageSample(_ pageY: Double) -> UInt32 {
                    let source = CGPoint(x: layer.x, y: pageY).applying(t)
                    return Self.bilinear(page, x: Double(source.x) - 0.5, y: Double(source.y) - 0.5)
                }
                if let front = cover.front {
                    let sample = Self.shaded(pageSample(front.y), by: front.shade)
                    if sample != 0 { pixel = PixelOps.over(sample, pixel) }
                }
                if let back = cover.back {
                    var sample = pageSample(back.y)
                    if sample != 0 {
                        sample = lerpBytes(sample, PixelOps.scale(0xFFFF_FFFF, by: sample >> 24), paper)
                        pixel = PixelOps.over(Self.shaded(sample, by: back.shade), pixel)
                    }
                }
                if pixel != 0 { row[x] = PixelOps.over(pixel, row[x]) }
            }
        }
    }

    /// `pixel` darkened by `shade` (0…1), its alpha kept.
    static func shaded(_ pixel: UInt32, by shade: Double) -> UInt32 {
        guard shade > 0 else { return pixel }
        return darken(pixel, keep: UInt32(max(0, min(256, ((1 - shade) * 256).rounded()))))
    }
}
